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

// --compare-device: the same epoch on a second device of the process, with the
// time ratio and identical minibatches (on a machine with a GPU, both ways round);
// without a GPU, a one-line error naming the option.
TEST(CliDevice, CompareDeviceSamplesTheSameMinibatchesOnTheOther) {
  const std::string dir = scratch_dir("cli_compare_device");
  const std::string common = "bench --graph rmat:8 --fanouts 3,2 -b 32 ";
  const auto same = run_cli(common + "--compare-device cpu", dir);
  EXPECT_EQ(same.exit_code, 1);
  EXPECT_NE(same.err.find("--compare-device cpu is the device the bench already runs on"), std::string::npos)
      << same.err;
  const auto link = run_cli(common + "--edge-seeds --compare-device cuda", dir);
  EXPECT_NE(link.err.find("--compare-device compares vertex-seeded epochs"), std::string::npos) << link.err;
  std::string why;
  const bool available = cuda_available(&why);
  for (const std::string& devices :
       {std::string("--compare-device cuda"), std::string("--device cuda --compare-device cpu")}) {
    const auto r = run_cli(common + devices, dir);
    if (!available) {
      const std::string flag = devices.find("--device cuda") == 0 ? "--device" : "--compare-device";
      EXPECT_EQ(r.exit_code, 1) << devices;
      EXPECT_NE(r.err.find("matsamp: error: " + flag + " cuda: " + why + "\n"), std::string::npos) << r.err;
      continue;
    }
    ASSERT_EQ(r.exit_code, 0) << devices << ": " << r.err;
    const size_t at = r.out.find("\"compare_device\":");
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"identical_minibatches\":true", at), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"time_ratio\":", at), std::string::npos) << r.out;
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
