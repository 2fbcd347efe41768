// A graph written as an OGB node-property dataset in CSV form (what
// read_ogb_node_dataset reads): for tests, benchmarks of ingestion, and
// handing a dataset to tools that read OGB's layout.
#include <algorithm>
#include <filesystem>

#include "io/graph_io.h"
#include "io/text_writer.h"

namespace matsamp {

void write_ogb_node_dataset(const std::string& dir, const Graph& g, const OgbWriteOptions& options) {
  validate(g, dir);
  namespace fs = std::filesystem;
  const fs::path raw = fs::path(dir) / "raw";
  fs::create_directories(raw);
  const std::string ext = options.gzip ? ".csv.gz" : ".csv";
  auto file = [&](const fs::path& folder, const std::string& name) { return (folder / (name + ext)).string(); };
  auto count = [&](const std::string& name, int64_t value) {
    write_lines(
        file(raw, name), 1, [&](int64_t, std::string& out) { append_number(out, value), out += '\n'; }, options.gzip);
  };
  const CsrMatrix& a = g.adj;
  count("num-node-list", g.num_vertices());
  count("num-edge-list", g.num_edges());
  // Edge e is the e-th nonzero: its row is found by a search in rowptr.
  write_lines(
      file(raw, "edge"), a.nnz(),
      [&](int64_t e, std::string& out) {
        const int64_t row = std::upper_bound(a.rowptr.begin(), a.rowptr.end(), e) - a.rowptr.begin() - 1;
        append_number(out, row);
        out += ',';
        append_number(out, int64_t{a.colidx[e]});
        out += '\n';
      },
      options.gzip);
  if (g.has_features())
    write_lines(
        file(raw, "node-feat"), g.num_vertices(),
        [&](int64_t v, std::string& out) {
          const float* row = g.features.data() + v * g.feature_dim;
          for (int64_t j = 0; j < g.feature_dim; ++j) {
            if (j) out += ',';
            append_number(out, row[j]);
          }
          out += '\n';
        },
        options.gzip);
  if (g.has_labels())
    write_lines(
        file(raw, "node-label"), g.num_vertices(),
        [&](int64_t v, std::string& out) {
          if (g.labels[v] < 0) out += "nan";
          else append_number(out, g.labels[v]);
          out += '\n';
        },
        options.gzip);
  if (g.splits.empty()) return;
  const fs::path split = fs::path(dir) / "split" / options.split_scheme;
  fs::create_directories(split);
  for (const auto& set : g.splits) {
    const std::vector<vid_t>& ids = set.second;
    write_lines(
        file(split, set.first), static_cast<int64_t>(ids.size()),
        [&](int64_t i, std::string& out) { append_number(out, ids[i]), out += '\n'; }, options.gzip);
  }
}

}  // namespace matsamp
