// The seam itself: a backend whose matrices and id lists are sealed (only it
// opens them; results reach the host through its transfers alone, which the
// Backend base counts) runs every op and every registered sampler and gives the CPU's
// results. No sampler can read backend storage it did not ask to_host for.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "compact_cases.h"
#include "error_checks.h"
#include "graph/transform.h"
#include "hetero_test_graph.h"
#include "io/graph_io.h"
#include "opaque_backend.h"
#include "reference.h"
#include "sampling/capabilities.h"
#include "sampling/epoch.h"
#include "sampling/fingerprint.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

using testing::OpaqueBackend;

TEST(OpaqueBackend, EveryOpGivesTheReferenceResult) {
  OpaqueBackend b;
  const CsrMatrix a = testing::random_csr(60, 60, 0.1, 3), q = testing::random_csr(4, 60, 0.2, 4);
  const Matrix da = b.upload(a);
  EXPECT_EQ(b.to_host(b.spgemm(b.upload(q), da)), spgemm(q, a));
  const std::vector<vid_t> rows{5, 0, 59, 5, 17, 33};
  const Offsets row_offsets{0, 2, 6};
  const Ids drows = b.upload_ids(rows);
  EXPECT_EQ(b.to_host(b.select_rows(da, drows)), select_rows(a, rows));
  const std::vector<vid_t> cols{3, 9, 40, 1, 58};
  const Offsets col_offsets{0, 3, 5};
  const std::vector<float> weights{0.5f, 2, 1, 3, 0.25f};
  const BlockedIds dcols{b.upload_ids(cols), col_offsets};
  const CsrMatrix selected = select_rows(a, rows);
  EXPECT_EQ(b.to_host(b.select_cols_blocked(b.upload(selected), row_offsets, dcols, b.upload_values(weights))),
            select_cols_blocked(selected, row_offsets, cols, col_offsets, weights));
  EXPECT_EQ(b.to_host(b.select_rows_cols_blocked(da, {drows, row_offsets}, dcols, Values{})),
            select_rows_cols_blocked(a, rows, row_offsets, cols, col_offsets));
  for (RowScale scale : {RowScale::by_sum, RowScale::by_sum_of_squares, RowScale::mean}) {
    CsrMatrix want = a;
    if (scale == RowScale::mean) std::fill(want.values.begin(), want.values.end(), 1.0f);
    normalize_rows(want, scale == RowScale::by_sum_of_squares);
    EXPECT_EQ(b.to_host(b.normalize_rows(da, scale)), want);
  }
  EXPECT_EQ(b.to_host(da), a) << "normalize_rows must not change its operand";
  const SampleKeys keys{9, 1, 2, 5, row_offsets};
  CsrMatrix p = select_rows(a, rows);
  normalize_rows(p);
  EXPECT_EQ(b.to_host(b.its_sample(b.upload(p), 3, keys)), its_sample(p, 3, keys));
  EXPECT_EQ(b.to_host(b.sample_rows(da, drows, 3, keys)), sample_rows(a, rows, 3, keys, false));
  EXPECT_EQ(b.to_host(b.labor_sample_rows(da, drows, 3, keys)), labor_sample_rows(a, rows, 3, keys));
  EXPECT_EQ(b.to_host(b.sample_rows_with_replacement(da, drows, 5, keys)),
            sample_rows_with_replacement(a, rows, 5, keys, false));
  std::vector<int64_t> times(a.nnz());
  for (int64_t e = 0; e < a.nnz(); ++e) times[e] = e % 5;
  const TimeOrder order = time_order(a, times);
  for (TemporalStrategy strategy : {TemporalStrategy::uniform, TemporalStrategy::last})
    EXPECT_EQ(b.to_host(b.sample_rows_before(da, drows, 3, keys, b.upload_ids(order.order),
                                             b.upload_ids(order.sorted_times), {2, 4}, strategy)),
              sample_rows_before(a, rows, 3, keys, order.order, order.sorted_times, {2, 4}, strategy, false));
  EXPECT_EQ(b.to_host(b.select_rows_before(da, drows, row_offsets, b.upload_ids(order.order),
                                           b.upload_ids(order.sorted_times), {2, 4})),
            select_rows_before(a, rows, row_offsets, order.order, order.sorted_times, {2, 4}));
  std::vector<vid_t> want_positions;
  const CsrMatrix drawn = sample_rows(a, rows, 3, keys, false, &want_positions);
  Ids got_positions;
  EXPECT_EQ(b.to_host(b.sample_rows(da, drows, 3, keys, &got_positions)), drawn);
  EXPECT_EQ(b.ids_to_host(got_positions), want_positions);
  std::vector<vid_t> want_labor_positions;
  labor_sample_rows(a, rows, 3, keys, &want_labor_positions);
  Ids got_labor_positions;
  b.labor_sample_rows(da, drows, 3, keys, &got_labor_positions);
  EXPECT_EQ(b.ids_to_host(got_labor_positions), want_labor_positions);
  std::vector<vid_t> carried = want_positions;
  const CompactResult want_carrying = compact_columns(drawn, row_offsets, rows, row_offsets, &carried);
  Ids got_carried = b.upload_ids(want_positions);
  Compacted got_carrying = b.compact_columns(b.upload(drawn), row_offsets, {drows, row_offsets}, &got_carried);
  EXPECT_EQ(b.to_host(got_carrying.adj), want_carrying.adj);
  EXPECT_EQ(b.ids_to_host(got_carried), carried);
  const testing::CompactCase c = testing::compact_two_minibatches();
  const CompactResult want = compact_columns(c.s, c.offsets, c.leading, c.offsets);
  Compacted got = b.compact_columns(b.upload(c.s), c.offsets, {b.upload_ids(c.leading), c.offsets});
  EXPECT_EQ(b.to_host(got.adj), want.adj);
  EXPECT_EQ(b.ids_to_host(got.vertices.ids), want.vertices);
  EXPECT_EQ(got.vertices.offsets, want.col_offsets);
  CsrMatrix q_normalized = q;
  normalize_rows(q_normalized);
  const std::vector<vid_t> at{1, 2, 3, 9, 10, 11, 20, 30};
  const Offsets at_offsets{0, 2, 3, 6, 8};
  EXPECT_EQ(b.values_to_host(b.gather(b.upload(q_normalized), {b.upload_ids(at), at_offsets})),
            entries_at(q_normalized, at, at_offsets));
  const std::vector<vid_t> q_rows{7, 0, 59, 7};
  std::vector<vid_t> q_columns(60);
  std::iota(q_columns.begin(), q_columns.end(), 0);
  EXPECT_EQ(b.ids_to_host(b.entry_positions(da, b.upload_ids(q_rows), b.upload(q), b.upload_ids(q_columns))),
            entry_positions(a, q_rows, q, q_columns));
  EXPECT_EQ(b.to_host(b.block_indicator({b.upload_ids(at), at_offsets}, 60)), block_indicator(at, at_offsets, 60));
  EXPECT_EQ(b.values_to_host(b.reciprocals(b.upload_values(weights), 3)), reciprocals(weights, 3));
  const CsrMatrix keyed = testing::random_csr(5, 60, 0.2, 6);
  const std::vector<vid_t> row_keys{0, 17, 33, 5, 59};  // block 0: rows 0-2, block 1: rows 3-4
  const Offsets key_offsets{0, 3, 5};
  EXPECT_EQ(
      b.to_host(b.select_rows_by_key(b.upload(keyed), {b.upload_ids(row_keys), key_offsets}, {drows, row_offsets})),
      select_rows_by_key(keyed, row_keys, key_offsets, rows, row_offsets));
  const CsrMatrix mask = testing::random_csr(static_cast<int64_t>(rows.size()), 60, 0.3, 7);
  EXPECT_EQ(b.to_host(b.mask_entries(b.select_rows(da, drows), b.upload(mask))), mask_entries(selected, mask));
  EXPECT_EQ(b.ids_to_host(b.sequence_ids(4)), sequence_ids(4));
  const Ids runs = b.sequence_runs({4, 0, 1}, {0, 2, 2, 5});
  EXPECT_EQ(b.ids_to_host(runs), sequence_runs({4, 0, 1}, {0, 2, 2, 5}));
  EXPECT_EQ(b.ids_to_host(b.gather_ids(drows, runs)), gather_ids(rows, sequence_runs({4, 0, 1}, {0, 2, 2, 5})));
  EXPECT_EQ(b.to_host(b.add_entries(da, b.upload(testing::random_csr(60, 60, 0.1, 8)))),
            add_entries(a, testing::random_csr(60, 60, 0.1, 8)));
  EXPECT_EQ(b.ids_to_host(b.first_columns(b.select_rows(da, drows), drows)), first_columns(selected, rows));
  const std::vector<vid_t> members{4, 9, 0, 33, 9, 59};
  const Offsets member_offsets{0, 4, 4, 6};
  const BlockedIds dmembers{b.upload_ids(members), member_offsets};
  const Counts vertex_tallies = b.tally_ids(b.tally_ids(Counts{}, 60, dmembers.ids), 60, dmembers.ids);
  const std::vector<int64_t> want_vertex = tally_ids(tally_ids(std::vector<int64_t>(60, 0), members), members);
  EXPECT_EQ(b.ids_to_host(vertex_tallies), want_vertex);
  const Counts entry_tallies = b.tally_induced_entries(Counts{}, da, dmembers);
  const std::vector<int64_t> want_entry =
      tally_induced_entries(std::vector<int64_t>(a.nnz(), 0), a, members, member_offsets);
  EXPECT_EQ(b.ids_to_host(entry_tallies), want_entry);
  EXPECT_EQ(b.to_host(b.normalize_rows_by_tallies(da, vertex_tallies, entry_tallies)),
            normalize_rows_by_tallies(a, want_vertex, want_entry));
  const FrontierKeys walk_keys{3, 1, 2};
  EXPECT_EQ(b.to_host(b.frontier_walk(da, {drows, row_offsets}, 20, walk_keys, kFrontierEnlargement)),
            popped_sets(frontier_sample(a, rows, row_offsets, 20, walk_keys), a.cols));
  const CompactResult unled = compact_columns(c.s, c.offsets, {}, Offsets(c.offsets.size(), 0));
  Compacted got_unled = b.compact_columns(b.upload(c.s), c.offsets, {Ids{}, Offsets(c.offsets.size(), 0)});
  EXPECT_EQ(b.to_host(got_unled.adj), unled.adj);
  EXPECT_EQ(b.ids_to_host(got_unled.vertices.ids), unled.vertices);
}

