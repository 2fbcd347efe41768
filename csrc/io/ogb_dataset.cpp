// OGB node-property datasets in the folders OGB downloads (ogbn_arxiv/, ...):
// raw/ holds the graph in CSV form (edge.csv.gz, num-node-list.csv.gz, ...) or
// in npz form (data.npz, node-label.npz, as ogbn-papers100M ships), split/<scheme>/
// the train/valid/test vertex ids. Edge features (edge-feat.csv.gz, data.npz's
// edge_feat) are rows in the order of the edges, moved with them into the CSR.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "io/dense_text.h"
#include "io/edge_triples.h"
#include "io/graph_io.h"
#include "io/npz.h"
#include "io/ogb_files.h"

namespace matsamp {

namespace ogb {

namespace fs = std::filesystem;

std::string csv_file(const fs::path& dir, const std::string& name) {
  for (const char* ext : {".csv.gz", ".csv"}) {
    const fs::path p = dir / (name + ext);
    if (fs::is_regular_file(p)) return p.string();
  }
  return {};
}

std::string required_csv(const fs::path& dir, const std::string& name) {
  std::string path = csv_file(dir, name);
  if (path.empty()) fail((dir / (name + ".csv.gz")).string(), ": missing (an OGB dataset needs it)");
  return path;
}

fs::path split_scheme(const fs::path& dir) {
  const fs::path split = dir / "split";
  if (!fs::is_directory(split)) return {};
  std::vector<fs::path> schemes;
  for (const auto& entry : fs::directory_iterator(split))
    if (entry.is_directory()) schemes.push_back(entry.path());
  if (schemes.empty()) return {};
  return *std::min_element(schemes.begin(), schemes.end());
}

}  // namespace ogb

namespace {

namespace fs = std::filesystem;
using ogb::csv_file;
using ogb::required_csv;
using ogb::split_scheme;

// The adjacency of the edges (src[i], dst[i]) with, when `edge_dim` > 0, their
// feature rows (row i for edge i) moved to the CSR entries. An edge listed more
// than once is one entry (weights summed) with the row of its first listing.
void set_edges(Graph& g, int64_t n, std::vector<int64_t> src, std::vector<int64_t> dst, std::vector<float> weights,
               const std::vector<float>& edge_rows, int64_t edge_dim) {
  std::vector<int64_t> origin;
  g.adj = csr_from_triples(n, n, std::move(src), std::move(dst), std::move(weights), edge_dim > 0 ? &origin : nullptr);
  if (edge_dim == 0) return;
  g.edge_feature_dim = edge_dim;
  g.edge_features = gather_rows(edge_rows, edge_dim, origin);
}

Graph read_csv_form(const fs::path& raw, const ReadOptions& options) {
  const int64_t n = read_count(required_csv(raw, "num-node-list"));
  check_column_count(n, (raw / "num-node-list.csv.gz").c_str());
  const std::string edges_path = required_csv(raw, "edge");
  EdgeTriples e = read_edge_triples(edges_path, options);
  if (e.max_id >= n)
    fail(edges_path, ": vertex id ", e.max_id, " out of range [0, ", n, ") (num-node-list says ", n, ")");
  const std::string edge_count_path = csv_file(raw, "num-edge-list");
  if (!edge_count_path.empty()) {
    const int64_t declared = read_count(edge_count_path);
    if (declared != static_cast<int64_t>(e.src.size()))
      fail(edges_path, ": ", e.src.size(), " edges, but num-edge-list says ", declared);
  }
  std::vector<float> edge_rows;
  int64_t edge_dim = 0;
  if (const std::string f = csv_file(raw, "edge-feat"); !f.empty())
    edge_rows = read_dense_rows(f, static_cast<int64_t>(e.src.size()), &edge_dim, RowsOf::edges);
  Graph g;
  set_edges(g, n, std::move(e.src), std::move(e.dst), std::move(e.weights), edge_rows, edge_dim);
  if (const std::string f = csv_file(raw, "node-feat"); !f.empty()) g.features = read_dense_rows(f, n, &g.feature_dim);
  if (const std::string l = csv_file(raw, "node-label"); !l.empty()) g.labels = read_label_column(l, n);
  if (const std::string y = csv_file(raw, "node_year"); !y.empty()) g.vertex_times = read_integer_column(y, n, "year");
  return g;
}

std::string field(const std::string& path, const char* name) { return path + ": field " + name; }

int64_t single_count(const NpzReader& in, const char* name) {
  const std::vector<int64_t> v = in.get(name).as_int64(field(in.path(), name));
  if (v.size() != 1) fail(field(in.path(), name), ": ", v.size(), " graphs; only single-graph datasets are supported");
  if (v[0] < 0) fail(field(in.path(), name), ": count ", v[0], " is negative");
  return v[0];
}

Graph read_npz_form(const fs::path& raw) {
  const NpzReader in((raw / "data.npz").string());
  const int64_t n = single_count(in, "num_nodes_list");
  check_column_count(n, field(in.path(), "num_nodes_list").c_str());
  const NpyArray& edge_index = in.get("edge_index");
  if (edge_index.shape.size() != 2 || edge_index.shape[0] != 2)
    fail(field(in.path(), "edge_index"), ": expected shape (2, E)");
  std::vector<int64_t> ends = edge_index.as_int64(field(in.path(), "edge_index"));
  const int64_t m = edge_index.shape[1];
  if (in.contains("num_edges_list") && single_count(in, "num_edges_list") != m)
    fail(field(in.path(), "edge_index"), ": ", m, " edges, but num_edges_list says ",
         single_count(in, "num_edges_list"));
  for (int64_t i = 0; i < 2 * m; ++i)
    if (ends[i] < 0 || ends[i] >= n)
      fail(field(in.path(), "edge_index"), ": vertex id ", ends[i], " at ", i % m, " out of range [0, ", n, ")");
  std::vector<int64_t> src(ends.begin(), ends.begin() + m), dst(ends.begin() + m, ends.end());
  ends = {};
  std::vector<float> edge_rows;
  int64_t edge_dim = 0;
  if (in.contains("edge_feat")) {
    const NpyArray& feat = in.get("edge_feat");
    if (feat.shape.size() != 2 || feat.shape[0] != m || feat.shape[1] < 1)
      fail(field(in.path(), "edge_feat"), ": expected shape (", m, ", d) with d >= 1 (a row per edge)");
    edge_dim = feat.shape[1];
    edge_rows = feat.as_float(field(in.path(), "edge_feat"));
  }
  Graph g;
  set_edges(g, n, std::move(src), std::move(dst), {}, edge_rows, edge_dim);
  if (in.contains("node_feat")) {
    const NpyArray& feat = in.get("node_feat");
    if (feat.shape.size() != 2 || feat.shape[0] != n)
      fail(field(in.path(), "node_feat"), ": expected shape (", n, ", d)");
    g.feature_dim = feat.shape[1];
    g.features = feat.as_float(field(in.path(), "node_feat"));
  }
  const fs::path label_path = raw / "node-label.npz";
  if (fs::exists(label_path)) {
    const NpzReader labels(label_path.string());
    const NpyArray& a = labels.get("node_label");
    if (a.shape.size() == 2 && a.shape[1] != 1)  // first: [n, 2] has the wrong size too
      fail(field(labels.path(), "node_label"), ": ", a.shape[1],
           " label columns; only one label per vertex is supported");
    if (a.size() != n) fail(field(labels.path(), "node_label"), ": ", a.size(), " labels for ", n, " vertices");
    const std::vector<float> values = a.dtype[0] == 'f' ? a.as_float(field(labels.path(), "node_label"))
                                                        : std::vector<float>();
    std::vector<int64_t> ints = values.empty() ? a.as_int64(field(labels.path(), "node_label"))
                                               : std::vector<int64_t>();
    g.labels.resize(n);
    for (int64_t v = 0; v < n; ++v) {
      if (!values.empty() && std::isnan(values[v])) {
        g.labels[v] = -1;
        continue;
      }
      const double x = values.empty() ? static_cast<double>(ints[v]) : values[v];
      if (x < 0 || x != std::floor(x))
        fail(field(labels.path(), "node_label"), ": label ", x, " of vertex ", v, " is not a non-negative integer");
      g.labels[v] = static_cast<int64_t>(x);
    }
  }
  return g;
}

// split/<scheme>/{train,valid,test}; a link dataset's pickled split is left out.
void read_split(const fs::path& dir, Graph& g) {
  const fs::path scheme = split_scheme(dir);
  if (scheme.empty() || (csv_file(scheme, "train").empty() && fs::is_regular_file(scheme / "train.pt"))) return;
  const int64_t n = g.num_vertices();
  for (const char* name : {"train", "valid", "test"}) {
    const std::string path = csv_file(scheme, name);
    if (path.empty()) fail((scheme / (std::string(name) + ".csv.gz")).string(), ": missing (the split needs it)");
    std::vector<int64_t> ids = read_id_list(path, n);
    if (g.has_labels())  // NaN-labelled vertices (papers100M) are in no split
      ids.erase(std::remove_if(ids.begin(), ids.end(), [&](int64_t v) { return g.labels[v] < 0; }), ids.end());
    g.splits[name] = std::move(ids);
  }
}

}  // namespace

bool is_ogb_node_dataset(const std::string& dir) {
  const fs::path raw = fs::path(dir) / "raw";
  return fs::is_directory(raw) && (fs::is_regular_file(raw / "data.npz") || !csv_file(raw, "edge").empty() ||
                                   !csv_file(raw, "num-node-list").empty());
}

std::string ogb_pickled_split(const std::string& dir) {
  const fs::path scheme = split_scheme(dir);
  if (scheme.empty() || !csv_file(scheme, "train").empty() || !fs::is_regular_file(scheme / "train.pt")) return "";
  return (scheme / "train.pt").string();
}

Graph read_ogb_node_dataset(const std::string& dir, const ReadOptions& options) {
  const fs::path raw = fs::path(dir) / "raw";
  if (!fs::is_directory(raw))
    fail(dir, ": not an OGB dataset folder (no raw/ inside; expected raw/edge.csv.gz or raw/data.npz)");
  Graph g = fs::is_regular_file(raw / "data.npz") ? read_npz_form(raw) : read_csv_form(raw, options);
  read_split(dir, g);
  validate(g, dir);
  return g;
}

}  // namespace matsamp
