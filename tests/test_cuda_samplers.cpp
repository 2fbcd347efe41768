// Whole samplers on the CUDA backend: the same minibatches as the CPU backend,
// bit for bit, for several bulk sizes k (DESIGN.md's promise across backends).
#include <gtest/gtest.h>

#include <numeric>

#include "cuda_test_support.h"
#include "edge_bulk_cases.h"
#include "epoch_compare.h"
#include "generate/generators.h"
#include "graph/hetero_graph.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "kernels/device_engine.h"
#include "ops/column_importance.h"
#include "sampling/epoch.h"
#include "sampling/fingerprint.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"
#include "sampling/registry.h"
#include "sampling/sampler.h"
#include "sampling/sampling_graph.h"
#include "sampling_checks.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::all_vertices;
using testing::data_file;
using testing::expect_identical;
using testing::sample_epoch;

class CudaSamplers : public testing::CudaVersusCpu {
 protected:
  // The CPU's epoch one minibatch at a time against the GPU's for several k.
  void expect_parity(const testing::TestSampler& sampler, int64_t n, int64_t batch) {
    const auto reference = sample_epoch(sampler, *cpu, n, batch, 1);
    ASSERT_GT(reference.size(), 2u);
    for (int64_t k : {1, 3, 0}) {
      const std::string what = sampler.name() + ", k = " + (k ? std::to_string(k) : "all");
      expect_identical(reference, sample_epoch(sampler, *cuda, n, batch, k), what.c_str());
    }
  }
};

Graph cora() { return read_npz_graph(data_file("cora.npz")); }
Graph email() { return cleanup(read_edge_list(data_file("email-Eu-core.txt")), {true, true, false}); }
Graph karate() { return read_matrix_market(data_file("karate.mtx")); }
// Cora with varied positive edge weights: the samplers' weighted paths.
Graph weighted_cora() {
  Graph g = cora();
  g.adj.values.resize(g.adj.nnz());
  for (int64_t i = 0; i < g.adj.nnz(); ++i) g.adj.values[i] = 0.5f + static_cast<float>((i * 2654435761u) % 97) / 10;
  return g;
}

TEST_F(CudaSamplers, GraphSage) {
  const Graph c = cora(), e = email(), k = karate();
  expect_parity(*testing::graphsage(c.adj, {15, 10, 5}, 42), c.num_vertices(), 256);
  expect_parity(*testing::graphsage(e.adj, {10, 5}, 42), e.num_vertices(), 100);
  expect_parity(*testing::graphsage(k.adj, {3, 3}, 42), k.num_vertices(), 5);
}

// A heterogeneous graph (ogbn-mag's shape, reverses added): every relation's
// draws and the shared compaction (node-wise, with the draws' positions), and
// the per-type products and draws (layer-wise), give the CPU's minibatches, in
// one bulk.
TEST_F(CudaSamplers, HeterogeneousSampling) {
  HeteroGraph g = generate_hetero_mag({3000});
  add_reverse_relations(g);
  const auto fanouts = parse_relation_fanouts(g, "6,4");
  const auto budgets = parse_type_budgets(g, "64,32");
  const HeteroNeighborSampler node_cpu(*cpu, g, fanouts), node_gpu(*cuda, g, fanouts);
  const HeteroLayerWiseSampler layer_cpu(*cpu, g, budgets), layer_gpu(*cuda, g, budgets);
  const std::vector<vid_t>& seeds = g.types[g.type_index("paper")].splits.at("train");
  const Offsets offsets{0, 100, 250, 400};
  const std::vector<vid_t> used(seeds.begin(), seeds.begin() + 400);
  const std::pair<const HeteroSampler*, const HeteroSampler*> pairs[] = {{&node_cpu, &node_gpu},
                                                                         {&layer_cpu, &layer_gpu}};
  for (const auto& [on_cpu, on_gpu] : pairs) {
    Context cpu_context{*cpu, 7}, gpu_context{*cuda, 7};
    cpu_context.record_positions = gpu_context.record_positions = true;
    const HeteroBulkSample want =
        to_host(*cpu, on_cpu->sample(cpu_context, g.type_index("paper"), used, offsets, 0, 1));
    const HeteroBulkSample have =
        to_host(*cuda, on_gpu->sample(gpu_context, g.type_index("paper"), used, offsets, 0, 1));
    Fingerprint expected, got;
    expected.add(want);
    got.add(have);
    EXPECT_EQ(got.value(), expected.value()) << on_cpu->name();
    for (size_t l = 0; l < want.layers.size(); ++l)
      EXPECT_EQ(have.layers[l].positions, want.layers[l].positions) << on_cpu->name() << " layer " << l;
  }
}

