#include "cli/validators.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace matsamp::cli {

namespace {

// The text as a finite number, or an error message.
bool read_number(const std::string& text, double& value, std::string& error) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    error = "Value " + text + " is not a number";
    return false;
  }
  if (!std::isfinite(value)) {
    error = "Value " + text + " is not a finite number";
    return false;
  }
  return true;
}

std::string shown(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Decimal digits with an optional sign, leading zeros dropped (CLI11 would read
// "010" as octal); empty when the text is no such integer or does not fit 64 bits.
std::string decimal_integer(const std::string& text, bool allow_minus) {
  size_t at = 0;
  bool minus = false;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) minus = text[at++] == '-';
  if (minus && !allow_minus) return {};
  const size_t digits = at;
  for (; at < text.size(); ++at)
    if (text[at] < '0' || text[at] > '9') return {};
  if (digits == text.size()) return {};
  std::string number = text.substr(digits);
  number.erase(0, std::min(number.find_first_not_of('0'), number.size() - 1));
  if (minus && number != "0") number.insert(0, "-");
  if (minus || allow_minus) {
    int64_t value;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc()) return {};
  } else {
    uint64_t value;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc()) return {};
  }
  return number;
}

CLI::Validator integer_text(bool allow_minus) {
  return CLI::Validator(
      [allow_minus](std::string& text) {
        const std::string number = decimal_integer(text, allow_minus);
        if (number.empty())
          return "Value " + text +
                 (allow_minus ? " is not a decimal integer (of 64 bits at most)"
                              : " is not a non-negative decimal integer (of 64 bits at most)");
        text = number;
        return std::string();
      },
      "");
}

CLI::Validator finite_text() {
  return CLI::Validator(
      [](std::string& text) {
        double value;
        std::string error;
        return read_number(text, value, error) ? std::string() : error;
      },
      "");
}

void check_options(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_expected_min() == 0) continue;  // a flag
    const std::string type = option->get_type_name();
    const std::string base = type.substr(0, type.find(':'));
    if (base == "UINT") option->transform(integer_text(false));
    else if (base == "INT") option->transform(integer_text(true));
    else if (base == "FLOAT") option->check(finite_text());
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) check_options(*sub);
}

}  // namespace

CLI::Validator positive() {
  return CLI::Validator(
      [](std::string& text) {
        double value;
        std::string error;
        if (!read_number(text, value, error)) return error;
        return value > 0 ? std::string() : "Value " + text + " is not positive";
      },
      "POSITIVE");
}

CLI::Validator non_negative() {
  return CLI::Validator(
      [](std::string& text) {
        double value;
        std::string error;
        if (!read_number(text, value, error)) return error;
        return value >= 0 ? std::string() : "Value " + text + " is negative";
      },
      "NONNEGATIVE");
}

CLI::Validator in_range(double low, double high) {
  return CLI::Validator(
      [low, high](std::string& text) {
        double value;
        std::string error;
        if (!read_number(text, value, error)) return error;
        if (value >= low && value <= high) return std::string();
        return "Value " + text + " not in range " + shown(low) + " to " + shown(high);
      },
      "in [" + shown(low) + " - " + shown(high) + "]");
}

void check_numbers(CLI::App& app) { check_options(app); }

}  // namespace matsamp::cli
