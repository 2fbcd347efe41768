// The promise of DESIGN.md across processes: for one seed, every p and c, graph
// replicated or partitioned (sparsity-aware or oblivious), gives exactly the
// minibatches of the single-process EpochIterator. Every rank's minibatches are
// compared with the reference by per-minibatch fingerprints; in partitioned mode the
// c ranks of a process row must each produce every minibatch of their row.
#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "distributed/epoch_share.h"
#include "distributed/partitioned_sampling.h"
#include "error_checks.h"
#include "io/graph_io.h"
#include "mpi_test_env.h"
#include "opaque_backend.h"
#include "sampling/fingerprint.h"
#include "sampling/registry.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

using testing::world;
using Exchange = GraphProduct::Exchange;

struct SamplerCase {
  std::string name;              // graphsage, labor, dgs, ladies, fastgcn, saint, saint_node
  std::vector<int64_t> sizes;    // per layer; GraphSAINT: walk length or budget, then layers
  bool expand_new_only = false;  // node-wise: PyG's expansion
};

EpochOptions epoch_options(int64_t batch) {
  EpochOptions options;
  options.batch_size = batch;
  options.bulk_size = 2;
  options.seed = 42;
  options.epoch = 3;
  return options;
}

SamplerParams params_of(const SamplerCase& s) {
  SamplerParams params;
  if (s.name == "graphsage" || s.name == "labor" || s.name == "dgs")
    return params.set("fanouts", s.sizes).set("expand_new_only", int64_t{s.expand_new_only});
  if (s.name == "ladies" || s.name == "fastgcn") return params.set("samples", s.sizes);
  return params.set(s.name == "saint" ? "walk_length" : "budget", s.sizes.at(0)).set("layers", s.sizes.at(1));
}

// (global minibatch id, fingerprint) of each minibatch an epoch iterator yields.
std::vector<std::pair<int64_t, uint64_t>> fingerprints(EpochIterator& epoch) {
  std::vector<std::pair<int64_t, uint64_t>> out;
  BulkSample bulk;
  while (epoch.next(&bulk))
    for (int64_t g = 0; g < bulk.count(); ++g) {
      Fingerprint f;
      f.add(extract_minibatch(bulk, g));
      out.push_back({bulk.first_minibatch + g, f.value()});
    }
  return out;
}

void check_against_reference(const std::string& graph_file, int64_t batch, const SamplerCase& spec,
                             int locality_blocks = 0) {
  const Graph g = read_graph(graph_file);
  const std::vector<vid_t> train = training_vertices(g.num_vertices(), 0.8, 42);
  EpochOptions options = epoch_options(batch);
  options.locality = {locality_blocks, g.num_vertices()};
  if (locality_blocks > 0) {  // the layout, which then decides the minibatches, the same for every grid
    options.minibatches_per_step = std::lcm(int64_t{locality_blocks}, int64_t{world().size()});
    options.bulk_steps = 1;
  }
  const testing::TestSampler sampler(spec.name, g.adj, params_of(spec), 42);
  auto cpu = make_cpu_backend();
  const testing::BoundSampler on_cpu = sampler.bind(*cpu);
  EpochIterator reference_epoch(*on_cpu.sampler, on_cpu.context, train, options);
  const auto reference = fingerprints(reference_epoch);
  ASSERT_GE(reference.size(), 3u);

  for (int c : testing::valid_replications()) {
    ProcessGrid grid(world(), c);
    using RowSampling = DistributedBackend::RowSampling;
    struct Run {
      std::string what;
      GraphMode mode;
      Exchange exchange;
      RowSampling rows = RowSampling::at_owner;
      GraphProduct::RowWork work = GraphProduct::RowWork::shared;
    };
    for (const Run& run : {Run{"replicated", GraphMode::replicated, Exchange::sparsity_aware},
                           Run{"partitioned, sparsity-aware", GraphMode::partitioned, Exchange::sparsity_aware},
                           Run{"partitioned, sparsity-aware, rows fetched whole", GraphMode::partitioned,
                               Exchange::sparsity_aware, RowSampling::fetched_rows},
                           Run{"partitioned, oblivious", GraphMode::partitioned, Exchange::oblivious},
                           Run{"partitioned, rows split", GraphMode::partitioned, Exchange::sparsity_aware,
                               RowSampling::at_owner, GraphProduct::RowWork::split}}) {
      const EpochOptions share = share_of_epoch(options, grid, run.mode, run.work);
      std::vector<std::pair<int64_t, uint64_t>> mine;
      if (run.mode == GraphMode::replicated) {
        EpochIterator epoch(*on_cpu.sampler, on_cpu.context, train, share);
        mine = fingerprints(epoch);
      } else {
        PartitionedSampling graph(grid, block_row_of(g.adj, grid), run.exchange, make_cpu_backend(), run.work);
        graph.backend().set_row_sampling(run.rows);
        const auto partitioned = make_sampler(spec.name, graph, params_of(spec));
        EpochIterator epoch(*partitioned, Context{graph.backend(), 42}, train, share);
        mine = fingerprints(epoch);
        graph.finish();
      }
      const auto all = testing::gather_fingerprints(mine);
      const bool shared_rows = run.mode == GraphMode::partitioned && run.work == GraphProduct::RowWork::shared;
      const size_t copies = shared_rows ? static_cast<size_t>(c) : 1;  // ranks sampling each minibatch
      const std::string where = spec.name + " on " + graph_file + ", p = " + std::to_string(world().size()) +
                                ", c = " + std::to_string(c) + ", " + run.what + ", locality blocks " +
                                std::to_string(locality_blocks);
      testing::expect_same_minibatches(reference, all, copies, where);
    }
  }
}

