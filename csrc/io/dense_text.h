// Column files of datasets (OGB's CSV form): dense feature rows, labels, id
// lists and single counts, one line per item, plain or gzip.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace matsamp {

// What the rows of a dense file belong to, for the messages that count them.
enum class RowsOf { vertices, edges };
// `rows` lines of the same number of comma- or blank-separated finite numbers;
// returns them row-major and sets *dim. Parsed in parallel, straight into place.
std::vector<float> read_dense_rows(const std::string& path, int64_t rows, int64_t* dim, RowsOf of = RowsOf::vertices);
// One label per line for `rows` vertices: a non-negative integer (written as
// such or as a float with no fraction, "3.0"), or NaN / empty for unlabelled (-1).
std::vector<int64_t> read_label_column(const std::string& path, int64_t rows);
// One integer per line and row (what = its name in errors: "year"), exactly `rows` lines.
std::vector<int64_t> read_integer_column(const std::string& path, int64_t rows, const char* what);
// One vertex id per line, each in [0, bound); returned ascending without repeats.
std::vector<int64_t> read_id_list(const std::string& path, int64_t bound);
// The first number of a file holding one count (num-node-list.csv.gz).
int64_t read_count(const std::string& path);

}  // namespace matsamp
