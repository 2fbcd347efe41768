// Graphs written as OGB node-property datasets in CSV form (what the OGB
// readers read): for tests, benchmarks of ingestion, and handing a dataset to
// tools that read OGB's layout.
#include <algorithm>
#include <filesystem>

#include "io/graph_io.h"
#include "io/hetero_io.h"
#include "io/text_writer.h"

namespace matsamp {

namespace {

namespace fs = std::filesystem;

class OgbFiles {
 public:
  explicit OgbFiles(const OgbWriteOptions& options) : gzip_(options.gzip) {}

  std::string file(const fs::path& folder, const std::string& name) const {
    fs::create_directories(folder);
    return (folder / (name + (gzip_ ? ".csv.gz" : ".csv"))).string();
  }
  void lines(const std::string& path, int64_t count, const std::function<void(int64_t, std::string&)>& format) const {
    write_lines(path, count, format, gzip_);
  }
  void count(const fs::path& folder, const std::string& name, int64_t value) const {
    lines(file(folder, name), 1, [&](int64_t, std::string& out) { append_number(out, value), out += '\n'; });
  }
  // One "a,b" line per nonzero of `m`: (row, column), or (column, row) when `columns_first`.
  void edges(const std::string& path, const CsrMatrix& m, bool columns_first) const {
    lines(path, m.nnz(), [&](int64_t e, std::string& out) {
      const int64_t row = m.row_of_entry(e);  // edge e is the e-th nonzero
      append_number(out, columns_first ? int64_t{m.colidx[e]} : row);
      out += ',';
      append_number(out, columns_first ? row : int64_t{m.colidx[e]});
      out += '\n';
    });
  }
  void features(const std::string& path, const std::vector<float>& values, int64_t rows, int64_t dim) const {
    lines(path, rows, [&](int64_t v, std::string& out) {
      for (int64_t j = 0; j < dim; ++j) {
        if (j) out += ',';
        append_number(out, values[v * dim + j]);
      }
      out += '\n';
    });
  }
  void labels(const std::string& path, const std::vector<int64_t>& labels) const {
    lines(path, static_cast<int64_t>(labels.size()), [&](int64_t v, std::string& out) {
      if (labels[v] < 0) out += "nan";
      else append_number(out, labels[v]);
      out += '\n';
    });
  }
  void splits(const fs::path& folder, const std::map<std::string, std::vector<vid_t>>& sets) const {
    for (const auto& set : sets) {
      const std::vector<vid_t>& ids = set.second;
      lines(file(folder, set.first), static_cast<int64_t>(ids.size()),
            [&](int64_t i, std::string& out) { append_number(out, ids[i]), out += '\n'; });
    }
  }

 private:
  bool gzip_;
};

// Each vertex's time as node_year (ogbn-arxiv's and ogbn-mag's name for it), in `folder`.
void write_vertex_times(const OgbFiles& files, const fs::path& folder, const std::vector<int64_t>& times) {
  files.lines(files.file(folder, "node_year"), static_cast<int64_t>(times.size()),
              [&](int64_t v, std::string& out) { append_number(out, times[v]), out += '\n'; });
}

}  // namespace

void write_ogb_node_dataset(const std::string& dir, const Graph& g, const OgbWriteOptions& options) {
  validate(g, dir);
  const OgbFiles files(options);
  const fs::path raw = fs::path(dir) / "raw";
  files.count(raw, "num-node-list", g.num_vertices());
  files.count(raw, "num-edge-list", g.num_edges());
  files.edges(files.file(raw, "edge"), g.adj, false);
  if (g.has_features()) files.features(files.file(raw, "node-feat"), g.features, g.num_vertices(), g.feature_dim);
  if (g.has_edge_features())  // in edge.csv's order, which is the CSR's
    files.features(files.file(raw, "edge-feat"), g.edge_features, g.num_edges(), g.edge_feature_dim);
  if (g.has_labels()) files.labels(files.file(raw, "node-label"), g.labels);
  if (g.has_vertex_times()) write_vertex_times(files, raw, g.vertex_times);
  if (!g.splits.empty()) files.splits(fs::path(dir) / "split" / options.split_scheme, g.splits);
}

void write_ogb_hetero_dataset(const std::string& dir, const HeteroGraph& g, const OgbWriteOptions& options) {
  validate(g, dir);
  const OgbFiles files(options);
  const fs::path raw = fs::path(dir) / "raw";
  files.lines(files.file(raw, "num-node-dict"), 2, [&](int64_t line, std::string& out) {
    for (size_t t = 0; t < g.types.size(); ++t) {
      if (t) out += ',';
      if (line == 0) out += g.types[t].name;
      else append_number(out, g.types[t].count);
    }
    out += '\n';
  });
  for (const Relation& r : g.relations) {
    const fs::path folder = raw / "relations" / (r.source + "___" + r.name + "___" + r.destination);
    files.count(folder, "num-edge-list", r.adj.nnz());
    files.edges(files.file(folder, "edge"), r.adj, true);  // A_r is |dst| x |src|; the file lists src,dst
  }
  for (const VertexType& t : g.types) {
    if (t.feature_dim > 0)
      files.features(files.file(raw / "node-feat" / t.name, "node-feat"), t.features, t.count, t.feature_dim);
    if (!t.labels.empty()) files.labels(files.file(raw / "node-label" / t.name, "node-label"), t.labels);
    if (!t.times.empty()) write_vertex_times(files, raw / "node_year" / t.name, t.times);
    if (!t.splits.empty()) files.splits(fs::path(dir) / "split" / options.split_scheme / t.name, t.splits);
  }
}

}  // namespace matsamp
