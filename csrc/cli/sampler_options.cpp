#include "cli/sampler_options.h"

#include "cli/full_command.h"
#include "cli/validators.h"

#include <omp.h>

#include <algorithm>
#include <string>

#include "sampling/estimate_file.h"
#include "util/json.h"
#include "util/memory.h"

namespace matsamp::cli {

namespace {

std::string device_help() {
  std::string help = "where to sample";
  for (const BackendKind* kind : backend_kinds()) help += "; " + kind->name + ": " + kind->summary;
  if (backend_kinds().size() == 1) help += "; other devices (cuda) are run by matsamp-full";
  return help;
}

}  // namespace

void check_device_name(const std::string& text) {
  const std::string kind = text.substr(0, text.find(':'));
  const auto kinds = backend_kinds();
  if (std::none_of(kinds.begin(), kinds.end(), [&](const BackendKind* k) { return k->name == kind; }))
    hand_off("device " + text);
  parse_device(text);
}

SamplerOptions::SamplerOptions() {
  for (const OptionSpec& o : all_sampler_options()) {
    if (o.kind == OptionSpec::Kind::list) lists[o.name] = o.default_value;
    if (o.kind == OptionSpec::Kind::integer) integers[o.name] = o.default_value.at(0);
    if (o.kind == OptionSpec::Kind::flag) flags[o.name] = o.default_value.at(0) != 0;
  }
}

SamplerParams SamplerOptions::params() const {
  SamplerParams params;
  for (const OptionSpec& o : find_sampler(sampler).options) {
    if (o.kind == OptionSpec::Kind::list) params.set(o.name, lists.at(o.name));
    if (o.kind == OptionSpec::Kind::integer) params.set(o.name, integers.at(o.name));
    if (o.kind == OptionSpec::Kind::flag) params.set(o.name, int64_t{flags.at(o.name)});
  }
  return params;
}

namespace {

// --walk-length for walk_length, and the short names some options have.
std::string flag_names(const std::string& option) {
  std::string name = "--" + option;
  std::replace(name.begin(), name.end(), '_', '-');
  if (option == "fanouts") return "-f," + name;
  return name;
}

// "fanouts: used by graphsage, labor" for an option's help.
std::string users_of(const std::string& option) {
  std::string users;
  for (const SamplerSpec& spec : sampler_registry())
    for (const OptionSpec& o : spec.options)
      if (o.name == option) users += (users.empty() ? "" : ", ") + spec.name;
  return users;
}

}  // namespace

void add_sampler_options(CLI::App& command, SamplerOptions& options) {
  std::string samplers;
  std::vector<std::string> names = sampler_names();
  for (const SamplerSpec& spec : sampler_registry()) samplers += "\n  " + spec.name + ": " + spec.summary;
  samplers += "\n heterogeneous graphs:";
  for (const HeteroSamplerSpec& spec : hetero_sampler_registry()) {
    samplers += "\n  " + spec.name + ": " + spec.summary;
    if (std::find(names.begin(), names.end(), spec.name) == names.end()) names.push_back(spec.name);
  }
  command.add_option("-s,--sampler", options.sampler, "the sampler:" + samplers)
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  for (const OptionSpec& o : all_sampler_options()) {
    const std::string help = o.help + " [" + users_of(o.name) + "]";
    if (o.kind == OptionSpec::Kind::list)
      command.add_option(flag_names(o.name), options.lists.at(o.name), help)->delimiter(',')->capture_default_str();
    if (o.kind == OptionSpec::Kind::integer)
      command.add_option(flag_names(o.name), options.integers.at(o.name), help)
          ->check(positive())
          ->capture_default_str();
    if (o.kind == OptionSpec::Kind::flag)  // --no-X too: a command may turn a flag on by default
      command.add_flag(flag_names(o.name) + ",!" + std::string("--no-") + flag_names(o.name).substr(2),
                       options.flags.at(o.name), help);
  }
  command.add_option("-b,--batch-size", options.epoch.batch_size, "vertices per minibatch")->capture_default_str();
  command
      .add_option("-k,--bulk-size", options.epoch.bulk_size,
                  "minibatches sampled together (0: the most that fit --memory-budget)")
      ->capture_default_str();
  command
      .add_option("--bulk-steps", options.epoch.bulk_steps,
                  "steps of the epoch layout's bulks, whose lanes are runs of consecutive minibatches (0: as many "
                  "as --bulk-size holds); with --locality-blocks they decide which vertices a minibatch holds, "
                  "as train's --bulk-size does")
      ->check(non_negative())
      ->capture_default_str();
  command
      .add_option("--minibatches-per-step", options.epoch.minibatches_per_step,
                  "minibatches of a step over all processes, its lanes (0: the smallest multiple of "
                  "--locality-blocks that the processes can share, one per process without them)")
      ->check(non_negative())
      ->capture_default_str();
  command
      .add_option("--memory-budget", options.memory_budget,
                  "memory for one bulk when choosing k (e.g. 4G, 512M; with --device cuda a share of the free GPU "
                  "memory instead, --gpu-memory-fraction)")
      ->check(parsed_by([](const std::string& text) { parse_bytes(text); }, "BYTES"))
      ->capture_default_str();
  command
      .add_option("--train-fraction", options.train_fraction,
                  "fraction of the vertices that are training vertices (a seeded choice)")
      ->check(in_range(0.0, 1.0))
      ->capture_default_str();
  command
      .add_option("--locality-blocks", options.epoch.locality.blocks,
                  "fill the minibatches of lane j of each step from the training vertices of equal id range "
                  "j*B/lanes (0: from all); B must divide --minibatches-per-step. Steps are then balanced: each "
                  "lane's share of the vertices split evenly over ceil(n / (lanes * batch)) steps. After "
                  "'matsamp partition --parts P' use P: a minibatch's neighbourhood stays mostly in its block")
      ->check(non_negative())
      ->capture_default_str();
  command.add_option("--seed", options.epoch.seed, "sampling seed")->capture_default_str();
  command.add_option("--saint-counts", options.saint_counts,
                     "GraphSAINT with --saint-norm: keep the pre-sampled counts in FILE, and reuse them when it "
                     "holds those of the same sampler, options, batch, seed and graph");
  command.add_option("--epoch", options.epoch.epoch, "epoch number (part of every random key)")->capture_default_str();
  command.add_option("-t,--threads", options.threads, "OpenMP threads (0: default)")->check(CLI::Range(0, kMaxThreads));
  command.add_option("--device", options.device, device_help())
      ->check(parsed_by(check_device_name, "DEVICE"))
      ->capture_default_str();
  command
      .add_option("--gpu-memory-fraction", options.gpu_memory_fraction,
                  "--device cuda: share of the free GPU memory one bulk may use when choosing k")
      ->check(in_range(0.01, 1.0))
      ->capture_default_str();
}

std::unique_ptr<Sampler> make_sampler(const SamplerOptions& options, SamplingGraph& graph) {
  const SamplerParams params = options.params();
  std::unique_ptr<Sampler> sampler = matsamp::make_sampler(options.sampler, graph, params);
  if (!options.saint_counts.empty()) {
    std::string key = options.sampler;  // the options the counts depend on; the sampler adds batch and seed
    for (const auto& [name, values] : params.values()) {
      key += " " + name + "=";
      for (size_t i = 0; i < values.size(); ++i) key += (i ? "," : "") + std::to_string(values[i]);
    }
    require_capability<EstimatingSampler>(*sampler).keep_estimates(estimate_file(options.saint_counts), key);
  }
  return sampler;
}

std::vector<vid_t> epoch_training_vertices(SamplerOptions& options, int64_t n) {
  options.epoch.locality.vertices = n;
  return training_vertices(n, options.train_fraction, options.epoch.seed);
}

namespace {

// Device bytes of the graph matrices the sampler will keep on the GPU.
int64_t resident_graph_bytes(const SamplerOptions& options, const CsrMatrix& adj) {
  int64_t bytes = 0;
  for (GraphMatrix m : find_sampler(options.sampler).reads) switch (m) {
      case GraphMatrix::adjacency: bytes += device_csr_bytes(adj.rows, adj.nnz(), !adj.values.empty()); break;
      case GraphMatrix::normalized:  // Â and Â∘Â: self-loops added
      case GraphMatrix::squared: bytes += device_csr_bytes(adj.rows, adj.nnz() + adj.rows); break;
      case GraphMatrix::column_norms: bytes += device_csr_bytes(1, adj.rows); break;
      case GraphMatrix::edge_probabilities: bytes += device_csr_bytes(1, adj.nnz()); break;
      case GraphMatrix::edge_endpoints: bytes += device_csr_bytes(adj.nnz(), 2 * adj.nnz()); break;  // at most
    }
  return bytes;
}

}  // namespace

std::unique_ptr<Backend> make_backend(SamplerOptions& options, const CsrMatrix& adj, const char* flag) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  options.epoch.memory_budget = parse_bytes(options.memory_budget);
  std::unique_ptr<Backend> backend;
  try {
    backend = make_backend(options.parsed_device());
  } catch (const Error& e) {
    fail(flag, " ", e.what());
  }
  const DeviceMemory gpu = backend->device_counters().memory;
  if (gpu.total_bytes > 0)  // a GPU: the bulk shares what the graph leaves free
    options.epoch.memory_budget =
        device_memory_budget(gpu.free_bytes, resident_graph_bytes(options, adj), options.gpu_memory_fraction);
  return backend;
}