TEST(OpaqueBackend, RefusesHandlesOfAnotherBackend) {
  OpaqueBackend opaque;
  auto cpu = make_cpu_backend();
  const CsrMatrix a = testing::random_csr(10, 10, 0.3, 1);
  testing::expect_error([&] { opaque.spgemm(cpu->upload(a), opaque.upload(a)); },
                        "an operand lives in the cpu backend, not in this opaque backend");
  testing::expect_error([&] { cpu->to_host(Matrix()); }, "to_host: an operand is an empty handle");
}

TEST(OpaqueBackend, CountsEveryTransferWithItsBytesAndEverySynchronize) {
  OpaqueBackend b;
  const CsrMatrix a = testing::random_csr(7, 5, 0.4, 2);
  const int64_t matrix_bytes = 8 * (a.rows + 1) + 8 * a.nnz();  // row pointers, column ids + values
  Matrix m = b.upload(a);
  const Ids ids = b.upload_ids({1, 2, 3});
  const Values values = b.upload_values({0.5f, 2});
  b.synchronize();
  EXPECT_EQ(b.to_host(m), a);
  EXPECT_EQ(b.ids_to_host(ids).size(), 3u);
  EXPECT_EQ(b.values_to_host(values).size(), 2u);
  const TransferCounts counted = b.transfer_counts();
  EXPECT_EQ(counted.copies, 6);
  EXPECT_EQ(counted.bytes, 2 * matrix_bytes + 2 * 3 * 8 + 2 * 2 * 4);
  EXPECT_EQ(counted.syncs, 1);
  EXPECT_EQ(b.spgemm(m, b.upload(testing::random_csr(5, 5, 0.5, 3))).rows(), 7);
  const TransferCounts after_op = b.transfer_counts() - counted;
  EXPECT_EQ(after_op.copies, 1) << "an op is no transfer";
  EXPECT_EQ(after_op.syncs, 0);
}

