// Bulk-samples one epoch and prints a JSON object with the time of every step.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/bench_plot.h"
#include "cli/commands.h"
#include "cli/distributed_bench.h"
#include "cli/graph_source.h"
#include "cli/hetero_bench.h"
#include "cli/hetero_distributed_bench.h"
#include "cli/link_bench.h"
#include "cli/sampler_options.h"
#include "cli/temporal_options.h"
#include "cli/validators.h"
#include "sampling/epoch_plan.h"
#include "sampling/fingerprint.h"
#include "util/host_rates.h"
#include "util/json.h"
#include "util/memory.h"
#include "util/progress.h"
#include "util/timer.h"

namespace matsamp::cli {

namespace {

struct EpochRun {
  StepStats steps;
  double seconds = 0;
  int64_t minibatches = 0, bulk_size = 0, bulk_steps = 0, sampled_edges = 0;
  int64_t input_vertices = 0;  // the last layer's vertices, summed over minibatches: feature rows to read
  uint64_t fingerprint = 0;
  double copy_seconds = 0;             // host <-> GPU copies within the steps (CUDA backend)
  bool held = false;                   // the layers stayed on the device after the steps ...
  double fetch_seconds = 0;            // ... and were copied to the host after them
  std::vector<double> repeat_seconds;  // every run's time when the epoch was repeated
  bool repeats_identical = true;       // ... and whether they all gave the same minibatches
};

// Layers are left where they were sampled (on a GPU: its memory, as a GPU
// trainer reads them) and copied to the host after the timed steps, unless
// results_to_host times that copy as part of the extraction.
EpochRun run_epoch(const Sampler& sampler, Context ctx, const std::vector<vid_t>& train, EpochOptions options,
                   bool results_to_host, const char* label) {
  Backend& backend = ctx.backend;
  EpochIterator epoch(sampler, ctx, train, options);
  EpochRun run;
  run.minibatches = epoch.num_minibatches();
  run.bulk_size = epoch.bulk_size();
  run.bulk_steps = epoch.plan().steps_per_bulk();
  Fingerprint fingerprint;
  Bulk resident;
  Progress progress(label, run.minibatches, "minibatches");
  int64_t done = 0;
  for (;;) {
    const DeviceCounters before = backend.device_counters();
    if (!next_bulk(epoch, &resident, &run.steps)) break;
    const bool held = !results_to_host && backend.name() != "cpu";
    const DeviceCounters after_steps = backend.device_counters();
    BulkSample bulk;
    {
      ScopedTimer fetch(held ? &run.fetch_seconds : &run.steps.extraction);
      bulk = to_host(backend, std::move(resident));
    }
    // The copies timed as part of the steps: the fetch of held layers is not.
    const DeviceCounters after = held ? after_steps : backend.device_counters();
    run.copy_seconds += after.to_device_seconds - before.to_device_seconds + after.to_host_seconds -
                        before.to_host_seconds;
    run.held = run.held || held;
    sampler.count_traffic(bulk, run.steps);
    run.sampled_edges += bulk.sampled_edges();
    if (!bulk.layers.empty()) run.input_vertices += bulk.layers.back().col_offsets.back();
    fingerprint.add(bulk);
    done += bulk.count();
    progress.update(done);
  }
  run.seconds = run.steps.total();
  run.fingerprint = fingerprint.value();
  return run;
}

// The epoch sampled `repeat` times: the run with the median time, with all times.
EpochRun run_epoch_repeated(const Sampler& sampler, const Context& ctx, const std::vector<vid_t>& train,
                            const EpochOptions& options, bool results_to_host, const std::string& label, int repeat) {
  std::vector<EpochRun> runs;
  for (int i = 0; i < repeat; ++i) {
    const std::string name = repeat == 1 ? label
                                         : label + ", run " + std::to_string(i + 1) + " of " + std::to_string(repeat);
    runs.push_back(run_epoch(sampler, ctx, train, options, results_to_host, name.c_str()));
  }
  std::vector<double> seconds;
  bool identical = true;
  for (const EpochRun& run : runs) {
    seconds.push_back(run.seconds);
    identical = identical && run.fingerprint == runs.front().fingerprint;
  }
  std::sort(runs.begin(), runs.end(), [](const EpochRun& a, const EpochRun& b) { return a.seconds < b.seconds; });
  EpochRun median = runs[(runs.size() - 1) / 2];
  if (repeat > 1) median.repeat_seconds = seconds;
  median.repeats_identical = identical;
  return median;
}

struct MachineRates {
  double copy_bandwidth = 0;  // bytes/s
  double gather_rate = 0;     // 4-byte random gathers/s
};

JsonObject describe(const EpochRun& run, const MachineRates& rates) {
  const double floor = run.steps.gathers / rates.gather_rate + run.steps.streamed_bytes / rates.copy_bandwidth;
  JsonObject json;
  json.add("bulk_size", run.bulk_size)
      .add("time_s", run.seconds)
      .add("probability_s", run.steps.probability)
      .add("sampling_s", run.steps.sampling)
      .add("extraction_s", run.steps.extraction)
      .add("minibatches_per_s", run.minibatches / run.seconds)
      .add("sampled_edges", run.sampled_edges)
      .add("input_vertices", run.input_vertices)
      .add("sampled_edges_per_s", run.sampled_edges / run.seconds)
      .add("gathers", run.steps.gathers)
      .add("streamed_bytes", run.steps.streamed_bytes)
      .add("floor_s", floor)
      .add("time_over_floor", run.seconds / floor)
      .add("fingerprint", run.fingerprint);
  // Calls of the backend's transfer ops and synchronize() inside the samplers'
  // steps (seed upload and result download outside), the timer's syncs among them.
  json.add("host_copies_in_steps", run.steps.transfers.copies)
      .add("host_bytes_in_steps", run.steps.transfers.bytes)
      .add("syncs_in_steps", run.steps.transfers.syncs)
      .add("step_timer_syncs", run.steps.timer_syncs);
  json.add("results_on", run.held ? "device" : "host");
  if (run.held) json.add("fetch_to_host_s", run.fetch_seconds);
  if (!run.repeat_seconds.empty())
    json.add("repeat_times_s", run.repeat_seconds).add("repeats_identical", run.repeats_identical);
  return json;
}

// The device side of a CUDA run, as it stood after the bulk run. Step times
// include the copies to and from the host (the graph's upload on first use, the
// results' download); their host wall time during the bulk run is given apart,
// and the bulk's time without them, the figure a device-resident consumer sees.
JsonObject describe(const DeviceCounters& gpu, const EpochRun& bulk) {
  return JsonObject()
      .add("device_name", gpu.device_name)
      .add("peak_device_bytes", gpu.peak_device_bytes)
      .add("resident_graph_bytes", gpu.resident_bytes)
      .add("gpu_bytes_per_minibatch",
           (gpu.peak_device_bytes - gpu.resident_bytes) / std::max<int64_t>(1, bulk.bulk_size))
      .add("bytes_to_device", gpu.bytes_to_device)
      .add("bytes_to_host", gpu.bytes_to_host)
      .add("to_device_s", gpu.to_device_seconds)
      .add("to_host_s", gpu.to_host_seconds)
      .add("bulk_copies_s", bulk.copy_seconds)
      .add("bulk_time_without_copies_s", bulk.seconds - bulk.copy_seconds)
      .add("free_bytes", gpu.memory.free_bytes)
      .add("total_bytes", gpu.memory.total_bytes);
}

struct BenchOptions {
  GraphSource source;
  SamplerOptions sampler;
  bool compare_per_batch = false;
  std::string compare_device;  // also sample the epoch there
  bool results_to_host = false;
  int repeat = 1;
  std::string plot;
  DistributedBenchOptions distributed;
  LinkBenchOptions link;
  HeteroOptions hetero;
  TemporalOptions temporal;
};

void add_bench_options(CLI::App& cmd, BenchOptions& options) {
  add_graph_options(cmd, options.source);
  add_sampler_options(cmd, options.sampler);
  add_temporal_options(cmd, options.temporal);
  cmd.add_flag("--compare-per-batch", options.compare_per_batch,
               "also sample the epoch one minibatch at a time (k = 1) and report both");
  cmd.add_option("--compare-device", options.compare_device,
                 "also sample the same epoch on this device in the same process (e.g. cpu beside --device cuda) "
                 "and report its run, time_ratio (its time / this device's) and identical_minibatches")
      ->check(parsed_by(check_device_name, "DEVICE"));
  cmd.add_flag("--results-to-host", options.results_to_host,
               "--device cuda: copy each bulk's layers to the host within the timed steps (by default "
               "the layers stay on the GPU, as a GPU trainer reads them, and are copied after the "
               "steps for the fingerprint: fetch_to_host_s)");
  cmd.add_option("--repeat", options.repeat,
                 "sample the epoch N times (each mode) and report the run with the median time; all times "
                 "go to repeat_times_s")
      ->check(CLI::Range(1, 1000));
  cmd.add_option("--plot", options.plot,
                 "also draw the per-step breakdown (bulk, and per batch with --compare-per-batch, against the "
                 "floor) to this .png, .svg or .pdf (Python with matplotlib: $MATSAMP_PYTHON, default python3)");
  add_distributed_bench_options(cmd, options.distributed);
  add_link_bench_options(cmd, options.link);
  add_hetero_options(cmd, options.hetero);
}

// The JSON on stdout, and drawn when asked.
void emit(const JsonObject& json, const std::string& plot) {
  std::printf("%s\n", json.str().c_str());
  std::fflush(stdout);
  if (!plot.empty()) plot_bench(json.str(), plot);
}

// What every single-process bench of a homogeneous graph starts its JSON with.
JsonObject bench_header(const BenchOptions& options, const Backend& backend, const Graph& g) {
  JsonObject json;
  json.add("command", "bench").add("backend", backend.name()).add("graph", options.source.spec);
  json.add("vertices", g.num_vertices()).add("nonzeros", g.num_edges());
  describe(options.sampler, json);
  describe(options.temporal, json);
  return json;
}

// The same epoch on --compare-device, in this process: its bulk run, the ratio of
// its time to `here`'s and whether it gave the same minibatches (as the
// determinism promise says it must, whatever the bulk size each device picks).
JsonObject bench_on_compared_device(const BenchOptions& options, const Graph& g, const EpochRun& here) {
  SamplerOptions other = options.sampler;
  other.device = options.compare_device;
  auto backend = make_backend(other, g.adj, "--compare-device");
  LocalGraph graph(*backend, g.adj);
  const std::unique_ptr<Sampler> sampler = make_sampler(other, graph);
  other.epoch.times = make_epoch_times(options.temporal, g, *backend, other.epoch.seed);
  const MachineRates rates{backend->copy_bandwidth(), backend->gather_rate()};
  const EpochRun run = run_epoch_repeated(*sampler, make_context(other, *backend),
                                          epoch_training_vertices(other, g.num_vertices()), other.epoch,
                                          options.results_to_host, "bulk on " + other.device, options.repeat);
  return JsonObject()
      .add("device", other.device)
      .add("backend", backend->name())
      .add("bulk", describe(run, rates))
      .add("time_ratio", run.seconds / here.seconds)
      .add("identical_minibatches", run.fingerprint == here.fingerprint);
}

// The epoch with vertex seeds in bulk (and one minibatch at a time with --compare-per-batch).
JsonObject bench_vertex_epoch(BenchOptions& options, Backend& backend, const Graph& g, const Sampler& sampler) {
  const Context ctx = make_context(options.sampler, backend);
  const std::vector<vid_t> train = epoch_training_vertices(options.sampler, g.num_vertices());
  // The floor is taken on the machine that samples: host memory or the GPU's.
  const MachineRates rates{backend.copy_bandwidth(), backend.gather_rate()};
  const EpochRun bulk =
      run_epoch_repeated(sampler, ctx, train, options.sampler.epoch, options.results_to_host, "bulk", options.repeat);
  const DeviceCounters gpu = backend.device_counters();  // after the bulk: its peak memory

  JsonObject json = bench_header(options, backend, g);
  json.add("minibatches", bulk.minibatches)
      .add("copy_bandwidth_bytes_per_s", rates.copy_bandwidth)
      .add("gathers_per_s", rates.gather_rate);
  if (!gpu.memory.total_bytes) json.add("rates_from", host_rates().source);  // measured, or kept from an earlier run
  json.add("bulk", describe(bulk, rates));
  if (options.compare_per_batch) {
    EpochOptions single = options.sampler.epoch;
    single.bulk_size = 1;
    single.bulk_steps = bulk.bulk_steps;  // the same layout, sampled a minibatch at a time
    const EpochRun per_batch =
        run_epoch_repeated(sampler, ctx, train, single, options.results_to_host, "per-batch", options.repeat);
    json.add("per_batch", describe(per_batch, rates));
    json.add("bulk_speedup", per_batch.seconds / bulk.seconds);
    json.add("identical_minibatches", per_batch.fingerprint == bulk.fingerprint);
  }
  if (!options.compare_device.empty()) json.add("compare_device", bench_on_compared_device(options, g, bulk));
  json.add("peak_memory_bytes", peak_resident_bytes());
  json.add("freed_memory_kept", freed_memory_kept());
  if (backend.name() == "cuda") json.add("gpu", describe(gpu, bulk));
  return json;
}

void run_bench(BenchOptions& options) {
  MATSAMP_CHECK(!options.temporal.requested() ||
                    (!distributed_bench_requested(options.distributed) && !options.link.edge_seeds),
                "--temporal samples vertex seeds in one process (not distributed or link benches)");
  if (!options.compare_device.empty()) {
    MATSAMP_CHECK(!is_hetero_source(options.source.spec) && !distributed_bench_requested(options.distributed) &&
                      !options.link.edge_seeds,
                  "--compare-device compares vertex-seeded epochs of a homogeneous graph in one process");
    DeviceName compared;
    try {
      compared = parse_device(options.compare_device);
    } catch (const Error& e) {
      fail("--compare-device: ", e.what());
    }
    MATSAMP_CHECK(compared.str() != options.sampler.parsed_device().str(), "--compare-device ", options.compare_device,
                  " is the device the bench already runs on");
  }
  if (is_hetero_source(options.source.spec)) {
    if (distributed_bench_requested(options.distributed))
      return run_hetero_distributed_bench(options.source, options.sampler, options.hetero, options.distributed);
    emit(run_hetero_bench(options.source, options.sampler, options.hetero, options.temporal, options.compare_per_batch),
         options.plot);
    return;
  }
  if (distributed_bench_requested(options.distributed)) {
    MATSAMP_CHECK(options.plot.empty(),
                  "--plot draws one process's steps; plot distributed runs with experiments/plot_distributed.py");
    return run_distributed_bench(options.source, options.sampler, options.distributed);
  }
  const Graph g = load_graph(options.source);
  auto backend = make_backend(options.sampler, g.adj);
  LocalGraph graph(*backend, g.adj);
  std::unique_ptr<Sampler> sampler = make_sampler(options.sampler, graph);
  options.sampler.epoch.times = make_epoch_times(options.temporal, g, *backend, options.sampler.epoch.seed);
  if (!options.link.edge_seeds) {
    emit(bench_vertex_epoch(options, *backend, g, *sampler), options.plot);
    return;
  }
  options.link.compare_per_batch = options.compare_per_batch;
  JsonObject json = bench_header(options, *backend, g);
  json.add("link", run_link_bench(g, *sampler, *backend, options.sampler, options.link));
  json.add("peak_memory_bytes", peak_resident_bytes());
  emit(json, options.plot);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "bulk-sample one epoch and print step times as JSON");
  auto options = std::make_shared<BenchOptions>();
  add_bench_options(*cmd, *options);
  cmd->callback([options] { run_bench(*options); });
}

}  // namespace matsamp::cli
