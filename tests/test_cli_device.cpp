// --device: the CUDA backend where there is one, a one-line error elsewhere.
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "kernels/cuda_backend.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::run_cli;
using testing::scratch_dir;

TEST(CliDevice, CudaRunsOrSaysWhyNotInOneLine) {
  const std::string dir = scratch_dir("cli_device");
  const std::string common = " --graph rmat:8 --fanouts 3,2 -b 32 --device cuda";
  std::string why;
  const bool available = cuda_available(&why);
  for (const std::string& command : {std::string("bench"), "sample --out " + dir + "/mb"}) {
    const auto r = run_cli(command + common, dir);
    if (available) {
      EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
      if (command == "bench") {
        EXPECT_NE(r.out.find("\"backend\":\"cuda\""), std::string::npos) << r.out;
        // The copies inside the timed steps: never more than the steps took.
        const size_t at = r.out.find("\"bulk_time_without_copies_s\":");
        ASSERT_NE(at, std::string::npos) << r.out;
        EXPECT_GE(std::stod(r.out.substr(at + 29)), 0.0) << r.out;
      }
      continue;
    }
    EXPECT_EQ(r.exit_code, 1) << command;
    const size_t at = r.err.find("matsamp: error");  // after any progress lines
    ASSERT_NE(at, std::string::npos) << r.err;
    EXPECT_EQ(r.err.substr(at), "matsamp: error: --device cuda: " + why + "\n") << command;
  }
}

TEST(CliDevice, RejectsUnknownDevices) {
  const std::string dir = scratch_dir("cli_device_unknown");
  const auto r = run_cli("bench --graph rmat:6 --device tpu", dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("tpu"), std::string::npos) << r.err;
}

TEST(CliDevice, CpuIsTheDefaultAndIsRecorded) {
  const std::string dir = scratch_dir("cli_device_cpu");
  const auto r = run_cli("bench --graph rmat:7 --fanouts 3 -b 32", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"device\":\"cpu\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"gpu\":"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace matsamp
