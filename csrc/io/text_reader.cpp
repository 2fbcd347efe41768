#include "io/text_reader.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace matsamp {

TextReader::TextReader(const std::string& path) : file_(path) {}

bool TextReader::next_line() {
  if (pos_ >= file_.size()) return false;
  const char* begin = file_.data() + pos_;
  const size_t left = file_.size() - pos_;
  const char* newline = static_cast<const char*>(std::memchr(begin, '\n', left));
  const size_t length = newline ? static_cast<size_t>(newline - begin) : left;
  pos_ += newline ? length + 1 : length;
  line_ = std::string_view(begin, length);
  ++line_number_;

  // '\r' counts as blank: CRLF files, and SNAP files ending lines in "\r\r\n".
  auto blank = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; };
  tokens_.clear();
  size_t i = 0;
  while (i < line_.size()) {
    while (i < line_.size() && blank(line_[i])) ++i;
    const size_t start = i;
    while (i < line_.size() && !blank(line_[i])) ++i;
    if (i > start) tokens_.push_back(line_.substr(start, i - start));
  }
  return true;
}

bool TextReader::next_data_line(std::string_view comment_chars) {
  while (next_line()) {
    if (tokens_.empty()) continue;
    if (comment_chars.find(tokens_.front().front()) != std::string_view::npos) continue;
    return true;
  }
  return false;
}

int64_t TextReader::integer(std::string_view token, const char* what) const {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range) fail_here(what, " '", token, "' is too large");
  if (ec != std::errc() || end != token.data() + token.size()) fail_here(what, " '", token, "' is not an integer");
  return value;
}

float TextReader::weight(std::string_view token) const {
  std::string_view digits = token;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range) fail_here("weight ", token, " is not a finite non-negative number");
  if (ec != std::errc() || end != digits.data() + digits.size()) fail_here("weight '", token, "' is not a number");
  if (!std::isfinite(value) || value < 0 || value > 3.4e38)
    fail_here("weight ", token, " is not a finite non-negative number");
  return static_cast<float>(value);
}

}  // namespace matsamp
