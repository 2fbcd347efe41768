#include "io/text_reader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace matsamp {

LineCursor::LineCursor(std::string_view text, const std::string& path, int64_t first_line, Fields fields)
    : text_(text), path_(&path), commas_(fields == Fields::csv), line_number_(first_line - 1) {}

bool LineCursor::next_line() {
  if (pos_ >= text_.size()) return false;
  const char* begin = text_.data() + pos_;
  const size_t left = text_.size() - pos_;
  const char* newline = static_cast<const char*>(std::memchr(begin, '\n', left));
  const size_t length = newline ? static_cast<size_t>(newline - begin) : left;
  pos_ += newline ? length + 1 : length;
  line_ = std::string_view(begin, length);
  ++line_number_;

  tokens_.clear();
  auto blank = [](char ch) { return kBlanks.find(ch) != std::string_view::npos; };
  if (commas_ && line_.find(',') != std::string_view::npos) {  // CSV: a comma ends each field, blanks trimmed
    for (size_t start = 0;;) {
      const size_t comma = std::min(line_.find(',', start), line_.size());
      size_t a = start, b = comma;
      while (a < b && blank(line_[a])) ++a;
      while (b > a && blank(line_[b - 1])) --b;
      tokens_.push_back(line_.substr(a, b - a));
      if (comma == line_.size()) break;
      start = comma + 1;
    }
    return true;
  }
  size_t i = 0;
  while (i < line_.size()) {
    while (i < line_.size() && blank(line_[i])) ++i;
    const size_t start = i;
    while (i < line_.size() && !blank(line_[i])) ++i;
    if (i > start) tokens_.push_back(line_.substr(start, i - start));
  }
  return true;
}

bool LineCursor::next_data_line(std::string_view comment_chars) {
  while (next_line()) {
    if (tokens_.empty()) continue;
    if (!tokens_.front().empty() && comment_chars.find(tokens_.front().front()) != std::string_view::npos) continue;
    return true;
  }
  return false;
}

int64_t LineCursor::integer(std::string_view token, const char* what) const {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range) fail_here(what, " '", token, "' is too large");
  if (ec != std::errc() || end != token.data() + token.size()) fail_here(what, " '", token, "' is not an integer");
  return value;
}

namespace {

// A whole field as a double; false unless all of it is a number.
bool parse_double(std::string_view token, double* value, bool* out_of_range) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), *value);
  *out_of_range = ec == std::errc::result_out_of_range;
  return ec == std::errc() && end == token.data() + token.size();
}

}  // namespace

float LineCursor::weight(std::string_view token) const {
  double value = 0;
  bool out_of_range = false;
  const bool ok = parse_double(token, &value, &out_of_range);
  if (out_of_range) fail_here("weight ", token, " is not a finite non-negative number");
  if (!ok) fail_here("weight '", token, "' is not a number");
  if (!std::isfinite(value) || value > 3.4e38) fail_here("weight ", token, " is not a finite non-negative number");
  if (value < 0)
    fail_here("weight ", token, " is negative; read the pattern (--values pattern) or magnitudes (--values abs)");
  return static_cast<float>(value);
}

float LineCursor::real(std::string_view token, const char* what) const {
  float value = 0;
  std::string_view digits = token;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && !std::isfinite(value)))
    fail_here(what, " ", token, " is not a finite 32-bit float");
  if (ec != std::errc() || end != digits.data() + digits.size()) fail_here(what, " '", token, "' is not a number");
  return value;
}

bool LineCursor::is_nan(std::string_view token) {
  if (token.empty()) return true;
  if (token.front() == '+' || token.front() == '-') token.remove_prefix(1);
  return token.size() == 3 && (token[0] | 0x20) == 'n' && (token[1] | 0x20) == 'a' && (token[2] | 0x20) == 'n';
}

TextReader::TextReader(const std::string& path, Fields fields)
    : source_(path), fields_(fields), cursor_({}, source_.path(), 1, fields) {}

bool TextReader::next_block() {
  const std::string_view block = source_.next_block();
  if (block.empty()) return false;
  cursor_ = LineCursor(block, source_.path(), cursor_.line_number() + 1, fields_);
  return true;
}

bool TextReader::next_line() {
  while (!cursor_.next_line())
    if (!next_block()) return false;
  return true;
}

bool TextReader::next_data_line(std::string_view comment_chars) {
  for (;;) {
    if (cursor_.next_data_line(comment_chars)) return true;
    if (!next_block()) return false;
  }
}

LinePieces cut_into_pieces(std::string_view block, int64_t first_line, int pieces) {
  LinePieces out;
  size_t start = 0;
  for (int p = 0; p < pieces && start < block.size(); ++p) {
    size_t end = p + 1 == pieces ? block.size() : std::max(start, block.size() * (p + 1) / pieces);
    if (end < block.size()) {  // to the end of the line `end` falls in
      const void* newline = std::memchr(block.data() + end, '\n', block.size() - end);
      end = newline ? static_cast<size_t>(static_cast<const char*>(newline) - block.data()) + 1 : block.size();
    }
    if (end == start) continue;
    out.text.push_back(block.substr(start, end - start));
    start = end;
  }
  out.first_line.resize(out.text.size());
  out.lines.resize(out.text.size());
#pragma omp parallel for schedule(static, 1)
  for (size_t p = 0; p < out.text.size(); ++p) {
    const std::string_view t = out.text[p];
    out.lines[p] = std::count(t.begin(), t.end(), '\n') + (t.back() != '\n');
  }
  for (size_t p = 0; p < out.text.size(); ++p)
    out.first_line[p] = p == 0 ? first_line : out.first_line[p - 1] + out.lines[p - 1];
  return out;
}

void warn_if_cut(const TextSource& source, int64_t last_line) {
  if (source.compressed() || !source.ends_inside_a_line()) return;  // gzip's trailer proves it whole
  std::fprintf(stderr,
               "matsamp: warning: %s:%lld: the file ends inside this line (no line end); if it was cut there, "
               "its last value is wrong\n",
               source.path().c_str(), static_cast<long long>(last_line));
}

}  // namespace matsamp
