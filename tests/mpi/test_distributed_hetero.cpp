// Heterogeneous sampling across processes: for one seed, every p and c, with the
// relations replicated or partitioned (sparsity-aware, rows fetched whole, or
// oblivious; node-wise also from block rows read from a .msg, reverses made by
// a distributed transpose), the node-wise and the layer-wise sampler give
// exactly the minibatches of one process, compared minibatch by minibatch by
// fingerprint.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "distributed/epoch_share.h"
#include "distributed/partitioned_hetero.h"
#include "generate/generators.h"
#include "io/hetero_io.h"
#include "mpi_test_env.h"
#include "sampling/epoch_plan.h"
#include "sampling/fingerprint.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"

namespace matsamp {
namespace {

using testing::world;
using Exchange = GraphProduct::Exchange;
using RowSampling = DistributedBackend::RowSampling;

HeteroGraph mag_graph_as_given() {
  HeteroMagOptions options;
  options.papers = 600;
  options.feature_dim = 4;
  return generate_hetero_mag(options);
}

HeteroGraph mag_graph() {
  HeteroGraph g = mag_graph_as_given();
  add_reverse_relations(g);
  return g;
}

// The graph as given in a .msg every rank reads (rank 0 writes it).
std::string mag_file() {
  const std::string path = testing::shared_scratch_dir("hetero_blocks") + "/mag.msg";
  if (world().rank() == 0) write_hetero_binary(path, mag_graph_as_given());
  world().barrier();
  return path;
}

// (minibatch id, fingerprint) of the worker's share of the epoch (its lane of
// every bulk of two steps).
std::vector<std::pair<int64_t, uint64_t>> sample_share(const HeteroSampler& sampler, Context ctx, int seed_type,
                                                       const std::vector<vid_t>& train, const EpochOptions& share) {
  const EpochPlan plan(static_cast<int64_t>(train.size()), {share.batch_size, share.workers, 2, {}});
  const EpochOrder order = plan.order(train, share.seed, share.epoch);
  std::vector<std::pair<int64_t, uint64_t>> out;
  for (const auto& [first, end] : plan.worker_bulks(share.worker, share.workers)) {
    const auto [ids, offsets] = order.seeds(first, end);
    const HeteroBulkSample bulk =
        to_host(ctx.backend, sampler.sample(ctx, seed_type, ids, offsets, first, share.epoch));
    for (int64_t g = 0; g < bulk.count(); ++g) {
      Fingerprint f;
      f.add(bulk, g);
      out.push_back({first + g, f.value()});
    }
  }
  return out;
}

// A sampler over g on one process's backend (partitioned null) or over the partitioned relations.
using MakeSampler =
    std::function<std::unique_ptr<HeteroSampler>(const HeteroGraph& g, Backend&, PartitionedHetero* partitioned)>;

void check_against_one_process(const std::string& what, const MakeSampler& make, bool from_file) {
  const HeteroGraph g = mag_graph();
  const int paper = g.type_index("paper");
  const std::vector<vid_t>& train = g.types[paper].splits.at("train");
  EpochOptions options;
  options.batch_size = 48;
  options.seed = 42;
  options.epoch = 2;
  auto cpu = make_cpu_backend();
  const std::string path = from_file ? mag_file() : "";
  const auto reference = sample_share(*make(g, *cpu, nullptr), Context{*cpu, 42}, paper, train, options);
  ASSERT_GE(reference.size(), 4u);

  for (int c : testing::valid_replications()) {
    ProcessGrid grid(world(), c);
    struct Run {
      std::string what;
      GraphMode mode;
      Exchange exchange = Exchange::sparsity_aware;
      RowSampling rows = RowSampling::at_owner;
      bool blocks_read = false;  // from the .msg, no rank reading it whole
    };
    for (const Run& run :
         {Run{"replicated", GraphMode::replicated}, Run{"partitioned, sparsity-aware", GraphMode::partitioned},
          Run{"partitioned, rows fetched whole", GraphMode::partitioned, Exchange::sparsity_aware,
              RowSampling::fetched_rows},
          Run{"partitioned, oblivious", GraphMode::partitioned, Exchange::oblivious},
          Run{"partitioned, block rows read", GraphMode::partitioned, Exchange::sparsity_aware, RowSampling::at_owner,
              true}}) {
      if (run.blocks_read && !from_file) continue;
      const EpochOptions share = share_of_epoch(options, grid, run.mode);
      std::vector<std::pair<int64_t, uint64_t>> mine;
      if (run.mode == GraphMode::replicated) {
        mine = sample_share(*make(g, *cpu, nullptr), Context{*cpu, 42}, paper, train, share);
      } else {
        HeteroBlocks part;
        if (run.blocks_read) part = read_hetero_blocks(path, grid, true);
        const HeteroGraph& schema = run.blocks_read ? part.schema : g;
        std::optional<PartitionedHetero> read;
        if (run.blocks_read) read.emplace(grid, part.schema, std::move(part.blocks), run.exchange);
        else read.emplace(grid, g, run.exchange);
        PartitionedHetero& graph = *read;
        graph.backend().set_row_sampling(run.rows);
        EXPECT_EQ(graph.num_edges(), g.num_edges());
        mine = sample_share(*make(schema, graph.backend(), &graph), Context{graph.backend(), 42}, paper, train, share);
        if (!mine.empty()) {  // one rank holds every relation whole and samples it on its local backend
          EXPECT_EQ(graph.product().calls().empty(), world().size() == 1)
              << (world().size() == 1 ? "one rank went through the product"
                                      : "the relations were not read distributed");
        }
        graph.finish();
      }
      const auto all = testing::gather_fingerprints(mine);
      const size_t copies = run.mode == GraphMode::replicated ? 1 : static_cast<size_t>(c);
      const std::string where = what + ", p = " + std::to_string(world().size()) + ", c = " + std::to_string(c) + ", " +
                                run.what;
      testing::expect_same_minibatches(reference, all, copies, where);
    }
  }
}

TEST(DistributedHetero, NeighbourSamplingEqualsOneProcess) {
  check_against_one_process(
      "hetero graphsage",
      [](const HeteroGraph& g, Backend& backend, PartitionedHetero* partitioned) -> std::unique_ptr<HeteroSampler> {
        const auto fanouts = parse_relation_fanouts(g, "5,3");
        return partitioned ? std::make_unique<HeteroNeighborSampler>(partitioned->relations(), fanouts)
                           : std::make_unique<HeteroNeighborSampler>(backend, g, fanouts);
      },
      true);
}

TEST(DistributedHetero, LayerWiseSamplingEqualsOneProcess) {
  check_against_one_process(
      "hetero layer-wise",
      [](const HeteroGraph& g, Backend& backend, PartitionedHetero* partitioned) -> std::unique_ptr<HeteroSampler> {
        const auto budgets = parse_type_budgets(g, "paper=40,20;author=30,15;field_of_study=10,5;institution=5,3");
        if (!partitioned) return std::make_unique<HeteroLayerWiseSampler>(backend, g, budgets);
        return std::make_unique<HeteroLayerWiseSampler>(
            g, budgets, [partitioned](CsrMatrix b) { return partitioned->distribute(b); });
      },
      false);
}

TEST(DistributedHetero, BlockRowsReadEqualTheWholeGraphs) {
  const std::string path = mag_file();
  for (bool add_reverse : {false, true}) {
    const HeteroGraph whole = add_reverse ? mag_graph() : mag_graph_as_given();
    for (int c : testing::valid_replications()) {
      ProcessGrid grid(world(), c);
      const HeteroBlocks part = read_hetero_blocks(path, grid, add_reverse);
      ASSERT_EQ(part.schema.relations.size(), whole.relations.size());
      ASSERT_EQ(part.blocks.size(), whole.relations.size());
      for (size_t r = 0; r < whole.relations.size(); ++r) {
        const Relation& want = whole.relations[r];
        EXPECT_EQ(part.schema.relations[r].key(), want.key());
        EXPECT_EQ(part.schema.relations[r].adj.rows, want.adj.rows);
        EXPECT_EQ(part.schema.relations[r].adj.cols, want.adj.cols);
        EXPECT_EQ(part.schema.relations[r].adj.nnz(), 0) << "the schema holds shapes, the blocks the entries";
        EXPECT_TRUE(part.blocks[r].local == block_row_of(want.adj, grid).local)
            << want.key() << (add_reverse ? " with reverses" : "") << ", c = " << c << ", rank " << world().rank();
      }
      for (size_t t = 0; t < whole.types.size(); ++t) {
        EXPECT_EQ(part.schema.types[t].count, whole.types[t].count);
        EXPECT_EQ(part.schema.types[t].splits, whole.types[t].splits);
        EXPECT_EQ(part.schema.types[t].labels, whole.types[t].labels);
        EXPECT_TRUE(part.schema.types[t].features.empty()) << "sampling reads no features";
      }
    }
  }
}

}  // namespace
}  // namespace matsamp
