#include "util/memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/error.h"

namespace matsamp {

int64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

int64_t physical_memory_bytes() { return static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE); }

int64_t parse_bytes(const std::string& text) {
  size_t used = 0;
  double number = 0;
  try {
    number = std::stod(text, &used);
  } catch (const std::exception&) {
    fail("not a byte count: '", text, "' (examples: 4G, 512M, 1000000)");
  }
  const std::string unit = text.substr(used);
  double scale = 1;
  if (unit == "K" || unit == "k") scale = 1024.0;
  else if (unit == "M" || unit == "m") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "g") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty()) fail("not a byte count: '", text, "' (unknown unit '", unit, "')");
  MATSAMP_CHECK(number > 0, "byte count must be positive: '", text, "'");
  // 2^63 bytes and more would wrap around as an int64 (to a negative budget).
  MATSAMP_CHECK(number * scale < 0x1p63, "byte count '", text, "' is too large (at most 2^63 - 1 bytes)");
  MATSAMP_CHECK(number * scale >= 1, "byte count '", text, "' is less than one byte");
  return static_cast<int64_t>(number * scale);
}

namespace {
bool kept = false;
}  // namespace

bool freed_memory_kept() { return kept; }

bool keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  for (const char* tuning :
       {"GLIBC_TUNABLES", "MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_"})
    if (std::getenv(tuning)) return false;
  // Large blocks from the heap rather than from mmap (which munmap returns at
  // once), and no trimming of the heap's free top.
  kept = kept || (mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1);
  return kept;
#else
  return false;
#endif
}

}  // namespace matsamp