TEST(DistributedDeterminism, GraphSageOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 256, {"graphsage", {10, 5}});
}

TEST(DistributedDeterminism, LaborOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 256, {"labor", {10, 5}});
}

// PyG's expansion: the added vertices' rows drawn at their owners, padded back where asked.
TEST(DistributedDeterminism, ExpandingNewVerticesOnlyOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 256, {"graphsage", {10, 5, 3}, true});
  check_against_reference(testing::data_file("cora.npz"), 256, {"labor", {10, 5}, true});
}

TEST(DistributedDeterminism, DgsOnCora) {  // rows fetched whole from their owners, drawn where asked
  check_against_reference(testing::data_file("cora.npz"), 256, {"dgs", {10, 5}});
}

TEST(DistributedDeterminism, LadiesOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 256, {"ladies", {128, 128}});
}

TEST(DistributedDeterminism, FastGcnOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 256, {"fastgcn", {128, 128}});
}

TEST(DistributedDeterminism, SaintOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 256, {"saint", {3, 2}});         // walk length, layers
  check_against_reference(testing::data_file("cora.npz"), 256, {"saint_node", {200, 2}});  // budget, layers
}

// Minibatches drawn per block of vertex ids are the same minibatches on any grid too.
TEST(DistributedDeterminism, LocalityBatchesOnCora) {
  check_against_reference(testing::data_file("cora.npz"), 128, {"graphsage", {10, 5}}, 4);
  check_against_reference(testing::data_file("cora.npz"), 128, {"ladies", {64, 64}}, 4);
}

// With locality blocks B = process rows, worker w's lanes are those of block w: in
// the partitioned mode a process row's minibatches come from the block row its
// ranks hold (all of them when the blocks hold equal numbers of training vertices).
TEST(EpochShare, LocalityBlocksGoToTheirWorkers) {
  const Graph g = read_graph(testing::data_file("cora.npz"));
  const auto sampler = testing::graphsage(g.adj, {5}, 42);
  auto cpu = make_cpu_backend();
  for (int c : testing::valid_replications()) {
    ProcessGrid grid(world(), c);
    const RowBlocks blocks{g.num_vertices(), grid.process_rows()};
    std::vector<vid_t> train;  // as many from every block
    for (int64_t j = 0; j < grid.process_rows(); ++j)
      for (int64_t i = 0; i < 100; ++i) train.push_back(static_cast<vid_t>(blocks.begin(static_cast<int>(j)) + 2 * i));
    EpochOptions options = epoch_options(64);
    options.locality = {grid.process_rows(), g.num_vertices()};
    const EpochOptions share = share_of_epoch(options, grid, GraphMode::partitioned);
    const testing::BoundSampler bound = sampler->bind(*cpu);
    EpochIterator epoch(*bound.sampler, bound.context, train, share);
    int64_t seen = 0;
    BulkSample bulk;
    while (epoch.next(&bulk))
      for (vid_t v : bulk.seeds) {
        EXPECT_EQ(blocks.owner(v), grid.row()) << "c = " << c << ": vertex " << v;
        ++seen;
      }
    EXPECT_EQ(seen, 100) << "c = " << c;  // every training vertex of the block, once
  }
}

// Drawn edges are looked up, and frontier walks walk, in the whole adjacency,
// which a partitioned rank lacks.
TEST(DistributedDeterminism, SaintEdgeNeedsTheGraphReplicated) {
  const Graph g = read_graph(testing::data_file("karate.mtx"));
  ProcessGrid grid(world(), 1);
  PartitionedSampling graph(grid, block_row_of(g.adj, grid), Exchange::sparsity_aware);
  testing::expect_error([&] { make_sampler("saint_edge", graph, SamplerParams().set("budget", 4)); },
                        "saint_edge samples a replicated graph only");
  testing::expect_error([&] { make_sampler("frontier", graph, SamplerParams().set("budget", 4)); },
                        "frontier samples a replicated graph only");
  graph.finish();
}