// Link prediction's minibatches (edge seeds, negatives, each minibatch's seed
// edges masked out of its layers: mask_entries and sample_rows_masked) are
// the CPU's on the GPU, for every sampler that excludes edges.
TEST_F(CudaSamplers, LinkPredictionExcludingSeedEdges) {
  const Graph c = cora();
  const testing::EdgeList edges = testing::upper_edges(c.adj);
  const NegativeSampler negatives(c.adj, {1, NegativeDistribution::uniform, false});
  const EdgeBulk bulk = testing::bulk_of(edges, 64, 0, 6, &negatives, {1, 4, true, true});
  LocalGraph on_cpu(*cpu, c.adj), on_gpu(*cuda, c.adj);
  for (const std::string name : {"graphsage", "labor", "dgs", "ladies", "fastgcn"}) {
    const SamplerSpec& spec = find_sampler(name);
    const SamplerParams params = params_from_sizes(
        spec, spec.sizes_option == "fanouts" ? std::vector<int64_t>{10, 5} : std::vector<int64_t>{256, 256}, true);
    const auto cpu_sampler = make_sampler(name, on_cpu, params), gpu_sampler = make_sampler(name, on_gpu, params);
    Context cpu_context{*cpu, 9}, gpu_context{*cuda, 9};
    Fingerprint expected, got;
    expected.add(to_host(*cpu, sample_edge_bulk(*cpu_sampler, cpu_context, bulk, 4)));
    got.add(to_host(*cuda, sample_edge_bulk(*gpu_sampler, gpu_context, bulk, 4)));
    EXPECT_EQ(got.value(), expected.value()) << name;
  }
}

// Device memory and stream lent by the caller (as the bindings lend torch's):
// here another engine's pool and stream, counted. The minibatches are the CPU's,
// everything the backend took went through the source, and all of it came back.
class LentMemory : public DeviceMemorySource {
 public:
  void* stream() const override { return lender_.stream(); }
  void* allocate(int64_t bytes, void* stream) override {
    EXPECT_EQ(stream, lender_.stream());
    ++allocations;
    return lender_.allocate(bytes);
  }
  void release(void* pointer) noexcept override {
    ++releases;
    lender_.release(pointer);
  }
  int64_t allocations = 0, releases = 0;

 private:
  mutable gpu::DeviceEngine lender_{0, 0};
};

class CudaSamplersOnLentMemory : public CudaSamplers {
 protected:
  CudaOptions options() const override {  // called once a device is known to exist
    source = std::make_shared<LentMemory>();
    CudaOptions o;
    o.memory_source = source;
    return o;
  }
  mutable std::shared_ptr<LentMemory> source;
};

TEST_F(CudaSamplersOnLentMemory, SampleTheCpusMinibatchesThroughTheSource) {
  const Graph c = cora();
  expect_parity(*testing::graphsage(c.adj, {15, 10, 5}, 42), c.num_vertices(), 256);
  expect_parity(*testing::layer_wise("ladies", c.adj, {256, 256}, 42), c.num_vertices(), 512);
  EXPECT_GT(source->allocations, 0);
  EXPECT_GT(cuda->device_counters().peak_device_bytes, 0);
  cuda.reset();
  EXPECT_EQ(source->releases, source->allocations);
}

