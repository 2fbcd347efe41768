// Temporal sampling (ops.h: sample_rows_before, select_rows_before;
// TemporalSampler): no pick later than its block's seed time; uniform draws are
// sample_rows' over each row's early entries in time order; last takes the
// latest allowed entries; the early rows are a's entries no later than the
// bound, in a's order; GraphSAGE's and LABOR's temporal programs keep every
// layer to its minibatch's time.
#include <gtest/gtest.h>

#include <algorithm>

#include "error_checks.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "reference.h"
#include "sampling/capabilities.h"
#include "sampling/epoch.h"
#include "sampling/registry.h"
#include "sampling/sample.h"
#include "sampling/sampling_graph.h"
#include "test_data.h"

namespace matsamp {
namespace {

// Entry times 0..9 spread over the entries.
std::vector<int64_t> entry_times_of(const CsrMatrix& a) {
  std::vector<int64_t> times(a.nnz());
  for (int64_t e = 0; e < a.nnz(); ++e) times[e] = (e * 7 + 3) % 10;
  return times;
}

// The rows of A in time order, each cut to its entries no later than its block's
// bound (rows[i] in block g: bounds[g]), and where each entry came from in A.
std::pair<CsrMatrix, std::vector<vid_t>> early_rows_in_time_order(const CsrMatrix& a, const std::vector<vid_t>& rows,
                                                                  const Offsets& offsets,
                                                                  const std::vector<int64_t>& times,
                                                                  const std::vector<int64_t>& bounds) {
  CsrMatrix out(static_cast<int64_t>(rows.size()), a.cols);
  std::vector<vid_t> from;
  for (size_t i = 0; i < rows.size(); ++i) {
    const int64_t g = std::upper_bound(offsets.begin(), offsets.end(), i) - offsets.begin() - 1;
    std::vector<vid_t> row;
    for (int64_t e = a.rowptr[rows[i]]; e < a.rowptr[rows[i] + 1]; ++e)
      if (times[e] <= bounds[g]) row.push_back(e);
    std::stable_sort(row.begin(), row.end(), [&](vid_t x, vid_t y) { return times[x] < times[y]; });
    for (vid_t e : row) {
      out.colidx.push_back(a.colidx[e]);
      out.values.push_back(a.values.empty() ? 1.0f : a.values[e]);
      from.push_back(e);
    }
    out.rowptr[i + 1] = static_cast<int64_t>(out.colidx.size());
  }
  return {out, from};
}

struct TemporalCase {
  bool weighted;
};

class SampleRowsBefore : public ::testing::TestWithParam<TemporalCase> {};

// Uniform draws are sample_rows' over each row's early entries in time order
// (the fast path for equal values, the prefix for weighted rows), in column order.
TEST_P(SampleRowsBefore, UniformDrawsOverTheEarlyEntriesInTimeOrder) {
  CsrMatrix a = testing::random_csr(120, 120, 0.2, 3);
  if (!GetParam().weighted) a.values.clear();
  const std::vector<int64_t> times = entry_times_of(a);
  const TimeOrder order = time_order(a, times);
  std::vector<vid_t> rows;
  for (vid_t r = 0; r < 120; r += 3) rows.push_back(r);
  const Offsets offsets{0, 15, 15, 40};  // block 1 is empty
  const std::vector<int64_t> bounds{4, 9, 6};
  const SampleKeys keys{5, 1, 0, 11, offsets};
  std::vector<vid_t> positions;
  const CsrMatrix got = sample_rows_before(a, rows, 4, keys, order.order, order.sorted_times, bounds,
                                           TemporalStrategy::uniform, has_uniform_rows(a), &positions);
  // Without the uniform flag (values read, summed): the same.
  EXPECT_EQ(
      sample_rows_before(a, rows, 4, keys, order.order, order.sorted_times, bounds, TemporalStrategy::uniform, false),
      got);
  const auto [early, from] = early_rows_in_time_order(a, rows, offsets, times, bounds);
  std::vector<vid_t> local(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) local[i] = static_cast<vid_t>(i);
  std::vector<vid_t> at;
  const CsrMatrix want = sample_rows(early, local, 4, keys, !GetParam().weighted, &at);
  ASSERT_EQ(got.rowptr, want.rowptr);
  int64_t picks = 0;
  for (int64_t i = 0; i < got.rows; ++i) {
    std::vector<std::pair<vid_t, float>> expected;
    for (int64_t e = want.rowptr[i]; e < want.rowptr[i + 1]; ++e) expected.emplace_back(from[at[e]], want.values[e]);
    std::sort(expected.begin(), expected.end());
    for (int64_t e = got.rowptr[i]; e < got.rowptr[i + 1]; ++e, ++picks) {
      EXPECT_EQ(positions[e], expected[e - got.rowptr[i]].first) << "row " << i;
      EXPECT_EQ(got.values[e], expected[e - got.rowptr[i]].second) << "row " << i;
      EXPECT_EQ(got.colidx[e], a.colidx[positions[e]]);
      EXPECT_LE(times[positions[e]], bounds[std::upper_bound(offsets.begin(), offsets.end(), i) - offsets.begin() - 1]);
    }
  }
  EXPECT_GT(picks, 40);
}

TEST_P(SampleRowsBefore, LastTakesTheLatestAllowedEntries) {
  CsrMatrix a = testing::random_csr(60, 60, 0.3, 9);
  if (!GetParam().weighted) a.values.clear();
  const std::vector<int64_t> times = entry_times_of(a);
  std::vector<vid_t> rows{0, 5, 17, 59, 33};
  const Offsets offsets{0, 2, 5};
  const std::vector<int64_t> bounds{5, 8};
  const SampleKeys keys{1, 0, 0, 0, offsets};
  std::vector<vid_t> positions;
  const TimeOrder order = time_order(a, times);
  const CsrMatrix got = sample_rows_before(a, rows, 3, keys, order.order, order.sorted_times, bounds,
                                           TemporalStrategy::last, has_uniform_rows(a), &positions);
  for (size_t i = 0; i < rows.size(); ++i) {
    const int64_t bound = bounds[i < 2 ? 0 : 1];
    std::vector<std::pair<int64_t, int64_t>> allowed;  // (time, position), latest first
    for (int64_t e = a.rowptr[rows[i]]; e < a.rowptr[rows[i] + 1]; ++e)
      if (times[e] <= bound) allowed.emplace_back(times[e], e);
    std::sort(allowed.rbegin(), allowed.rend());
    allowed.resize(std::min<size_t>(allowed.size(), 3));
    std::vector<vid_t> want;
    for (const auto& [time, e] : allowed) want.push_back(e);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(std::vector<vid_t>(positions.begin() + got.rowptr[i], positions.begin() + got.rowptr[i + 1]), want)
        << "row " << rows[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Graphs, SampleRowsBefore, ::testing::Values(TemporalCase{false}, TemporalCase{true}),
                         [](const auto& info) { return info.param.weighted ? "weighted" : "unweighted"; });

TEST(SampleRowsBefore, MismatchedTimesAreErrors) {
  const CsrMatrix a = testing::random_csr(10, 10, 0.3, 1);
  const SampleKeys keys{1, 0, 0, 0, {0, 2}};
  testing::expect_error(
      [&] {
        sample_rows_before(a, {0, 1}, 2, keys, std::vector<vid_t>(3), std::vector<vid_t>(3), {1},
                           TemporalStrategy::uniform, false);
      },
      "sample_rows_before: a time order of 3 entries for");
  testing::expect_error(
      [&] {
        const TimeOrder order = time_order(a, entry_times_of(a));
        sample_rows_before(a, {0, 1}, 2, keys, order.order, order.sorted_times, {1, 2}, TemporalStrategy::uniform,
                           false);
      },
      "sample_rows_before: 2 time bounds for 1 blocks");
  testing::expect_error([] { parse_temporal_strategy("recent"); },
                        "temporal strategy must be 'uniform' or 'last', got 'recent'");
}

// The early rows: each selected row's entries no later than its block's bound, in a's order.
void expect_early_rows_kept(double density, bool weighted) {
  CsrMatrix a = testing::random_csr(90, 180, density, 4);
  if (!weighted) a.values.clear();
  const std::vector<int64_t> times = entry_times_of(a);
  const TimeOrder order = time_order(a, times);
  const std::vector<vid_t> rows{3, 3, 89, 0, 41, 7, 12};  // a row twice, in two blocks
  const Offsets offsets{0, 1, 1, 7};
  const std::vector<int64_t> bounds{2, 9, 5};
  const CsrMatrix got = select_rows_before(a, rows, offsets, order.order, order.sorted_times, bounds);
  CsrMatrix want(static_cast<int64_t>(rows.size()), a.cols);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (int64_t e = a.rowptr[rows[i]]; e < a.rowptr[rows[i] + 1]; ++e)
      if (times[e] <= bounds[i < 1 ? 0 : 2]) {
        want.colidx.push_back(a.colidx[e]);
        if (weighted) want.values.push_back(a.values[e]);
      }
    want.rowptr[i + 1] = static_cast<int64_t>(want.colidx.size());
  }
  EXPECT_EQ(got, want);
  EXPECT_GT(got.nnz(), 20);
  EXPECT_LT(got.nnz(), select_rows(a, rows).nnz());
  testing::expect_error(
      [&] {
        select_rows_before(a, rows, {0, 7}, order.order, order.sorted_times, bounds);
      },
      "select_rows_before: 3 time bounds for 1 blocks");
  testing::expect_error(
      [&] {
        select_rows_before(a, rows, {0, 6}, order.order, order.sorted_times, {1});
      },
      "select_rows_before: row blocks end at 6 for 7 rows");
}

TEST_P(SampleRowsBefore, SelectRowsBeforeKeepsTheEarlyEntriesInOrder) {
  // Rows of about 36 and 160 entries: their allowed parts sorted, or (over 64) marked and scanned.
  for (const double density : {0.2, 0.9}) {
    SCOPED_TRACE(density);
    expect_early_rows_kept(density, GetParam().weighted);
  }
}

// GraphSAGE by time on Cora: every sampled edge of minibatch g, in every layer,
// is no later than g's seed time; with times past every entry, as many as untimed.
TEST(TemporalGraphSage, EveryLayerKeepsToItsMinibatchsTime) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, adj);
  const auto sampler = make_sampler("graphsage", graph, SamplerParams().set("fanouts", std::vector<int64_t>{4, 3}));
  const TemporalSampler& temporal = require_capability<TemporalSampler>(*sampler);
  const std::vector<int64_t> times = entry_times_of(adj);
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < 300; v += 3) seeds.push_back(v);
  const Offsets offsets{0, 40, 70, 100};
  TimeOrder order = time_order(adj, times);
  TemporalBounds bounds{backend->upload_ids(std::move(order.order)),
                        backend->upload_ids(std::move(order.sorted_times)),
                        {3, 9, 0},
                        TemporalStrategy::uniform};
  Context ctx{*backend, 7};
  ctx.record_positions = true;
  Bulk bulk = temporal.sample_before(ctx, upload_seeds(*backend, seeds, offsets), 2, 1, bounds);
  int64_t edges = 0;
  for (const Layer& layer : bulk.layers) {
    const CsrMatrix m = backend->to_host(layer.adj);
    const std::vector<vid_t> positions = backend->ids_to_host(layer.positions);
    for (int64_t i = 0; i < m.rows; ++i) {
      const int64_t g = std::upper_bound(layer.row_offsets.begin(), layer.row_offsets.end(), i) -
                        layer.row_offsets.begin() - 1;
      for (int64_t e = m.rowptr[i]; e < m.rowptr[i + 1]; ++e, ++edges)
        EXPECT_LE(times[positions[e]], bounds.seed_times[g]) << "minibatch " << g;
    }
  }
  EXPECT_GT(edges, 100);
  bounds.seed_times = {10, 10, 10};
  const BulkSample untimed = to_host(*backend, sampler->sample(ctx, seeds, offsets, 2, 1));
  const BulkSample all_allowed =
      to_host(*backend, temporal.sample_before(ctx, upload_seeds(*backend, seeds, offsets), 2, 1, bounds));
  // Every entry early enough: each seed keeps min(fanout, degree) neighbours, as untimed.
  ASSERT_EQ(untimed.layers.size(), all_allowed.layers.size());
  EXPECT_EQ(untimed.layers[0].adj.rowptr, all_allowed.layers[0].adj.rowptr);
  // A sampler that does not sample by time says so, and which one does.
  const auto ladies = make_sampler("ladies", graph, params_from_sizes(find_sampler("ladies"), {4}, true));
  testing::expect_error([&] { require_capability<TemporalSampler>(*ladies); },
                        "the ladies sampler cannot sample by time (graphsage or labor can)");
  bounds.seed_times = {1, 2};
  testing::expect_error([&] { temporal.sample_before(ctx, upload_seeds(*backend, seeds, offsets), 2, 1, bounds); },
                        "temporal sampling: 2 seed times for 3 minibatches");
}

