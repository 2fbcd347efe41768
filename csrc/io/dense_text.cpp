#include "io/dense_text.h"

#include <algorithm>
#include <cmath>

#include "io/text_reader.h"

namespace matsamp {

std::vector<float> read_dense_rows(const std::string& path, int64_t rows, int64_t* dim, RowsOf of) {
  const char* one = of == RowsOf::edges ? "edge" : "vertex";
  const char* many = of == RowsOf::edges ? "edges" : "vertices";
  int64_t d = -1;
  {  // the width, from the first line
    TextReader first(path, Fields::csv);
    if (!first.next_line() || first.tokens().empty()) fail(path, ": no feature rows (", rows, " expected)");
    d = static_cast<int64_t>(first.tokens().size());
  }
  int64_t values = 0;
  if (__builtin_mul_overflow(rows, d, &values) || values > (int64_t{1} << 40))
    fail(path, ": ", rows, " rows of ", d, " features are more than this reader takes");
  std::vector<float> out(static_cast<size_t>(values));
  int64_t rows_read = 0;
  parse_in_parallel(
      path, Fields::csv,
      [&](LineCursor& in, int, const LinePieces& cut) {
        (void)cut;
        while (in.next_line()) {
          const int64_t row = in.line_number() - 1;
          if (row >= rows) in.fail_here("more than the ", rows, " feature rows expected (one per ", one, ")");
          const auto& t = in.tokens();
          if (static_cast<int64_t>(t.size()) != d)
            in.fail_here("expected ", d, " feature values (as on line 1), found ", t.size());
          float* dst = out.data() + row * d;
          for (int64_t j = 0; j < d; ++j) dst[j] = in.real(t[j], "feature value");
        }
      },
      [&](const LinePieces& cut) { rows_read = cut.first_line.back() + cut.lines.back() - 1; });
  if (rows_read != rows) fail(path, ": ", rows_read, " feature rows for ", rows, " ", many);
  *dim = d;
  return out;
}

std::vector<int64_t> read_label_column(const std::string& path, int64_t rows) {
  TextReader in(path, Fields::csv);
  std::vector<int64_t> labels;
  labels.reserve(static_cast<size_t>(std::min<int64_t>(rows, int64_t{1} << 24)));
  while (in.next_line()) {
    if (static_cast<int64_t>(labels.size()) == rows)
      in.fail_here("more than the ", rows, " labels expected (one per vertex)");
    const auto& t = in.tokens();
    if (t.size() > 1) in.fail_here(t.size(), " label columns; only one label per vertex is supported");
    if (t.empty() || LineCursor::is_nan(t[0])) {
      labels.push_back(-1);
      continue;
    }
    const bool digits = std::all_of(t[0].begin(), t[0].end(), [](char c) { return c >= '0' && c <= '9'; });
    const double value = digits ? static_cast<double>(in.integer(t[0], "label")) : in.real(t[0], "label");
    if (value < 0 || value != std::floor(value) || value > 1e9)
      in.fail_here("label ", t[0], " is not a non-negative integer (NaN marks unlabelled)");
    labels.push_back(static_cast<int64_t>(value));
  }
  if (static_cast<int64_t>(labels.size()) != rows) fail(path, ": ", labels.size(), " labels for ", rows, " vertices");
  return labels;
}

std::vector<int64_t> read_integer_column(const std::string& path, int64_t rows, const char* what) {
  TextReader in(path, Fields::csv);
  std::vector<int64_t> values;
  values.reserve(static_cast<size_t>(std::min<int64_t>(rows, int64_t{1} << 24)));
  while (in.next_line()) {
    if (static_cast<int64_t>(values.size()) == rows)
      in.fail_here("more than the ", rows, " ", what, " values expected (one per vertex)");
    const auto& t = in.tokens();
    if (t.size() != 1) in.fail_here(t.size(), " columns; one ", what, " per vertex expected");
    values.push_back(in.integer(t[0], what));
  }
  if (static_cast<int64_t>(values.size()) != rows)
    fail(path, ": ", values.size(), " ", what, " values for ", rows, " vertices");
  return values;
}

std::vector<int64_t> read_id_list(const std::string& path, int64_t bound) {
  TextReader in(path, Fields::csv);
  std::vector<int64_t> ids;
  while (in.next_data_line("#")) {
    if (in.tokens().size() != 1) in.fail_here("expected one vertex id, found ", in.tokens().size(), " fields");
    const int64_t id = in.integer(in.tokens()[0], "vertex id");
    if (id < 0 || id >= bound) in.fail_here("vertex id ", id, " out of range [0, ", bound, ")");
    ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

int64_t read_count(const std::string& path) {
  TextReader in(path, Fields::csv);
  if (!in.next_data_line("#") || in.tokens().empty()) fail(path, ": empty (expected a count)");
  const int64_t count = in.integer(in.tokens()[0], "count");
  if (count < 0) in.fail_here("count ", count, " is negative");
  if (in.next_data_line("#")) in.fail_here("more than one graph; only single-graph datasets are supported");
  return count;
}

}  // namespace matsamp
