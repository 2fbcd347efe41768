#include "cli/sampler_options.h"

#include <omp.h>

#include <algorithm>
#include <string>

#include "kernels/cuda_backend.h"
#include "kernels/gpu_memory_plan.h"
#include "util/json.h"
#include "util/memory.h"

namespace matsamp::cli {

void add_sampler_options(CLI::App& command, SamplerOptions& options) {
  command.add_option("-s,--sampler", options.sampler,
                     "graphsage, labor (LABOR-0: GraphSAGE with neighbours kept by randomness a minibatch "
                     "shares), ladies, fastgcn, or GraphSAINT's subgraphs: saint (random walks), saint_node or "
                     "saint_edge")
      ->check(CLI::IsMember({"graphsage", "labor", "ladies", "fastgcn", "saint", "saint_node", "saint_edge"}))
      ->capture_default_str();
  command.add_option("-f,--fanouts", options.fanouts,
                     "GraphSAGE neighbours per vertex (LABOR: expected), batch layer first (e.g. 15,10,5)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_option("--samples", options.samples,
                     "LADIES/FastGCN vertices per minibatch and layer (e.g. 512,512)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_flag("--exclude-frontier", options.exclude_frontier,
                   "LADIES/FastGCN: the next layer is the sampled set only");
  command.add_option("--walk-length", options.saint.walk_length,
                     "GraphSAINT: steps of the random walk from each batch vertex")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--budget", options.saint.budget,
                     "saint_node: vertices drawn per minibatch (p(v) ∝ ‖Â[:,v]‖²); saint_edge: edges drawn per "
                     "minibatch (p(u,v) ∝ 1/deg(u) + 1/deg(v)), both endpoints added")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--layers", options.saint.layers,
                     "GraphSAINT: layers, each the minibatch's subgraph (the batch layer's rows are its roots)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("-b,--batch-size", options.epoch.batch_size, "vertices per minibatch")
      ->capture_default_str();
  command.add_option("-k,--bulk-size", options.epoch.bulk_size,
                     "minibatches sampled together (0: the most that fit --memory-budget)")
      ->capture_default_str();
  command.add_option("--memory-budget", options.memory_budget,
                     "memory for one bulk when choosing k (e.g. 4G, 512M)")
      ->capture_default_str();
  command.add_option("--train-fraction", options.train_fraction,
                     "fraction of the vertices that are training vertices (a seeded choice)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  command.add_option("--locality-blocks", options.epoch.locality.blocks,
                     "draw each minibatch from one of this many equal vertex-id ranges (0: from all training "
                     "vertices); after 'matsamp partition --parts P' use P, in distributed runs a multiple "
                     "of the workers")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command.add_option("--seed", options.epoch.seed, "sampling seed")->capture_default_str();
  command.add_option("--epoch", options.epoch.epoch, "epoch number (part of every random key)")
      ->capture_default_str();
  command.add_option("-t,--threads", options.threads, "OpenMP threads (0: default)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--device", options.device,
                     "cpu, or cuda (the GPU backend; then k fits --gpu-memory-fraction, not --memory-budget)")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  command.add_option("--gpu-memory-fraction", options.gpu_memory_fraction,
                     "--device cuda: share of the free GPU memory one bulk may use when choosing k")
      ->check(CLI::Range(0.01, 1.0))
      ->capture_default_str();
}

bool is_saint(const SamplerOptions& options) { return saint_kind_of(options.sampler).has_value(); }

SaintOptions saint_options(const SamplerOptions& options) {
  SaintOptions saint = options.saint;
  saint.kind = saint_kind_of(options.sampler).value_or(SaintKind::random_walk);
  return saint;
}

std::unique_ptr<Sampler> make_sampler(SamplerOptions& options, const CsrMatrix& adj) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  options.epoch.memory_budget = parse_bytes(options.memory_budget);
  if (options.sampler == "graphsage")
    return make_graphsage_sampler(adj, options.fanouts, options.epoch.seed);
  if (options.sampler == "labor") return make_labor_sampler(adj, options.fanouts, options.epoch.seed);
  if (is_saint(options)) return make_saint_sampler(adj, saint_options(options), options.epoch.seed);
  const LayerWiseKind kind = options.sampler == "ladies" ? LayerWiseKind::ladies : LayerWiseKind::fastgcn;
  return make_layerwise_sampler(kind, adj, options.samples, options.epoch.seed, !options.exclude_frontier);
}

std::vector<vid_t> epoch_training_vertices(SamplerOptions& options, int64_t n) {
  options.epoch.locality.vertices = n;
  return training_vertices(n, options.train_fraction, options.epoch.seed);
}

namespace {

// Device bytes of the graph matrices the sampler will keep on the GPU.
int64_t resident_graph_bytes(const SamplerOptions& options, const CsrMatrix& adj) {
  const int64_t adjacency = device_csr_bytes(adj.rows, adj.nnz(), !adj.values.empty());
  const int64_t normalized = device_csr_bytes(adj.rows, adj.nnz() + adj.rows);   // Â: self-loops added
  if (options.sampler == "graphsage" || options.sampler == "labor") return adjacency;
  if (options.sampler == "saint") return adjacency + normalized;
  if (options.sampler == "saint_node") return normalized + device_csr_bytes(1, adj.rows);   // and the column norms
  if (options.sampler == "saint_edge") return normalized + device_csr_bytes(1, adj.nnz());  // and p over the edges
  return 2 * normalized;   // Â and Â∘Â
}

}  // namespace

std::unique_ptr<Backend> make_backend(SamplerOptions& options, const CsrMatrix& adj) {
  if (options.device == "cpu") return make_cpu_backend();
  std::unique_ptr<Backend> backend;
  try {
    CudaOptions cuda;
    cuda.device = options.cuda_device;
    backend = make_cuda_backend(cuda);
  } catch (const Error& e) {
    fail("--device cuda: ", e.what());
  }
  options.epoch.memory_budget = gpu_memory_budget(cuda_counters(*backend).memory.free_bytes,
                                                  resident_graph_bytes(options, adj), options.gpu_memory_fraction);
  return backend;
}

std::string pick_rank_gpu(SamplerOptions& options, int local_rank) {
  if (options.device != "cuda") return options.device;
  options.cuda_device = local_rank % std::max(1, cuda_device_count());
  return "cuda:" + std::to_string(options.cuda_device);
}

bool next_bulk(EpochIterator& epoch, BulkSample* out, StepStats* times) {
  try {
    return epoch.next(out, times);
  } catch (const GpuOutOfMemory& e) {
    throw explain_out_of_memory(e, epoch.bulk_size());
  }
}

void describe(const SamplerOptions& options, JsonObject& json) {
  json.add("sampler", options.sampler);
  if (options.sampler == "graphsage" || options.sampler == "labor") {
    json.add("fanouts", options.fanouts);
  } else if (is_saint(options)) {
    if (options.sampler == "saint") json.add("walk_length", options.saint.walk_length);
    else json.add("budget", options.saint.budget);
    json.add("layers", options.saint.layers);
  } else {
    json.add("samples", options.samples);
  }
  json.add("batch_size", options.epoch.batch_size);
  json.add("locality_blocks", static_cast<int64_t>(options.epoch.locality.blocks));
  json.add("seed", options.epoch.seed);
  json.add("epoch", static_cast<int64_t>(options.epoch.epoch));
  json.add("train_fraction", options.train_fraction);
  json.add("threads", static_cast<int64_t>(omp_get_max_threads()));
  json.add("device", options.device);
}

}  // namespace matsamp::cli
