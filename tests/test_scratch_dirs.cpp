// The suite leaves no matsamp_test_* folders behind in the temporary directory.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "test_data.h"

namespace matsamp {
namespace {

// Run on its own by the test below, in a test program of its own.
TEST(ScratchDirs, MadeForTheTestBelow) {
  const std::string dir = testing::scratch_dir("scratch_probe");
  std::ofstream(dir + "/file") << "x";
  std::printf("scratch: %s\n", dir.c_str());
}

TEST(ScratchDirs, AreRemovedWhenTheTestProgramEnds) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::FILE* child = ::popen((self + " --gtest_filter=ScratchDirs.MadeForTheTestBelow").c_str(), "r");
  ASSERT_NE(child, nullptr);
  std::string dir;
  char line[4096];
  while (std::fgets(line, sizeof line, child))
    if (std::string(line).rfind("scratch: ", 0) == 0) dir = std::string(line + 9, std::strlen(line + 9) - 1);
  ASSERT_EQ(::pclose(child), 0);
  ASSERT_NE(dir.find("matsamp_test_scratch_probe_"), std::string::npos) << dir;
  EXPECT_FALSE(std::filesystem::exists(dir)) << dir << " is left behind";
}

}  // namespace
}  // namespace matsamp
