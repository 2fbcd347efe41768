// Heterogeneous sampling across processes: for one seed, every p and c, with the
// relations replicated or partitioned (sparsity-aware, rows fetched whole, or
// oblivious), the node-wise and the layer-wise sampler give exactly the
// minibatches of one process, compared minibatch by minibatch by fingerprint.
#include <gtest/gtest.h>

#include <functional>

#include "distributed/epoch_share.h"
#include "distributed/partitioned_hetero.h"
#include "generate/generators.h"
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

HeteroGraph mag_graph() {
  HeteroMagOptions options;
  options.papers = 600;
  options.feature_dim = 4;
  HeteroGraph g = generate_hetero_mag(options);
  add_reverse_relations(g);
  return g;
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

void check_against_one_process(const std::string& what, const MakeSampler& make) {
  const HeteroGraph g = mag_graph();
  const int paper = g.type_index("paper");
  const std::vector<vid_t>& train = g.types[paper].splits.at("train");
  EpochOptions options;
  options.batch_size = 48;
  options.seed = 42;
  options.epoch = 2;
  auto cpu = make_cpu_backend();
  const auto reference = sample_share(*make(g, *cpu, nullptr), Context{*cpu, 42}, paper, train, options);
  ASSERT_GE(reference.size(), 4u);

  for (int c : testing::valid_replications()) {
    ProcessGrid grid(world(), c);
    struct Run {
      std::string what;
      GraphMode mode;
      Exchange exchange = Exchange::sparsity_aware;
      RowSampling rows = RowSampling::at_owner;
    };
    for (const Run& run :
         {Run{"replicated", GraphMode::replicated}, Run{"partitioned, sparsity-aware", GraphMode::partitioned},
          Run{"partitioned, rows fetched whole", GraphMode::partitioned, Exchange::sparsity_aware,
              RowSampling::fetched_rows},
          Run{"partitioned, oblivious", GraphMode::partitioned, Exchange::oblivious}}) {
      const EpochOptions share = share_of_epoch(options, grid, run.mode);
      std::vector<std::pair<int64_t, uint64_t>> mine;
      if (run.mode == GraphMode::replicated) {
        mine = sample_share(*make(g, *cpu, nullptr), Context{*cpu, 42}, paper, train, share);
      } else {
        PartitionedHetero graph(grid, g, run.exchange);
        graph.backend().set_row_sampling(run.rows);
        mine = sample_share(*make(g, graph.backend(), &graph), Context{graph.backend(), 42}, paper, train, share);
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
      });
}

TEST(DistributedHetero, LayerWiseSamplingEqualsOneProcess) {
  check_against_one_process(
      "hetero layer-wise",
      [](const HeteroGraph& g, Backend& backend, PartitionedHetero* partitioned) -> std::unique_ptr<HeteroSampler> {
        const auto budgets = parse_type_budgets(g, "paper=40,20;author=30,15;field_of_study=10,5;institution=5,3");
        if (!partitioned) return std::make_unique<HeteroLayerWiseSampler>(backend, g, budgets);
        return std::make_unique<HeteroLayerWiseSampler>(
            g, budgets, [partitioned](CsrMatrix b) { return partitioned->distribute(b); });
      });
}

}  // namespace
}  // namespace matsamp
