#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/row_blocks.h"
#include "epoch_compare.h"
#include "error_checks.h"
#include "reference.h"
#include "sampling/epoch_plan.h"
#include "sampling/sample.h"

namespace matsamp {
namespace {

EpochPlan plan_of(int64_t items, int64_t batch_size, int64_t lanes, int64_t steps_per_bulk,
                  BatchLocality locality = {}) {
  return EpochPlan(items, {batch_size, lanes, steps_per_bulk, locality});
}

TEST(EpochPlan, CoversEveryMinibatchOnceAndCountsStepSeeds) {
  for (int64_t lanes : {1, 2, 3})
    for (int64_t steps_per_bulk : {1, 2, 5})
      for (bool balanced : {false, true}) {
        // 11 minibatches, the last of 3 seeds; balanced: ceil(103 / (10 lanes)) steps of `lanes`
        const EpochPlan plan =
            plan_of(103, 10, lanes, steps_per_bulk, balanced ? BatchLocality{1, 103} : BatchLocality{});
        const int64_t expected = balanced ? (103 + 10 * lanes - 1) / (10 * lanes) * lanes : 11;
        ASSERT_EQ(plan.num_minibatches(), expected);
        ASSERT_EQ(static_cast<int64_t>(plan.minibatch_starts().size()), expected + 1);
        std::vector<int64_t> seen;
        int64_t seeds = 0;
        for (int64_t b = 0; b < plan.num_bulks(); ++b) {
          const EpochPlan::Bulk bulk = plan.bulk(b);
          for (int64_t t = 0; t < bulk.lane_length; ++t) {
            int64_t step_seeds = 0;
            for (int64_t lane = 0; lane < lanes; ++lane) {
              const int64_t id = plan.minibatch(bulk, lane, t);
              if (id < 0) continue;
              seen.push_back(id);
              step_seeds += plan.minibatch_size(id);
            }
            EXPECT_EQ(plan.step_seeds(bulk, t), step_seeds);
            seeds += step_seeds;
          }
        }
        std::sort(seen.begin(), seen.end());
        std::vector<int64_t> all(expected);
        std::iota(all.begin(), all.end(), 0);
        EXPECT_EQ(seen, all) << "lanes " << lanes << ", steps per bulk " << steps_per_bulk << ", balanced " << balanced;
        EXPECT_EQ(seeds, 103);
        for (int64_t id = 0; id < expected; ++id) {
          EXPECT_EQ(plan.minibatch_size(id), plan.minibatch_starts()[id + 1] - plan.minibatch_starts()[id]);
          EXPECT_LE(plan.minibatch_size(id), 10);
          if (balanced) {
            EXPECT_GE(plan.minibatch_size(id), 103 / expected) << "sizes within one of each other";
          }
        }
      }
}

// Balanced (with locality blocks): Cora's 140 training vertices at b = 32 over 4
// lanes take 2 steps of 4 minibatches (18, then 17), not 4 of 32 and then one
// (whose seeds, with blocks, are mostly one block's leftovers); each lane's 35
// come from its block.
TEST(EpochPlan, BalancedStepsTakeEveryLaneAndBlockAlike) {
  const EpochPlan plan = plan_of(140, 32, 4, 2, {4, 400});
  ASSERT_EQ(plan.num_minibatches(), 8);
  EXPECT_EQ(plan.minibatch_starts(), (std::vector<int64_t>{0, 18, 35, 53, 70, 88, 105, 123, 140}));
  const EpochPlan::Bulk bulk = plan.bulk(0);
  EXPECT_EQ(bulk.lane_length, 2);
  EXPECT_EQ(plan.step_seeds(bulk, 0), 4 * 18);
  EXPECT_EQ(plan.step_seeds(bulk, 1), 4 * 17);
  const RowBlocks blocks{400, 4};
  std::vector<vid_t> train;  // 35 per block
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 35; ++i) train.push_back(static_cast<vid_t>(j * 100 + i));
  const std::vector<vid_t> order = plan.order(train, 3, 0).order();
  for (int64_t lane = 0; lane < 4; ++lane)
    for (int64_t step = 0; step < 2; ++step) {
      const int64_t id = plan.minibatch(bulk, lane, step);
      ASSERT_GE(id, 0);
      for (int64_t i = plan.minibatch_starts()[id]; i < plan.minibatch_starts()[id + 1]; ++i)
        EXPECT_EQ(blocks.owner(order[i]), lane) << "minibatch " << id << " of lane " << lane;
    }
  const EpochOrder cut(order, plan.minibatch_starts());
  EXPECT_EQ(cut.num_minibatches(), 8);
  EXPECT_EQ(cut.seeds(1, 2).first.size(), 17u);
  EXPECT_THROW(EpochOrder(order, std::vector<int64_t>{0, 18, 139}), Error);  // must end at the order's end
  EXPECT_EQ(plan_of(3, 32, 4, 1, {1, 3}).num_minibatches(), 3);              // fewer vertices than lanes
}

// A short bulk (5 minibatches over 4 lanes) gives every lane one before any a second:
// lane lengths 2, 1, 1, 1, so the first step trains 4 minibatches, and with one
// locality block per lane, one from each block.
TEST(EpochPlan, AShortBulkSpreadsItsMinibatchesOverEveryLane) {
  const EpochPlan plan = plan_of(140, 32, 4, 2);  // Cora's 140 training vertices, b = 32: 5 minibatches
  ASSERT_EQ(plan.num_bulks(), 1);
  const EpochPlan::Bulk bulk = plan.bulk(0);
  EXPECT_EQ(bulk.lane_length, 2);
  EXPECT_EQ((std::vector<int64_t>{plan.minibatch(bulk, 0, 0), plan.minibatch(bulk, 1, 0), plan.minibatch(bulk, 2, 0),
                                  plan.minibatch(bulk, 3, 0)}),
            (std::vector<int64_t>{0, 2, 3, 4}));
  EXPECT_EQ((std::vector<int64_t>{plan.minibatch(bulk, 0, 1), plan.minibatch(bulk, 1, 1), plan.minibatch(bulk, 2, 1),
                                  plan.minibatch(bulk, 3, 1)}),
            (std::vector<int64_t>{1, -1, -1, -1}));
  EXPECT_EQ(plan.step_seeds(bulk, 0), 32 + 32 + 32 + 12);
  EXPECT_EQ(plan.lane_minibatches(bulk, {1, 3}), (std::pair<int64_t, int64_t>{2, 4}));

  const RowBlocks blocks{400, 4};
  std::vector<vid_t> train;  // 35 per block
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 35; ++i) train.push_back(static_cast<vid_t>(j * 100 + i));
  const EpochPlan local = plan_of(140, 32, 4, 2, {4, 400});  // balanced: 8 minibatches, every lane twice
  const EpochOrder order = local.order(train, 3, 0);
  for (int64_t lane = 0; lane < 4; ++lane) {
    const int64_t id = local.minibatch(local.bulk(0), lane, 0);
    for (vid_t v : order.seeds(id, id + 1).first)
      EXPECT_EQ(blocks.owner(v), lane) << "minibatch " << id << " of lane " << lane;
  }
}

