#include "sampling/layer_wise.h"

#include <algorithm>

namespace matsamp {

LayerWiseSampler::LayerWiseSampler(SamplingGraph& graph, std::vector<int64_t> sizes, bool include_frontier,
                                   const char* what)
    : graph_(graph), normalized_(graph.normalized()), sizes_(std::move(sizes)), include_frontier_(include_frontier) {
  check_layer_sizes(sizes_, what);
}

Bulk LayerWiseSampler::sample_layers(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                     const ExcludedInBackend* excluded) const {
  Backend& backend = ctx.backend;
  Bulk bulk{first_minibatch, seeds.host, seeds.offsets(), {}};
  BlockedIds frontier = seeds.resident;
  const Offsets per_minibatch = one_row_per_minibatch(bulk.count());
  const BlockedIds no_leading{Ids{}, Offsets(per_minibatch.size(), 0)};
  for (size_t l = 0; l < sizes_.size(); ++l) {
    const SampleKeys keys{ctx.seed, epoch, static_cast<uint32_t>(l), first_minibatch, per_minibatch};
    const Matrix p = ctx.timed(&StepStats::probability, [&] { return probability(ctx, frontier); });
    Matrix chosen = ctx.timed(&StepStats::sampling, [&] { return backend.its_sample(p, sizes_[l], keys); });
    Layer layer = ctx.timed(&StepStats::extraction, [&] {
      BlockedIds columns =
          backend.compact_columns(std::move(chosen), per_minibatch, include_frontier_ ? frontier : no_leading).vertices;
      // Drawn or not, column v of block g has P's entry p_g(v) as its probability.
      const Values weights = backend.reciprocals(backend.gather(p, columns), static_cast<float>(sizes_[l]));
      Matrix adj = backend.select_rows_cols_blocked(normalized_, frontier, columns, weights);
      if (excluded) {
        // The frontier's excluded targets, as positions among the layer's columns.
        const Matrix mask = backend.select_rows_by_key(excluded->targets, excluded->sources, frontier);
        adj = backend.mask_entries(std::move(adj), backend.select_cols_blocked(mask, frontier.offsets, columns, {}));
      }
      return Layer{backend.normalize_rows(std::move(adj), RowScale::by_sum), frontier.offsets, std::move(columns), {}};
    });
    frontier = layer.vertices;
    bulk.layers.push_back(std::move(layer));
  }
  return bulk;
}

int64_t LayerWiseSampler::bytes_per_minibatch(int64_t batch_size) const {
  const double n = static_cast<double>(normalized_.rows());
  const double average_degree = n > 0 ? static_cast<double>(normalized_.nnz()) / n : 0;
  double frontier = static_cast<double>(batch_size), bytes = 0;
  for (int64_t s : sizes_) {
    const double reach = std::min(n, frontier * average_degree);
    // P row, R·Â (formed on the GPU only), the extracted layer; columns + values.
    bytes += reach * 8 + 2 * frontier * average_degree * 8 + 16 * (s + frontier);
    frontier = std::min(n, frontier * include_frontier_ + static_cast<double>(s));
  }
  return static_cast<int64_t>(bytes);
}

void LayerWiseSampler::count_traffic(const BulkSample& bulk, StepStats& stats) const {
  // The frontier's rows of Â (extraction), and of Â∘Â for P, read as column id + value.
  const CsrMatrix* normalized = graph_.host_normalized();
  if (!normalized) return;
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    int64_t frontier_nnz = 0;
    for (vid_t u : frontier_of(bulk, l)) frontier_nnz += normalized->row_nnz(u);
    stats.streamed_bytes += 8 * frontier_nnz * (reads_frontier_rows() ? 2 : 1);
  }
}

}  // namespace matsamp