// Cora and a bulk of three minibatches of its vertices, and the options every
// sampler is built with.
struct CoraBulk {
  CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
  std::vector<vid_t> seeds = consecutive(100, 300);
  Offsets offsets{0, 100, 128, 300};
  static std::vector<vid_t> consecutive(vid_t first, int64_t count) {
    std::vector<vid_t> ids(count);
    std::iota(ids.begin(), ids.end(), first);
    return ids;
  }
};
SamplerParams small_layers() {
  SamplerParams params;
  params.set("fanouts", std::vector<int64_t>{5, 3}).set("samples", std::vector<int64_t>{64, 64});
  return params.set("budget", 50).set("walk_length", 2);
}

// Every registered sampler gives the CPU backend's minibatches on the sealed
// backend, with the same options (the node-wise ones also with PyG's
// expansion), and calls no transfer op and no synchronize() while it samples:
// nothing of a step leaves the backend between the seeds' upload and the result.
TEST(OpaqueBackend, EverySamplerGivesTheCpuMinibatches) {
  const CoraBulk cora;
  const CsrMatrix& adj = cora.adj;
  const std::vector<vid_t>& seeds = cora.seeds;
  const Offsets& offsets = cora.offsets;
  for (const std::string& name : sampler_names())
    for (const int64_t new_only : {0, 1}) {
      const std::vector<OptionSpec>& options = find_sampler(name).options;
      if (new_only &&
          std::none_of(options.begin(), options.end(), [](const OptionSpec& o) { return o.name == "expand_new_only"; }))
        continue;
      SCOPED_TRACE(name + (new_only ? ", expanding new vertices only" : ""));
      SamplerParams params = small_layers();
      testing::TestSampler sampler(name, adj, params.set("expand_new_only", new_only), 31);
      OpaqueBackend opaque;
      testing::BoundSampler bound = sampler.bind(opaque);
      const SeedBatch uploaded = upload_seeds(opaque, seeds, offsets);
      const TransferCounts before = opaque.transfer_counts();
      Bulk bulk = bound.sampler->sample(bound.context, uploaded, 4, 2);
      const TransferCounts while_sampling = opaque.transfer_counts() - before;
      Fingerprint on_opaque, on_cpu;
      on_opaque.add(to_host(opaque, std::move(bulk)));
      on_cpu.add(sampler.sample(seeds, offsets, 4, 2));
      EXPECT_EQ(on_opaque.value(), on_cpu.value());
      EXPECT_EQ(while_sampling.copies, 0) << "a step left the backend";
      EXPECT_EQ(while_sampling.syncs, 0);
    }
}