std::string pick_rank_gpu(SamplerOptions& options, int local_rank) {
  DeviceName device = options.parsed_device();
  if (device.kind == "cpu" || device.has_index) return device.str();
  int devices = 1;
  for (const BackendKind* kind : backend_kinds())
    if (kind->name == device.kind) devices = std::max(1, kind->device_count(nullptr));
  device.index = local_rank % devices;
  device.has_index = true;
  return options.device = device.str();
}

Context make_context(const SamplerOptions& options, Backend& backend) { return Context{backend, options.epoch.seed}; }

bool next_bulk(EpochIterator& epoch, BulkSample* out, StepStats* times) {
  try {
    return epoch.next(out, times);
  } catch (const DeviceOutOfMemory& e) {
    throw explain_out_of_memory(e, epoch.bulk_size());
  }
}

bool next_bulk(EpochIterator& epoch, Bulk* out, StepStats* times) {
  try {
    return epoch.next_resident(out, times);
  } catch (const DeviceOutOfMemory& e) {
    throw explain_out_of_memory(e, epoch.bulk_size());
  }
}

void describe(const SamplerOptions& options, JsonObject& json) {
  json.add("sampler", options.sampler);
  for (const OptionSpec& o : find_sampler(options.sampler).options) {
    if (o.kind == OptionSpec::Kind::list) json.add(o.name, options.lists.at(o.name));
    if (o.kind == OptionSpec::Kind::integer) json.add(o.name, options.integers.at(o.name));
    if (o.kind == OptionSpec::Kind::flag) json.add(o.name, options.flags.at(o.name));
  }
  json.add("batch_size", options.epoch.batch_size);
  json.add("locality_blocks", static_cast<int64_t>(options.epoch.locality.blocks));
  json.add("minibatches_per_step", options.epoch.minibatches_per_step);
  json.add("bulk_steps", options.epoch.bulk_steps);
  json.add("seed", options.epoch.seed);
  json.add("epoch", static_cast<int64_t>(options.epoch.epoch));
  json.add("train_fraction", options.train_fraction);
  json.add("threads", static_cast<int64_t>(omp_get_max_threads()));
  json.add("device", options.device);
}

}  // namespace matsamp::cli
