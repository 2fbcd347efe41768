#include <algorithm>
#include <cstdio>

#include "cli/commands.h"
#include "cli/graph_source.h"
#include "cli/validators.h"
#include "core/row_blocks.h"
#include "graph/partition.h"
#include "io/graph_io.h"
#include "io/npz.h"
#include "util/json.h"
#include "util/timer.h"

namespace matsamp::cli {

namespace {

// Share of the vertices whose equal id block (of `parts`) is their part: how well
// the row blocks of the reordered graph (parts contiguous, in order) fit its parts.
double share_in_own_block(const std::vector<int32_t>& part_of_new_id, int parts) {
  const RowBlocks blocks{static_cast<int64_t>(part_of_new_id.size()), parts};
  int64_t matched = 0;
  for (size_t v = 0; v < part_of_new_id.size(); ++v)
    matched += blocks.owner(static_cast<vid_t>(v)) == part_of_new_id[v];
  return static_cast<double>(matched) / static_cast<double>(part_of_new_id.size());
}

struct PartitionOptions {
  GraphSource source;
  int parts = 0;
  std::string out;
  std::string permutation;
  std::vector<std::string> balance;
  int machines = 1;
  uint64_t seed = 1;
};

void add_partition_options(CLI::App& cmd, PartitionOptions& options) {
  add_graph_options(cmd, options.source);
  cmd.get_option("--graph")->required();
  cmd.add_option("-p,--parts", options.parts, "parts (e.g. the process rows of a partitioned run)")
      ->required()
      ->check(positive());
  cmd.add_option("-o,--out", options.out, "output file (.msg binary CSR): the graph with renumbered vertices")
      ->required();
  cmd.add_option("--permutation", options.permutation,
                 "also write FILE.npz: old_id (int64; new vertex i was vertex old_id[i]) and part (int32, "
                 "per new vertex)");
  cmd.add_option("--seed", options.seed, "METIS seed")->capture_default_str();
  cmd.add_option("--machines", options.machines,
                 "partition in two levels: this many parts of the graph, each cut into parts / machines parts "
                 "of its own (a rank's part then shares its machine's part with the ranks beside it)")
      ->check(positive())
      ->capture_default_str();
  cmd.add_option("--balance", options.balance,
                 "balance the parts in these too (METIS multi-constraint, each within 5%): edges, and vertex "
                 "sets of the dataset's split (train, valid, test)")
      ->delimiter(',');
}

// What --balance names: edges, or vertex sets of g's split.
PartitionBalance balance_named(const Graph& g, const std::vector<std::string>& names) {
  PartitionBalance balance;
  for (const std::string& name : names) {
    if (name == "edges") {
      balance.edges = true;
      continue;
    }
    const auto set = g.splits.find(name);
    MATSAMP_CHECK(set != g.splits.end(), "--balance ", name, ": ",
                  g.splits.empty() ? "the graph has no split"
                                   : "no such vertex set in the graph's split (edges or a set of its split)");
    balance.sets.emplace_back(name, set->second);
  }
  return balance;
}

// METIS's part of every vertex, timed into *seconds.
std::vector<int32_t> partition_timed(const Graph& g, const PartitionOptions& options, const PartitionBalance& balance,
                                     double* seconds) {
  const int parts = options.parts, machines = options.machines;
  std::fprintf(stderr, "matsamp: partitioning %lld vertices into %d parts with METIS\n",
               static_cast<long long>(g.num_vertices()), parts);
  ScopedTimer timer(seconds);
  return machines > 1 ? partition_two_level(g.adj, machines, parts / machines, options.seed, balance)
                      : partition_kway(g.adj, parts, options.seed, balance);
}

// A partition's result: the vertices in their new order, and the part of each new id.
struct Renumbering {
  std::vector<vid_t> order;       // new vertex i was vertex order[i]
  std::vector<int32_t> new_part;  // per new vertex
  std::vector<int64_t> sizes;     // per part
};

Renumbering renumber_by_part(const std::vector<int32_t>& part, int parts) {
  Renumbering r{order_by_part(part, parts), {}, std::vector<int64_t>(parts, 0)};
  r.new_part.resize(r.order.size());
  for (size_t i = 0; i < r.order.size(); ++i) ++r.sizes[r.new_part[i] = part[r.order[i]]];
  return r;
}

void write_permutation(const std::string& path, const Renumbering& r) {
  NpzWriter npz;
  npz.add("old_id", std::vector<int64_t>(r.order.begin(), r.order.end()));
  npz.add("part", r.new_part);
  npz.write(path);
}

// The cut and balance of `part` on g, and of the row blocks before and after renumbering.
JsonObject partition_report(const PartitionOptions& options, const Graph& g, const Graph& reordered,
                            const std::vector<int32_t>& part, const Renumbering& r, const PartitionBalance& balance,
                            double seconds) {
  const int parts = options.parts, machines = options.machines;
  const double nonzeros = std::max<double>(1, static_cast<double>(g.num_edges()));
  JsonObject json;
  json.add("graph", options.source.spec)
      .add("out", options.out)
      .add("vertices", g.num_vertices())
      .add("nonzeros", g.num_edges())
      .add("parts", parts)
      .add("partition_s", seconds)
      .add("part_size_min", *std::min_element(r.sizes.begin(), r.sizes.end()))
      .add("part_size_max", *std::max_element(r.sizes.begin(), r.sizes.end()))
      .add("cut_fraction", static_cast<double>(cut_nonzeros(g.adj, part)) / nonzeros)
      .add("block_cut_fraction_before", static_cast<double>(cut_nonzeros(g.adj, parts)) / nonzeros)
      .add("block_cut_fraction_after", static_cast<double>(cut_nonzeros(reordered.adj, parts)) / nonzeros)
      .add("vertices_in_own_block", share_in_own_block(r.new_part, parts));
  if (machines > 1) {  // entries between machines: what leaves a machine
    std::vector<int32_t> machine_of(part.size());
    for (size_t v = 0; v < part.size(); ++v) machine_of[v] = part[v] / (parts / machines);
    json.add("machines", machines)
        .add("machine_cut_fraction", static_cast<double>(cut_nonzeros(g.adj, machine_of)) / nonzeros);
  }
  PartitionBalance every_set;  // every set of the split, to show each balance
  for (const auto& [name, ids] : g.splits) every_set.sets.emplace_back(name, ids);
  JsonObject imbalance;  // the largest part over the mean part
  for (const auto& [name, ratio] : part_imbalance(g.adj, part, parts, every_set)) imbalance.add(name, ratio);
  json.add("balanced", JsonObject().add("edges", balance.edges).add("sets", static_cast<int64_t>(balance.sets.size())))
      .add("imbalance", imbalance);
  return json;
}

void run_partition(const PartitionOptions& options) {
  MATSAMP_CHECK(options.parts % options.machines == 0, "--machines ", options.machines, " does not divide --parts ",
                options.parts);
  const Graph g = load_graph(options.source);
  const PartitionBalance balance = balance_named(g, options.balance);
  double seconds = 0;
  const std::vector<int32_t> part = partition_timed(g, options, balance, &seconds);
  std::fprintf(stderr, "matsamp: partition: METIS done (%.1f s); renumbering and writing %s\n", seconds,
               options.out.c_str());
  const Renumbering r = renumber_by_part(part, options.parts);
  const Graph reordered = induced_subgraph(g, r.order);
  if (!options.permutation.empty()) write_permutation(options.permutation, r);
  write_binary_csr(options.out, reordered);
  std::printf("%s\n", partition_report(options, g, reordered, part, r, balance, seconds).str().c_str());
}

}  // namespace

void add_partition_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "partition",
      "partition a graph with METIS and renumber its vertices part by part (binary CSR out), so that equal "
      "id ranges, as the distributed layout and --locality-blocks use, follow the parts");
  auto options = std::make_shared<PartitionOptions>();
  add_partition_options(*cmd, *options);
  cmd->callback([options] { run_partition(*options); });
}

}  // namespace matsamp::cli
