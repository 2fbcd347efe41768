// Option checks with one-line messages that print bounds as written (CLI11's
// PositiveNumber and NonNegativeNumber print DBL_MAX in full, 310 digits), and
// the strict reading of numbers every option gets: CLI11 alone reads "-1" as
// 2^64 - 1 for an unsigned option, "010" as octal, and saturates huge values.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "core/error.h"

namespace matsamp::cli {

CLI::Validator positive();      // > 0
CLI::Validator non_negative();  // >= 0
CLI::Validator in_range(double low, double high);

// An option whose text `parse` accepts, or the message of the matsamp::Error it
// throws; `name` is the value's name in --help (BYTES, DEVICE).
template <class Parse>
CLI::Validator parsed_by(Parse parse, const std::string& name) {
  return CLI::Validator(
      [parse](std::string& text) {
        try {
          parse(text);
          return std::string();
        } catch (const Error& e) {
          return std::string(e.what());
        }
      },
      name);
}

// The most OpenMP threads --threads takes: far above any machine's cores, far
// below what makes thread creation fail.
constexpr int kMaxThreads = 4096;

// Walks `app` and its subcommands and makes every integer option take only a
// decimal integer that fits (no sign for unsigned ones) and every real option
// only a finite number.
void check_numbers(CLI::App& app);

}  // namespace matsamp::cli
