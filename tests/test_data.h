// Locating the real graphs of ../shared/data (MATSAMP_DATA overrides).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "io/atomic_file.h"

namespace matsamp::testing {

inline std::string data_dir() {
  const char* env = std::getenv("MATSAMP_DATA");
  return env && *env ? env : MATSAMP_DEFAULT_DATA_DIR;
}

// Path of a data file; fails the test (never skips) when it is missing.
inline std::string data_file(const std::string& name) {
  const std::string path = data_dir() + "/" + name;
  if (!std::filesystem::exists(path))
    ADD_FAILURE() << "test data missing: " << path << " (set MATSAMP_DATA to ../shared/data)";
  return path;
}

// The scratch directories this process made, removed when it exits. Only by
// the process that made them: a forked child that exits must not take its
// parent's files.
class ScratchDirs {
 public:
  static ScratchDirs& instance() {
    static ScratchDirs dirs;
    return dirs;
  }
  void add(const std::filesystem::path& dir) { dirs_.push_back(dir); }
  ~ScratchDirs() {
    if (::getpid() != owner_) return;
    for (const auto& dir : dirs_) matsamp::remove_tree(dir.string());
  }

 private:
  ScratchDirs() = default;
  pid_t owner_ = ::getpid();
  std::vector<std::filesystem::path> dirs_;
};

// A fresh scratch directory for one test; the process id keeps concurrent
// runs of the suite (two build trees, ctest -j) apart.
inline std::string scratch_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("matsamp_test_" + name + "_" + std::to_string(::getpid()));
  matsamp::remove_tree(dir.string());
  std::filesystem::create_directories(dir);
  ScratchDirs::instance().add(dir);
  return dir.string();
}

}  // namespace matsamp::testing
