// What the fuzz targets share: libFuzzer's input written where a reader takes a path, a
// reader run so that a matsamp::Error is the expected answer to bad bytes (anything else
// — a crash, a sanitizer report, another exception, running out of the memory limit — is
// a finding), and a small graph for readers that check their input against one.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/csr.h"
#include "core/error.h"

namespace matsamp::fuzz {

// A path of this process under /tmp ("/tmp/matsamp_fuzz_<pid>_<name>").
inline std::string scratch_path(const std::string& name) {
  return "/tmp/matsamp_fuzz_" + std::to_string(::getpid()) + "_" + name;
}

inline bool write_file(const std::string& path, const uint8_t* data, size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  return true;
}

// Runs read(); a matsamp::Error is an answer, not a finding. Returns libFuzzer's 0.
template <class Read>
int expect_errors_only(Read read) {
  try {
    read();
  } catch (const Error&) {
  }
  return 0;
}

// libFuzzer's input as a file named `name`, read by one reader.
template <class Read>
int read_as_file(const uint8_t* data, size_t size, const char* name, Read read) {
  static const std::string path = scratch_path(name);
  if (!write_file(path, data, size)) return 0;
  return expect_errors_only([&] { read(path); });
}

// A ring of n vertices, each edge both ways.
inline CsrMatrix ring(int64_t n) {
  std::vector<int64_t> rows, cols;
  for (int64_t v = 0; v < n; ++v) {
    rows.push_back(v);
    cols.push_back((v + 1) % n);
    rows.push_back((v + 1) % n);
    cols.push_back(v);
  }
  return csr_from_triples(n, n, rows, cols, {});
}

}  // namespace matsamp::fuzz
