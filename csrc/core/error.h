// Errors are exceptions carrying context; the CLI prints what() as one line.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace matsamp {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}
}  // namespace detail

template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  throw Error(detail::concat(args...));
}

}  // namespace matsamp

// MATSAMP_CHECK(cond, "message parts", ...) throws matsamp::Error when cond is false.
#define MATSAMP_CHECK(cond, ...)               \
  do {                                         \
    if (!(cond)) ::matsamp::fail(__VA_ARGS__); \
  } while (0)