// GraphSAINT's samplers with saint_norm: the pre-sampling on the first call
// tallies its subgraphs in the backend (its only transfers are each chunk's seed
// uploads, no copy to the host, no synchronize()), the minibatches are the CPU's,
// and the next call, estimate kept, calls no transfer op at all.
TEST(OpaqueBackend, SaintPresamplingTalliesInTheBackend) {
  const CoraBulk cora;
  int subgraph_samplers = 0;
  for (const std::string& name : sampler_names()) {
    if (!can(find_sampler(name), kEstimates)) continue;
    SCOPED_TRACE(name);
    ++subgraph_samplers;
    testing::TestSampler sampler(name, cora.adj, small_layers().set("saint_norm", 1), 31);
    OpaqueBackend opaque;
    testing::BoundSampler bound = sampler.bind(opaque);
    const SeedBatch uploaded = upload_seeds(opaque, cora.seeds, cora.offsets);
    const TransferCounts before = opaque.transfer_counts();
    Bulk first = bound.sampler->sample(bound.context, uploaded, 4, 2);
    const TransferCounts presampling = opaque.transfer_counts() - before;
    EXPECT_EQ(opaque.downloads(), 0) << "the pre-sampling copied to the host";
    EXPECT_GT(presampling.copies, 0) << "each chunk's seeds are uploaded";
    EXPECT_EQ(presampling.syncs, 0);
    const TransferCounts again = opaque.transfer_counts();
    Bulk second = bound.sampler->sample(bound.context, uploaded, 4, 2);
    EXPECT_EQ((opaque.transfer_counts() - again).copies, 0) << "a step left the backend";
    Fingerprint got, want;
    got.add(to_host(opaque, std::move(first)));
    got.add(to_host(opaque, std::move(second)));
    const BulkSample on_cpu = sampler.sample(cora.seeds, cora.offsets, 4, 2);
    want.add(on_cpu);
    want.add(on_cpu);
    EXPECT_EQ(got.value(), want.value());
  }
  EXPECT_EQ(subgraph_samplers, 4) << "saint, saint_node, saint_edge and frontier pre-sample";
}

