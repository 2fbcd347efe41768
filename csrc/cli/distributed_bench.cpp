#include "cli/distributed_bench.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "cli/full_command.h"
#include "cli/validators.h"
#include "core/error.h"

#ifdef MATSAMP_HAVE_DISTRIBUTED
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "cli/commands.h"
#include "distributed/agreement.h"
#include "distributed/collective_watchdog.h"
#include "distributed/epoch_share.h"
#include "distributed/local_rank.h"
#include "distributed/mpi_communicator.h"
#include "distributed/partitioned_sampling.h"
#include "distributed/transports.h"
#include "sampling/fingerprint.h"
#include "sampling/registry.h"
#include "util/json.h"
#include "util/memory.h"
#include "util/timer.h"
#endif

namespace matsamp::cli {

int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
    if (const char* value = std::getenv(name)) return std::max(1, std::atoi(value));
  return 0;
}

void require_launcher() {
  if (launched_ranks() == 0)
    fail(
        "--distributed: this process was not started by mpirun or srun, so it would run alone (p = 1); launch "
        "it with mpirun -np P or srun -n P (mpirun -np 1 for one process on purpose)");
}

void add_distributed_bench_options(CLI::App& bench, DistributedBenchOptions& options) {
  bench
      .add_option("--distributed", options.mode,
                  "sample with every rank of an MPI job (mpirun, srun): the graph 'replicated' on every "
                  "rank, or 'partitioned' into 1.5D block rows (replicated when the job has several ranks)")
      ->check(CLI::IsMember({"replicated", "partitioned"}));
  bench
      .add_option("--replication", options.replication,
                  "--distributed: replication factor c of the (p/c) x c grid; c*c must divide p")
      ->capture_default_str();
  bench.add_flag("--oblivious", options.oblivious,
                 "--distributed partitioned: broadcast whole block rows (sparsity-oblivious) instead of "
                 "fetching the rows needed");
  bench.add_flag("--fetch-rows", options.fetch_rows,
                 "--distributed partitioned, GraphSAGE and LABOR: fetch each frontier row whole and sample it here, "
                 "instead of having its owner sample it and send back only the picks");
  add_row_work_option(bench, options.row_work);
  add_transport_options(bench, options.transport);
}

void add_row_work_option(CLI::App& command, std::string& row_work) {
  command
      .add_option("--row-work", row_work,
                  "--distributed partitioned with --replication c > 1: 'shared' (the c ranks of a process row "
                  "sample its minibatches together, each multiplying by 1/c of A's blocks, then reduce) or "
                  "'split' (each samples its own share of them, multiplying by every block)")
      ->check(CLI::IsMember({"shared", "split"}))
      ->capture_default_str();
}

namespace {

// A transport this program lacks (NCCL, in `matsamp`) hands the run to matsamp-full.
void check_transport_name(const std::string& name) {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (name != "mpi" && !find_transport(name)) hand_off("--transport " + name);
#else
  (void)name;
#endif
}

}  // namespace

void add_transport_options(CLI::App& command, TransportOptions& transport) {
  command
      .add_option("--collective-timeout", transport.collective_timeout,
                  "--distributed: seconds a rank waits in a collective (or for a message) before it ends the job "
                  "with a line naming the wait: a rank that died or stopped; 0: wait forever")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command
      .add_option("--transport", transport.name,
                  "--distributed: what carries the collectives (sampling, feature rows, gradients): mpi (host "
                  "memory; ranks may share a GPU) or nccl (GPU to GPU; one GPU per rank, host data staged "
                  "through it)")
      ->check(CLI::IsMember({"mpi", "nccl"}))
      ->check(parsed_by(check_transport_name, "TRANSPORT"))
      ->capture_default_str();
}

JobTransport job_transport(const TransportOptions& transport, const SamplerOptions& sampler) {
  const DeviceName device = sampler.parsed_device();
  return {transport.name, device.kind == "cuda" && device.has_index ? static_cast<int>(device.index) : -1,
          transport.collective_timeout};
}