// One bulk of three minibatches (100, 28 and 172 seeds) of Cora's vertices 100-399.
std::vector<vid_t> cora_bulk_seeds() {
  std::vector<vid_t> seeds(300);
  std::iota(seeds.begin(), seeds.end(), 100);
  return seeds;
}
Offsets cora_bulk_offsets() { return {0, 100, 128, 300}; }

// A grid of one rank holds every row: its partitioned graph samples on the local
// backend as one process does. On a sealed backend that counts its copies, every
// sampler that runs partitioned gives the single-process minibatches, goes through
// no exchange round, and copies nothing between host and backend inside its steps
// (on a GPU: the rank's block on its device, the product one local op). Each rank
// runs it on a grid of its own, so it holds at every p.
TEST(PartitionedOnOneRank, SamplesInTheLocalBackend) {
  const Graph g = read_graph(testing::data_file("cora.npz"));
  const std::vector<vid_t> seeds = cora_bulk_seeds();
  const Offsets offsets = cora_bulk_offsets();
  SamplerParams params;
  params.set("fanouts", std::vector<int64_t>{5, 3}).set("samples", std::vector<int64_t>{64, 64});
  params.set("budget", 50).set("walk_length", 2).set("layers", 2);
  const auto self = make_mpi_communicator(MPI_COMM_SELF);
  ProcessGrid grid(*self, 1);
  int partitioned_samplers = 0;
  for (const std::string& name : sampler_names()) {
    SCOPED_TRACE(name);
    auto sealed = std::make_unique<testing::OpaqueBackend>();
    testing::OpaqueBackend& opaque = *sealed;
    PartitionedSampling graph(grid, block_row_of(g.adj, grid), Exchange::sparsity_aware, std::move(sealed));
    std::unique_ptr<Sampler> sampler;
    try {
      sampler = make_sampler(name, graph, params);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("samples a replicated graph only"), std::string::npos) << e.what();
      continue;
    }
    ++partitioned_samplers;
    Context context{graph.backend(), 31};
    const SeedBatch uploaded = upload_seeds(graph.backend(), seeds, offsets);
    sampler->sample(context, uploaded, 4, 2);  // the first bulk prepares the layer-wise matrices
    const TransferCounts before = opaque.transfer_counts();
    Bulk bulk = sampler->sample(context, uploaded, 4, 2);
    const TransferCounts while_sampling = opaque.transfer_counts() - before;
    EXPECT_EQ(while_sampling.copies, 0) << "a step left the local backend";
    EXPECT_EQ(while_sampling.syncs, 0);
    EXPECT_TRUE(graph.product().calls().empty()) << "one rank went through the exchange";
    Fingerprint got, want;
    got.add(to_host(graph.backend(), std::move(bulk)));
    want.add(testing::TestSampler(name, g.adj, params, 31).sample(seeds, offsets, 4, 2));
    EXPECT_EQ(got.value(), want.value());
    graph.finish();
  }
  EXPECT_EQ(partitioned_samplers, 7) << "graphsage, labor, dgs, ladies, fastgcn, saint and saint_node";
}

// A transport over MPI that takes the backend's "device" buffers in place, as NCCL
// takes the CUDA backend's: the opaque backend's exposed arrays are host memory, so
// MPI can move them; the counts are the transport's convention, as MPI's.
class DeviceBufferTransport final : public Communicator {
 public:
  explicit DeviceBufferTransport(std::unique_ptr<Communicator> inner) : inner_(std::move(inner)) {}
  int rank() const override { return inner_->rank(); }
  int size() const override { return inner_->size(); }
  std::string transport() const override { return "device-buffers"; }
  bool takes_device_buffers() const override { return true; }
  void all_reduce_sum(void* data, int64_t count, DataType type) override {
    inner_->all_reduce_sum(data, count, type);
    count_all_reduce(count, type);
  }
  void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                   const std::vector<int64_t>& recv_counts, DataType type) override {
    inner_->all_to_allv(send, send_counts, recv, recv_counts, type);
    count_all_to_allv(send_counts, type);
  }
  void all_gatherv(const void* send, int64_t count, void* recv, const std::vector<int64_t>& recv_counts,
                   DataType type) override {
    inner_->all_gatherv(send, count, recv, recv_counts, type);
    count_all_gatherv(count, type);
  }
  void broadcast(void* data, int64_t count, DataType type, int root) override {
    inner_->broadcast(data, count, type, root);
    count_broadcast(count, type, root);
  }
  void send(const void* data, int64_t count, DataType type, int peer, int tag) override {
    inner_->send(data, count, type, peer, tag);
    count_send(count, type, 1);
  }
  void recv(void* data, int64_t count, DataType type, int peer, int tag) override {
    inner_->recv(data, count, type, peer, tag);
  }
  void barrier() override { inner_->barrier(); }
  std::unique_ptr<Communicator> split(int color, int key) override {
    return std::make_unique<DeviceBufferTransport>(inner_->split(color, key));
  }
  std::unique_ptr<Communicator> concurrent_duplicate() override {
    return std::make_unique<DeviceBufferTransport>(inner_->concurrent_duplicate());
  }
  [[noreturn]] void abort(const std::string& message) override { inner_->abort(message); }

 private:
  std::unique_ptr<Communicator> inner_;
};

