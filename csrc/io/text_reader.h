// Lines and fields of the text formats (Matrix Market, edge lists and CSV, label,
// feature and id files), plain or gzip. Every error it raises starts with
// "path:line: ".
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "io/text_source.h"

namespace matsamp {

// Blanks separate fields ('\r' among them: CRLF files, and SNAP files ending
// lines in "\r\r\n"). With Fields::csv a line holding a comma is split at each
// comma instead (blanks around a field trimmed, empty fields kept).
constexpr std::string_view kBlanks = " \t\r\v\f";
enum class Fields { blanks, csv };

// The lines of one piece of text, whose first line is line `first_line` of `path`.
class LineCursor {
 public:
  LineCursor(std::string_view text, const std::string& path, int64_t first_line, Fields fields);

  // Moves to the next line and splits it into fields; false at the end of the text.
  bool next_line();
  // Like next_line but skips blank lines and lines whose first field starts with
  // one of `comment_chars`.
  bool next_data_line(std::string_view comment_chars);

  std::string_view line() const { return line_; }
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  int64_t line_number() const { return line_number_; }
  const std::string& path() const { return *path_; }

  template <class... Args>
  [[noreturn]] void fail_here(const Args&... args) const {
    fail(path(), ":", line_number_, ": ", args...);
  }

  // Parses a whole field as a decimal integer; `what` names it in the error.
  int64_t integer(std::string_view token, const char* what) const;
  // Parses a whole field as a finite, non-negative edge weight.
  float weight(std::string_view token) const;
  // Parses a whole field as a finite number (a feature value); `what` names it.
  float real(std::string_view token, const char* what) const;
  // True when the field is NaN as text writes it ("nan", "NaN", empty): an unknown value.
  static bool is_nan(std::string_view token);

 private:
  std::string_view text_;
  const std::string* path_;
  bool commas_;
  size_t pos_ = 0;
  int64_t line_number_;
  std::string_view line_;
  std::vector<std::string_view> tokens_;
};

// A whole file line by line, one block in memory at a time.
class TextReader {
 public:
  explicit TextReader(const std::string& path, Fields fields = Fields::blanks);

  bool next_line();
  bool next_data_line(std::string_view comment_chars);
  const LineCursor& cursor() const { return cursor_; }
  std::string_view line() const { return cursor_.line(); }
  const std::vector<std::string_view>& tokens() const { return cursor_.tokens(); }
  int64_t line_number() const { return cursor_.line_number(); }
  const std::string& path() const { return source_.path(); }
  template <class... Args>
  [[noreturn]] void fail_here(const Args&... args) const {
    cursor_.fail_here(args...);
  }
  int64_t integer(std::string_view token, const char* what) const { return cursor_.integer(token, what); }
  float weight(std::string_view token) const { return cursor_.weight(token); }
  float real(std::string_view token, const char* what) const { return cursor_.real(token, what); }
  TextSource& source() { return source_; }

 private:
  bool next_block();
  TextSource source_;
  Fields fields_;
  LineCursor cursor_;
};

// One block of a file cut into pieces of whole lines, one per thread, each with
// the number of its first line and of its lines (the newlines it ends).
struct LinePieces {
  std::vector<std::string_view> text;
  std::vector<int64_t> first_line, lines;
};
LinePieces cut_into_pieces(std::string_view block, int64_t first_line, int pieces);

// Formats without a count cannot tell a file cut inside its last line from one
// written without its final line end (SNAP's files): at the end of a plain
// (not gzip) source that ends inside a line, a warning on stderr names the file
// and its last line.
void warn_if_cut(const TextSource& source, int64_t last_line);

// Reads `path` block by block; each block is cut into one piece per thread and
// parse(cursor, piece, pieces) runs on every piece in parallel; then merge(pieces)
// runs on this thread, in file order (per-piece outputs go into slots indexed by
// `piece`). The first error, in file order, is rethrown. A plain file that ends
// inside its last line gets a warning (warn_if_cut).
template <class Parse, class Merge>
void parse_in_parallel(const std::string& path, Fields fields, Parse parse, Merge merge) {
  TextSource source(path);
  const int threads = std::max(1, omp_get_max_threads());
  int64_t next_line = 1;
  for (std::string_view block; !(block = source.next_block()).empty();) {
    const LinePieces pieces = cut_into_pieces(block, next_line, threads);
    const int count = static_cast<int>(pieces.text.size());
    std::vector<std::exception_ptr> errors(count);
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int p = 0; p < count; ++p) {
      try {
        LineCursor cursor(pieces.text[p], source.path(), pieces.first_line[p], fields);
        parse(cursor, p, pieces);
      } catch (...) {
        errors[p] = std::current_exception();
      }
    }
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
    merge(pieces);
    next_line = pieces.first_line.back() + pieces.lines.back();
  }
  warn_if_cut(source, next_line - 1);  // the last piece counts its unended line
}

}  // namespace matsamp
