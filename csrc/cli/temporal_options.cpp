#include "cli/temporal_options.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "core/philox.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "ops/ops.h"
#include "sampling/hetero_sample.h"

namespace matsamp::cli {

namespace {

constexpr uint32_t kVertexTimeTag = 0x7E11u;  // random vertex times' stream

// random:MAX: vertex v's time uniform in [0, MAX), from (seed, v).
std::vector<int64_t> random_vertex_times(const std::string& spec, int64_t n, uint64_t seed) {
  const std::string_view digits = std::string_view(spec).substr(7);  // after "random:"
  int64_t max = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), max);
  if (ec != std::errc() || end != digits.data() + digits.size()) max = 0;
  MATSAMP_CHECK(max > 0, "--vertex-times ", spec, ": random:MAX needs a positive integer MAX");
  std::vector<int64_t> times(n);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v)
    times[v] = static_cast<int64_t>(scale_to(
        random_bits(RandomKey{seed, 0, kVertexTimeTag, 0, static_cast<uint64_t>(v)}, 0), static_cast<uint64_t>(max)));
  return times;
}

}  // namespace

void add_temporal_options(CLI::App& command, TemporalOptions& options) {
  command
      .add_option("--temporal", options.strategy,
                  "sample by time (PyG's temporal sampling; graphsage, labor): every seed a tree of its own, no "
                  "neighbour later than the seed's time; the strategy: uniform (draw among the neighbours early "
                  "enough) or last (the latest of them)")
      ->check(CLI::IsMember({"uniform", "last"}));
  command.add_option("--vertex-times", options.vertex_times,
                     "with --temporal, each vertex's time: a file of 'vertex time' lines, or random:MAX (uniform "
                     "in [0, MAX), from --seed); default: the graph's own (an OGB folder's node_year, a .msg's); a "
                     "neighbour is as late as its vertex");
  command
      .add_option("--edge-times", options.edge_times,
                  "with --temporal, a neighbour is as late as its edge: the edge feature column (0-based) holding "
                  "each edge's time (an OGB folder's or a .msg's edge features, integers); seeds keep their "
                  "vertex times")
      ->check(CLI::NonNegativeNumber);
}

namespace {

// --vertex-times, else the graph's own; empty when neither is there.
std::vector<int64_t> vertex_times_of(const TemporalOptions& options, const Graph& g, uint64_t seed) {
  if (options.vertex_times.empty()) return g.vertex_times;
  if (options.vertex_times.rfind("random:", 0) == 0)
    return random_vertex_times(options.vertex_times, g.num_vertices(), seed);
  return read_vertex_times(options.vertex_times, g.num_vertices());
}

// A time option given without --temporal is a mistake.
void require_strategy(const TemporalOptions& options) {
  MATSAMP_CHECK(!options.strategy.empty(), options.edge_times >= 0 ? "--edge-times" : "--vertex-times",
                " needs --temporal uniform|last");
}

std::shared_ptr<const TemporalEpoch> epoch_times(const TemporalOptions& options, TimeOrder order,
                                                 std::vector<int64_t> vertex_times, Backend& backend) {
  auto times = std::make_shared<TemporalEpoch>();
  times->vertex_times = std::move(vertex_times);
  times->order = backend.upload_ids(std::move(order.order));
  times->sorted_times = backend.upload_ids(std::move(order.sorted_times));
  times->strategy = parse_temporal_strategy(options.strategy);
  return times;
}

}  // namespace

std::shared_ptr<const TemporalEpoch> make_epoch_times(const TemporalOptions& options, const Graph& g, Backend& backend,
                                                      uint64_t seed) {
  if (!options.requested()) return nullptr;
  require_strategy(options);
  MATSAMP_CHECK(!options.vertex_times.empty() || g.has_vertex_times(),
                "--temporal needs vertex times: the graph has none (an OGB folder's node_year, a .msg's); give "
                "--vertex-times FILE (one 'vertex time' line per vertex) or random:MAX");
  std::vector<int64_t> vertex_times = vertex_times_of(options, g, seed);
  TimeOrder order = time_order(g.adj, options.edge_times >= 0 ? edge_times_from_feature(g, options.edge_times)
                                                              : column_times(g.adj, vertex_times));
  return epoch_times(options, std::move(order), std::move(vertex_times), backend);
}

std::shared_ptr<const HeteroTemporalEpoch> make_hetero_epoch_times(const TemporalOptions& options, const HeteroGraph& g,
                                                                   Backend& backend, uint64_t seed) {
  if (!options.requested()) return nullptr;
  require_strategy(options);
  MATSAMP_CHECK(options.edge_times < 0,
                "--edge-times is for a homogeneous graph: a heterogeneous one samples by its vertex times");
  const bool random = options.vertex_times.rfind("random:", 0) == 0;
  MATSAMP_CHECK(options.vertex_times.empty() || random, "--vertex-times ", options.vertex_times,
                ": a heterogeneous graph takes random:MAX or its own times (an OGB folder's node_year)");
  std::vector<std::vector<int64_t>> times = vertex_times_of(g);
  if (random)
    for (size_t t = 0; t < g.types.size(); ++t)
      times[t] = random_vertex_times(options.vertex_times, g.types[t].count, part_seed(seed, t));
  MATSAMP_CHECK(std::any_of(times.begin(), times.end(), [](const std::vector<int64_t>& list) { return !list.empty(); }),
                "--temporal needs vertex times: no vertex type of the graph has any (an OGB folder's "
                "node_year); give --vertex-times random:MAX");
  return std::make_shared<HeteroTemporalEpoch>(
      hetero_epoch_times(backend, g, std::move(times), parse_temporal_strategy(options.strategy)));
}

void check_link_times(const TemporalOptions& options, const std::vector<int64_t>& time_split) {
  MATSAMP_CHECK(!options.strategy.empty(), "--edge-times and --vertex-times need --temporal uniform|last");
  MATSAMP_CHECK(options.edge_times >= 0,
                "--task link --temporal needs --edge-times COLUMN: the edge feature column of each edge's time");
  MATSAMP_CHECK(time_split.size() == 2,
                "--task link --temporal needs --time-split T1,T2 (train on the edges before "
                "T1, validate on those to T2, test on the rest)");
}

std::shared_ptr<const TemporalEpoch> make_link_times(const TemporalOptions& options, const Graph& g,
                                                     const CsrMatrix& train_graph,
                                                     const std::vector<int64_t>& entry_times, Backend& backend,
                                                     uint64_t seed) {
  return epoch_times(options, time_order(train_graph, entry_times), vertex_times_of(options, g, seed), backend);
}

void describe(const TemporalOptions& options, JsonObject& json) {
  if (options.strategy.empty()) return;
  json.add("temporal", options.strategy)
      .add("vertex_times", options.vertex_times.empty() ? std::string("graph") : options.vertex_times);
  if (options.edge_times >= 0) json.add("edge_times_column", options.edge_times);
}

}  // namespace matsamp::cli