bool distributed_bench_requested(DistributedBenchOptions& options) {
  if (options.mode.empty() && launched_ranks() > 1) options.mode = "replicated";
  if (options.mode.empty()) {  // options of distributed runs mean nothing here: say so rather than ignore them
    if (options.replication != 1) fail("--replication applies to --distributed runs");
    if (options.oblivious) fail("--oblivious applies to --distributed partitioned");
    if (options.fetch_rows) fail("--fetch-rows applies to --distributed partitioned");
    if (options.transport.given()) fail("--transport and --collective-timeout apply to --distributed runs");
    if (options.row_work != "shared") fail("--row-work applies to --distributed partitioned");
    return false;
  }
  require_launcher();
  return true;
}

#ifndef MATSAMP_HAVE_DISTRIBUTED

void run_mpi_job(const std::function<void(Communicator& world)>&, const JobTransport&) {
  fail("--distributed: this matsamp was built without MPI (configure with -DMATSAMP_WITH_MPI=ON)");
}

void run_mpi_json_job(const std::function<JsonObject(Communicator& world)>&, const JobTransport&) { run_mpi_job({}); }

void run_distributed_bench(const GraphSource&, SamplerOptions&, const DistributedBenchOptions&) {
  run_mpi_json_job({});
}

#else

namespace {

// What one rank measured over its share of the epoch.
struct RankStats {
  StepStats steps;
  double sampling_s = 0;                               // wall time of its bulks' steps, layers held
  double fetch_s = 0;                                  // copying the held layers to the host afterwards
  double exchange_s = 0, compute_s = 0, reduce_s = 0;  // inside the distributed product
  int64_t bulks = 0, minibatches = 0, seeds = 0, sampled_edges = 0, bytes_sent = 0, peak_memory = 0;
  int64_t first_fetch_bytes = 0, first_reduce_bytes = 0;  // the first product of each bulk
  int64_t shared_row_bytes = 0;                           // FastGCN's draws from its shared row
  uint64_t fingerprint_sum = 0;                           // of its minibatches' fingerprints
  int64_t gpu = -1;                                       // --device cuda: the GPU it sampled on
  int64_t messages_sent = 0;

