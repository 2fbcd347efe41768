// LADIES and FastGCN as matrix programs:
//   P = Q·(Â∘Â)            (LADIES: Q has one row per minibatch, 1 at each frontier vertex)
//   P = 1ᵀ·(Â∘Â)           (FastGCN: one row shared by all minibatches)
//   C = its_sample(P, s)   (s distinct vertices per minibatch)
//   A^l = diag(R_g·Â)·[C_g · diag(1/(s·p))], row-normalized.
#include <algorithm>

#include "graph/transform.h"
#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

namespace {

class LayerWiseSampler final : public Sampler {
 public:
  LayerWiseSampler(LayerWiseKind kind, std::shared_ptr<const LayerWiseMatrices> matrices,
                   std::vector<int64_t> sizes, uint64_t seed, bool include_frontier)
      : kind_(kind),
        sizes_(std::move(sizes)),
        seed_(seed),
        include_frontier_(include_frontier),
        matrices_(std::move(matrices)),
        normalized_(matrices_->normalized),
        squared_(matrices_->squared),
        column_norms_(matrices_->column_norms) {
    check_layer_sizes(sizes_, kind_ == LayerWiseKind::ladies ? "LADIES samples per layer"
                                                             : "FastGCN samples per layer");
  }

  std::string name() const override { return kind_ == LayerWiseKind::ladies ? "ladies" : "fastgcn"; }
  int num_layers() const override { return static_cast<int>(sizes_.size()); }

  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                    int64_t first_minibatch, uint32_t epoch, Backend& backend,
                    StepStats* times) const override {
    BulkSample bulk{first_minibatch, seeds, seed_offsets, {}, nullptr};
    bulk.layers.reserve(sizes_.size());   // frontier points into the previous layer
    const int64_t k = bulk.count();
    const Offsets per_minibatch = one_row_per_minibatch(k);
    const std::vector<vid_t>* frontier = &bulk.seeds;
    const Offsets* offsets = &bulk.seed_offsets;

    const bool ladies = kind_ == LayerWiseKind::ladies;
    for (int l = 0; l < num_layers(); ++l) {
      CsrMatrix q;
      if (ladies) {
        ScopedTimer t(times ? &times->probability : nullptr);
        q = frontier_indicator(*frontier, *offsets);
      }
      const ColumnDraw draw = backend.draw_columns(
          ladies ? &q : nullptr, ladies ? squared_ : column_norms_, sizes_[l],
          {seed_, epoch, static_cast<uint32_t>(l), first_minibatch, per_minibatch},
          include_frontier_ ? frontier : nullptr, *offsets, times);
      if (times) {
        // The frontier's rows of Â∘Â (LADIES) and of Â (extraction) are read,
        // and P written, as column id + value.
        int64_t frontier_nnz = 0;
        for (vid_t u : *frontier) frontier_nnz += normalized_.row_nnz(u);
        times->streamed_bytes += 8 * frontier_nnz * (ladies ? 2 : 1);
        if (ladies) times->streamed_bytes += 8 * draw.probability_nnz;
      }
      ScopedTimer t(times ? &times->extraction : nullptr);
      SampledLayer layer;
      layer.row_offsets = *offsets;
      const std::vector<float> weights = column_selector(draw, *frontier, *offsets, sizes_[l], layer);
      backend.append_weighted_layer(normalized_, *frontier, weights, std::move(layer), bulk);
      frontier = &bulk.layers.back().vertices;
      offsets = &bulk.layers.back().col_offsets;
    }
    return bulk;
  }

  int64_t bytes_per_minibatch(int64_t batch_size) const override {
    const double average_degree = normalized_.rows ? double(normalized_.nnz()) / normalized_.rows : 0;
    const double n = static_cast<double>(normalized_.rows);
    double frontier = static_cast<double>(batch_size), bytes = 0;
    for (int64_t s : sizes_) {
      const double reach = std::min(n, frontier * average_degree);
      // P row, R·Â (formed on the GPU only), the extracted layer; columns + values.
      bytes += reach * 8 + 2 * frontier * average_degree * 8 + 16 * (s + frontier);
      frontier = std::min(n, frontier * include_frontier_ + static_cast<double>(s));
    }
    return static_cast<int64_t>(bytes);
  }

