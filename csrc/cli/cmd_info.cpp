#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "cli/commands.h"
#include "cli/graph_source.h"
#include "cli/validators.h"
#include "graph/partition.h"
#include "io/binary_csr.h"
#include "io/msg_container.h"
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

// Features, labels and split: the same fields for a graph and for each vertex type.
void add_vertex_data(JsonObject& json, int64_t feature_dim, const std::vector<int64_t>& labels,
                     const std::map<std::string, std::vector<vid_t>>& splits) {
  json.add("feature_dim", feature_dim)
      .add("labelled",
           static_cast<int64_t>(std::count_if(labels.begin(), labels.end(), [](int64_t l) { return l >= 0; })))
      .add("classes", labels.empty() ? int64_t{0} : 1 + *std::max_element(labels.begin(), labels.end()));
  if (!splits.empty()) {
    JsonObject split;
    for (const auto& [name, ids] : splits) split.add(name, static_cast<int64_t>(ids.size()));
    json.add("split", split);
  }
}

// The types and relations as stored (no reverses added); a relation's in_degree
// counts, per destination vertex, the sources it receives messages from.
JsonObject hetero_info(const GraphSource& source, int blocks) {
  MATSAMP_CHECK(blocks == 0, source.spec,
                " is a heterogeneous graph: --blocks measures the block rows of a graph of one vertex type");
  const HeteroGraph g = load_hetero_graph(source.spec, source.seed);
  JsonObject types, relations;
  for (const VertexType& t : g.types) {
    JsonObject type;
    type.add("vertices", t.count);
    add_vertex_data(type, t.feature_dim, t.labels, t.splits);
    types.add(t.name, type);
  }
  for (const Relation& r : g.relations)
    relations.add(r.key(), JsonObject()
                               .add("source", r.source)
                               .add("name", r.name)
                               .add("destination", r.destination)
                               .add("edges", r.adj.nnz())
                               .add("in_degree", degree_statistics(r.adj)));
  JsonObject info;
  info.add("graph", source.spec)
      .add("heterogeneous", true)
      .add("vertices", g.num_vertices())
      .add("edges", g.num_edges())
      .add("vertex_types", types)
      .add("relations", relations);
  return info;
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("info",
                                 "print vertex, edge, degree, feature and label statistics as JSON (of a "
                                 "heterogeneous graph: per vertex type and per relation)");
  auto source = std::make_shared<GraphSource>();
  auto blocks = std::make_shared<int>(0);
  add_graph_options(*cmd, *source);
  cmd->add_option("--blocks", *blocks,
                  "also report the share of nonzeros between this many equal id ranges (the 1.5D block rows "
                  "of that many process rows; 'matsamp partition' lowers it)")
      ->check(non_negative());
  cmd->callback([source, blocks] {
    if (is_hetero_source(source->spec)) {
      std::printf("%s\n", hetero_info(*source, *blocks).str().c_str());
      return;
    }
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
        .add("degree", degree_statistics(g.adj));
    add_vertex_data(info, g.feature_dim, g.labels, g.splits);
    info.add("edge_features", g.has_edge_features() ? g.num_edges() : int64_t{0})  // rows, one per nonzero
        .add("edge_feature_dim", g.edge_feature_dim)
        .add("vertex_times", g.has_vertex_times());
    if (msg::peek_version(source->spec) == msg::kGraphVersion) {  // how the file stores them
      const BinaryCsrInfo stored = read_binary_csr_info(source->spec);
      auto name = [](FeatureType t) { return t == FeatureType::float16 ? "float16" : "float32"; };
      if (g.has_features()) info.add("feature_dtype", name(stored.feature_type));
      if (g.has_edge_features()) info.add("edge_feature_dtype", name(stored.edge_feature_type));
    }
    if (*blocks > 0)
      info.add("blocks", *blocks)
          .add("block_cut_fraction", static_cast<double>(cut_nonzeros(g.adj, *blocks)) /
                                         static_cast<double>(std::max<int64_t>(1, g.num_edges())));
    std::printf("%s\n", info.str().c_str());
  });
}

}  // namespace matsamp::cli
