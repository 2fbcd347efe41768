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

TEST(Epoch, SharesOfTheEpochSampleItsMinibatchesUnderTheirGlobalIds) {
  CsrMatrix ring = testing::ring_graph(100);
  ring.values.assign(100, 1.0f);  // stored unit weights
  auto sampler = testing::graphsage(ring, {1}, 1);
  auto backend = make_cpu_backend();
  const std::vector<vid_t> train = testing::all_vertices(100);
  auto sample = [&](int64_t first, int64_t end, int64_t k) {
    EpochOptions options{7, k, 1 << 20, 3, 1};
    options.first_minibatch = first;
    options.end_minibatch = end;
    return testing::collect_minibatches(*sampler, *backend, train, options);
  };
  const std::vector<Minibatch> whole = sample(0, -1, 3);
  ASSERT_EQ(whole.size(), 15u);
  std::vector<Minibatch> pieces = sample(0, 4, 2);
  for (const Minibatch& mb : sample(4, 4, 2)) pieces.push_back(mb);  // an empty share
  for (const Minibatch& mb : sample(4, 15, 5)) pieces.push_back(mb);
  ASSERT_EQ(pieces.size(), whole.size());
  for (size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(pieces[i].id, static_cast<int64_t>(i));
    EXPECT_EQ(pieces[i].seeds, whole[i].seeds);
    EXPECT_TRUE(pieces[i].layers[0].adj == whole[i].layers[0].adj);
    EXPECT_EQ(pieces[i].layers[0].vertices, whole[i].layers[0].vertices);
  }
  EXPECT_THROW(sample(5, 4, 1), Error);
  EXPECT_THROW(sample(0, 16, 1), Error);
}

// Locality blocks: minibatches from one id range each, blocks in order, every
// training vertex once, the same whatever k; one block is the global shuffle.
TEST(Epoch, LocalityBatchesDrawEachMinibatchFromOneBlock) {
  const CsrMatrix ring = testing::ring_graph(100);
  auto sampler = testing::graphsage(ring, {1}, 1);
  auto backend = make_cpu_backend();
  const std::vector<vid_t> train = training_vertices(100, 0.6, 9);
  const RowBlocks blocks{100, 3};
  EpochOptions options{7, 4, 1 << 20, 3, 1};
  options.locality = {3, 100};
  std::vector<int64_t> per_block(3, 0);
  for (vid_t v : train) ++per_block[blocks.owner(v)];
  const std::vector<int64_t> minibatches = minibatches_per_block(train, 7, options.locality);
  ASSERT_EQ(minibatches.size(), 3u);
  for (int j = 0; j < 3; ++j) EXPECT_EQ(minibatches[j], (per_block[j] + 6) / 7) << "block " << j;

  const std::vector<Minibatch> bulk = testing::collect_minibatches(*sampler, *backend, train, options);
  EXPECT_EQ(static_cast<int64_t>(bulk.size()), minibatches[0] + minibatches[1] + minibatches[2]);
  std::vector<vid_t> seen;
  int last_block = 0;
  for (const Minibatch& mb : bulk) {
    ASSERT_FALSE(mb.seeds.empty());
    const int block = blocks.owner(mb.seeds[0]);
    for (vid_t v : mb.seeds) EXPECT_EQ(blocks.owner(v), block) << "minibatch " << mb.id;
    EXPECT_GE(block, last_block) << "minibatch " << mb.id;
    last_block = block;
    seen.insert(seen.end(), mb.seeds.begin(), mb.seeds.end());
  }
  EXPECT_FALSE(std::is_sorted(seen.begin(), seen.end()));  // shuffled within blocks
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, train);

  options.bulk_size = 1;
  testing::expect_identical(testing::collect_minibatches(*sampler, *backend, train, options), bulk, "k = 1");

  EpochOptions global{7, 4, 1 << 20, 3, 1};
  options.locality = {1, 100};
  testing::expect_identical(testing::collect_minibatches(*sampler, *backend, train, options),
                            testing::collect_minibatches(*sampler, *backend, train, global), "one block");
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
