// SNAP-style edge lists ("src dst [weight]") and "vertex label" files.
#include <algorithm>
#include <limits>

#include "io/graph_io.h"
#include "io/text_reader.h"

namespace matsamp {
namespace {

constexpr const char* kCommentChars = "#%";

// A 0-based vertex id that keeps n = 1 + id within 32-bit column ids.
int64_t read_vertex_id(const TextReader& in, std::string_view token) {
  const int64_t id = in.integer(token, "vertex id");
  if (id < 0) in.fail_here("vertex id ", id, " is negative");
  if (id >= std::numeric_limits<col_t>::max())
    in.fail_here("vertex id ", id, " does not fit 32-bit column ids (limit 2^31 - 2)");
  return id;
}

}  // namespace

Graph read_edge_list(const std::string& path) {
  TextReader in(path);
  std::vector<int64_t> src, dst;
  std::vector<float> weights;  // stays empty while no line carries a weight
  int64_t max_id = -1;
  while (in.next_data_line(kCommentChars)) {
    const auto& t = in.tokens();
    if (t.size() != 2 && t.size() != 3)
      in.fail_here("expected 'src dst' or 'src dst weight', found ", t.size(), " fields");
    const int64_t u = read_vertex_id(in, t[0]), v = read_vertex_id(in, t[1]);
    if (t.size() == 3) {
      if (weights.empty()) weights.assign(src.size(), 1.0f);
      weights.push_back(in.weight(t[2]));
    } else if (!weights.empty()) {
      weights.push_back(1.0f);
    }
    src.push_back(u);
    dst.push_back(v);
    max_id = std::max({max_id, u, v});
  }
  Graph g;
  g.adj = csr_from_triples(max_id + 1, max_id + 1, std::move(src), std::move(dst), std::move(weights));
  return g;
}

void read_vertex_labels(const std::string& path, Graph& g) {
  TextReader in(path);
  const int64_t n = g.num_vertices();
  std::vector<int64_t> labels(n, -1);
  std::vector<bool> listed(n, false);
  while (in.next_data_line(kCommentChars)) {
    const auto& t = in.tokens();
    if (t.size() != 2) in.fail_here("expected 'vertex label', found ", t.size(), " fields");
    const int64_t v = in.integer(t[0], "vertex id");
    if (v < 0 || v >= n) in.fail_here("vertex id ", v, " out of range [0, ", n, ")");
    const int64_t label = in.integer(t[1], "label");
    if (label < -1) in.fail_here("label ", label, " is negative (-1 marks unlabelled)");
    if (listed[v]) in.fail_here("vertex ", v, " is listed twice");
    listed[v] = true;
    labels[v] = label;
  }
  g.labels = std::move(labels);
}

}  // namespace matsamp
