// Matrix Market coordinate files as graphs (https://math.nist.gov/MatrixMarket/formats.html).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "io/graph_io.h"
#include "io/text_reader.h"

namespace matsamp {
namespace {

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

struct MatrixMarketHeader {
  bool pattern = false;    // no value column; every entry weighs 1
  bool integer = false;    // values must be integers
  bool complex = false;    // two value columns (real, imaginary)
  bool symmetric = false;  // only one triangle stored; mirror off-diagonal entries
};

MatrixMarketHeader parse_header(TextReader& in) {
  if (!in.next_line() || in.tokens().empty() || lowercase(in.tokens()[0]) != "%%matrixmarket")
    in.fail_here("not a Matrix Market file (first line must start with %%MatrixMarket)");
  const auto& t = in.tokens();
  if (t.size() != 5) in.fail_here("header needs 4 words after %%MatrixMarket (matrix coordinate <field> <symmetry>)");
  if (lowercase(t[1]) != "matrix") in.fail_here("unsupported object '", t[1], "' (need matrix)");
  const std::string format = lowercase(t[2]), field = lowercase(t[3]), symmetry = lowercase(t[4]);
  if (format == "array") in.fail_here("dense array format is not supported (need coordinate)");
  if (format != "coordinate") in.fail_here("unknown format '", t[2], "' (need coordinate)");
  MatrixMarketHeader h;
  if (field == "pattern") h.pattern = true;
  else if (field == "integer") h.integer = true;
  else if (field == "complex") h.complex = true;
  else if (field != "real" && field != "double") in.fail_here("unknown field '", t[3], "'");
  if (symmetry == "symmetric") h.symmetric = true;
  else if (symmetry == "hermitian" || symmetry == "skew-symmetric")
    in.fail_here(symmetry, " matrices are not supported (need general or symmetric)");
  else if (symmetry != "general") in.fail_here("unknown symmetry '", t[4], "'");
  return h;
}

// The weight of the entry on the current line: its value (integer or real), or
// with --values abs the magnitude of its real or complex value.
float entry_value(const TextReader& in, const MatrixMarketHeader& header, ValueMode mode) {
  const auto& t = in.tokens();
  if (mode == ValueMode::given && header.integer) {
    const int64_t w = in.integer(t[2], "value");
    if (w < 0)
      in.fail_here("weight ", w, " is negative; read the pattern (--values pattern) or magnitudes (--values abs)");
    return static_cast<float>(w);
  }
  if (mode == ValueMode::given) return in.weight(t[2]);
  const double re = in.real(t[2], "value"), im = header.complex ? in.real(t[3], "imaginary part") : 0.0;
  const double magnitude = std::hypot(re, im);
  if (magnitude > 3.4e38) in.fail_here("magnitude ", magnitude, " does not fit a 32-bit float");
  return static_cast<float>(magnitude);
}

}  // namespace

Graph read_matrix_market(const std::string& path, const ReadOptions& options) {
  TextReader in(path);
  MatrixMarketHeader header = parse_header(in);
  if (header.complex && options.values == ValueMode::given)
    in.fail_here(
        "complex values are not edge weights; read the pattern (--values pattern) or magnitudes "
        "(--values abs)");

  if (!in.next_data_line("%")) in.fail_here("file ends before the size line");
  if (in.tokens().size() != 3) in.fail_here("size line must be 'rows cols entries'");
  const int64_t rows = in.integer(in.tokens()[0], "row count");
  const int64_t cols = in.integer(in.tokens()[1], "column count");
  const int64_t declared = in.integer(in.tokens()[2], "entry count");
  if (rows < 0 || cols < 0 || declared < 0) in.fail_here("negative size");
  if (rows != cols) in.fail_here("matrix is ", rows, " x ", cols, "; a graph needs a square matrix");
  if (rows > std::numeric_limits<col_t>::max()) in.fail_here(rows, " vertices do not fit 32-bit column ids");

  const size_t expected_fields = header.pattern ? 2 : header.complex ? 4 : 3;
  const bool keep_values = !header.pattern && options.values != ValueMode::pattern;
  // An entry takes at least two bytes a field ("1 1\n"): a count the file
  // cannot hold is forged or truncated, and refused before anything is allocated.
  const uint64_t can_hold = in.source().max_text_bytes() / (2 * expected_fields);
  if (static_cast<uint64_t>(declared) > can_hold)
    in.fail_here(declared, " entries declared, but the file can hold at most ", can_hold, " (",
                 in.source().compressed() ? "gzip, " : "", in.source().max_text_bytes(), " bytes of text)");
  // Reserve what the header declares, up to a cap (a count the file allows may
  // still be far more than it holds).
  const size_t capacity = static_cast<size_t>(std::min<int64_t>(declared, int64_t{1} << 22)) *
                          (header.symmetric ? 2 : 1);
  std::vector<int64_t> row_ids, col_ids;
  std::vector<float> values;
  row_ids.reserve(capacity);
  col_ids.reserve(capacity);
  if (keep_values) values.reserve(capacity);

  int64_t seen = 0, last_entry_line = 0;
  while (in.next_data_line("%")) {
    last_entry_line = in.line_number();
    if (seen == declared) in.fail_here("more entries than the ", declared, " declared");
    const auto& t = in.tokens();
    if (t.size() != expected_fields) in.fail_here("expected ", expected_fields, " fields, found ", t.size());
    const int64_t i = in.integer(t[0], "row id"), j = in.integer(t[1], "column id");
    for (int64_t id : {i, j})
      if (id < 1 || id > rows) in.fail_here("vertex id ", id, " out of range [1, ", rows, "]");
    const float v = keep_values ? entry_value(in, header, options.values) : 1.0f;
    row_ids.push_back(i - 1);
    col_ids.push_back(j - 1);
    if (keep_values) values.push_back(v);
    if (header.symmetric && i != j) {
      row_ids.push_back(j - 1);
      col_ids.push_back(i - 1);
      if (keep_values) values.push_back(v);
    }
    ++seen;
  }
  if (seen < declared) in.fail_here("truncated: ", declared, " entries declared, file ends after ", seen);
  // The count cannot tell a last value cut short ("0.5" to "0."); every writer
  // ends an entry with its line end, so a plain file without one is taken as cut.
  if (seen > 0 && !in.source().compressed() && in.source().ends_inside_a_line())
    fail(path, ":", last_entry_line, ": the file ends inside its last entry (no line end): it looks cut");

  Graph g;
  g.adj = csr_from_triples(rows, cols, std::move(row_ids), std::move(col_ids), std::move(values));
  return g;
}

}  // namespace matsamp
