// Heterogeneous sampling by time (sampling/hetero_temporal.h): one vertex type
// and one relation sample as GraphSAGE by time does; no tree reaches a vertex
// later than its seed through any relation (a type without times is never too
// late); a minibatch is exactly its trees merged, the same at any bulk size.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "error_checks.h"
#include "hetero_test_graph.h"
#include "io/graph_io.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"
#include "sampling/hetero_temporal.h"
#include "sampling/registry.h"
#include "sampling/sampling_graph.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::small_hetero_graph;

std::vector<int64_t> times_of(int64_t n, int64_t factor) {
  std::vector<int64_t> times(n);
  for (int64_t v = 0; v < n; ++v) times[v] = (v * factor) % 100;
  return times;
}

// The graph's papers and authors with times, its topics without.
HeteroGraph timed_hetero_graph() {
  HeteroGraph g = small_hetero_graph();
  g.types[g.type_index("paper")].times = times_of(g.types[g.type_index("paper")].count, 7919);
  g.types[g.type_index("author")].times = times_of(g.types[g.type_index("author")].count, 104729);
  return g;
}

TEST(HeteroByTime, OneTypeAndOneRelationIsGraphSageByTime) {
  const Graph cora = read_graph(testing::data_file("cora.npz"));
  auto cpu = make_cpu_backend();
  LocalGraph local(*cpu, cora.adj);
  const auto graphsage = make_sampler("graphsage", local, SamplerParams().set("fanouts", std::vector<int64_t>{4, 3}));
  HeteroGraph h = as_heterogeneous(cora);
  h.types[0].times = times_of(cora.num_vertices(), 7919);
  const HeteroNeighborSampler hetero(*cpu, h, {{4, 3}});
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < cora.num_vertices(); v += 13) seeds.push_back(v);
  const EpochOrder order(seeds, 16);
  // By the sources' times, and by each entry's own (edge-level).
  const std::vector<int64_t> entry_times = times_of(cora.adj.nnz(), 104729);
  for (const bool by_entry : {false, true})
    for (TemporalStrategy strategy : {TemporalStrategy::uniform, TemporalStrategy::last}) {
      TimeOrder time = time_order(cora.adj, by_entry ? entry_times : column_times(cora.adj, h.types[0].times));
      const TemporalEpoch expected_times{cpu->upload_ids(std::move(time.order)),
                                         cpu->upload_ids(std::move(time.sorted_times)), h.types[0].times, strategy};
      const HeteroTemporalEpoch times = hetero_epoch_times(*cpu, h, vertex_times_of(h), strategy,
                                                           by_entry ? std::vector<std::vector<int64_t>>{entry_times}
                                                                    : std::vector<std::vector<int64_t>>{});
      Context ctx{*cpu, 7};
      const BulkSample expected =
          to_host(*cpu, sample_minibatches_by_time(*graphsage, ctx, order, 2, 6, 1, expected_times));
      const HeteroBulkSample got =
          to_host(*cpu, sample_hetero_minibatches_by_time(hetero, ctx, 0, order, 2, 6, 1, times));
      EXPECT_EQ(got.first_minibatch, expected.first_minibatch);
      EXPECT_EQ(got.seeds.ids[0], expected.seeds);
      ASSERT_EQ(got.layers.size(), expected.layers.size());
      for (size_t l = 0; l < got.layers.size(); ++l) {
        EXPECT_EQ(got.layers[l].vertices[0], expected.layers[l].vertices) << "layer " << l;
        EXPECT_EQ(got.layers[l].vertex_offsets[0], expected.layers[l].col_offsets) << "layer " << l;
        EXPECT_EQ(got.layers[l].row_offsets[0], expected.layers[l].row_offsets) << "layer " << l;
        EXPECT_EQ(got.layers[l].adj[0], expected.layers[l].adj) << "layer " << l;
      }
    }
}

