#include "cli/graph_source.h"

#include <charconv>
#include <cstdio>
#include <limits>

#include "generate/generators.h"
#include "graph/hetero_graph.h"
#include "io/graph_io.h"
#include "io/hetero_io.h"
#include "util/timer.h"

namespace matsamp::cli {

namespace {

// "rmat:20:16" -> {"rmat", "20", "16"}.
std::vector<std::string> split_spec(const std::string& spec) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t colon; (colon = spec.find(':', start)) != std::string::npos; start = colon + 1)
    parts.push_back(spec.substr(start, colon - start));
  parts.push_back(spec.substr(start));
  return parts;
}

// A positive decimal integer of at most `max`, checked before any narrowing
// (so that "rmat:4294967312" is refused rather than read as scale 16).
int64_t spec_number(const std::string& spec, const std::string& text, const char* what, int64_t max) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value <= 0)
    fail("graph spec '", spec, "': '", text, "' is not a positive integer");
  if (value > max) fail("graph spec '", spec, "': ", what, " ", value, " is above ", max);
  return value;
}

}  // namespace

void add_graph_options(CLI::App& command, GraphSource& source) {
  command
      .add_option("-g,--graph", source.spec,
                  "graph file (.mtx, .npz, .msg, or an edge list: SNAP or CSV; text may be gzip), an OGB "
                  "dataset folder (ogbn_arxiv/ as downloaded: raw/ and split/), or generator "
                  "'rmat:SCALE[:EDGE_FACTOR]' / 'planted:N[:CLASSES]'; bench, train, info and convert also take "
                  "heterogeneous graphs: an OGB heterogeneous folder (ogbn_mag/), a .msg converted from one, or "
                  "'mag:PAPERS[:CLASSES]' (ogbn-mag's shape)")
      ->capture_default_str();
  command
      .add_option("--values", source.values,
                  "edge values: given (weights; negative ones refused), pattern (every edge weighs 1), abs "
                  "(magnitudes, also of complex Matrix Market values)")
      ->check(CLI::IsMember({"given", "pattern", "abs"}))
      ->capture_default_str();
  command.add_flag_callback(
      "--pattern", [&source] { source.values = "pattern"; }, "same as --values pattern");
  command.add_option("--labels", source.labels, "vertex label file for an edge list ('vertex label' lines)");
  command.add_option("--edge-weights", source.edge_weights,
                     "weigh each edge by this column of the graph's edge features (an OGB folder's edge-feat, a "
                     ".msg's; 0 is the first): the node-wise samplers draw neighbours in proportion to it");
  command.add_option("--graph-seed", source.seed, "seed of the graph generator")->capture_default_str();
  command.add_flag("--symmetrize", source.cleanup.symmetrize, "add the reverse of every edge");
  command.add_flag("--drop-self-loops", source.cleanup.drop_self_loops, "remove self loops");
  command.add_flag("--largest-component", source.cleanup.largest_component,
                   "keep only the largest connected component");
}

bool is_hetero_source(const std::string& spec) {
  return split_spec(spec)[0] == "mag" || is_ogb_hetero_dataset(spec) || is_hetero_binary(spec);
}

HeteroGraph load_hetero_graph(const std::string& spec, uint64_t seed) {
  ScopedTimer timer(nullptr);
  const std::vector<std::string> parts = split_spec(spec);
  HeteroGraph g;
  if (parts[0] == "mag" && parts.size() <= 3 && parts.size() >= 2) {
    HeteroMagOptions options;
    options.papers = spec_number(spec, parts[1], "paper count", int64_t{1} << 29);
    if (parts.size() == 3) options.classes = static_cast<int>(spec_number(spec, parts[2], "class count", 1 << 16));
    options.seed = seed;
    std::fprintf(stderr, "matsamp: generating an ogbn-mag-shaped graph, %lld papers, %d classes\n",
                 static_cast<long long>(options.papers), options.classes);
    g = generate_hetero_mag(options);
  } else {
    MATSAMP_CHECK(is_ogb_hetero_dataset(spec) || is_hetero_binary(spec), "graph spec '", spec,
                  "': not a heterogeneous graph (an OGB folder with raw/num-node-dict.csv.gz, a heterogeneous .msg, "
                  "or 'mag:PAPERS')");
    std::fprintf(stderr, "matsamp: reading %s\n", spec.c_str());
    g = read_hetero_graph(spec);
  }
  std::fprintf(stderr,
               "matsamp: heterogeneous graph ready: %zu vertex types, %zu relations, %lld vertices, %lld "
               "edges (%.2f s)\n",
               g.types.size(), g.relations.size(), static_cast<long long>(g.num_vertices()),
               static_cast<long long>(g.num_edges()), timer.seconds());
  return g;
}

Graph load_graph(const GraphSource& source) {
  MATSAMP_CHECK(!is_hetero_source(source.spec), source.spec,
                " is a heterogeneous graph: sample it with 'matsamp bench --relation-fanouts ...' (this command "
                "reads one vertex type)");
  ScopedTimer timer(nullptr);
  const std::vector<std::string> parts = split_spec(source.spec);
  Graph g;
  if (parts[0] == "rmat" && parts.size() <= 3 && parts.size() >= 2) {
    RmatOptions options;
    options.scale = static_cast<int>(spec_number(source.spec, parts[1], "scale", 30));
    if (parts.size() == 3)
      options.edge_factor = static_cast<int>(spec_number(source.spec, parts[2], "edge factor", 1 << 20));
    options.seed = source.seed;
    std::fprintf(stderr, "matsamp: generating R-MAT scale %d, edge factor %d\n", options.scale, options.edge_factor);
    g = generate_rmat(options);
  } else if (parts[0] == "planted" && parts.size() <= 3 && parts.size() >= 2) {
    PlantedPartitionOptions options;
    options.vertices = spec_number(source.spec, parts[1], "vertex count", std::numeric_limits<col_t>::max());
    if (parts.size() == 3)
      options.classes = static_cast<int>(spec_number(source.spec, parts[2], "class count", options.vertices));
    options.seed = source.seed;
    std::fprintf(stderr, "matsamp: generating planted partition, %lld vertices, %d classes\n",
                 static_cast<long long>(options.vertices), options.classes);
    g = generate_planted_partition(options);
  } else {
    std::fprintf(stderr, "matsamp: reading %s\n", source.spec.c_str());
    ReadOptions options;
    options.values = parse_value_mode(source.values);
    options.msg_features = source.msg_features;
    g = read_graph(source.spec, options);
    if (!source.labels.empty()) read_vertex_labels(source.labels, g);
  }
  if (source.edge_weights >= 0) weigh_by_edge_feature(g, source.edge_weights);
  g = cleanup(std::move(g), source.cleanup);
  std::string split;
  for (const auto& [name, ids] : g.splits)
    split += detail::concat(split.empty() ? ", split " : " / ", name, " ", ids.size());
  std::fprintf(stderr, "matsamp: graph ready: %lld vertices, %lld nonzeros%s (%.2f s)\n",
               static_cast<long long>(g.num_vertices()), static_cast<long long>(g.num_edges()), split.c_str(),
               timer.seconds());
  return g;
}

}  // namespace matsamp::cli