// LABOR by time: its draw over the early rows (the same shared numbers per
// minibatch and column), so no sampled edge is later than its minibatch's time;
// with times past every entry it samples as untimed; 'last' is GraphSAGE's.
TEST(TemporalLabor, DrawsOverTheEarlyRows) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, adj);
  const auto sampler = make_sampler("labor", graph, SamplerParams().set("fanouts", std::vector<int64_t>{3, 2}));
  const TemporalSampler& temporal = require_capability<TemporalSampler>(*sampler);
  const std::vector<int64_t> times = entry_times_of(adj);
  std::vector<vid_t> seeds;
  for (vid_t v = 1; v < 400; v += 4) seeds.push_back(v);
  const Offsets offsets{0, 30, 60, 100};
  TimeOrder order = time_order(adj, times);
  const TimeOrder host_order = order;
  TemporalBounds bounds{backend->upload_ids(std::move(order.order)),
                        backend->upload_ids(std::move(order.sorted_times)),
                        {2, 8, 5},
                        TemporalStrategy::uniform};
  Context ctx{*backend, 3};
  ctx.record_positions = true;
  Bulk bulk = temporal.sample_before(ctx, upload_seeds(*backend, seeds, offsets), 4, 2, bounds);
  const std::vector<Ids> positions = entry_positions(*backend, graph.adjacency(), backend->upload_ids(seeds), bulk);
  int64_t edges = 0;
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    const CsrMatrix m = backend->to_host(bulk.layers[l].adj);
    const std::vector<vid_t> at = backend->ids_to_host(positions[l]);
    const Offsets& rows = bulk.layers[l].row_offsets;
    for (int64_t i = 0; i < m.rows; ++i) {
      const int64_t g = std::upper_bound(rows.begin(), rows.end(), i) - rows.begin() - 1;
      for (int64_t e = m.rowptr[i]; e < m.rowptr[i + 1]; ++e, ++edges)
        EXPECT_LE(times[at[e]], bounds.seed_times[g]) << "layer " << l << ", minibatch " << g;
    }
  }
  EXPECT_GT(edges, 100);
  // The first layer is labor_sample_rows over the seeds' early rows, under the same keys.
  const CsrMatrix early =
      select_rows_before(adj, seeds, offsets, host_order.order, host_order.sorted_times, bounds.seed_times);
  std::vector<vid_t> local(seeds.size());
  for (size_t i = 0; i < seeds.size(); ++i) local[i] = static_cast<vid_t>(i);
  const CsrMatrix drawn = labor_sample_rows(early, local, 3, SampleKeys{3, 2, 0, 4, offsets});
  EXPECT_EQ(backend->to_host(bulk.layers[0].adj).rowptr, drawn.rowptr);
  // Times past every entry: the untimed sample.
  bounds.seed_times = {10, 10, 10};
  const BulkSample all_allowed =
      to_host(*backend, temporal.sample_before(ctx, upload_seeds(*backend, seeds, offsets), 4, 2, bounds));
  const BulkSample untimed = to_host(*backend, sampler->sample(ctx, seeds, offsets, 4, 2));
  ASSERT_EQ(all_allowed.layers.size(), untimed.layers.size());
  for (size_t l = 0; l < untimed.layers.size(); ++l) {
    EXPECT_EQ(all_allowed.layers[l].adj, untimed.layers[l].adj) << "layer " << l;
    EXPECT_EQ(all_allowed.layers[l].vertices, untimed.layers[l].vertices) << "layer " << l;
  }
  bounds.strategy = TemporalStrategy::last;
  testing::expect_error([&] { temporal.sample_before(ctx, upload_seeds(*backend, seeds, offsets), 4, 2, bounds); },
                        "labor samples by time with the strategy 'uniform'");
}

