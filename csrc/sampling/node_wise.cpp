#include "sampling/node_wise.h"

#include <algorithm>

#include "sampling/registry.h"

namespace matsamp {

NodeWiseSampler::NodeWiseSampler(SamplingGraph& graph, std::vector<int64_t> fanouts, const char* what)
    : graph_(graph), adj_(graph.adjacency()), fanouts_(std::move(fanouts)) {
  check_layer_sizes(fanouts_, what);
  MATSAMP_CHECK(adj_.rows() == adj_.cols(), what, ": adjacency is not square (", adj_.shape(), ")");
}

Bulk NodeWiseSampler::sample_layers(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                    const ExcludedInBackend* excluded) const {
  return sample_program(ctx, seeds, first_minibatch, epoch, excluded, nullptr);
}

Bulk NodeWiseSampler::sample_layers_before(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch,
                                           uint32_t epoch, const TemporalBounds& bounds) const {
  MATSAMP_CHECK(static_cast<int64_t>(bounds.seed_times.size()) + 1 == static_cast<int64_t>(seeds.offsets().size()),
                "temporal sampling: ", bounds.seed_times.size(), " seed times for ", seeds.offsets().size() - 1,
                " minibatches");
  MATSAMP_CHECK(bounds.order.size() == adj_.nnz() && bounds.sorted_times.size() == adj_.nnz(),
                "temporal sampling: a time order of ", bounds.order.size(), " entries for the adjacency's ", adj_.nnz(),
                " entries");
  return sample_program(ctx, seeds, first_minibatch, epoch, nullptr, &bounds);
}

Bulk NodeWiseSampler::sample_program(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                     const ExcludedInBackend* excluded, const TemporalBounds* temporal) const {
  Backend& backend = ctx.backend;
  Bulk bulk{first_minibatch, seeds.host, seeds.offsets(), {}};
  BlockedIds frontier = seeds.resident;
  for (size_t l = 0; l < fanouts_.size(); ++l) {
    const SampleKeys keys{ctx.seed, epoch, static_cast<uint32_t>(l), first_minibatch, frontier.offsets};
    Ids positions;  // set by a draw that knows them, when asked for
    Ids* wanted = ctx.record_positions ? &positions : nullptr;
    Matrix s = ctx.timed(&StepStats::sampling, [&] {
      if (temporal) return draw_before(backend, frontier.ids, fanouts_[l], keys, *temporal, wanted);
      if (!excluded) return draw(backend, adj_, frontier.ids, fanouts_[l], keys, wanted);
      const Matrix mask = backend.select_rows_by_key(excluded->targets, excluded->sources, frontier);
      return draw_masked(backend, frontier.ids, fanouts_[l], keys, mask, wanted);
    });
    Compacted next = ctx.timed(&StepStats::extraction, [&] {
      return backend.compact_columns(weigh(backend, std::move(s)), frontier.offsets, frontier,
                                     positions.defined() ? &positions : nullptr);
    });
    bulk.layers.push_back({std::move(next.adj), std::move(frontier.offsets), next.vertices, std::move(positions)});
    frontier = std::move(next.vertices);
  }
  return bulk;
}

Matrix NodeWiseSampler::draw_before(Backend&, const Ids&, int64_t, const SampleKeys&, const TemporalBounds&,
                                    Ids*) const {
  fail(name(), " ", TemporalSampler::kLacking, " (", samplers_that(kTemporal), " can)");
}

Matrix NodeWiseSampler::weigh(Backend& backend, Matrix drawn) const {
  return backend.normalize_rows(std::move(drawn), RowScale::mean);
}

Matrix NodeWiseSampler::draw_masked(Backend& backend, const Ids& frontier, int64_t fanout, const SampleKeys& keys,
                                    const Matrix& mask, Ids*) const {
  // Row i of the masked rows is frontier row i: drawn under the same key.
  const auto [masked, rows] = masked_rows(backend, adj_, frontier, mask);
  return draw(backend, masked, rows, fanout, keys, nullptr);
}

int64_t NodeWiseSampler::bytes_per_minibatch(int64_t batch_size) const {
  // The sample, its relabelled copy, the vertex list and per-row scratch.
  double rows = static_cast<double>(batch_size), bytes = 0;
  for (int64_t fanout : fanouts_) {
    rows = std::min(rows, static_cast<double>(adj_.rows()));
    bytes += rows * (fanout * 24 + 48);
    rows *= 1 + fanout;
  }
  return static_cast<int64_t>(bytes);
}

void NodeWiseSampler::count_node_wise_traffic(const BulkSample& bulk, bool rows_read_whole, StepStats& stats) const {
  stats.gathers += bulk.sampled_edges();
  for (const SampledLayer& layer : bulk.layers) stats.gathers += layer.adj.rows;
  const CsrMatrix* adj = graph_.host_adjacency();
  if (!rows_read_whole || !adj) return;
  for (size_t l = 0; l < bulk.layers.size(); ++l)
    for (vid_t v : frontier_of(bulk, l)) stats.streamed_bytes += adj->row_nnz(v) * 8;
}

}  // namespace matsamp
