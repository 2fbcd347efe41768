// Edge lists ("src dst [weight]", SNAP or CSV) and "vertex label" files.
#include <algorithm>
#include <cmath>
#include <limits>

#include "io/edge_triples.h"
#include "io/text_reader.h"

namespace matsamp {
namespace {

constexpr const char* kCommentChars = "#%";

// A 0-based vertex id that keeps n = 1 + id within 32-bit column ids.
int64_t read_vertex_id(const LineCursor& in, std::string_view token) {
  const int64_t id = in.integer(token, "vertex id");
  if (id < 0) in.fail_here("vertex id ", id, " is negative");
  if (id >= std::numeric_limits<col_t>::max())
    in.fail_here("vertex id ", id, " does not fit 32-bit column ids (limit 2^31 - 2)");
  return id;
}

// A header names its columns: neither of its first two fields is empty or starts like a number.
bool is_header(const std::vector<std::string_view>& t) {
  auto word = [](std::string_view f) {
    return !f.empty() && !(f.front() >= '0' && f.front() <= '9') && f.front() != '+' && f.front() != '-' &&
           f.front() != '.';
  };
  return t.size() >= 2 && word(t[0]) && word(t[1]);
}

// The edges one piece of the file holds.
struct EdgePiece {
  std::vector<int64_t> src, dst;
  std::vector<float> weights;  // one per edge once any line of the piece carries one
  int64_t max_id = -1;
};

// `at_file_start`: the piece begins the file, so its first data line may be a
// header ("src,dst", "source target weight").
void parse_edges(LineCursor& in, EdgePiece& out, ValueMode values, bool at_file_start) {
  out = EdgePiece{};
  bool first = at_file_start;
  while (in.next_data_line(kCommentChars)) {
    const auto& t = in.tokens();
    const bool header = first && is_header(t);
    first = false;
    if (header) continue;
    if (t.size() != 2 && t.size() != 3)
      in.fail_here("expected 'src dst' or 'src dst weight', found ", t.size(), " fields");
    const int64_t u = read_vertex_id(in, t[0]), v = read_vertex_id(in, t[1]);
    if (t.size() == 3 && values != ValueMode::pattern) {
      if (out.weights.empty()) out.weights.assign(out.src.size(), 1.0f);
      out.weights.push_back(values == ValueMode::abs ? std::fabs(in.real(t[2], "weight")) : in.weight(t[2]));
    } else if (!out.weights.empty()) {
      out.weights.push_back(1.0f);
    }
    out.src.push_back(u);
    out.dst.push_back(v);
    out.max_id = std::max({out.max_id, u, v});
  }
}

}  // namespace

ValueMode parse_value_mode(const std::string& text) {
  if (text == "given") return ValueMode::given;
  if (text == "pattern") return ValueMode::pattern;
  if (text == "abs") return ValueMode::abs;
  fail("unknown value mode '", text, "' (given, pattern or abs)");
}

EdgeTriples read_edge_triples(const std::string& path, const ReadOptions& options) {
  EdgeTriples all;
  std::vector<int64_t>&src = all.src, &dst = all.dst;
  std::vector<float>& weights = all.weights;
  int64_t& max_id = all.max_id;
  std::vector<EdgePiece> pieces(std::max(1, omp_get_max_threads()));
  parse_in_parallel(
      path, Fields::csv,
      [&](LineCursor& in, int p, const LinePieces& cut) {
        parse_edges(in, pieces[p], options.values, cut.first_line[p] == 1);
      },
      [&](const LinePieces& cut) {
        for (size_t p = 0; p < cut.text.size(); ++p) {
          EdgePiece& piece = pieces[p];
          if (!piece.weights.empty() && weights.empty()) weights.assign(src.size(), 1.0f);
          if (!weights.empty() && piece.weights.empty()) piece.weights.assign(piece.src.size(), 1.0f);
          src.insert(src.end(), piece.src.begin(), piece.src.end());
          dst.insert(dst.end(), piece.dst.begin(), piece.dst.end());
          weights.insert(weights.end(), piece.weights.begin(), piece.weights.end());
          max_id = std::max(max_id, piece.max_id);
          piece = EdgePiece{};
        }
      });
  return all;
}

Graph read_edge_list(const std::string& path, const ReadOptions& options) {
  EdgeTriples e = read_edge_triples(path, options);
  Graph g;
  g.adj = csr_from_triples(e.max_id + 1, e.max_id + 1, std::move(e.src), std::move(e.dst), std::move(e.weights));
  return g;
}

namespace {

// "vertex value" lines for n vertices, each vertex at most once: the values
// (`unlisted` where a vertex has no line), checked by check(line, value).
template <class Check>
std::vector<int64_t> read_vertex_values(const std::string& path, int64_t n, const char* name, int64_t unlisted,
                                        Check check, std::vector<bool>& listed) {
  TextReader in(path, Fields::csv);
  std::vector<int64_t> values(n, unlisted);
  listed.assign(n, false);
  while (in.next_data_line(kCommentChars)) {
    const auto& t = in.tokens();
    if (t.size() != 2) in.fail_here("expected 'vertex ", name, "', found ", t.size(), " fields");
    const int64_t v = in.integer(t[0], "vertex id");
    if (v < 0 || v >= n) in.fail_here("vertex id ", v, " out of range [0, ", n, ")");
    const int64_t value = in.integer(t[1], name);
    check(in, value);
    if (listed[v]) in.fail_here("vertex ", v, " is listed twice");
    listed[v] = true;
    values[v] = value;
  }
  return values;
}

}  // namespace

void read_vertex_labels(const std::string& path, Graph& g) {
  std::vector<bool> listed;
  g.labels = read_vertex_values(
      path, g.num_vertices(), "label", -1,
      [](auto& in, int64_t label) {
        if (label < -1) in.fail_here("label ", label, " is negative (-1 marks unlabelled)");
      },
      listed);
}

std::vector<int64_t> read_vertex_times(const std::string& path, int64_t n) {
  std::vector<bool> listed;
  std::vector<int64_t> times = read_vertex_values(
      path, n, "time", 0, [](auto&, int64_t) {}, listed);
  const auto missing = std::find(listed.begin(), listed.end(), false);
  MATSAMP_CHECK(missing == listed.end(), path, ": vertex ", missing - listed.begin(), " has no time (", n,
                " vertices, one 'vertex time' line each)");
  return times;
}

}  // namespace matsamp
