#include "cli/sampler_options.h"

#include <omp.h>

#include "util/json.h"
#include "util/memory.h"

namespace matsamp::cli {

void add_sampler_options(CLI::App& command, SamplerOptions& options) {
  command.add_option("-s,--sampler", options.sampler, "graphsage, ladies or fastgcn")
      ->check(CLI::IsMember({"graphsage", "ladies", "fastgcn"}))
      ->capture_default_str();
  command.add_option("-f,--fanouts", options.fanouts,
                     "GraphSAGE neighbours per vertex, batch layer first (e.g. 15,10,5)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_option("--samples", options.samples,
                     "LADIES/FastGCN vertices per minibatch and layer (e.g. 512,512)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_flag("--exclude-frontier", options.exclude_frontier,
                   "LADIES/FastGCN: the next layer is the sampled set only");
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
  command.add_option("--seed", options.epoch.seed, "sampling seed")->capture_default_str();
  command.add_option("--epoch", options.epoch.epoch, "epoch number (part of every random key)")
      ->capture_default_str();
  command.add_option("-t,--threads", options.threads, "OpenMP threads (0: default)")
      ->check(CLI::NonNegativeNumber);
}

std::unique_ptr<Sampler> make_sampler(SamplerOptions& options, const CsrMatrix& adj) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  options.epoch.memory_budget = parse_bytes(options.memory_budget);
  if (options.sampler == "graphsage")
    return make_graphsage_sampler(adj, options.fanouts, options.epoch.seed);
  const LayerWiseKind kind = options.sampler == "ladies" ? LayerWiseKind::ladies : LayerWiseKind::fastgcn;
  return make_layerwise_sampler(kind, adj, options.samples, options.epoch.seed, !options.exclude_frontier);
}

void describe(const SamplerOptions& options, JsonObject& json) {
  json.add("sampler", options.sampler);
  json.add(options.sampler == "graphsage" ? "fanouts" : "samples",
           options.sampler == "graphsage" ? options.fanouts : options.samples);
  json.add("batch_size", options.epoch.batch_size);
  json.add("seed", options.epoch.seed);
  json.add("epoch", static_cast<int64_t>(options.epoch.epoch));
  json.add("train_fraction", options.train_fraction);
  json.add("threads", static_cast<int64_t>(omp_get_max_threads()));
}

}  // namespace matsamp::cli
