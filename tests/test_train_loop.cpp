// The training loop's steps take the minibatches the epoch plan gives: the same
// minibatches, in the same order, as `matsamp sample` (EpochIterator) and the
// Python loaders yield with the same options.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>

#include "distributed/communicator.h"
#include "epoch_compare.h"
#include "reference.h"
#include "sampling/epoch_plan.h"
#include "sampling/sample.h"
#include "train/loop.h"

namespace matsamp {
namespace {

struct RecordedBulk final : SampledBulk {
  BulkSample sample;
};

struct RecordedMinibatch final : PreparedMinibatch {
  Minibatch minibatch;
};

// A task that trains nothing and records the minibatch of every loss, in order.
class RecordingTask final : public TrainingTask {
 public:
  RecordingTask(const Sampler& sampler, std::vector<vid_t> items, BatchLocality locality)
      : sampler_(sampler), items_(std::move(items)), locality_(locality) {}

  std::vector<Minibatch> trained;

  torch::nn::Module& model() override { return *model_; }
  std::vector<int64_t> identity() const override { return {1}; }
  const std::vector<vid_t>& training_items() const override { return items_; }
  int64_t steps_per_bulk(int64_t /*lanes*/, int64_t /*minibatches*/) const override { return 1; }
  BatchLocality locality() const override { return locality_; }
  std::shared_ptr<const SampledBulk> sample(Context& ctx, const EpochOrder& order, std::pair<int64_t, int64_t> ids,
                                            uint32_t epoch) const override {
    auto out = std::make_shared<RecordedBulk>();
    out->sample = to_host(ctx.backend, sample_minibatches(sampler_, ctx, order, ids.first, ids.second, epoch));
    return out;
  }
  std::unique_ptr<PreparedMinibatch> prepare(const SampledBulk& bulk, int64_t id,
                                             PreparationTimes& /*times*/) const override {
    const BulkSample& sample = static_cast<const RecordedBulk&>(bulk).sample;
    auto out = std::make_unique<RecordedMinibatch>();
    out->minibatch = extract_minibatch(sample, id - sample.first_minibatch);
    return out;
  }
  torch::Tensor loss(PreparedMinibatch& minibatch) override {
    trained.push_back(static_cast<RecordedMinibatch&>(minibatch).minibatch);
    return model_->weight.sum() * 0.0;
  }
  Evaluation evaluate(uint32_t /*epoch*/, int64_t /*bulk_minibatches*/) override { return {}; }
  size_t kept_scores() const override { return 0; }
  JsonObject summary_fields(const LoopSummary& /*summary*/) override { return {}; }

 private:
  const Sampler& sampler_;
  std::vector<vid_t> items_;
  BatchLocality locality_;
  torch::nn::Linear model_{1, 1};
};

// Four lanes drawn from two locality blocks, two steps per bulk: the loop trains on
// the iterator's minibatches in the plan's training sequence, step by step.
TEST(TrainingLoop, StepsTakeTheEpochPlansMinibatchesInOrder) {
  const CsrMatrix ring = testing::ring_graph(300);
  auto sampler = testing::graphsage(ring, {2}, 5);
  auto backend = make_cpu_backend();
  const std::vector<vid_t> items = training_vertices(300, 0.5, 5);  // blocks of unequal size
  const BatchLocality locality{2, 300};
  const testing::BoundSampler bound = sampler->bind(*backend);

  TrainOptions options;
  options.epochs = 1;
  options.epoch.batch_size = 8;
  options.epoch.minibatches_per_step = 4;
  options.epoch.bulk_steps = 2;
  options.epoch.seed = sampler->seed();
  RecordingTask task(*bound.sampler, items, locality);
  const std::unique_ptr<Communicator> self = make_self_communicator();
  TrainingLoop loop(task, *backend, *self, options);
  loop.train_epoch();

  EpochOptions epoch{8, 3, int64_t{1} << 30, options.epoch.seed, 0};  // sampled 3 at a time: the same minibatches
  epoch.locality = locality;
  epoch.minibatches_per_step = 4;
  epoch.bulk_steps = 2;
  EpochIterator iterator(*bound.sampler, bound.context, items, epoch);
  std::vector<Minibatch> sampled;
  BulkSample bulk;
  while (iterator.next(&bulk))
    for (int64_t g = 0; g < bulk.count(); ++g) sampled.push_back(extract_minibatch(bulk, g));
  std::vector<Minibatch> in_steps;
  for (int64_t id : iterator.plan().training_sequence()) in_steps.push_back(sampled.at(id));
  EXPECT_EQ(in_steps.front().id, 0);
  EXPECT_EQ(in_steps.at(1).id, 2);  // lane 1's first minibatch: step 0 takes one of every lane
  testing::expect_identical(task.trained, in_steps, "loop against iterator");
}

}  // namespace
}  // namespace matsamp