// Link prediction's path: with the bulk's excluded edges uploaded beside its
// seeds, every sampler that excludes edges gives the CPU's minibatches on the
// sealed backend and calls no transfer op and no synchronize() while it samples.
TEST(OpaqueBackend, LinkExclusionStaysInTheBackend) {
  const CoraBulk cora;
  const CsrMatrix& adj = cora.adj;
  const std::vector<vid_t>& seeds = cora.seeds;
  const Offsets& offsets = cora.offsets;
  // Each minibatch excludes its seeds' edges (both ways): every layer has rows to mask.
  ExcludedEdges excluded;
  for (size_t m = 0; m + 1 < offsets.size(); ++m) {
    std::vector<std::pair<vid_t, vid_t>> edges;
    for (int64_t i = offsets[m]; i < offsets[m + 1]; ++i)
      for (int64_t e = adj.rowptr[seeds[i]]; e < adj.rowptr[seeds[i] + 1]; ++e) {
        edges.emplace_back(seeds[i], adj.colidx[e]);
        edges.emplace_back(adj.colidx[e], seeds[i]);
      }
    excluded.add_minibatch(std::move(edges));
  }
  int excluding = 0;
  for (const std::string& name : sampler_names()) {
    SCOPED_TRACE(name);
    testing::TestSampler sampler(name, adj, small_layers(), 31);
    const EdgeSeedSampler* on_cpu_excluding = find_capability<EdgeSeedSampler>(sampler.on_cpu());
    if (!on_cpu_excluding) continue;
    ++excluding;
    OpaqueBackend opaque;
    testing::BoundSampler bound = sampler.bind(opaque);
    const SeedBatch uploaded = upload_seeds(opaque, seeds, offsets);
    const EdgeSeedSampler& excluding = require_capability<EdgeSeedSampler>(*bound.sampler);
    const ExcludedInBackend uploaded_edges = excluding.upload_excluded(opaque, excluded);
    const TransferCounts before = opaque.transfer_counts();
    Bulk bulk = excluding.sample_excluding(bound.context, uploaded, 4, 2, uploaded_edges);
    const TransferCounts while_sampling = opaque.transfer_counts() - before;
    Context on_cpu{sampler.cpu(), sampler.seed()};
    Fingerprint want, got;
    want.add(to_host(sampler.cpu(), on_cpu_excluding->sample_excluding(on_cpu, seeds, offsets, 4, 2, excluded)));
    got.add(to_host(opaque, std::move(bulk)));
    EXPECT_EQ(got.value(), want.value());
    EXPECT_EQ(while_sampling.copies, 0) << "a step left the backend";
    EXPECT_EQ(while_sampling.syncs, 0);
  }
  EXPECT_EQ(excluding, 5) << "graphsage, labor, dgs, ladies and fastgcn exclude edges";
}

