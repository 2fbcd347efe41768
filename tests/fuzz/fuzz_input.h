// libFuzzer's input as a file (the readers take paths), read by one reader: a
// matsamp::Error is the expected answer to bad bytes; anything else (a crash, a
// sanitizer report, another exception, running out of the memory limit) is a
// finding.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/error.h"

namespace matsamp::fuzz {

template <class Read>
int read_as_file(const uint8_t* data, size_t size, const char* name, Read read) {
  static const std::string path = "/tmp/matsamp_fuzz_" + std::to_string(::getpid()) + "_" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    read(path);
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace matsamp::fuzz
