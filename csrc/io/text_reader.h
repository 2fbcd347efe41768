// Line reader and tokenizer shared by the text formats (Matrix Market, edge lists,
// label files). Every error it raises starts with "path:line: ".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "io/mapped_file.h"

namespace matsamp {

class TextReader {
 public:
  explicit TextReader(const std::string& path);  // throws "cannot open <path>: ..."

  // Moves to the next line and splits it on blanks (space, tab, CR); false at end of file.
  bool next_line();
  // Like next_line but skips blank lines and lines whose first token starts with
  // one of `comment_chars`.
  bool next_data_line(std::string_view comment_chars);

  std::string_view line() const { return line_; }
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  int64_t line_number() const { return line_number_; }
  const std::string& path() const { return file_.path(); }

  template <class... Args>
  [[noreturn]] void fail_here(const Args&... args) const {
    fail(path(), ":", line_number_, ": ", args...);
  }

  // Parses a whole token as a decimal integer; `what` names it in the error.
  int64_t integer(std::string_view token, const char* what) const;
  // Parses a whole token as a finite, non-negative edge weight.
  float weight(std::string_view token) const;

 private:
  MappedFile file_;
  size_t pos_ = 0;
  int64_t line_number_ = 0;
  std::string_view line_;
  std::vector<std::string_view> tokens_;
};

}  // namespace matsamp
