// Helpers for the reader tests: small files in a scratch directory, and checks on
// the one-line matsamp::Error a reader throws.
#pragma once
#include <fstream>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"

namespace matsamp::testing {

inline std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Success when fn throws a matsamp::Error whose message is one line containing every part.
template <class Fn>
::testing::AssertionResult throws_error_with(Fn&& fn, std::initializer_list<std::string> parts) {
  try {
    fn();
  } catch (const Error& e) {
    const std::string message = e.what();
    if (message.find('\n') != std::string::npos)
      return ::testing::AssertionFailure() << "message spans lines: " << message;
    for (const std::string& part : parts)
      if (message.find(part) == std::string::npos)
        return ::testing::AssertionFailure() << "message lacks \"" << part << "\": " << message;
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no matsamp::Error thrown";
}

}  // namespace matsamp::testing
