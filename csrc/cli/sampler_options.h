// Options shared by the commands that sample (sample, bench, train): the
// sampler and its options come from the sampler registry.
#pragma once
#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend_registry.h"
#include "sampling/epoch.h"
#include "sampling/registry.h"
#include "util/json.h"

namespace matsamp::cli {

struct SamplerOptions {
  std::string sampler = "graphsage";
  // Every registered sampler option by name, defaults first (--fanouts, --samples, ...).
  std::map<std::string, std::vector<int64_t>> lists;
  std::map<std::string, int64_t> integers;
  std::map<std::string, bool> flags;
  double train_fraction = 1.0;  // training vertices: a seeded fraction of all
  // A CPU gains nothing from larger bulks and pages their memory in: R-MAT 20's
  // GraphSAGE epoch at k = 30 is as fast as at k = 121, in 56% of the memory.
  std::string memory_budget = "1G";
  int threads = 0;                   // 0: OpenMP default
  std::string device = "cpu";        // a registered backend, cuda:N for one GPU (see pick_rank_gpu)
  double gpu_memory_fraction = 0.8;  // cuda: share of free GPU memory for one bulk
  std::string saint_counts;          // GraphSAINT's pre-sampled counts kept in this file
  EpochOptions epoch;

  SamplerOptions();
  // The chosen sampler's options, as the registry takes them.
  SamplerParams params() const;
  // An option's value (a default can be changed before parsing, as train does).
  std::vector<int64_t>& list(const std::string& name) { return lists.at(name); }
  DeviceName parsed_device() const { return parse_device(device); }
};

void add_sampler_options(CLI::App& command, SamplerOptions& options);
// A device name's check at parse time: parse_device's, except that a kind this
// program lacks hands the run to matsamp-full (cli/full_command.h).
void check_device_name(const std::string& text);
// Builds the chosen sampler over `graph` (which must outlive it); with
// --saint-counts it keeps its pre-sampled counts in that file.
std::unique_ptr<Sampler> make_sampler(const SamplerOptions& options, SamplingGraph& graph);
// The training vertices of an n-vertex graph (--train-fraction, --seed); also
// tells the epoch the id range its --locality-blocks split.
std::vector<vid_t> epoch_training_vertices(SamplerOptions& options, int64_t n);
// Applies --threads and --memory-budget, then makes the backend of --device
// (through the backend registry). For cuda the bulk budget becomes a share of
// the free GPU memory beside the graph, and failures read "--device cuda: <reason>"
// (`flag`: the option that named the device).
std::unique_ptr<Backend> make_backend(SamplerOptions& options, const CsrMatrix& adj, const char* flag = "--device");
// The sampling context of these options on `backend`.
Context make_context(const SamplerOptions& options, Backend& backend);
// In a job of several ranks per node: --device cuda (no index) means the GPU of
// this rank's local rank (modulo the GPUs it sees), so that `mpirun -np 4` on a
// 4-GPU node spreads over the GPUs; with fewer GPUs than ranks, ranks share them.
// Sets --device to the choice and returns it as a torch device name ("cuda:N", "cpu").
std::string pick_rank_gpu(SamplerOptions& options, int local_rank);
// EpochIterator::next / next_resident, with running out of GPU memory turned
// into an error that says which bulk size would fit.
bool next_bulk(EpochIterator& epoch, BulkSample* out, StepStats* times = nullptr);
bool next_bulk(EpochIterator& epoch, Bulk* out, StepStats* times = nullptr);
// The parameters as JSON fields, for output that records how it was made.
void describe(const SamplerOptions& options, JsonObject& json);

}  // namespace matsamp::cli
