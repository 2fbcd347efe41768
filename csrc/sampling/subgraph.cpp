#include "sampling/subgraph.h"

#include <algorithm>

namespace matsamp {

namespace {

// V_g per minibatch: its roots in order, then the added vertices that are not
// roots, ascending and once each.
BlockedIds list_subgraphs(Backend& backend, const std::vector<vid_t>& roots, const Offsets& offsets,
                          int64_t first_minibatch, std::vector<std::vector<vid_t>>& added) {
  const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
  std::vector<vid_t> vertices;
  Offsets col_offsets{0};
  for (int64_t g = 0; g < k; ++g) {
    std::vector<vid_t> block_roots(roots.begin() + offsets[g], roots.begin() + offsets[g + 1]);
    vertices.insert(vertices.end(), block_roots.begin(), block_roots.end());
    std::sort(block_roots.begin(), block_roots.end());
    const auto repeated = std::adjacent_find(block_roots.begin(), block_roots.end());
    MATSAMP_CHECK(repeated == block_roots.end(), "GraphSAINT: minibatch ", first_minibatch + g, " has root vertex ",
                  repeated == block_roots.end() ? 0 : *repeated, " twice");
    std::vector<vid_t>& others = added[g];
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    for (vid_t v : others)
      if (!std::binary_search(block_roots.begin(), block_roots.end(), v)) vertices.push_back(v);
    col_offsets.push_back(static_cast<int64_t>(vertices.size()));
  }
  return {backend.upload_ids(std::move(vertices)), std::move(col_offsets)};
}

}  // namespace

SubgraphSampler::SubgraphSampler(SamplingGraph& graph, int64_t layers)
    : graph_(graph), normalized_(graph.normalized()), layers_(layers) {
  MATSAMP_CHECK(layers_ >= 1, "GraphSAINT layers must be at least 1, got ", layers_);
}

Bulk SubgraphSampler::sample(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                             int64_t first_minibatch, uint32_t epoch) const {
  Backend& backend = ctx.backend;
  Bulk bulk{first_minibatch, seeds, seed_offsets, {}};
  std::vector<std::vector<vid_t>> added = add_vertices(ctx, seeds, seed_offsets, first_minibatch, epoch);
  ctx.timed(&StepStats::extraction, [&] {
    const BlockedIds subgraph = list_subgraphs(backend, seeds, seed_offsets, first_minibatch, added);
    BlockedIds rows{backend.upload_ids(seeds), seed_offsets};
    for (int64_t l = 0; l < layers_; ++l) {
      Matrix adj = backend.select_rows_cols_blocked(normalized_, rows, subgraph, Values{});
      bulk.layers.push_back({backend.normalize_rows(std::move(adj), RowScale::by_sum), rows.offsets, subgraph});
      rows = subgraph;
    }
  });
  return bulk;
}

int64_t SubgraphSampler::bytes_per_minibatch(int64_t batch_size) const {
  const double n = static_cast<double>(normalized_.rows());
  const double degree = n > 0 ? static_cast<double>(normalized_.nnz()) / n : 0;
  const double b = static_cast<double>(batch_size), added = added_per_minibatch(batch_size);
  const double vertices = std::min(n, b + added);
  // Added vertices (column id, value, row pointer); each layer's rows of Â (R·Â
  // on the GPU) and the extracted subgraph, column id + value.
  const double rows = b + vertices * static_cast<double>(layers_ - 1);
  return static_cast<int64_t>(added * 24 + rows * (degree * 16 + 16) + vertices * 16);
}

void SubgraphSampler::count_traffic(const BulkSample& bulk, StepStats& stats) const {
  // Each layer reads its rows of Â (column id + value), one row extent per row.
  const CsrMatrix* normalized = graph_.host_normalized();
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    const std::vector<vid_t>& rows = frontier_of(bulk, l);
    stats.gathers += static_cast<int64_t>(rows.size());
    if (normalized)
      for (vid_t u : rows) stats.streamed_bytes += 8 * normalized->row_nnz(u);
  }
}

CsrMatrix draw_per_minibatch(Context& ctx, const Matrix& p, int64_t budget, const Offsets& offsets,
                             int64_t first_minibatch, uint32_t epoch) {
  const SampleKeys keys{ctx.seed, epoch, 0, first_minibatch,
                        one_row_per_minibatch(static_cast<int64_t>(offsets.size()) - 1)};
  return ctx.timed(&StepStats::sampling, [&] { return ctx.backend.to_host(ctx.backend.its_sample(p, budget, keys)); });
}

void check_positive_option(int64_t value, const char* what) {
  MATSAMP_CHECK(value >= 1, what, " must be at least 1, got ", value);
}

}  // namespace matsamp
