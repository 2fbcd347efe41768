// matsamp and matsamp-full (cli/full_command.h): the command users run starts
// without libtorch, CUDA or NCCL, and hands the runs that need them to
// matsamp-full beside it, while its command line is parsed.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::expect_one_line_error;
using testing::expect_usage_error;
using testing::run_cli;
using testing::run_program;
using testing::scratch_dir;

TEST(CliPrograms, MatsampLoadsNeitherTorchNorCuda) {
  const std::string dir = scratch_dir("cli_programs_libraries");
  const testing::CliResult ldd = run_program("ldd", MATSAMP_CLI_PATH, dir);
  ASSERT_EQ(ldd.exit_code, 0) << ldd.err;
  ASSERT_NE(ldd.out.find("libc.so"), std::string::npos) << ldd.out;
  for (const char* library : {"libtorch", "libc10", "libcudart", "libcusparse", "libnccl"})
    EXPECT_EQ(ldd.out.find(library), std::string::npos) << library << " in\n" << ldd.out;
}

TEST(CliPrograms, TrainAndOtherDevicesRunInMatsampFull) {
  const std::string dir = scratch_dir("cli_programs_hand_off");
  // matsamp lists train; its --help comes from matsamp-full (the trainer's options),
  // or, in a build without libtorch, says that.
  const testing::CliResult top = run_cli("--help", dir);
  EXPECT_NE(top.out.find("train"), std::string::npos) << top.out;
  const testing::CliResult train = run_cli("train --help", dir);
  if (train.exit_code == 0) {
    EXPECT_NE(train.out.find("--epochs"), std::string::npos) << train.out;
    EXPECT_NE(train.out.find(MATSAMP_CLI_PATH), std::string::npos) << "help names the program the user ran";
  } else {
    expect_one_line_error(train, "built without libtorch");
  }
  // A device matsamp lacks is parsed by matsamp-full, which knows cuda (a device or
  // the reason it has none): an unknown name is its usage error, listing cuda.
  expect_usage_error(run_cli("bench -g rmat:6 --device cudax", dir), "the devices are cpu, cuda");
}

TEST(CliPrograms, WithoutMatsampFullTheRunNamesWhatIsMissing) {
  const std::string dir = scratch_dir("cli_programs_alone");
  const std::string alone = dir + "/matsamp";
  std::filesystem::copy_file(MATSAMP_CLI_PATH, alone, std::filesystem::copy_options::overwrite_existing);
  expect_one_line_error(run_program(alone, "train --epochs 1", dir), "train needs matsamp-full");
  expect_usage_error(run_program(alone, "bench -g rmat:6 --device cuda", dir), "device cuda needs matsamp-full");
  // What it has runs as before.
  const testing::CliResult bench = run_program(alone, "bench -g rmat:6 -b 16", dir);
  EXPECT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("\"fingerprint\""), std::string::npos) << bench.out;
}

}  // namespace
}  // namespace matsamp
