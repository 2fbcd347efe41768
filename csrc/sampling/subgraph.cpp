#include "sampling/subgraph.h"

#include <algorithm>

#include "sampling/epoch_plan.h"

namespace matsamp {

namespace {

// The epochs of the pre-sampling's keys: far above any training epoch.
constexpr uint32_t kPresampleEpoch = 0xFFFF0000u;

// GraphSAINT's subgraphs are induced by distinct roots: checked on the host
// seeds, before the backend's compaction would find the repeat.
void check_distinct_roots(const std::vector<vid_t>& roots, const Offsets& offsets, int64_t first_minibatch) {
  std::vector<vid_t> block;
  for (size_t g = 0; g + 1 < offsets.size(); ++g) {
    block.assign(roots.begin() + offsets[g], roots.begin() + offsets[g + 1]);
    std::sort(block.begin(), block.end());
    const auto repeated = std::adjacent_find(block.begin(), block.end());
    MATSAMP_CHECK(repeated == block.end(), "GraphSAINT: minibatch ", first_minibatch + static_cast<int64_t>(g),
                  " has root vertex ", repeated == block.end() ? 0 : *repeated, " twice");
  }
}

}  // namespace

SubgraphSampler::SubgraphSampler(SamplingGraph& graph, int64_t layers, bool aggregator_norm)
    : graph_(graph), normalized_(graph.normalized()), layers_(layers), aggregator_norm_(aggregator_norm) {
  MATSAMP_CHECK(layers_ >= 1, "GraphSAINT layers must be at least 1, got ", layers_);
}

void SubgraphSampler::keep_estimates(std::shared_ptr<const EstimateStore> store, std::string key) {
  MATSAMP_CHECK(aggregator_norm_, "the ", name(), " sampler pre-samples only with saint_norm (--saint-norm)");
  store_ = std::move(store);
  key_ = std::move(key);
}

const Matrix& SubgraphSampler::aggregator_normalized(Context& ctx, const Offsets& offsets) const {
  std::lock_guard<std::mutex> lock(estimate_mutex_);
  if (scaled_.defined()) return scaled_;
  const CsrMatrix* host = graph_.host_normalized();
  MATSAMP_CHECK(host, name(),
                " with saint_norm estimates its normalization on the whole graph: run it where "
                "the graph is whole (not --distributed partitioned)");
  Backend& backend = ctx.backend;
  int64_t batch = 1;
  for (size_t g = 0; g + 1 < offsets.size(); ++g) batch = std::max(batch, offsets[g + 1] - offsets[g]);
  // The estimate depends on the options, the batch and the seed: all in the key.
  const std::string key = detail::concat(key_, " batch=", batch, " seed=", ctx.seed);
  SubgraphCounts kept(*host);
  Tallies tallies;
  if (store_ && store_->load(key, *host, kept)) {
    tallies.vertex = backend.upload_ids(std::move(kept.vertex));
    tallies.entry = backend.upload_ids(std::move(kept.entry));
  } else {
    presample(ctx, batch, tallies);
    if (store_) {
      kept.subgraphs = tallies.subgraphs;
      kept.sampled_vertices = tallies.sampled_vertices;
      kept.vertex = backend.ids_to_host(tallies.vertex);
      kept.entry = backend.ids_to_host(tallies.entry);
      store_->save(key, *host, kept);
    }
  }
  scaled_ = backend.normalize_rows_by_tallies(normalized_, tallies.vertex, tallies.entry);
  return scaled_;
}

void SubgraphSampler::presample(Context& ctx, int64_t batch, Tallies& tallies) const {
  Backend& backend = ctx.backend;
  const int64_t n = normalized_.rows();
  std::vector<vid_t> all(n);
  for (int64_t v = 0; v < n; ++v) all[v] = v;
  Context quiet{ctx.backend, ctx.seed, nullptr, ctx.communicator};  // not part of any step's time
  // Minibatches per call: about 2^18 roots, few calls (each op's threads start and
  // stop once per call) in bounded memory. The counts do not depend on it.
  const int64_t chunk = std::max<int64_t>(1, (int64_t{1} << 18) / batch);
  for (uint32_t pass = 0; tallies.sampled_vertices < 50 * n; ++pass) {
    const uint32_t epoch = kPresampleEpoch + pass;
    const EpochOrder order = shuffled_order(all, batch, ctx.seed, epoch);
    for (int64_t first = 0; first < order.num_minibatches(); first += chunk) {
      const int64_t end = std::min(order.num_minibatches(), first + chunk);
      auto [roots, offsets_of] = order.seeds(first, end);
      const SeedBatch seeds = upload_seeds(backend, std::move(roots), std::move(offsets_of));
      AddedVertices added = add_vertices(quiet, seeds, first, epoch);
      // V_g as the steps build it: the roots and the added vertices, once each.
      const BlockedIds subgraphs =
          backend.compact_columns(std::move(added.vertices), added.row_offsets, seeds.resident).vertices;
      tallies.vertex = backend.tally_ids(std::move(tallies.vertex), n, subgraphs.ids);
      tallies.entry = backend.tally_induced_entries(std::move(tallies.entry), normalized_, subgraphs);
      tallies.subgraphs += subgraphs.blocks();
      tallies.sampled_vertices += subgraphs.offsets.back();
    }
  }
}

Bulk SubgraphSampler::sample(Context& ctx, const SeedBatch& seed_batch, int64_t first_minibatch, uint32_t epoch) const {
  Backend& backend = ctx.backend;
  const std::vector<vid_t>& seeds = seed_batch.host;
  const Offsets& seed_offsets = seed_batch.offsets();
  Bulk bulk{first_minibatch, seeds, seed_offsets, {}};
  check_distinct_roots(seeds, seed_offsets, first_minibatch);
  AddedVertices added = add_vertices(ctx, seed_batch, first_minibatch, epoch);
  const Matrix& layer_matrix = aggregator_norm_ ? aggregator_normalized(ctx, seed_offsets) : normalized_;
  ctx.timed(&StepStats::extraction, [&] {
    // V_g: the roots in order, then the other added vertices ascending, once each.
    const BlockedIds subgraph =
        backend.compact_columns(std::move(added.vertices), added.row_offsets, seed_batch.resident).vertices;
    BlockedIds rows = seed_batch.resident;
    for (int64_t l = 0; l < layers_; ++l) {
      Matrix adj = backend.select_rows_cols_blocked(layer_matrix, rows, subgraph, Values{});
      if (!aggregator_norm_) adj = backend.normalize_rows(std::move(adj), RowScale::by_sum);
      bulk.layers.push_back({std::move(adj), rows.offsets, subgraph, {}});
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

Matrix draw_per_minibatch(Context& ctx, const Matrix& p, int64_t budget, const Offsets& offsets,
                          int64_t first_minibatch, uint32_t epoch) {
  const SampleKeys keys{ctx.seed, epoch, 0, first_minibatch,
                        one_row_per_minibatch(static_cast<int64_t>(offsets.size()) - 1)};
  return ctx.timed(&StepStats::sampling, [&] { return ctx.backend.its_sample(p, budget, keys); });
}

void check_positive_option(int64_t value, const char* what) {
  MATSAMP_CHECK(value >= 1, what, " must be at least 1, got ", value);
}

}  // namespace matsamp
