#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/row_blocks.h"
#include "epoch_compare.h"
#include "error_checks.h"
#include "reference.h"
#include "sampling/epoch.h"
#include "sampling/sampler.h"

namespace matsamp {
namespace {

TEST(Epoch, ShuffleIsASeededPermutationThatChangesPerEpoch) {
  const std::vector<vid_t> ids = testing::all_vertices(1000);
  const std::vector<vid_t> a = shuffle_vertices(ids, 5, 0);
  std::vector<vid_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, ids);
  EXPECT_NE(a, ids);
  EXPECT_EQ(a, shuffle_vertices(ids, 5, 0));
  EXPECT_NE(a, shuffle_vertices(ids, 5, 1));
  EXPECT_NE(a, shuffle_vertices(ids, 6, 0));
}

// The training vertices are the first of the seeded shuffle of all vertices, also
// when they are chosen chunk by chunk (more than 2^20 vertices).
TEST(Epoch, TrainingVerticesAreTheShufflesFirst) {
  for (const auto& [n, fraction] : {std::pair<int64_t, double>{1000, 0.25}, {(int64_t{3} << 20) + 17, 0.001}}) {
    std::vector<vid_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    std::vector<vid_t> want = shuffle_vertices(all, 4, 0xFFFFFFFFu);
    want.resize(static_cast<size_t>(std::ceil(fraction * n)));
    std::sort(want.begin(), want.end());
    EXPECT_EQ(training_vertices(n, fraction, 4), want) << n << " vertices";
  }
}

TEST(Epoch, EveryTrainingVertexIsASeedOnce) {
  const CsrMatrix ring = testing::ring_graph(100);
  auto sampler = testing::graphsage(ring, {1}, 1);
  auto backend = make_cpu_backend();
  const std::vector<vid_t> train = training_vertices(100, 0.37, 9);
  EXPECT_EQ(train.size(), 37u);
  auto bound = sampler->bind(*backend);
  EpochIterator epoch(*bound.sampler, bound.context, train, {10, 2, 1 << 20, 1, 0});
  EXPECT_EQ(epoch.num_minibatches(), 4);
  EXPECT_EQ(epoch.bulk_size(), 2);
  std::vector<vid_t> seen;
  BulkSample bulk;
  int64_t bulks = 0;
  while (epoch.next(&bulk)) {
    ++bulks;
    seen.insert(seen.end(), bulk.seeds.begin(), bulk.seeds.end());
    for (int64_t g = 0; g < bulk.count(); ++g) EXPECT_LE(bulk.seed_offsets[g + 1] - bulk.seed_offsets[g], 10);
  }
  EXPECT_EQ(bulks, 2);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, train);
}

// Workers share an epoch lane by lane: together they sample every minibatch once,
// under its global id, as one process does, whatever their bulk size.
TEST(Epoch, SharesOfTheEpochSampleItsMinibatchesUnderTheirGlobalIds) {
  CsrMatrix ring = testing::ring_graph(100);
  ring.values.assign(100, 1.0f);  // stored unit weights
  auto sampler = testing::graphsage(ring, {1}, 1);
  auto backend = make_cpu_backend();
  const std::vector<vid_t> train = testing::all_vertices(100);
  auto sample = [&](int64_t worker, int64_t workers, int64_t k) {
    EpochOptions options{7, k, 1 << 20, 3, 1};
    options.worker = worker;
    options.workers = workers;
    return testing::collect_minibatches(*sampler, *backend, train, options);
  };
  const std::vector<Minibatch> whole = sample(0, 1, 3);
  ASSERT_EQ(whole.size(), 15u);
  for (int64_t workers : {2, 3, 5, 16}) {  // 16: more workers than minibatches, some with none
    std::vector<Minibatch> pieces;
    for (int64_t w = 0; w < workers; ++w)
      for (Minibatch& mb : sample(w, workers, 1 + workers % 3)) pieces.push_back(std::move(mb));
    std::sort(pieces.begin(), pieces.end(), [](const Minibatch& a, const Minibatch& b) { return a.id < b.id; });
    testing::expect_identical(pieces, whole, "workers");
  }
  testing::expect_error([&] { sample(2, 2, 1); }, "worker 2 out of range");
}