// An epoch by time (sample_minibatches_by_time: a tree per seed, merged into
// its minibatches by backend ops) gives the CPU's minibatches on the sealed
// backend for every temporal sampler and strategy, and copies nothing between
// its seeds' upload and its result.
TEST(OpaqueBackend, TemporalEpochStaysInTheBackend) {
  const CoraBulk cora;
  std::vector<int64_t> vertex_times(cora.adj.rows);
  for (int64_t v = 0; v < cora.adj.rows; ++v) vertex_times[v] = (v * 7919) % 50;
  const auto times_in = [&](Backend& backend, TemporalStrategy strategy) {
    TimeOrder order = time_order(cora.adj, column_times(cora.adj, vertex_times));
    return TemporalEpoch{backend.upload_ids(std::move(order.order)), backend.upload_ids(std::move(order.sorted_times)),
                         vertex_times, strategy};
  };
  const EpochOrder order(cora.seeds, 70);
  int temporal = 0;
  for (const std::string& name : sampler_names()) {
    testing::TestSampler sampler(name, cora.adj, small_layers(), 31);
    if (!find_capability<TemporalSampler>(sampler.on_cpu())) continue;
    ++temporal;
    for (TemporalStrategy strategy : {TemporalStrategy::uniform, TemporalStrategy::last}) {
      if (name == "labor" && strategy == TemporalStrategy::last) continue;  // LABOR draws uniformly only
      SCOPED_TRACE(name + (strategy == TemporalStrategy::last ? " last" : " uniform"));
      OpaqueBackend opaque;
      testing::BoundSampler bound = sampler.bind(opaque);
      StepStats stats;
      bound.context.stats = &stats;
      Bulk bulk = sample_minibatches_by_time(*bound.sampler, bound.context, order, 1, order.num_minibatches(), 2,
                                             times_in(opaque, strategy));
      EXPECT_EQ(stats.transfers.copies, 0) << "a step left the backend";
      EXPECT_EQ(opaque.downloads(), 0);
      testing::BoundSampler on_cpu = sampler.bind(sampler.cpu());
      Fingerprint got, want;
      got.add(to_host(opaque, std::move(bulk)));
      want.add(to_host(sampler.cpu(),
                       sample_minibatches_by_time(*on_cpu.sampler, on_cpu.context, order, 1, order.num_minibatches(), 2,
                                                  times_in(sampler.cpu(), strategy))));
      EXPECT_EQ(got.value(), want.value());
    }
  }
  EXPECT_EQ(temporal, 2) << "graphsage and labor sample by time";
}

// The heterogeneous samplers (node-wise and HGT's layer-wise) give the CPU's
// minibatches (and the node-wise draws' positions) on the sealed backend and,
// with their seeds uploaded, call no transfer op and no synchronize() while
// they sample.
TEST(OpaqueBackend, HeterogeneousSamplersStayInTheBackend) {
  const HeteroGraph g = testing::small_hetero_graph();
  const int paper = g.type_index("paper");
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < 60; ++v) seeds.push_back((v * 37) % 300);
  const HeteroSeeds batch = HeteroSeeds::of_type(g.types.size(), paper, seeds, {0, 20, 21, 60});
  auto cpu = make_cpu_backend();
  OpaqueBackend opaque;
  const auto make = [&](Backend& backend, bool layer_wise) -> std::unique_ptr<HeteroSampler> {
    if (layer_wise) return std::make_unique<HeteroLayerWiseSampler>(backend, g, parse_type_budgets(g, "16,8"));
    return std::make_unique<HeteroNeighborSampler>(backend, g, parse_relation_fanouts(g, "4,3"));
  };
  for (bool layer_wise : {false, true}) {
    SCOPED_TRACE(layer_wise ? "hgt" : "graphsage");
    const std::unique_ptr<HeteroSampler> on_opaque = make(opaque, layer_wise), on_cpu = make(*cpu, layer_wise);
    Context ctx{opaque, 17}, cpu_ctx{*cpu, 17};
    ctx.record_positions = cpu_ctx.record_positions = true;
    const HeteroSeedBatch uploaded = upload_hetero_seeds(opaque, batch);
    const TransferCounts before = opaque.transfer_counts();
    HeteroBulk bulk = on_opaque->sample(ctx, uploaded, 3, 1);
    const TransferCounts while_sampling = opaque.transfer_counts() - before;
    const HeteroBulkSample got_bulk = to_host(opaque, std::move(bulk));
    const HeteroBulkSample want_bulk = to_host(*cpu, on_cpu->sample(cpu_ctx, batch, 3, 1));
    Fingerprint got, want;
    got.add(got_bulk);
    want.add(want_bulk);
    EXPECT_EQ(got.value(), want.value());
    for (size_t l = 0; l < want_bulk.layers.size(); ++l)
      EXPECT_EQ(got_bulk.layers[l].positions, want_bulk.layers[l].positions) << "layer " << l;
    EXPECT_EQ(while_sampling.copies, 0) << "a step left the backend";
    EXPECT_EQ(while_sampling.syncs, 0);
  }
}

}  // namespace
}  // namespace matsamp