  std::vector<double> times() const {
    return {sampling_s, steps.probability, steps.sampling, steps.extraction, exchange_s, compute_s, reduce_s, fetch_s};
  }
  std::vector<int64_t> counts() const {
    return {bulks,
            minibatches,
            seeds,
            sampled_edges,
            bytes_sent,
            peak_memory,
            first_fetch_bytes,
            first_reduce_bytes,
            static_cast<int64_t>(fingerprint_sum),
            gpu,
            messages_sent,
            shared_row_bytes,
            steps.transfers.copies,
            steps.transfers.bytes,
            steps.transfers.syncs};
  }
};

// Every rank's stats (RankStats::times() and counts() of each rank, in rank order):
// time(i)[r] and count(i)[r] are field i of rank r.
struct GatheredStats {
  std::vector<double> times;
  std::vector<int64_t> counts;
  int ranks = 0;
  std::vector<double> time(int field) const { return column(times, field); }
  std::vector<int64_t> count(int field) const { return column(counts, field); }
  template <class T>
  std::vector<T> column(const std::vector<T>& all, int field) const {
    const size_t fields = all.size() / ranks;
    std::vector<T> out(ranks);
    for (int r = 0; r < ranks; ++r) out[r] = all[r * fields + field];
    return out;
  }
};

template <class T>
T sum(const std::vector<T>& v) {
  return std::accumulate(v.begin(), v.end(), T{});
}

bool is_binary_csr(const std::string& path) { return path.size() > 4 && path.compare(path.size() - 4, 4, ".msg") == 0; }

// The whole graph on every rank, the same everywhere.
Graph load_whole(Communicator& world, const GraphSource& source) {
  Graph g;
  agree_on(world, [&] { g = load_graph(source); });
  check_same_on_every_rank(world, g.adj, source.spec);
  return g;
}

// This rank's block row: read alone from a .msg file, otherwise cut from the whole graph.
DistributedCsr load_block_row(ProcessGrid& grid, const GraphSource& source) {
  const CleanupOptions& c = source.cleanup;
  if (is_binary_csr(source.spec) && !c.symmetrize && !c.drop_self_loops && !c.largest_component)
    return read_block_row(source.spec, grid);
  if (grid.rank() == 0)
    std::fprintf(stderr,
                 "matsamp: every rank loads all of %s, then keeps its block row (only a .msg file "
                 "without cleanup options is read by block rows)\n",
                 source.spec.c_str());
  return block_row_of(load_whole(grid.world(), source).adj, grid);
}

struct FirstProductModel {
  double seeds_per_bulk = 0;        // ū: first-layer rows of Q per process row and bulk
  double average_row_nonzeros = 0;  // d0 of the operand of the first product
  double average_sampled_row = 0;   // m: E[min(s, row length)] over the operand's rows (GraphSAGE)
  double fetch_bytes = 0, reduce_bytes = 0, design_bytes = 0;
  bool reduce_is_upper_bound = false;
};

// How the first product of a bulk moves rows.
struct FirstProductShape {
  int p = 1, c = 1;
  bool oblivious = false;
  bool sampled_rows = false;     // GraphSAGE sampled by the rows' owners (or here after a broadcast)
  bool one_row_per_seed = true;  // false for LADIES (one row of Q per minibatch)
  bool split_rows = false;       // each rank of a process row multiplies its own share (no reduction)
};

// Bytes per step (all ranks) of the first product of a bulk; experiments/distributed.md derives it.
FirstProductModel model_first_product(const FirstProductShape& shape, double seeds_per_bulk,
                                      double minibatches_per_bulk, double n, double operand_nnz,
                                      double sampled_row_entries) {
  FirstProductModel m;
  const int p = shape.p, c = shape.c;
  const double rows_of_grid = static_cast<double>(p) / c, u = seeds_per_bulk, d = operand_nnz / n;
  const double ms = sampled_row_entries / n;
  m.seeds_per_bulk = u;
  m.average_row_nonzeros = d;
  m.average_sampled_row = ms;
  // Sparsity-aware: each seed's row is asked for once per process row unless its own block holds it:
  // a 4-byte id out (16 bytes of key and id instead when its owner samples it), an 8-byte length and
  // 8 bytes (column + value) per entry back, the whole row or the min(s, length) picks.
  const double remote_rows = rows_of_grid * u * (1 - 1 / rows_of_grid);
  // (Split row work asks for the same rows: each rank's u/c seeds from every other block of its column.
  // Oblivious, every column then needs every block, not only its chunk's: c times the bytes.)
  const double block_copies = shape.split_rows ? c : 1;
  m.fetch_bytes = shape.oblivious ? block_copies * (rows_of_grid - 1) * (8 * operand_nnz + 8 * n + 32 * rows_of_grid)
                  : shape.sampled_rows ? remote_rows * (24 + 8 * ms)
                                       : remote_rows * (12 + 8 * d);
  if (shape.split_rows) {
    m.reduce_bytes = 0;  // each rank's result is its own
  } else if (shape.sampled_rows) {
    // The process row gathers its c chunks' sampled rows: each piece to c - 1 ranks, after its
    // shape (rows and entries, 16 bytes).
    m.reduce_bytes = rows_of_grid * (c - 1) * (8 * u * (1 + ms) + 16 * c);
  } else {
    // The row chain: c - 1 running sums (the j-th holds (j+1)/c of P's entries) and c - 1 copies of P,
    // each with a 24-byte shape and 8-byte row pointers.
    const double q_rows = shape.one_row_per_seed ? u : minibatches_per_bulk;
    m.reduce_bytes = rows_of_grid * (c - 1) * (64 + 16 * q_rows + 12 * u * d);
    m.reduce_is_upper_bound = !shape.one_row_per_seed;  // LADIES: P has at most ū·d0 entries
  }
  m.design_bytes = p * u * d * (1.0 / c + static_cast<double>(c) / p) * 8;  // DESIGN.md's k·b·d·(1/c + c/p)
  return m;
}

// A distributed bench's mode and how its sampler's first product reads the graph.
struct BenchMode {
  GraphMode mode;
  GraphProduct::RowWork work;
  FirstProduct first_product;
  bool walks;              // GraphSAINT's walks: one entry of each row per step
  bool samples_rows_of_a;  // the first product samples rows of A (or walks them)
};

// The graph, the sampler and the backend of a mode, with the graph's sizes.
// Destroyed in reverse: the backend outlives the graph resident on it.
struct BenchGraph {
  std::optional<Graph> whole;
  std::unique_ptr<Backend> local_backend;
  std::optional<LocalGraph> local_graph;
  std::optional<PartitionedSampling> partitioned;
  std::unique_ptr<Sampler> sampler;
  int64_t n = 0, nonzeros = 0, operand_nonzeros = 0, sampled_row_entries = 0, nonzeros_between_blocks = 0;

