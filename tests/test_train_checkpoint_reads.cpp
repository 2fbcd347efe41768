// A checkpoint that passes its checksum but does not restore into the model at
// hand (its tensors are another module's: written by other code under the same
// identity, or made to pass the checksum) is a one-line matsamp::Error naming the
// file, whatever torch throws while restoring it.
#include <gtest/gtest.h>

#include <string>

#include "io_test_helpers.h"
#include "test_data.h"
#include "train/checkpoint.h"

namespace matsamp {
namespace {

TEST(CheckpointReads, TensorsOfAnotherModuleAreAOneLineError) {
  const std::string path = testing::scratch_dir("checkpoint_reads") + "/run.ckpt";
  torch::nn::Linear written(3, 4);
  torch::optim::SGD written_optimizer(written->parameters(), 0.1);
  save_checkpoint(path, {7, 1}, *written, written_optimizer, {}, {{2}, {0.5}});

  torch::nn::GRU other(3, 4);  // parameters weight_ih_l0, …: none of them in the file
  torch::optim::SGD optimizer(other->parameters(), 0.1);
  std::vector<torch::Tensor> best;
  ProgressNumbers progress{{0}, {0}};
  EXPECT_TRUE(testing::throws_error_with(
      [&] {
        load_checkpoint(path, {7, 1}, torch::kCPU, *other, optimizer, best, progress);
      },
      {"cannot read checkpoint '" + path + "': "}));
  EXPECT_EQ(progress.counters, std::vector<int64_t>{0}) << "nothing restored from a checkpoint that failed";

  torch::nn::Linear same(3, 4);  // the module it was written from restores
  torch::optim::SGD same_optimizer(same->parameters(), 0.1);
  load_checkpoint(path, {7, 1}, torch::kCPU, *same, same_optimizer, best, progress);
  EXPECT_TRUE(torch::equal(same->weight, written->weight));
  EXPECT_EQ(progress.counters, std::vector<int64_t>{2});
}

}  // namespace
}  // namespace matsamp
