// A checkpoint whose write fails (past the file-size limit: EFBIG) is an error
// naming the file, the earlier checkpoint stays as it was, and no temporary file
// is left. In process: `train` under `ulimit -f` fails earlier, in MPI's
// start-up, which writes files of its own.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "test_data.h"
#include "train/checkpoint.h"

namespace matsamp {
namespace {

// The process's file-size limit lowered to `bytes` while it lives.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &before_);
    rlimit lowered = before_;
    lowered.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lowered);
  }
  ~FileSizeLimit() { ::setrlimit(RLIMIT_FSIZE, &before_); }

 private:
  rlimit before_{};
};

TEST(CheckpointWrites, PastTheFileSizeLimitFailCleanly) {
  const std::string dir = testing::scratch_dir("checkpoint_file_limit"), path = dir + "/model.pt";
  torch::nn::Linear model(64, 64);  // 16 KiB of parameters
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  save_checkpoint(path, {7}, *model, optimizer, {}, {});
  const std::string earlier = testing::read_text(path);
  ASSERT_GT(earlier.size(), 8u << 10);
  try {
    const FileSizeLimit limit(8 << 10);
    save_checkpoint(path, {8}, *model, optimizer, {}, {});
    ADD_FAILURE() << "a checkpoint past the file-size limit was written";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + path + ": File too large"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::read_text(path), earlier);
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string(), "model.pt") << "a temporary file was left";
}

}  // namespace
}  // namespace matsamp