// Locality blocks: lane j's minibatches from block j·B/lanes, steps balanced,
// every training vertex once; the same minibatches for any number of workers that
// share the lanes (for given bulk steps); one block is the global shuffle.
TEST(Epoch, LocalityBatchesDrawEachLaneFromItsBlock) {
  const CsrMatrix ring = testing::ring_graph(120);
  auto sampler = testing::graphsage(ring, {1}, 1);
  auto backend = make_cpu_backend();
  const std::vector<vid_t> train = testing::all_vertices(120);  // 40 per block
  const RowBlocks blocks{120, 3};
  EpochOptions options{8, 2, 1 << 20, 3, 1};  // 3 lanes: 5 balanced steps of 8 per lane
  options.locality = {3, 120};
  options.bulk_steps = 2;  // the layout: the same for every number of workers
  const std::vector<Minibatch> whole = testing::collect_minibatches(*sampler, *backend, train, options);
  ASSERT_EQ(whole.size(), 15u);
  std::vector<vid_t> seen;
  std::vector<int64_t> per_block(3, 0);
  for (const Minibatch& mb : whole) {
    ASSERT_EQ(mb.seeds.size(), 8u) << "minibatch " << mb.id;
    const int block = blocks.owner(mb.seeds[0]);
    for (vid_t v : mb.seeds) EXPECT_EQ(blocks.owner(v), block) << "minibatch " << mb.id;
    ++per_block[block];
    seen.insert(seen.end(), mb.seeds.begin(), mb.seeds.end());
  }
  EXPECT_EQ(per_block, (std::vector<int64_t>{5, 5, 5}));
  EXPECT_FALSE(std::is_sorted(seen.begin(), seen.end()));  // shuffled within blocks
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, train);

  options.workers = 3;  // one lane each
  std::vector<Minibatch> shared;
  for (options.worker = 0; options.worker < 3; ++options.worker)
    for (Minibatch& mb : testing::collect_minibatches(*sampler, *backend, train, options)) {
      for (vid_t v : mb.seeds) EXPECT_EQ(blocks.owner(v), options.worker) << "minibatch " << mb.id;
      shared.push_back(std::move(mb));
    }
  std::sort(shared.begin(), shared.end(), [](const Minibatch& a, const Minibatch& b) { return a.id < b.id; });
  testing::expect_identical(shared, whole, "3 workers");

  EpochOptions one{8, 2, 1 << 20, 3, 1};
  one.locality = {1, 120};
  std::vector<vid_t> one_order, global_order;
  for (const Minibatch& mb : testing::collect_minibatches(*sampler, *backend, train, one))
    one_order.insert(one_order.end(), mb.seeds.begin(), mb.seeds.end());
  for (const Minibatch& mb : testing::collect_minibatches(*sampler, *backend, train, {8, 2, 1 << 20, 3, 1}))
    global_order.insert(global_order.end(), mb.seeds.begin(), mb.seeds.end());
  EXPECT_EQ(one_order, global_order) << "one block";
}

TEST(Epoch, BulkSizeFollowsTheMemoryBudget) {
  CsrMatrix a(1000, 1000);
  auto sampler = testing::graphsage(a, {10, 10}, 1);
  const int64_t per = sampler->bytes_per_minibatch(64);
  ASSERT_GT(per, 0);
  EXPECT_EQ(bulk_size_for_budget(sampler->on_cpu(), 64, 100, per * 7 + 1), 7);
  EXPECT_EQ(bulk_size_for_budget(sampler->on_cpu(), 64, 100, per), 1);
  EXPECT_THROW(bulk_size_for_budget(sampler->on_cpu(), 64, 100, per - 1), Error);
  EXPECT_EQ(bulk_size_for_budget(sampler->on_cpu(), 64, 100, per * 1000), 100);
}

TEST(Epoch, RejectsBadOptions) {
  CsrMatrix a(10, 10);
  auto sampler = testing::graphsage(a, {1}, 1);
  auto backend = make_cpu_backend();
  EXPECT_THROW(
      EpochIterator(*sampler->bind(*backend).sampler, Context{*backend, 1}, testing::all_vertices(10), {0, 1, 1, 1, 0}),
      Error);
  EXPECT_THROW(EpochIterator(*sampler->bind(*backend).sampler, Context{*backend, 1}, {}, {4, 1, 1, 1, 0}), Error);
  EpochOptions locality{4, 1, 1, 1, 0};
  locality.locality = {11, 10};
  testing::expect_error(
      [&] {
        EpochIterator(*sampler->bind(*backend).sampler, Context{*backend, 1}, testing::all_vertices(10), locality);
      },
      "11 blocks for 10 vertices");
  locality.locality = {2, 10};
  testing::expect_error(
      [&] {
        EpochIterator(*sampler->bind(*backend).sampler, Context{*backend, 1}, {3, 10}, locality);
      },
      "training vertex 10 out of range");
  locality.locality = {-1, 10};
  testing::expect_error(
      [&] {
        EpochIterator(*sampler->bind(*backend).sampler, Context{*backend, 1}, testing::all_vertices(10), locality);
      },
      "locality blocks must be");
  EXPECT_THROW(training_vertices(10, 0.0, 1), Error);
  EXPECT_THROW(training_vertices(0, 0.5, 1), Error);
}

}  // namespace
}  // namespace matsamp
