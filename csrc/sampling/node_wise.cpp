#include "sampling/node_wise.h"

#include <algorithm>

#include "sampling/registry.h"

namespace matsamp {

NodeWiseSampler::NodeWiseSampler(SamplingGraph& graph, std::vector<int64_t> fanouts, const char* what,
                                 bool expand_new_only)
    : graph_(graph), adj_(graph.adjacency()), fanouts_(std::move(fanouts)), expand_new_only_(expand_new_only) {
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
  Offsets expanded;  // the blocks of the vertices earlier layers drew for (expand_new_only)
  for (size_t l = 0; l < fanouts_.size(); ++l) {
    const bool some_rows = expand_new_only_ && l > 0;
    const BlockedIds drawing = some_rows ? added_vertices(backend, frontier, expanded) : frontier;
    const SampleKeys keys{ctx.seed, epoch, static_cast<uint32_t>(l), first_minibatch, drawing.offsets};
    Ids positions;  // set by a draw that knows them, when asked for
    Ids* wanted = ctx.record_positions ? &positions : nullptr;
    Matrix s = ctx.timed(&StepStats::sampling, [&] {
      Matrix drawn;
      if (temporal) drawn = draw_before(backend, drawing.ids, fanouts_[l], keys, *temporal, wanted);
      else if (!excluded) drawn = draw(backend, adj_, drawing.ids, fanouts_[l], keys, wanted);
      else {
        const Matrix mask = backend.select_rows_by_key(excluded->targets, excluded->sources, drawing);
        drawn = draw_masked(backend, drawing.ids, fanouts_[l], keys, mask, wanted);
      }
      // The drawn rows back in their frontier places, the earlier vertices' rows empty.
      return some_rows ? backend.pad_row_blocks(std::move(drawn), drawing.offsets, frontier.offsets) : drawn;
    });
    Compacted next = ctx.timed(&StepStats::extraction, [&] {
      return backend.compact_columns(weigh(backend, std::move(s)), frontier.offsets, frontier,
                                     positions.defined() ? &positions : nullptr);
    });
    expanded = frontier.offsets;
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
  const CsrMatrix* adj = graph_.host_adjacency();
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    // The rows drawn: every frontier vertex, or with expand_new_only those past
    // each block's vertices of the layer before.
    const std::vector<vid_t>& frontier = frontier_of(bulk, l);
    const Offsets& blocks = bulk.layers[l].row_offsets;
    const Offsets* before = expand_new_only_ && l > 0 ? &bulk.layers[l - 1].row_offsets : nullptr;
    for (int64_t g = 0; g + 1 < static_cast<int64_t>(blocks.size()); ++g) {
      const int64_t first = blocks[g] + (before ? (*before)[g + 1] - (*before)[g] : 0);
      stats.gathers += blocks[g + 1] - first;
      if (rows_read_whole && adj)
        for (int64_t i = first; i < blocks[g + 1]; ++i) stats.streamed_bytes += adj->row_nnz(frontier[i]) * 8;
    }
  }
}

}  // namespace matsamp
