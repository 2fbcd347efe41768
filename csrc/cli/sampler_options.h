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
  std::string sampler = "graphsage";          // graphsage | ladies | fastgcn
  std::vector<int64_t> fanouts{15, 10, 5};    // GraphSAGE, batch layer first
  std::vector<int64_t> samples{512};          // LADIES / FastGCN vertices per layer
  bool exclude_frontier = false;              // layer-wise: next layer = sampled set only
  double train_fraction = 1.0;                // training vertices: a seeded fraction of all
  std::string memory_budget = "4G";
  int threads = 0;                            // 0: OpenMP default
  EpochOptions epoch;
};

void add_sampler_options(CLI::App& command, SamplerOptions& options);
// Applies --threads and the memory budget; builds the sampler.
std::unique_ptr<Sampler> make_sampler(SamplerOptions& options, const CsrMatrix& adj);
// The parameters as JSON fields, for output that records how it was made.
void describe(const SamplerOptions& options, JsonObject& json);

}  // namespace matsamp::cli
