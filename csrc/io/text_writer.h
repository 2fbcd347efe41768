// Writing line-oriented text files, plain or gzip, formatted and compressed in
// parallel: chunks of lines become independent gzip members (as pigz writes
// them; gunzip and every zlib reader take the concatenation as one stream).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace matsamp {

// Writes `lines` lines, line i appended to `out` by format(i, out) (with its
// '\n'), to `path` through a temporary file renamed into place.
void write_lines(const std::string& path, int64_t lines, const std::function<void(int64_t, std::string&)>& format,
                 bool gzip);

// Appends the shortest decimal text that reads back as `value` / `value`.
void append_number(std::string& out, int64_t value);
void append_number(std::string& out, float value);

}  // namespace matsamp