  Backend& backend() { return partitioned ? static_cast<Backend&>(partitioned->backend()) : *local_backend; }
};

// The mode of `d`, once every rank agrees that the options fit it.
BenchMode agreed_mode(Communicator& world, SamplerOptions& options, const DistributedBenchOptions& d) {
  const GraphMode mode = d.mode == "partitioned" ? GraphMode::partitioned : GraphMode::replicated;
  agree(world, mode == GraphMode::partitioned || !d.oblivious, "--oblivious applies to --distributed partitioned");
  agree(world, mode == GraphMode::partitioned || d.row_work == "shared",
        "--row-work applies to --distributed partitioned");
  const GraphProduct::RowWork work = parse_row_work(d.row_work);
  // The first product of GraphSAGE, LABOR and GraphSAINT's walks samples rows of A (LABOR-0 keeps
  // each of a row's d entries with probability min(1, s/d): min(s, d) of them expected, as
  // GraphSAGE; a walk's step picks one); that of the others extracts whole rows of Â.
  const FirstProduct first_product = find_sampler(options.sampler).first_product;
  const bool walks = first_product == FirstProduct::walk_steps;
  const bool samples_rows_of_a = first_product == FirstProduct::sampled_rows || walks;
  std::string row_samplers;
  for (const SamplerSpec& spec : sampler_registry())
    if (spec.first_product == FirstProduct::sampled_rows)
      row_samplers += (row_samplers.empty() ? "" : ", ") + spec.name;
  agree(world, (mode == GraphMode::partitioned && first_product == FirstProduct::sampled_rows) || !d.fetch_rows,
        "--fetch-rows applies to the samplers that sample rows of A where they live (" + row_samplers +
            ") with --distributed partitioned");
  agree_on(world, [&] {  // as make_backend does, for the partitioned samplers built below
    if (options.threads > 0) omp_set_num_threads(options.threads);
    options.epoch.memory_budget = parse_bytes(options.memory_budget);
  });
  return {mode, work, first_product, walks, samples_rows_of_a};
}

void load_replicated(Communicator& world, const GraphSource& source, SamplerOptions& options, BenchGraph& b) {
  b.whole = load_whole(world, source);
  agree_on(world, [&] {
    b.local_backend = make_backend(options, b.whole->adj);
    b.local_graph.emplace(*b.local_backend, b.whole->adj);
    b.sampler = make_sampler(options, *b.local_graph);
  });
  b.n = b.whole->num_vertices();
  b.nonzeros = b.whole->num_edges();
}

// The entries of the partitioned graph, summed over a process column (which
// holds every block row once): of A, of Â, of A's rows as the first fanout
// samples them, and those whose column another block row holds (what locality
// cannot keep local).
void count_partitioned_entries(ProcessGrid& grid, const SamplerOptions& options, const BenchMode& m, BenchGraph& b) {
  const DistributedLayerWise* lw = b.partitioned->layerwise_matrices();
  const CsrMatrix& local = b.partitioned->adjacency_block().local;
  const int64_t first_fanout = m.walks ? 1 : m.samples_rows_of_a ? options.lists.at("fanouts").at(0) : 0;
  std::vector<int64_t> nnz{local.nnz(), lw ? lw->normalized.local.nnz() : 0, 0, 0};
  for (int64_t r = 0; r < local.rows && m.samples_rows_of_a; ++r) nnz[2] += std::min(first_fanout, local.row_nnz(r));
  const DistributedCsr& block = b.partitioned->adjacency_block();
  const int64_t first = block.first_row(), end = block.blocks.end(block.block);
  for (col_t col : local.colidx) nnz[3] += col < first || col >= end;
  grid.col_comm().all_reduce_sum(nnz);
  b.nonzeros = nnz[0];
  b.operand_nonzeros = m.samples_rows_of_a ? nnz[0] : nnz[1];
  b.sampled_row_entries = nnz[2];
  b.nonzeros_between_blocks = nnz[3];
}

void load_partitioned(Communicator& world, ProcessGrid& grid, const GraphSource& source, SamplerOptions& options,
                      const DistributedBenchOptions& d, const BenchMode& m, BenchGraph& b) {
  DistributedCsr adj = load_block_row(grid, source);
  agree_on(world, [&] { b.local_backend = make_backend(options, adj.local); });
  const auto exchange = d.oblivious ? GraphProduct::Exchange::oblivious : GraphProduct::Exchange::sparsity_aware;
  b.partitioned.emplace(grid, std::move(adj), exchange, std::move(b.local_backend), m.work);
  if (d.fetch_rows) b.partitioned->backend().set_row_sampling(DistributedBackend::RowSampling::fetched_rows);
  agree_on(world, [&] { b.sampler = make_sampler(options, *b.partitioned); });
  b.n = b.partitioned->vertices();
  count_partitioned_entries(grid, options, m, b);
}

// run's steps after the epoch is set up (defined after it, in the order it calls them).

// Adds the product calls of the bulk just sampled to stats, and clears them.
void add_product_calls(GraphProduct& product, RankStats& stats);

// This rank's share of the epoch, timed bulk by bulk, into stats: as `bench` times
// one process, the steps with their layers left where they were sampled, and the
// copy of the layers to the host apart.
void sample_share(EpochIterator& epoch, Backend& backend, GraphProduct* product, bool counts_fingerprints,
                  RankStats& stats);

// How the run was set up: mode, exchange, transport, grid, graph and sampler options.
JsonObject describe_setup(Communicator& world, const ProcessGrid& grid, const GraphSource& source,
                          const SamplerOptions& options, const DistributedBenchOptions& d, const BenchMode& m,
                          BenchGraph& b);

// The measured first product of a partitioned run against the traffic model.
JsonObject describe_first_product(const ProcessGrid& grid, const DistributedBenchOptions& d, const BenchMode& m,
                                  const BenchGraph& b, const GatheredStats& all, bool shared_rows, double steps);

// Every rank's measurements in json. Per step: one bulk of every worker (a
// process row, or a rank when replicated); with shared_rows the c ranks of a
// process row sample each minibatch.
void add_rank_measurements(JsonObject& json, const ProcessGrid& grid, const SamplerOptions& options,
                           const DistributedBenchOptions& d, const BenchMode& m, const BenchGraph& b,
                           const GatheredStats& all, bool shared_rows, int64_t bulk_size, double epoch_s);

JsonObject run(Communicator& world, const GraphSource& source, SamplerOptions& options,
               const DistributedBenchOptions& d) {
  agree_on_arguments(world, command_line());  // ranks of different commands would wait for each other forever
  ProcessGrid grid(world, d.replication);
  pick_rank_gpu(options, local_rank());  // --device cuda: the GPU of this rank's local rank
  const BenchMode m = agreed_mode(world, options, d);
  const GraphMode mode = m.mode;
  const GraphProduct::RowWork work = m.work;
  BenchGraph graph;
  if (mode == GraphMode::replicated) {
    load_replicated(world, source, options, graph);
  } else {
    load_partitioned(world, grid, source, options, d, m, graph);
  }
  const std::unique_ptr<Sampler>& sampler = graph.sampler;
  Backend& backend = graph.backend();
  GraphProduct* product = graph.partitioned ? &graph.partitioned->product() : nullptr;
  const int64_t n = graph.n;

  // This rank's share of the epoch, timed bulk by bulk.
  const std::vector<vid_t> train = epoch_training_vertices(options, n);
  std::optional<EpochIterator> epoch;
  agree_on(world, [&] {  // bad options fail everywhere
    epoch.emplace(*sampler, make_context(options, backend), train, share_of_epoch(options.epoch, grid, mode, work));
  });
  world.barrier();
  grid.reset_counters();
  if (product) product->clear_calls();
  ScopedTimer epoch_timer(nullptr);
  RankStats stats;
  if (options.parsed_device().kind == "cuda") stats.gpu = options.parsed_device().index;
  // A minibatch is sampled by the c ranks of its process row (unless they split the row's work): count it once.
  const bool shared_rows = !every_rank_samples(mode, work);
  sample_share(*epoch, backend, product, !shared_rows || grid.col() == 0, stats);
  if (graph.partitioned) graph.partitioned->finish();  // serve the column until every rank is done
  world.barrier();
  const double epoch_s = epoch_timer.seconds();
  stats.bytes_sent = grid.bytes_sent();
  stats.messages_sent = grid.messages_sent();
  stats.peak_memory = peak_resident_bytes();

  GatheredStats all;
  all.ranks = world.size();
  all.times = world.all_gatherv(stats.times());
  all.counts = world.all_gatherv(stats.counts());
  JsonObject json = describe_setup(world, grid, source, options, d, m, graph);
  add_rank_measurements(json, grid, options, d, m, graph, all, shared_rows, epoch->bulk_size(), epoch_s);
  return json;
}

void add_product_calls(GraphProduct& product, RankStats& stats) {
  const std::vector<ProductCall>& calls = product.calls();
  // The first product of rows (FastGCN's draws from its shared row come before it).
  const auto first = std::find_if(calls.begin(), calls.end(), [](const ProductCall& c) { return !c.shared_row; });
  if (first != calls.end()) {
    stats.first_fetch_bytes += first->request_bytes + first->response_bytes;
    stats.first_reduce_bytes += first->reduce_bytes;
  }
  for (const ProductCall& call : calls) {
    if (call.shared_row) stats.shared_row_bytes += call.request_bytes + call.response_bytes + call.reduce_bytes;
    stats.exchange_s += call.exchange_s;
    stats.compute_s += call.compute_s;
    stats.reduce_s += call.reduce_s;
  }
  product.clear_calls();
}

void sample_share(EpochIterator& epoch, Backend& backend, GraphProduct* product, bool counts_fingerprints,
                  RankStats& stats) {
  for (;;) {
    double seconds = 0;
    bool more;
    Bulk resident;
    {
      ScopedTimer timer(&seconds);
      more = next_bulk(epoch, &resident, &stats.steps);
    }
    if (!more) break;
    stats.sampling_s += seconds;
    BulkSample bulk;
    {
      ScopedTimer timer(&stats.fetch_s);
      bulk = to_host(backend, std::move(resident));
    }
    ++stats.bulks;
    stats.minibatches += bulk.count();
    stats.seeds += static_cast<int64_t>(bulk.seeds.size());
    stats.sampled_edges += bulk.sampled_edges();
    for (int64_t g = 0; g < bulk.count() && counts_fingerprints; ++g) {
      Fingerprint f;
      f.add(extract_minibatch(bulk, g));
      stats.fingerprint_sum += f.value();
    }
    if (product) add_product_calls(*product, stats);
  }
}

JsonObject describe_setup(Communicator& world, const ProcessGrid& grid, const GraphSource& source,
                          const SamplerOptions& options, const DistributedBenchOptions& d, const BenchMode& m,
                          BenchGraph& b) {
  const GraphMode mode = m.mode;
  JsonObject json;
  json.add("command", "bench").add("distributed", d.mode);
  json.add("exchange", mode == GraphMode::replicated ? "none" : d.oblivious ? "oblivious" : "sparsity_aware");
  const bool sampled_rows = mode == GraphMode::partitioned && m.samples_rows_of_a && !d.fetch_rows;
  json.add("row_sampling", sampled_rows ? (d.oblivious ? "here_after_broadcast" : "at_owner")
                           : mode == GraphMode::partitioned && d.fetch_rows ? "fetched_rows"
                                                                            : "none");
  json.add("transport", world.transport()).add("processes", world.size()).add("replication", grid.replication());
  if (mode == GraphMode::partitioned) json.add("row_work", d.row_work);
  json.add("process_rows", grid.process_rows()).add("backend", b.backend().name()).add("graph", source.spec);
  json.add("vertices", b.n).add("nonzeros", b.nonzeros);
  if (b.partitioned)
    json.add("block_cut_fraction", static_cast<double>(b.nonzeros_between_blocks) / std::max<int64_t>(1, b.nonzeros));
  describe(options, json);
  return json;
}

JsonObject describe_first_product(const ProcessGrid& grid, const DistributedBenchOptions& d, const BenchMode& m,
                                  const BenchGraph& b, const GatheredStats& all, bool shared_rows, double steps) {
  const int p = all.ranks, c = grid.replication();
  const int64_t copies = shared_rows ? c : 1;
  const bool sampled_rows = m.samples_rows_of_a && !d.fetch_rows;
  const FirstProductModel model = model_first_product(
      {p, c, d.oblivious, sampled_rows, m.first_product != FirstProduct::minibatch_rows, !shared_rows},
      sum(all.count(2)) / copies / steps / grid.process_rows(),
      sum(all.count(1)) / copies / steps / grid.process_rows(), static_cast<double>(b.n),
      static_cast<double>(b.operand_nonzeros), static_cast<double>(b.sampled_row_entries));
  return JsonObject()
      .add("seeds_per_step_and_row", model.seeds_per_bulk)
      .add("operand_average_row_nonzeros", model.average_row_nonzeros)
      .add("operand_average_sampled_row", model.average_sampled_row)
      .add("measured_fetch_bytes_per_step", sum(all.count(6)) / steps)
      .add("model_fetch_bytes_per_step", model.fetch_bytes)
      .add("measured_reduce_bytes_per_step", sum(all.count(7)) / steps)
      .add("model_reduce_bytes_per_step", model.reduce_bytes)
      .add("model_reduce_is_upper_bound", model.reduce_is_upper_bound)
      .add("design_formula_bytes_per_step", model.design_bytes);
}

void add_rank_measurements(JsonObject& json, const ProcessGrid& grid, const SamplerOptions& options,
                           const DistributedBenchOptions& d, const BenchMode& m, const BenchGraph& b,
                           const GatheredStats& all, bool shared_rows, int64_t bulk_size, double epoch_s) {
  const int p = all.ranks;
  const int64_t copies = shared_rows ? grid.replication() : 1;  // ranks sampling each minibatch
  const int workers = p / static_cast<int>(copies);
  const std::vector<int64_t> bulks = all.count(0), bytes = all.count(4);
  const double worker_bulks = static_cast<double>(sum(bulks)) / copies;
  const double steps = worker_bulks / workers;  // average bulks per worker
  const int64_t max_bulks = *std::max_element(bulks.begin(), bulks.end());
  std::vector<double> rank_time = all.time(0), rank_time_per_bulk(p);
  for (int r = 0; r < p; ++r) rank_time_per_bulk[r] = bulks[r] ? rank_time[r] / bulks[r] : 0;
  uint64_t fingerprint_sum = 0;  // equal for every p, c and mode when the minibatches are
  for (int64_t f : all.count(8)) fingerprint_sum += static_cast<uint64_t>(f);

  json.add("minibatches", sum(all.count(1)) / copies).add("bulk_size", bulk_size).add("steps", max_bulks);
  json.add("epoch_s", epoch_s).add("time_per_step_s", epoch_s / std::max<int64_t>(1, max_bulks));
  json.add("rank_time_s", rank_time).add("rank_steps", bulks).add("rank_time_per_step_s", rank_time_per_bulk);
  json.add("rank_probability_s", all.time(1)).add("rank_sampling_s", all.time(2)).add("rank_extraction_s", all.time(3));
  json.add("rank_exchange_s", all.time(4)).add("rank_compute_s", all.time(5)).add("rank_reduce_s", all.time(6));
  json.add("rank_fetch_s", all.time(7)).add("steps_s", *std::max_element(rank_time.begin(), rank_time.end()));
  json.add("host_copies_in_steps", sum(all.count(12)))
      .add("host_bytes_in_steps", sum(all.count(13)))
      .add("syncs_in_steps", sum(all.count(14)));
  if (options.parsed_device().kind == "cuda") json.add("rank_gpu", all.count(9));
  json.add("rank_minibatches", all.count(1)).add("rank_messages_sent", all.count(10));
  json.add("rank_bytes_sent", bytes).add("bytes_per_step", sum(bytes) / std::max(1.0, steps));
  if (m.mode == GraphMode::partitioned) {
    json.add("first_product", describe_first_product(grid, d, m, b, all, shared_rows, steps));
    json.add("shared_row_bytes_per_step", sum(all.count(11)) / steps);
  }
  json.add("sampled_edges", sum(all.count(3)) / copies);
  json.add("minibatch_fingerprint_sum", fingerprint_sum);
  json.add("rank_peak_memory_bytes", all.count(5));
}

}  // namespace

