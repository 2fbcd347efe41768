// util/memory: byte counts, and keeping freed memory for reuse (whose effect,
// the page faults of a second large allocation, is measured in a child process
// so that the setting does not reach the other tests).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/error.h"
#include "util/memory.h"

namespace matsamp {
namespace {

int64_t minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Allocates, fills and frees 256 MiB twice; exits with 0 when the second round
// faulted in fewer than a tenth of its pages, else with 1.
[[noreturn]] void exit_with_second_round_faults() {
  constexpr size_t kBytes = size_t{256} << 20;
  const int64_t pages = static_cast<int64_t>(kBytes / 4096);
  { std::vector<char> first(kBytes, 1); }
  const int64_t before = minor_faults();
  { std::vector<char> second(kBytes, 2); }
  std::exit(minor_faults() - before < pages / 10 ? 0 : 1);
}

// Address and thread sanitizers replace glibc's malloc, whose settings this tests
// (GCC names them by macros, clang by __has_feature).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MATSAMP_SANITIZER_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MATSAMP_SANITIZER_MALLOC 1
#endif
#endif

#if defined(__GLIBC__)
TEST(KeepFreedMemory, ASecondLargeAllocationReusesThePages) {
#ifdef MATSAMP_SANITIZER_MALLOC
  GTEST_SKIP() << "a sanitizer replaces glibc's malloc, whose settings this tests";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  if (std::getenv("GLIBC_TUNABLES")) GTEST_SKIP() << "GLIBC_TUNABLES is set: the user's tuning applies";
  EXPECT_EXIT(
      {
        if (!keep_freed_memory_for_reuse()) {
          std::fputs("malloc tuning in the environment (MALLOC_*_): the user's applies\n", stderr);
          std::exit(2);
        }
        exit_with_second_round_faults();
      },
      testing::ExitedWithCode(0), "");
  // Without it, glibc maps such a block afresh: the measurement can tell.
  EXPECT_EXIT(exit_with_second_round_faults(), testing::ExitedWithCode(1), "");
}
#endif

TEST(ParseBytes, ReadsUnitsAndRejectsTheRest) {
  EXPECT_EQ(parse_bytes("4G"), int64_t{4} << 30);
  EXPECT_EQ(parse_bytes("512M"), int64_t{512} << 20);
  EXPECT_EQ(parse_bytes("1000"), 1000);
  EXPECT_THROW(parse_bytes("lots"), Error);
  EXPECT_THROW(parse_bytes("4T"), Error);
  EXPECT_THROW(parse_bytes("0"), Error);
}

}  // namespace
}  // namespace matsamp