// Layers stay on the device until asked for (the bench's and the Python ops'
// way on the GPU): every layer a handle of the CUDA backend with its arrays in
// device memory, and the same minibatches once brought to the host.
TEST_F(CudaSamplers, LayersStayOnTheDeviceUntilAsked) {
  const Graph c = cora();
  const std::unique_ptr<testing::TestSampler> samplers[] = {
      testing::graphsage(c.adj, {15, 10, 5}, 42), testing::layer_wise("ladies", c.adj, {256, 256}, 42),
      testing::layer_wise("fastgcn", c.adj, {128, 128}, 42, /*include_frontier=*/false),
      testing::saint("saint", c.adj, 3, 2, 42)};
  for (const auto& sampler : samplers) {
    const std::string what = sampler->name() + " on the device";
    const auto reference = sample_epoch(*sampler, *cpu, c.num_vertices(), 256, 0);
    const testing::BoundSampler bound = sampler->bind(*cuda);
    EpochIterator epoch(*bound.sampler, bound.context, all_vertices(c.num_vertices()),
                        {256, 4, int64_t{1} << 30, 42, 3});
    std::vector<Minibatch> fetched;
    Bulk bulk;
    StepStats times;
    while (epoch.next_resident(&bulk, &times)) {
      ASSERT_EQ(bulk.layers.size(), static_cast<size_t>(sampler->num_layers()));
      for (const Layer& layer : bulk.layers) {
        EXPECT_EQ(layer.adj.owner(), cuda.get()) << what;
        EXPECT_NE(cuda->device_csr(layer.adj).rowptr, nullptr) << what;
        EXPECT_NE(cuda->device_ids(layer.vertices.ids), nullptr) << what;
      }
      const int64_t edges = bulk.sampled_edges();
      EXPECT_GT(edges, 0) << what;
      const BulkSample host = to_host(*cuda, std::move(bulk));
      EXPECT_EQ(host.sampled_edges(), edges) << what;
      for (int64_t g = 0; g < host.count(); ++g) fetched.push_back(extract_minibatch(host, g));
    }
    EXPECT_GT(times.total(), 0.0) << what;
    expect_identical(reference, fetched, what.c_str());
  }
}

// LABOR's rows decided, normalized and compacted on the device: still the CPU's
// minibatches, on unweighted and weighted graphs.
TEST_F(CudaSamplers, Labor) {
  const Graph c = cora(), w = weighted_cora();
  expect_parity(*testing::labor(c.adj, {15, 10, 5}, 42), c.num_vertices(), 256);
  expect_parity(*testing::labor(w.adj, {10, 5}, 7), w.num_vertices(), 256);
}

// DGS's guided draws (the host op on the selected rows), uniform and with an
// importance set on both backends' samplers: the CPU's minibatches.
TEST_F(CudaSamplers, Dgs) {
  const Graph c = cora(), w = weighted_cora();
  const SamplerParams fanouts = SamplerParams().set("fanouts", std::vector<int64_t>{10, 5});
  expect_parity(*testing::make_test_sampler("dgs", c.adj, fanouts, 42), c.num_vertices(), 256);
  std::vector<vid_t> ids;
  for (vid_t v = 0; v < w.num_vertices(); v += 3) ids.push_back(v);
  const auto importance = std::make_shared<const ColumnImportance>(ids, std::vector<float>(ids.size(), 0.25f));
  const auto dgs = testing::make_test_sampler("dgs", w.adj, fanouts, 7);
  std::vector<vid_t> seeds(300);
  std::iota(seeds.begin(), seeds.end(), 1000);
  const Offsets offsets{0, 100, 300};
  Fingerprint fingerprints[2];
  Backend* backends[2] = {cpu.get(), cuda.get()};
  for (int b = 0; b < 2; ++b) {
    testing::BoundSampler bound = dgs->bind(*backends[b]);
    require_capability<ImportanceGuidedSampler>(*bound.sampler).set_column_importance(importance);
    fingerprints[b].add(to_host(*backends[b], bound.sampler->sample(bound.context, seeds, offsets, 0, 1)));
  }
  EXPECT_EQ(fingerprints[0].value(), fingerprints[1].value());
}

TEST_F(CudaSamplers, GraphSageOnAWeightedGraph) {
  const Graph g = weighted_cora();
  expect_parity(*testing::graphsage(g.adj, {10, 5}, 7), g.num_vertices(), 256);
}

TEST_F(CudaSamplers, Ladies) {
  const Graph c = cora(), e = email(), k = karate();
  expect_parity(*testing::layer_wise("ladies", c.adj, {256, 256}, 42), c.num_vertices(), 512);
  expect_parity(*testing::layer_wise("ladies", e.adj, {64, 64}, 42), e.num_vertices(), 100);
  expect_parity(*testing::layer_wise("ladies", k.adj, {4, 4}, 42), k.num_vertices(), 5);
  expect_parity(*testing::layer_wise("ladies", c.adj, {128}, 42, /*include_frontier=*/false), c.num_vertices(), 512);
}

