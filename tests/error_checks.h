// Checking that bad input fails with a message that names the problem.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace matsamp::testing {

// Runs fn, which must throw a matsamp::Error whose message contains `fragment`.
template <class Fn>
void expect_error(Fn fn, const std::string& fragment) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one mentioning '" << fragment << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

}  // namespace matsamp::testing
