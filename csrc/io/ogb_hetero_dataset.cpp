#include <algorithm>
#include <filesystem>

#include "io/dense_text.h"
#include "io/edge_triples.h"
#include "io/hetero_io.h"
#include "io/ogb_files.h"
#include "io/text_reader.h"

namespace matsamp {

namespace {

namespace fs = std::filesystem;

// num-node-dict: the type names on one line, their counts on the next.
std::vector<VertexType> read_vertex_types(const std::string& path) {
  TextReader in(path, Fields::csv);
  if (!in.next_data_line("#")) fail(path, ": empty (expected a line of vertex types and a line of counts)");
  std::vector<VertexType> types;
  for (std::string_view name : in.tokens()) types.push_back({std::string(name), 0});
  if (!in.next_data_line("#") || in.tokens().size() != types.size())
    fail(path, ": expected a line of ", types.size(), " counts after the line of vertex types");
  for (size_t t = 0; t < types.size(); ++t) {
    types[t].count = in.cursor().integer(in.tokens()[t], "vertex count");
    if (types[t].count < 0) in.fail_here("count ", types[t].count, " of ", types[t].name, " is negative");
    check_column_count(types[t].count, path.c_str());
  }
  if (in.next_data_line("#")) in.fail_here("more than one graph; only single-graph datasets are supported");
  return types;
}

void read_relations(const fs::path& raw, const ReadOptions& options, HeteroGraph& g) {
  const fs::path dir = raw / "relations";
  if (!fs::is_directory(dir)) fail(dir.string(), ": missing (a heterogeneous OGB dataset keeps its edges there)");
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_directory()) folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    const std::string name = folder.filename().string();
    const size_t a = name.find("___"), b = name.rfind("___");
    if (a == std::string::npos || a == b)
      fail(folder.string(), ": a relation folder is named <source>___<relation>___<destination>");
    const std::string source = name.substr(0, a), relation = name.substr(a + 3, b - a - 3),
                      destination = name.substr(b + 3);
    const std::string edges_path = ogb::required_csv(folder, "edge");
    EdgeTriples e = read_edge_triples(edges_path, options);
    if (const std::string count_path = ogb::csv_file(folder, "num-edge-list"); !count_path.empty()) {
      const int64_t declared = read_count(count_path);
      if (declared != static_cast<int64_t>(e.src.size()))
        fail(edges_path, ": ", e.src.size(), " edges, but num-edge-list says ", declared);
    }
    try {
      add_relation(g, source, relation, destination, e.src, e.dst);
    } catch (const Error& error) {
      fail(edges_path, ": ", error.what());
    }
  }
}

}  // namespace

bool is_ogb_hetero_dataset(const std::string& dir) {
  return !ogb::csv_file(fs::path(dir) / "raw", "num-node-dict").empty();
}

HeteroGraph read_ogb_hetero_dataset(const std::string& dir, const ReadOptions& options) {
  const fs::path raw = fs::path(dir) / "raw";
  HeteroGraph g;
  g.types = read_vertex_types(ogb::required_csv(raw, "num-node-dict"));
  read_relations(raw, options, g);
  for (VertexType& t : g.types) {
    if (const std::string f = ogb::csv_file(raw / "node-feat" / t.name, "node-feat"); !f.empty())
      t.features = read_dense_rows(f, t.count, &t.feature_dim);
    if (const std::string l = ogb::csv_file(raw / "node-label" / t.name, "node-label"); !l.empty())
      t.labels = read_label_column(l, t.count);
    if (const std::string y = ogb::csv_file(raw / "node_year" / t.name, "node_year"); !y.empty())
      t.times = read_integer_column(y, t.count, "year");
  }
  if (const fs::path scheme = ogb::split_scheme(dir); !scheme.empty())
    for (VertexType& t : g.types) {
      if (!fs::is_directory(scheme / t.name)) continue;
      for (const char* name : {"train", "valid", "test"}) {
        const std::string path = ogb::csv_file(scheme / t.name, name);
        if (path.empty())
          fail((scheme / t.name / (std::string(name) + ".csv.gz")).string(), ": missing (the split needs it)");
        std::vector<int64_t> ids = read_id_list(path, t.count);
        if (!t.labels.empty())
          ids.erase(std::remove_if(ids.begin(), ids.end(), [&](int64_t v) { return t.labels[v] < 0; }), ids.end());
        t.splits[name].assign(ids.begin(), ids.end());
      }
    }
  validate(g, dir);
  return g;
}

}  // namespace matsamp