namespace {

// The job's world over MPI's: itself, or NCCL bootstrapped through it. Collective.
std::unique_ptr<Communicator> transport_over(Communicator& mpi, const JobTransport& transport) {
  if (transport.name == "mpi") return nullptr;
  if (const TransportFactory* make = find_transport(transport.name)) return (*make)(mpi, transport.gpu);
  // The same build on every rank: each finds it missing, and rank 0 says so once.
  throw AgreedError(detail::concat("--transport ", transport.name,
                                   ": this matsamp was built without it (configure with CUDA and NCCL found)"));
}

}  // namespace

void run_mpi_job(const std::function<void(Communicator& world)>& job, const JobTransport& transport) {
  int rank = 0;
  std::string agreed_error;
  std::exception_ptr alone;  // the error of a job of one rank, thrown as it was
  {
    MpiSession session;
    auto world = make_mpi_communicator(MPI_COMM_WORLD);
    rank = world->rank();
    const CollectiveWatchdog watchdog(transport.collective_timeout,
                                      [&world](const std::string& line) { world->abort(line); });
    try {
      const std::unique_ptr<Communicator> other = transport_over(*world, transport);
      job(other ? *other : *world);
    } catch (const AgreedError& e) {
      // Every rank has it: rank 0 reports it, and the others wait until it has, since
      // the launcher may end the job (rank 0 too) as soon as one rank exits with an error.
      agreed_error = e.what();
      if (rank == 0) std::fprintf(stderr, "matsamp: error: %s\n", e.what());
      world->barrier();
    } catch (const std::exception& e) {
      if (world->size() > 1) world->abort(e.what());  // this rank alone: end the job, others would wait
      alone = std::current_exception();
    }
  }
  if (alone) std::rethrow_exception(alone);
  if (!agreed_error.empty()) std::exit(EXIT_FAILURE);
}

void run_mpi_json_job(const std::function<JsonObject(Communicator& world)>& job, const JobTransport& transport) {
  run_mpi_job(
      [&job](Communicator& world) {
        const JsonObject json = job(world);
        if (world.rank() == 0) std::printf("%s\n", json.str().c_str());
      },
      transport);
}

void run_distributed_bench(const GraphSource& source, SamplerOptions& sampler, const DistributedBenchOptions& options) {
  run_mpi_json_job([&](Communicator& world) { return run(world, source, sampler, options); },
                   job_transport(options.transport, sampler));
}

#endif

}  // namespace matsamp::cli
