// Options shared by the commands that sample (sample, bench).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "sampling/epoch.h"
#include "sampling/sampler.h"
#include "util/json.h"

namespace matsamp::cli {

struct SamplerOptions {
  std::string sampler = "graphsage";          // graphsage | labor | ladies | fastgcn | saint | saint_node | saint_edge
  std::vector<int64_t> fanouts{15, 10, 5};    // GraphSAGE, batch layer first
  std::vector<int64_t> samples{512};          // LADIES / FastGCN vertices per layer
  bool exclude_frontier = false;              // layer-wise: next layer = sampled set only
  SaintOptions saint;                         // GraphSAINT: walk length, budget, layers
                                              // (the kind follows `sampler`: saint_options)
  double train_fraction = 1.0;                // training vertices: a seeded fraction of all
  std::string memory_budget = "4G";
  int threads = 0;                            // 0: OpenMP default
  std::string device = "cpu";                 // cpu | cuda
  int cuda_device = 0;                        // cuda: which GPU (in MPI jobs: the rank's, see below)
  double gpu_memory_fraction = 0.8;           // cuda: share of free GPU memory for one bulk
  EpochOptions epoch;
};

void add_sampler_options(CLI::App& command, SamplerOptions& options);
// Whether --sampler names one of GraphSAINT's samplers, and their options.
bool is_saint(const SamplerOptions& options);
SaintOptions saint_options(const SamplerOptions& options);
// Applies --threads and the memory budget; builds the sampler.
std::unique_ptr<Sampler> make_sampler(SamplerOptions& options, const CsrMatrix& adj);
// The training vertices of an n-vertex graph (--train-fraction, --seed); also
// tells the epoch the id range its --locality-blocks split.
std::vector<vid_t> epoch_training_vertices(SamplerOptions& options, int64_t n);
// The backend of --device. For cuda the bulk budget becomes a share of the free
// GPU memory beside the graph, and failures read "--device cuda: <reason>".
std::unique_ptr<Backend> make_backend(SamplerOptions& options, const CsrMatrix& adj);
// In a job of several ranks per node: --device cuda means the GPU of this rank's
// local rank (modulo the GPUs it sees), so that `mpirun -np 4` on a 4-GPU node
// spreads over the GPUs; with fewer GPUs than ranks, ranks share them. Returns the
// torch device name of the choice ("cuda:N", or "cpu").
std::string pick_rank_gpu(SamplerOptions& options, int local_rank);
// EpochIterator::next, with running out of GPU memory turned into an error
// that says which bulk size would fit.
bool next_bulk(EpochIterator& epoch, BulkSample* out, StepStats* times = nullptr);
// The parameters as JSON fields, for output that records how it was made.
void describe(const SamplerOptions& options, JsonObject& json);

}  // namespace matsamp::cli