// Node-wise draws of a partitioned graph at every p: each owner draws its rows on
// its backend and the rows move between the ranks' backends (and, at c > 1 with
// shared rows, along the process row). Where the transport takes the backend's
// memory, no step copies through the host; a sealed backend, or device memory
// under MPI, stages through its transfers. The minibatches are one process's every way.
TEST(PartitionedAtOwners, DrawsMoveBetweenBackendsWithoutTheHost) {
  const Graph g = read_graph(testing::data_file("cora.npz"));
  const std::vector<vid_t> seeds = cora_bulk_seeds();
  const Offsets offsets = cora_bulk_offsets();
  SamplerParams params;
  params.set("fanouts", std::vector<int64_t>{5, 3});
  DeviceBufferTransport device_world(world().split(0, world().rank()));
  enum class Memory { sealed, exposed_to_mpi, exposed_to_device_transport };
  for (const Memory memory : {Memory::sealed, Memory::exposed_to_mpi, Memory::exposed_to_device_transport})
    for (int c : testing::valid_replications())
      for (const auto work : {GraphProduct::RowWork::shared, GraphProduct::RowWork::split})
        for (const std::string name : {"graphsage", "labor"}) {
          const bool device_transport = memory == Memory::exposed_to_device_transport;
          SCOPED_TRACE(name + ", c = " + std::to_string(c) + (work == GraphProduct::RowWork::split ? ", split" : "") +
                       (memory == Memory::sealed ? ", sealed"
                        : device_transport       ? ", device transport"
                                                 : ", mpi"));
          ProcessGrid grid(device_transport ? static_cast<Communicator&>(device_world) : world(), c);
          auto sealed = std::make_unique<testing::OpaqueBackend>();
          testing::OpaqueBackend& opaque = *sealed;
          if (memory != Memory::sealed) opaque.expose_arrays();
          PartitionedSampling graph(grid, block_row_of(g.adj, grid), Exchange::sparsity_aware, std::move(sealed), work);
          const auto sampler = make_sampler(name, graph, params);
          Context context{graph.backend(), 31};
          const SeedBatch uploaded = upload_seeds(graph.backend(), seeds, offsets);
          const TransferCounts before = opaque.transfer_counts();
          Bulk bulk = sampler->sample(context, uploaded, 4, 2);
          const TransferCounts while_sampling = opaque.transfer_counts() - before;
          const bool one_rank = world().size() == 1;
          if (one_rank || device_transport) {
            EXPECT_EQ(while_sampling.copies, 0) << "a step went through the host";
            EXPECT_EQ(while_sampling.syncs, 0);
          } else {
            EXPECT_GT(while_sampling.copies, 0) << "arrays the transport cannot take moved without staging";
          }
          EXPECT_EQ(graph.product().calls().empty(), one_rank);
          Fingerprint got, want;
          got.add(to_host(graph.backend(), std::move(bulk)));
          want.add(testing::TestSampler(name, g.adj, params, 31).sample(seeds, offsets, 4, 2));
          EXPECT_EQ(got.value(), want.value());
          graph.finish();
        }
}

// Three minibatches: with four workers some sample nothing and only serve.
TEST(DistributedDeterminism, AllSamplersOnKarateWithIdleWorkers) {
  check_against_reference(testing::data_file("karate.mtx"), 10, {"graphsage", {3, 3}});
  check_against_reference(testing::data_file("karate.mtx"), 10, {"labor", {3, 3}});
  check_against_reference(testing::data_file("karate.mtx"), 10, {"dgs", {3, 3}});
  check_against_reference(testing::data_file("karate.mtx"), 10, {"ladies", {4, 4}});
  check_against_reference(testing::data_file("karate.mtx"), 10, {"fastgcn", {4, 4}});
  check_against_reference(testing::data_file("karate.mtx"), 10, {"saint", {2, 2}});
  check_against_reference(testing::data_file("karate.mtx"), 10, {"saint_node", {5, 2}});
}

}  // namespace
}  // namespace matsamp