TEST_F(CudaSamplers, FastGcn) {
  const Graph c = cora(), k = karate();
  expect_parity(*testing::layer_wise("fastgcn", c.adj, {256, 256}, 42), c.num_vertices(), 512);
  expect_parity(*testing::layer_wise("fastgcn", k.adj, {4, 4}, 42), k.num_vertices(), 5);
}

TEST_F(CudaSamplers, Saint) {
  const Graph c = cora(), e = email(), k = karate();
  expect_parity(*testing::saint("saint", c.adj, 3, 2, 42), c.num_vertices(), 256);
  expect_parity(*testing::saint("saint", e.adj, 2, 3, 42), e.num_vertices(), 100);
  expect_parity(*testing::saint("saint", k.adj, 4, 1, 42), k.num_vertices(), 5);
  const Graph weighted = weighted_cora();
  expect_parity(*testing::saint("saint", weighted.adj, 2, 2, 42), weighted.num_vertices(), 256);
  expect_parity(*testing::saint("saint_node", c.adj, 300, 2, 42), c.num_vertices(), 256);
  expect_parity(*testing::saint("saint_node", k.adj, 6, 2, 42), k.num_vertices(), 5);
  expect_parity(*testing::saint("saint_edge", c.adj, 200, 2, 42), c.num_vertices(), 256);
}

// The frontier walk runs on the device (kernels/frontier.cu): the CPU's minibatches,
// with and without GraphSAINT's normalization.
TEST_F(CudaSamplers, Frontier) {
  const Graph c = cora(), e = email(), k = karate(), weighted = weighted_cora();
  expect_parity(*testing::saint("frontier", c.adj, 400, 2, 42), c.num_vertices(), 256);
  expect_parity(*testing::saint("frontier", e.adj, 150, 2, 42), e.num_vertices(), 100);
  expect_parity(*testing::saint("frontier", k.adj, 8, 1, 42), k.num_vertices(), 5);
  expect_parity(*testing::saint("frontier", weighted.adj, 300, 2, 42), weighted.num_vertices(), 256);
  struct Normalized {
    const char* sampler;
    const char* size_option;
    int64_t size;
  };
  for (const Normalized& n : {Normalized{"frontier", "budget", 300}, Normalized{"saint", "walk_length", 3},
                              Normalized{"saint_node", "budget", 300}, Normalized{"saint_edge", "budget", 200}}) {
    const SamplerParams params = SamplerParams().set(n.size_option, n.size).set("layers", 2).set("saint_norm", 1);
    expect_parity(*testing::make_test_sampler(n.sampler, c.adj, params, 42), c.num_vertices(), 256);
  }
}

// With cuSPARSE's product the probabilities may differ in the last bit, so
// only the structure is checked.
class CudaSamplersCusparse : public testing::CudaVersusCpu {
  CudaOptions options() const override {
    CudaOptions o;
    o.spgemm = GpuSpgemm::cusparse;
    return o;
  }
};

TEST_F(CudaSamplersCusparse, LadiesIsWellFormed) {
  const Graph g = cora();
  auto sampler = testing::layer_wise("ladies", g.adj, {128, 128}, 3);
  const auto minibatches = sample_epoch(*sampler, *cuda, g.num_vertices(), 512, 0);
  ASSERT_FALSE(minibatches.empty());
  const CsrMatrix hat = gcn_normalize(g.adj);
  for (const Minibatch& mb : minibatches) {
    std::vector<vid_t> rows = mb.seeds;
    for (const MinibatchLayer& layer : mb.layers) {
      validate(layer.adj, "sampled layer");
      ASSERT_EQ(layer.adj.rows, static_cast<int64_t>(rows.size()));
      for (int64_t r = 0; r < layer.adj.rows; ++r)
        for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e)
          ASSERT_TRUE(testing::has_entry(hat, rows[r], layer.vertices[layer.adj.colidx[e]]));
      rows = layer.vertices;
    }
  }
}

}  // namespace
}  // namespace matsamp