// An epoch by time (EpochOptions::times, what --temporal runs): every seed's
// own row keeps to its time, every layer of a minibatch to its latest seed, each
// layer's columns start with the previous layer's vertices (the trees merged hop
// by hop, as the models read them), and the minibatches are the same at any bulk size.
TEST(TemporalEpoch, EverySeedIsSampledAsOfItsTime) {
  const CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, adj);
  const auto sampler = make_sampler("graphsage", graph, SamplerParams().set("fanouts", std::vector<int64_t>{4, 3}));
  std::vector<int64_t> vertex_times(adj.rows);
  for (int64_t v = 0; v < adj.rows; ++v) vertex_times[v] = (v * 7919) % 100;
  TimeOrder order = time_order(adj, column_times(adj, vertex_times));
  auto times = std::make_shared<TemporalEpoch>();
  times->order = backend->upload_ids(std::move(order.order));
  times->sorted_times = backend->upload_ids(std::move(order.sorted_times));
  times->vertex_times = vertex_times;
  std::vector<vid_t> train;
  for (vid_t v = 0; v < adj.rows; v += 9) train.push_back(v);
  EpochOptions options;
  options.batch_size = 40;
  options.times = times;
  const auto epoch_of = [&](int64_t bulk_size) {
    options.bulk_size = bulk_size;
    EpochIterator epoch(*sampler, Context{*backend, 5}, train, options);
    std::vector<BulkSample> bulks;
    BulkSample bulk;
    while (epoch.next(&bulk)) bulks.push_back(bulk);
    return bulks;
  };
  const std::vector<BulkSample> bulks = epoch_of(0), one_by_one = epoch_of(1);
  int64_t minibatches = 0, edges = 0;
  for (const BulkSample& bulk : bulks) {
    for (int64_t g = 0; g < bulk.count(); ++g, ++minibatches) {
      const Minibatch mb = extract_minibatch(bulk, g);
      EXPECT_EQ(mb.id, minibatches) << "a minibatch keeps its id in the epoch";
      int64_t latest = 0;
      for (vid_t s : mb.seeds) latest = std::max(latest, vertex_times[s]);
      // Layer 0's row i is seed i: its neighbours no later than it.
      const MinibatchLayer& first = mb.layers.front();
      for (int64_t i = 0; i < first.adj.rows; ++i)
        for (int64_t e = first.adj.rowptr[i]; e < first.adj.rowptr[i + 1]; ++e)
          EXPECT_LE(vertex_times[first.vertices[first.adj.colidx[e]]], vertex_times[mb.seeds[i]]);
      for (const MinibatchLayer& layer : mb.layers)
        for (int64_t e = 0; e < layer.adj.nnz(); ++e, ++edges)
          EXPECT_LE(vertex_times[layer.vertices[layer.adj.colidx[e]]], latest);
      EXPECT_TRUE(std::equal(mb.seeds.begin(), mb.seeds.end(), first.vertices.begin()));
      for (size_t l = 1; l < mb.layers.size(); ++l) {
        const std::vector<vid_t>& frontier = mb.layers[l - 1].vertices;
        ASSERT_EQ(mb.layers[l].adj.rows, static_cast<int64_t>(frontier.size()));
        EXPECT_TRUE(std::equal(frontier.begin(), frontier.end(), mb.layers[l].vertices.begin())) << "layer " << l;
      }
      const Minibatch again = extract_minibatch(one_by_one.at(minibatches), 0);
      ASSERT_EQ(again.layers.size(), mb.layers.size());
      for (size_t l = 0; l < mb.layers.size(); ++l) {
        EXPECT_EQ(again.layers[l].adj, mb.layers[l].adj);
        EXPECT_EQ(again.layers[l].vertices, mb.layers[l].vertices);
      }
    }
  }
  EXPECT_EQ(minibatches, static_cast<int64_t>((train.size() + 39) / 40));
  EXPECT_GT(edges, 500);
}

}  // namespace
}  // namespace matsamp