 private:
  // Q: one row per minibatch with a 1 at each of its frontier vertices.
  CsrMatrix frontier_indicator(const std::vector<vid_t>& frontier, const Offsets& offsets) const {
    const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
    CsrMatrix q(k, normalized_.rows);
    q.colidx.reserve(frontier.size());
    for (int64_t g = 0; g < k; ++g) {
      std::vector<vid_t> row(frontier.begin() + offsets[g], frontier.begin() + offsets[g + 1]);
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
      for (vid_t v : row) q.colidx.push_back(static_cast<col_t>(v));
      q.rowptr[g + 1] = static_cast<int64_t>(q.colidx.size());
    }
    q.values.assign(q.colidx.size(), 1.0f);
    return q;
  }

  // C_g: the frontier (when included) then the other sampled vertices in
  // ascending id, into layer.vertices / col_offsets. Returns each column's
  // weight 1/(s·p_g(v)). Blocks are independent: built in parallel.
  std::vector<float> column_selector(const ColumnDraw& draw, const std::vector<vid_t>& frontier,
                                     const Offsets& offsets, int64_t s, SampledLayer& layer) const {
    const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
    const CsrMatrix& chosen = draw.chosen;
    const auto weight = [&](float probability) { return 1.0f / (static_cast<float>(s) * probability); };
    std::vector<std::vector<vid_t>> block_vertices(k);
    std::vector<std::vector<float>> block_weights(k);
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t g = 0; g < k; ++g) {
      std::vector<vid_t>& vertices = block_vertices[g];
      std::vector<float>& weights = block_weights[g];
      std::vector<vid_t> lead;
      if (include_frontier_) {
        for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
          vertices.push_back(frontier[i]);
          weights.push_back(weight(draw.frontier_probability[i]));
        }
        lead.assign(frontier.begin() + offsets[g], frontier.begin() + offsets[g + 1]);
        std::sort(lead.begin(), lead.end());
      }
      for (int64_t e = chosen.rowptr[g]; e < chosen.rowptr[g + 1]; ++e)
        if (!std::binary_search(lead.begin(), lead.end(), static_cast<vid_t>(chosen.colidx[e]))) {
          vertices.push_back(chosen.colidx[e]);
          weights.push_back(weight(chosen.values[e]));
        }
    }
    layer.col_offsets.assign(1, 0);
    layer.vertices.clear();
    std::vector<float> weights;
    for (int64_t g = 0; g < k; ++g) {
      layer.vertices.insert(layer.vertices.end(), block_vertices[g].begin(), block_vertices[g].end());
      weights.insert(weights.end(), block_weights[g].begin(), block_weights[g].end());
      layer.col_offsets.push_back(static_cast<int64_t>(layer.vertices.size()));
    }
    return weights;
  }

  LayerWiseKind kind_;
  std::vector<int64_t> sizes_;
  uint64_t seed_;
  bool include_frontier_;
  std::shared_ptr<const LayerWiseMatrices> matrices_;
  const CsrMatrix& normalized_;
  const CsrMatrix& squared_;
  const CsrMatrix& column_norms_;
};

}  // namespace

std::shared_ptr<const LayerWiseMatrices> prepare_layerwise_matrices(const CsrMatrix& adj) {
  MATSAMP_CHECK(adj.rows == adj.cols, "layer-wise sampling: adjacency is not square (", adj.shape(), ")");
  auto m = std::make_shared<LayerWiseMatrices>();
  m->normalized = gcn_normalize(adj);
  m->squared = square_values(m->normalized);
  CsrMatrix ones(1, adj.rows);
  ones.rowptr[1] = adj.rows;
  for (int64_t v = 0; v < adj.rows; ++v) ones.colidx.push_back(static_cast<col_t>(v));
  ones.values.assign(adj.rows, 1.0f);
  m->column_norms = spgemm(ones, m->squared);
  normalize_rows(m->column_norms);
  return m;
}

std::unique_ptr<Sampler> make_layerwise_sampler(LayerWiseKind kind,
                                                std::shared_ptr<const LayerWiseMatrices> matrices,
                                                std::vector<int64_t> samples_per_layer,
                                                uint64_t seed, bool include_frontier) {
  return std::make_unique<LayerWiseSampler>(kind, std::move(matrices), std::move(samples_per_layer),
                                            seed, include_frontier);
}

std::unique_ptr<Sampler> make_layerwise_sampler(LayerWiseKind kind, const CsrMatrix& adj,
                                                std::vector<int64_t> samples_per_layer,
                                                uint64_t seed, bool include_frontier) {
  check_layer_sizes(samples_per_layer, kind == LayerWiseKind::ladies ? "LADIES samples per layer"
                                                                     : "FastGCN samples per layer");
  return make_layerwise_sampler(kind, prepare_layerwise_matrices(adj), std::move(samples_per_layer),
                                seed, include_frontier);
}

}  // namespace matsamp