// Each tree (one seed per block) sampled by time: every entry of every relation
// in every layer is no later than its tree's seed (the source's vertex time).
TEST(HeteroByTime, NoTreeReachesPastItsSeed) {
  const HeteroGraph g = timed_hetero_graph();
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, std::vector<std::vector<int64_t>>(g.relations.size(), {3, 2}));
  const int paper = g.type_index("paper");
  const std::vector<int64_t>& paper_times = g.types[paper].times;
  std::vector<vid_t> seeds;
  std::vector<int64_t> seed_times;
  for (vid_t v = 1; v < 300; v += 11) seeds.push_back(v), seed_times.push_back(paper_times[v]);
  Offsets trees(seeds.size() + 1);
  std::iota(trees.begin(), trees.end(), 0);
  for (TemporalStrategy strategy : {TemporalStrategy::uniform, TemporalStrategy::last}) {
    const HeteroTemporalEpoch times = hetero_epoch_times(*cpu, g, vertex_times_of(g), strategy);
    const HeteroTemporalBounds bounds{times.order, times.sorted_times, seed_times, strategy};
    Context ctx{*cpu, 3};
    const HeteroBulkSample bulk =
        to_host(*cpu, sampler.sample_before(
                          ctx, upload_hetero_seeds(*cpu, HeteroSeeds::of_type(3, paper, seeds, trees)), 0, 0, bounds));
    std::map<int, int64_t> checked;  // per source type
    for (const HeteroSampledLayer& layer : bulk.layers)
      for (size_t r = 0; r < g.relations.size(); ++r) {
        const CsrMatrix& a = layer.adj[r];
        const int s = g.type_index(g.relations[r].source);
        for (size_t t = 0; a.rows > 0 && t < seeds.size(); ++t)
          for (int64_t e = a.rowptr[layer.row_offsets[r][t]]; e < a.rowptr[layer.row_offsets[r][t + 1]]; ++e) {
            ++checked[s];
            if (!g.types[s].times.empty())
              EXPECT_LE(g.types[s].times[layer.vertices[s][a.colidx[e]]], seed_times[t])
                  << g.relations[r].key() << " in tree " << t;
          }
      }
    EXPECT_GT(checked[paper], 50);
    EXPECT_GT(checked[g.type_index("author")], 20);
    EXPECT_GT(checked[g.type_index("topic")], 10) << "a type without times is sampled unbounded";
  }
}

// Minibatch g's list of each type and layer, and each relation's (row vertex,
// column vertex) pairs, are its trees' together; every list starts with the
// layer before it; and the minibatches are the same sampled one at a time.
TEST(HeteroByTime, MinibatchesAreTheirTreesMerged) {
  const HeteroGraph g = timed_hetero_graph();
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, std::vector<std::vector<int64_t>>(g.relations.size(), {3, 2}));
  const int paper = g.type_index("paper");
  const HeteroTemporalEpoch times = hetero_epoch_times(*cpu, g, vertex_times_of(g), TemporalStrategy::uniform);
  std::vector<vid_t> order;
  for (vid_t v = 0; v < 300; v += 7) order.push_back(v);
  const EpochOrder epoch(order, 10);
  Context ctx{*cpu, 5};
  const HeteroBulkSample bulk =
      to_host(*cpu, sample_hetero_minibatches_by_time(sampler, ctx, paper, epoch, 1, 4, 2, times));
  ASSERT_EQ(bulk.count(), 3);
  for (int64_t m = 1; m < 4; ++m) {
    // The same minibatch alone, and its trees one by one.
    const HeteroMinibatch merged = extract_minibatch(bulk, m - 1);
    const HeteroMinibatch alone = extract_minibatch(
        to_host(*cpu, sample_hetero_minibatches_by_time(sampler, ctx, paper, epoch, m, m + 1, 2, times)), 0);
    EXPECT_EQ(merged.id, m);
    EXPECT_EQ(alone.seeds, merged.seeds);
    auto [seeds, offsets] = epoch.seeds(m, m + 1);
    std::vector<int64_t> seed_times;
    for (vid_t v : seeds) seed_times.push_back(g.types[paper].times[v]);
    Offsets each(seeds.size() + 1);
    std::iota(each.begin(), each.end(), 0);
    const HeteroBulkSample trees = to_host(*cpu, sample_hetero_trees_by_time(sampler, ctx, paper, seeds, seed_times,
                                                                             each, 0, epoch.starts()[m], 2, times));
    ASSERT_EQ(trees.count(), static_cast<int64_t>(seeds.size()));
    for (size_t l = 0; l < merged.layers.size(); ++l) {
      const HeteroMinibatchLayer &got = merged.layers[l], &again = alone.layers[l];
      for (size_t r = 0; r < g.relations.size(); ++r) EXPECT_EQ(again.adj[r], got.adj[r]) << "layer " << l;
      EXPECT_EQ(again.vertices, got.vertices) << "layer " << l;
      for (size_t t = 0; t < g.types.size(); ++t) {
        const std::vector<vid_t>& frontier = l == 0 ? merged.seeds[t] : merged.layers[l - 1].vertices[t];
        ASSERT_GE(got.vertices[t].size(), frontier.size());
        EXPECT_TRUE(std::equal(frontier.begin(), frontier.end(), got.vertices[t].begin())) << "layer " << l;
        std::vector<vid_t> together, mine = got.vertices[t];
        for (int64_t i = 0; i < trees.count(); ++i) {
          const HeteroMinibatch tree = extract_minibatch(trees, i);
          together.insert(together.end(), tree.layers[l].vertices[t].begin(), tree.layers[l].vertices[t].end());
        }
        std::sort(together.begin(), together.end());
        std::sort(mine.begin(), mine.end());
        EXPECT_EQ(mine, together) << "layer " << l << ", type " << g.types[t].name;
      }
      for (size_t r = 0; r < g.relations.size(); ++r) {
        const int s = g.type_index(g.relations[r].source), d = g.type_index(g.relations[r].destination);
        const auto pairs = [&](const HeteroMinibatch& mb) {
          std::vector<std::pair<vid_t, vid_t>> out;
          const CsrMatrix& a = mb.layers[l].adj[r];
          const std::vector<vid_t>& rows = l == 0 ? mb.seeds[d] : mb.layers[l - 1].vertices[d];
          for (int64_t i = 0; i < a.rows; ++i)
            for (int64_t e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
              out.push_back({rows[i], mb.layers[l].vertices[s][a.colidx[e]]});
          return out;
        };
        std::vector<std::pair<vid_t, vid_t>> together, mine = pairs(merged);
        for (int64_t i = 0; i < trees.count(); ++i) {
          const auto tree = pairs(extract_minibatch(trees, i));
          together.insert(together.end(), tree.begin(), tree.end());
        }
        std::sort(together.begin(), together.end());
        std::sort(mine.begin(), mine.end());
        EXPECT_EQ(mine, together) << "layer " << l << ", " << g.relations[r].key();
      }
    }
  }
}

