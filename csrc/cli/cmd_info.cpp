#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/commands.h"
#include "cli/graph_source.h"
#include "cli/validators.h"
#include "graph/partition.h"
#include "util/json.h"

namespace matsamp::cli {

namespace {

JsonObject degree_statistics(const CsrMatrix& adj) {
  std::vector<int64_t> degrees(adj.rows);
  for (int64_t v = 0; v < adj.rows; ++v) degrees[v] = adj.row_nnz(v);
  std::sort(degrees.begin(), degrees.end());
  JsonObject stats;
  if (degrees.empty()) return stats.add("isolated", int64_t{0});
  double sum = 0, squares = 0;
  for (int64_t d : degrees) {
    sum += static_cast<double>(d);
    squares += static_cast<double>(d) * d;
  }
  const double n = static_cast<double>(degrees.size()), mean = sum / n;
  return stats.add("min", degrees.front())
      .add("median", degrees[degrees.size() / 2])
      .add("mean", mean)
      .add("std", std::sqrt(std::max(0.0, squares / n - mean * mean)))
      .add("p99", degrees[static_cast<size_t>(0.99 * (n - 1))])
      .add("max", degrees.back())
      .add("isolated", static_cast<int64_t>(std::count(degrees.begin(), degrees.end(), 0)));
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "print vertex, edge, degree, feature and label statistics as JSON");
  auto source = std::make_shared<GraphSource>();
  auto blocks = std::make_shared<int>(0);
  add_graph_options(*cmd, *source);
  cmd->add_option("--blocks", *blocks,
                  "also report the share of nonzeros between this many equal id ranges (the 1.5D block rows "
                  "of that many process rows; 'matsamp partition' lowers it)")
      ->check(non_negative());
  cmd->callback([source, blocks] {
    const Graph g = load_graph(*source);
    MATSAMP_CHECK(*blocks <= g.num_vertices(), "--blocks ", *blocks, " exceeds the graph's ", g.num_vertices(),
                  " vertices");
    bool symmetric = true;
    const CsrMatrix t = transpose(g.adj);
    symmetric = t.rowptr == g.adj.rowptr && t.colidx == g.adj.colidx;
    int64_t self_loops = 0;
    for (int64_t v = 0; v < g.adj.rows; ++v)
      for (int64_t e = g.adj.rowptr[v]; e < g.adj.rowptr[v + 1]; ++e) self_loops += g.adj.colidx[e] == v;
    JsonObject info;
    info.add("graph", source->spec)
        .add("vertices", g.num_vertices())
        .add("nonzeros", g.num_edges())
        .add("symmetric", symmetric)
        .add("self_loops", self_loops)
        .add("degree", degree_statistics(g.adj))
        .add("feature_dim", g.feature_dim)
        .add("labelled",
             static_cast<int64_t>(std::count_if(g.labels.begin(), g.labels.end(), [](int64_t l) { return l >= 0; })))
        .add("classes", g.num_classes());
    if (!g.splits.empty()) {
      JsonObject split;
      for (const auto& [name, ids] : g.splits) split.add(name, static_cast<int64_t>(ids.size()));
      info.add("split", split);
    }
    if (*blocks > 0)
      info.add("blocks", *blocks)
          .add("block_cut_fraction", static_cast<double>(cut_nonzeros(g.adj, *blocks)) /
                                         static_cast<double>(std::max<int64_t>(1, g.num_edges())));
    std::printf("%s\n", info.str().c_str());
  });
}

}  // namespace matsamp::cli
