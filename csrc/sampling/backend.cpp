#include "sampling/backend.h"

#include <algorithm>
#include <utility>

#include "ops/op_checks.h"
#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

namespace {

// p_g(frontier[i]) for i in block g of offsets (row 0 when P is one shared row).
std::vector<float> probabilities_at(const CsrMatrix& p, const std::vector<vid_t>& frontier, const Offsets& offsets) {
  const int64_t m = static_cast<int64_t>(frontier.size()), k = static_cast<int64_t>(offsets.size()) - 1;
  std::vector<float> out(m);
  // Many lookups in one shared row (FastGCN's n entries): one dense copy of the
  // row instead of a binary search over it per vertex.
  std::vector<float> dense;
  if (p.rows == 1 && m * 64 > p.nnz()) {
    dense.assign(p.cols, 0.0f);
    for (int64_t e = 0; e < p.nnz(); ++e) dense[p.colidx[e]] = p.values[e];
  }
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t g = 0; g < k; ++g) {
    const int64_t r = p.rows == 1 ? 0 : g;
    const auto first = p.colidx.begin() + p.rowptr[r], last = p.colidx.begin() + p.rowptr[r + 1];
    for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
      if (!dense.empty()) {
        out[i] = dense[frontier[i]];
        continue;
      }
      const auto hit = std::lower_bound(first, last, static_cast<col_t>(frontier[i]));
      out[i] = hit != last && *hit == frontier[i] ? p.values[hit - p.colidx.begin()] : 0.0f;
    }
  }
  return out;
}

}  // namespace

ColumnDraw Backend::draw_columns(const CsrMatrix* q, const CsrMatrix& b, int64_t s, const SampleKeys& keys,
                                 const std::vector<vid_t>* frontier, const Offsets& offsets, StepStats* times) {
  CsrMatrix product;
  {
    ScopedTimer t(times ? &times->probability : nullptr);
    if (q) {
      product = spgemm(*q, b);
      normalize_rows(product, false);
    }
  }
  const CsrMatrix& p = q ? product : b;
  ColumnDraw draw;
  draw.probability_nnz = p.nnz();
  {
    ScopedTimer t(times ? &times->sampling : nullptr);
    draw.chosen = its_sample(p, s, keys);
  }
  ScopedTimer t(times ? &times->extraction : nullptr);
  if (frontier) {
    check_frontier_blocks(p.rows, p.cols, *frontier, offsets);
    draw.frontier_probability = probabilities_at(p, *frontier, offsets);
  }
  return draw;
}

CsrMatrix Backend::select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows,
                                            const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                            const Offsets& col_offsets, const std::vector<float>& weights) {
  return select_cols_blocked(select_rows(a, rows), row_offsets, cols, col_offsets, weights);
}

void Backend::append_weighted_layer(const CsrMatrix& a, const std::vector<vid_t>& frontier,
                                    const std::vector<float>& weights, SampledLayer layer, BulkSample& bulk) {
  layer.adj = select_rows_cols_blocked(a, frontier, layer.row_offsets, layer.vertices, layer.col_offsets, weights);
  normalize_rows(layer.adj, false);
  bulk.layers.push_back(std::move(layer));
}

namespace {

// A node-wise layer: its frontier's rows drawn by draw() (timed as sampling),
// then mean aggregation weights and the columns compacted per minibatch with the
// frontier leading (timed as extraction).
template <class Draw>
SampledLayer node_wise_layer(Backend& backend, const std::vector<vid_t>& frontier, const Offsets& offsets,
                             StepStats* times, Draw draw) {
  CsrMatrix s;
  {
    ScopedTimer t(times ? &times->sampling : nullptr);
    s = draw();
  }
  ScopedTimer t(times ? &times->extraction : nullptr);
  std::fill(s.values.begin(), s.values.end(), 1.0f);
  backend.normalize_rows(s, false);
  CompactResult c = backend.compact_columns(std::move(s), offsets, frontier, offsets);
  return {std::move(c.adj), offsets, std::move(c.col_offsets), std::move(c.vertices)};
}

// What one layer of a node-wise sampler samples from: the previous layer's
// vertices (the seeds first), its blocks, and the layer's keys.
struct NodeWiseInput {
  const std::vector<vid_t>& frontier;
  const Offsets& offsets;
  size_t layer;
  SampleKeys keys;
};

// Appends a node-wise sampler's layers, each layer(input) of the one before.
template <class Layer>
void append_node_wise_layers(size_t layers, uint64_t seed, uint32_t epoch, BulkSample& bulk, Layer layer) {
  bulk.layers.reserve(bulk.layers.size() + layers);   // frontier points into the previous layer
  const std::vector<vid_t>* frontier = &bulk.seeds;
  const Offsets* offsets = &bulk.seed_offsets;
  for (size_t l = 0; l < layers; ++l) {
    const SampleKeys keys{seed, epoch, static_cast<uint32_t>(l), bulk.first_minibatch, *offsets};
    bulk.layers.push_back(layer(NodeWiseInput{*frontier, *offsets, l, keys}));
    frontier = &bulk.layers.back().vertices;
    offsets = &bulk.layers.back().col_offsets;
  }
}

}  // namespace

SampledLayer Backend::sample_neighbour_layer(const CsrMatrix& adj, const std::vector<vid_t>& frontier,
                                             const Offsets& offsets, int64_t fanout, const SampleKeys& keys,
                                             bool uniform_rows, StepStats* times) {
  return node_wise_layer(*this, frontier, offsets, times,
                         [&] { return sample_rows(adj, frontier, fanout, keys, uniform_rows); });
}

void Backend::sample_neighbour_layers(const CsrMatrix& adj, const std::vector<int64_t>& fanouts, uint64_t seed,
                                      uint32_t epoch, bool uniform_rows, BulkSample& bulk, StepStats* times) {
  append_node_wise_layers(fanouts.size(), seed, epoch, bulk, [&](const NodeWiseInput& in) {
    return sample_neighbour_layer(adj, in.frontier, in.offsets, fanouts[in.layer], in.keys, uniform_rows, times);
  });
}

CsrMatrix Backend::labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                     const SampleKeys& keys) {
  return matsamp::labor_sample_rows(a, rows, s, keys);
}

void Backend::sample_labor_layers(const CsrMatrix& adj, const std::vector<int64_t>& fanouts, uint64_t seed,
                                  uint32_t epoch, BulkSample& bulk, StepStats* times) {
  append_node_wise_layers(fanouts.size(), seed, epoch, bulk, [&](const NodeWiseInput& in) {
    return node_wise_layer(*this, in.frontier, in.offsets, times,
                           [&] { return labor_sample_rows(adj, in.frontier, fanouts[in.layer], in.keys); });
  });
}

}  // namespace matsamp