TEST(EpochPlan, EachRankSamplesOneContiguousRangeHoldingItsLanes) {
  const EpochPlan plan = plan_of(1000, 7, 4, 3);
  for (int ranks : {1, 2, 4}) {
    for (int64_t b = 0; b < plan.num_bulks(); ++b) {
      const EpochPlan::Bulk bulk = plan.bulk(b);
      int64_t covered = bulk.first;
      for (int rank = 0; rank < ranks; ++rank) {
        const auto lanes = plan.rank_lanes(rank, ranks);
        const auto ids = plan.lane_minibatches(bulk, lanes);
        EXPECT_EQ(ids.first, covered);  // the ranks' ranges tile the bulk in order
        covered = ids.second;
        for (int64_t lane = lanes.first; lane < lanes.second; ++lane)
          for (int64_t t = 0; t < bulk.lane_length; ++t) {
            const int64_t id = plan.minibatch(bulk, lane, t);
            if (id >= 0) {
              EXPECT_TRUE(id >= ids.first && id < ids.second);
            }
          }
      }
      EXPECT_EQ(covered, bulk.end);
    }
  }
  EXPECT_THROW(plan.rank_lanes(0, 3), Error);  // 3 processes cannot share 4 lanes
}

// Locality blocks: lane j's minibatches come from block j·B/lanes; with blocks that
// fill their lanes exactly every minibatch does, otherwise the leftovers of one block
// fill another's empty slots; always a permutation of the training vertices.
TEST(EpochPlan, LocalityOrderFillsEachLaneFromItsBlock) {
  const BatchLocality two_blocks{2, 1000};
  const RowBlocks blocks{1000, 2};
  auto lane_blocks_held = [&](const EpochPlan& plan, const std::vector<vid_t>& order) {
    int64_t pure = 0;
    for (int64_t b = 0; b < plan.num_bulks(); ++b) {
      const EpochPlan::Bulk bulk = plan.bulk(b);
      for (int64_t lane = 0; lane < plan.lanes(); ++lane)
        for (int64_t t = 0; t < bulk.lane_length; ++t) {
          const int64_t id = plan.minibatch(bulk, lane, t);
          if (id < 0) continue;
          bool all = true;
          for (int64_t i = plan.minibatch_starts()[id]; i < plan.minibatch_starts()[id + 1]; ++i)
            all = all && blocks.owner(order[i]) == lane * 2 / plan.lanes();
          pure += all;
        }
    }
    return pure;
  };
  const std::vector<vid_t> every = testing::all_vertices(1000);  // 500 per block: 50 minibatches of 10
  const EpochPlan plan = plan_of(1000, 10, 4, 3, two_blocks);    // each lane: 25 minibatches
  const std::vector<vid_t> order = plan.order(every, 7, 2).order();
  std::vector<vid_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, every);
  EXPECT_EQ(lane_blocks_held(plan, order), plan.num_minibatches());
  EXPECT_EQ(order, plan.order(every, 7, 2).order());
  EXPECT_NE(order, plan.order(every, 7, 3).order());

  const std::vector<vid_t> train = training_vertices(1000, 0.3, 5);  // blocks of unequal size
  const EpochPlan uneven = plan_of(static_cast<int64_t>(train.size()), 10, 4, 3, two_blocks);
  const std::vector<vid_t> mixed = uneven.order(train, 7, 2).order();
  sorted = mixed;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, train);
  EXPECT_GE(lane_blocks_held(uneven, mixed), uneven.num_minibatches() - 3);  // a few minibatches mix

  // One block is the plain shuffle; blocks must divide the lanes.
  EXPECT_EQ(plan_of(1000, 10, 4, 3, {1, 1000}).order(every, 7, 2).order(), shuffle_vertices(every, 7, 2));
  EXPECT_EQ(plan_of(1000, 10, 4, 3).order(every, 7, 2).order(), shuffle_vertices(every, 7, 2));
  testing::expect_error([&] { plan_of(1000, 10, 4, 3, {3, 1000}); }, "locality blocks (3) must divide");
}

TEST(Epoch, SampledMinibatchesFollowTheEpochOrder) {
  const CsrMatrix ring = testing::ring_graph(50);
  auto sampler = testing::graphsage(ring, {1}, 3);
  std::vector<vid_t> order(23);
  std::iota(order.begin(), order.end(), 10);
  const EpochOrder cut(order, 5);
  Context ctx{sampler->cpu(), sampler->seed()};
  const BulkSample bulk = to_host(ctx.backend, sample_minibatches(sampler->on_cpu(), ctx, cut, 2, 5, 0));
  EXPECT_EQ(bulk.first_minibatch, 2);
  EXPECT_EQ(bulk.seed_offsets, (Offsets{0, 5, 10, 13}));
  EXPECT_EQ(bulk.seeds.front(), 20);
  EXPECT_EQ(bulk.seeds.back(), 32);
  EXPECT_EQ(sample_minibatches(sampler->on_cpu(), ctx, cut, 3, 3, 0).count(), 0);
}

}  // namespace
}  // namespace matsamp