TEST(HeteroByTime, BadTimesAreErrors) {
  HeteroGraph g = timed_hetero_graph();
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, std::vector<std::vector<int64_t>>(g.relations.size(), {2}));
  std::vector<std::vector<int64_t>> times = vertex_times_of(g);
  times[g.type_index("author")].pop_back();
  testing::expect_error([&] { hetero_epoch_times(*cpu, g, times, TemporalStrategy::uniform); },
                        "temporal sampling: vertex type author has 119 times for 120 vertices");
  testing::expect_error([&] { hetero_epoch_times(*cpu, g, {{}}, TemporalStrategy::uniform); },
                        "temporal sampling: vertex times for 1 vertex types, the graph has 3");
  testing::expect_error(
      [&] {
        hetero_epoch_times(*cpu, g, vertex_times_of(g), TemporalStrategy::uniform, {{1, 2}});
      },
      "temporal sampling: edge times for 1 relations, the graph has " + std::to_string(g.relations.size()));
  std::vector<std::vector<int64_t>> entry_times(g.relations.size());
  entry_times[0] = {1, 2};
  testing::expect_error(
      [&] { hetero_epoch_times(*cpu, g, vertex_times_of(g), TemporalStrategy::uniform, entry_times); },
      "temporal sampling: relation " + g.relations[0].key() + " has 2 edge times for " +
          std::to_string(g.relations[0].adj.nnz()) + " entries");
  const HeteroTemporalEpoch epoch_times = hetero_epoch_times(*cpu, g, vertex_times_of(g), TemporalStrategy::uniform);
  Context ctx{*cpu, 1};
  const EpochOrder topics(std::vector<vid_t>{0, 1, 2}, 2);
  testing::expect_error(
      [&] { sample_hetero_minibatches_by_time(sampler, ctx, g.type_index("topic"), topics, 0, 1, 0, epoch_times); },
      "temporal sampling: the seeds' vertex type topic has no times (each seed is sampled as of its own)");
  const HeteroLayerWiseSampler layer_wise(*cpu, g, std::vector<std::vector<int64_t>>(g.types.size(), {8}));
  testing::expect_error(
      [&] { sample_hetero_minibatches_by_time(layer_wise, ctx, g.type_index("paper"), topics, 0, 1, 0, epoch_times); },
      "heterogeneous sampler hgt cannot sample by time (graphsage can)");
  // Bounds that do not fit the call or the graph.
  const HeteroSeedBatch two = upload_hetero_seeds(*cpu, HeteroSeeds::of_type(3, 0, {4, 5}, {0, 1, 2}));
  HeteroTemporalBounds bounds{epoch_times.order, epoch_times.sorted_times, {7}, TemporalStrategy::uniform};
  testing::expect_error([&] { sampler.sample_before(ctx, two, 0, 0, bounds); },
                        "temporal sampling: 1 seed times for 2 minibatches");
  bounds.seed_times = {7, 8};
  bounds.order.pop_back();
  testing::expect_error([&] { sampler.sample_before(ctx, two, 0, 0, bounds); },
                        "temporal sampling: time orders of 4 relations for the graph's 5");
  bounds.order = epoch_times.order;
  std::swap(bounds.order[0], bounds.order[1]);
  std::swap(bounds.sorted_times[0], bounds.sorted_times[1]);
  testing::expect_error([&] { sampler.sample_before(ctx, two, 0, 0, bounds); },
                        "temporal sampling: a time order of 692 entries for relation paper,cites,paper's 2360");
  g.types[0].times.pop_back();
  testing::expect_error([&] { validate(g, "graph"); },
                        "graph: vertex type paper has 299 vertex times for 300 vertices");
}

}  // namespace
}  // namespace matsamp
