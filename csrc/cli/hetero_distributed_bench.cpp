#include "cli/hetero_distributed_bench.h"

#ifdef MATSAMP_HAVE_DISTRIBUTED
#include <algorithm>
#include <numeric>
#include <optional>

#include "cli/commands.h"
#include "distributed/agreement.h"
#include "distributed/epoch_share.h"
#include "distributed/partitioned_hetero.h"
#include "io/hetero_io.h"
#include "sampling/epoch_plan.h"
#include "sampling/fingerprint.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"
#include "util/memory.h"
#include "util/timer.h"
#endif

namespace matsamp::cli {

#ifndef MATSAMP_HAVE_DISTRIBUTED

void run_hetero_distributed_bench(const GraphSource&, SamplerOptions&, const HeteroOptions&,
                                  const DistributedBenchOptions&) {
  run_mpi_json_job({});
}

#else

namespace {

template <class T>
T sum(const std::vector<T>& v) {
  return std::accumulate(v.begin(), v.end(), T{});
}

// The options' mode, once every rank agrees that they fit heterogeneous graphs.
GraphMode agreed_mode(Communicator& world, const SamplerOptions& options, const HeteroOptions& hetero,
                      const DistributedBenchOptions& d) {
  const GraphMode mode = d.mode == "partitioned" ? GraphMode::partitioned : GraphMode::replicated;
  agree(world, mode == GraphMode::partitioned || !d.oblivious, "--oblivious applies to --distributed partitioned");
  agree(world, !d.fetch_rows || (mode == GraphMode::partitioned && hetero.type_budgets.empty()),
        "--fetch-rows applies to node-wise sampling with --distributed partitioned");
  agree(world, options.parsed_device().kind == "cpu", "heterogeneous graphs are sampled across ranks on the CPU");
  agree(world, d.row_work == "shared", "--row-work split: heterogeneous graphs share each process row's work");
  return mode;
}

// What the JSON says of the run before its measurements.
JsonObject describe_run(Communicator& world, const ProcessGrid& grid, const GraphSource& source, GraphMode mode,
                        const DistributedBenchOptions& d, const std::string& sampler, const HeteroGraph& g,
                        int64_t edges, bool from_blocks, const std::string& seed_type) {
  JsonObject json;
  json.add("command", "bench").add("heterogeneous", true).add("sampler", sampler);
  json.add("distributed", d.mode).add("processes", world.size()).add("replication", grid.replication());
  json.add("exchange", mode == GraphMode::replicated ? "none" : d.oblivious ? "oblivious" : "sparsity_aware");
  json.add("transport", world.transport()).add("graph", source.spec).add("seed_type", seed_type);
  json.add("vertices", g.num_vertices()).add("edges", edges).add("relations", g.relations.size());
  json.add("graph_read", from_blocks ? "block_rows" : "whole");
  return json;
}

// What a rank counted over its share of the epoch.
struct RankCounts {
  int64_t bulks = 0, minibatches = 0, sampled_edges = 0;
  uint64_t fingerprint_sum = 0;
};

// Every rank's counts, bytes sent, peak memory and sampling time, gathered and
// summed into json (`copies`: the ranks that sample each minibatch).
void add_rank_totals(JsonObject& json, Communicator& world, const ProcessGrid& grid, int64_t copies, double epoch_s,
                     double sampling_s, const RankCounts& mine) {
  const std::vector<double> rank_time = world.all_gatherv(std::vector<double>{sampling_s});
  const std::vector<int64_t> counts{
      mine.bulks,        mine.minibatches,      mine.sampled_edges,
      grid.bytes_sent(), peak_resident_bytes(), static_cast<int64_t>(mine.fingerprint_sum)};
  const std::vector<int64_t> all = world.all_gatherv(counts);
  const auto column = [&](size_t field) {
    std::vector<int64_t> out;
    for (size_t i = field; i < all.size(); i += counts.size()) out.push_back(all[i]);
    return out;
  };
  uint64_t fingerprints = 0;
  for (int64_t f : column(5)) fingerprints += static_cast<uint64_t>(f);
  json.add("minibatches", sum(column(1)) / copies).add("epoch_s", epoch_s);
  json.add("rank_time_s", rank_time).add("rank_bulks", column(0)).add("rank_bytes_sent", column(3));
  json.add("bytes_sent", sum(column(3))).add("sampled_edges", sum(column(2)) / copies);
  json.add("minibatch_fingerprint_sum", fingerprints).add("rank_peak_memory_bytes", column(4));
}

JsonObject run(Communicator& world, const GraphSource& source, SamplerOptions& options, const HeteroOptions& hetero,
               const DistributedBenchOptions& d) {
  agree_on_arguments(world, command_line());
  ProcessGrid grid(world, d.replication);
  const GraphMode mode = agreed_mode(world, options, hetero, d);

  // Every rank builds the same graph (only each A_r's block row is then kept
  // when partitioned), or, partitioned from a .msg, reads only its block rows.
  const bool from_blocks = mode == GraphMode::partitioned && is_hetero_binary(source.spec);
  agree(world, !from_blocks || hetero.type_budgets.empty(),
        "--type-budgets with --distributed partitioned stacks each type's relations whole on every rank: sample "
        "a .msg node-wise (--relation-fanouts or --fanouts), or layer-wise from a generator or an OGB folder");
  HeteroSetup setup;
  std::vector<DistributedCsr> blocks;
  if (from_blocks) {
    HeteroBlocks part = read_hetero_blocks(source.spec, grid, hetero.add_reverse);
    blocks = std::move(part.blocks);
    const auto largest = std::max_element(blocks.begin(), blocks.end(),
                                          [](const auto& a, const auto& b) { return a.local.nnz() < b.local.nnz(); });
    agree_on(world, [&] {
      MATSAMP_CHECK(!blocks.empty(), source.spec, " has no relations to sample");
      setup = hetero_setup(std::move(part.schema), options, hetero, &largest->local);
    });
  } else {
    agree_on(world, [&] { setup = prepare_hetero(source, options, hetero); });
  }
  std::unique_ptr<Backend> local = std::move(setup.backend);
  const HeteroGraph& g = setup.graph;
  std::optional<PartitionedHetero> partitioned;
  std::unique_ptr<HeteroSampler> sampler;
  if (mode == GraphMode::replicated) {
    agree_on(world, [&] { sampler = make_hetero_sampler(*local, setup); });
  } else {
    const auto exchange = d.oblivious ? GraphProduct::Exchange::oblivious : GraphProduct::Exchange::sparsity_aware;
    if (from_blocks) partitioned.emplace(grid, g, std::move(blocks), exchange, std::move(local));
    else partitioned.emplace(grid, g, exchange, std::move(local));
    if (d.fetch_rows) partitioned->backend().set_row_sampling(DistributedBackend::RowSampling::fetched_rows);
    agree_on(world, [&] {
      if (setup.budgets.empty())
        sampler = std::make_unique<HeteroNeighborSampler>(partitioned->relations(), setup.fanouts);
      else
        sampler = std::make_unique<HeteroLayerWiseSampler>(g, setup.budgets,
                                                           [&](CsrMatrix b) { return partitioned->distribute(b); });
    });
  }
  Backend& backend = partitioned ? static_cast<Backend&>(partitioned->backend()) : *local;

  const VertexType& type = g.types[setup.seed_type];
  const auto given = type.splits.find("train");
  const std::vector<vid_t> train = given != type.splits.end() && options.train_fraction == 1.0
                                       ? given->second
                                       : training_vertices(type.count, options.train_fraction, options.epoch.seed);
  agree(world, !train.empty(), "no seeds: vertex type " + type.name + " has no training vertices");
  const EpochOptions share = share_of_epoch(options.epoch, grid, mode);
  const int64_t bulk_size =
      share.bulk_size > 0 ? share.bulk_size
                          : std::max<int64_t>(1, share.memory_budget / sampler->bytes_per_minibatch(share.batch_size));
  const EpochPlan plan(static_cast<int64_t>(train.size()),
                       {share.batch_size, share.workers, bulk_size, {}});  // one lane per worker
  const EpochOrder order = plan.order(train, share.seed, share.epoch);

  world.barrier();
  grid.reset_counters();
  ScopedTimer epoch_timer(nullptr);
  Context ctx = make_context(options, backend);
  double sampling_s = 0;
  int64_t bulks = 0, minibatches = 0, sampled_edges = 0;
  uint64_t fingerprint_sum = 0;
  const bool counts_fingerprints = mode == GraphMode::replicated || grid.col() == 0;  // once per process row
  for (const auto& [first, end] : plan.worker_bulks(share.worker, share.workers)) {
    HeteroBulkSample bulk;
    {
      ScopedTimer timer(&sampling_s);
      const auto [ids, offsets] = order.seeds(first, end);
      bulk = to_host(backend, sampler->sample(ctx, setup.seed_type, ids, offsets, first, share.epoch));
    }
    ++bulks;
    minibatches += bulk.count();
    for (const HeteroSampledLayer& layer : bulk.layers)
      for (const CsrMatrix& a : layer.adj) sampled_edges += a.nnz();
    for (int64_t i = 0; i < bulk.count() && counts_fingerprints; ++i) {
      Fingerprint f;
      f.add(bulk, i);
      fingerprint_sum += f.value();
    }
    if (partitioned) partitioned->product().clear_calls();
  }
  if (partitioned) partitioned->finish();  // serve the column until every rank is done
  world.barrier();
  const double epoch_s = epoch_timer.seconds();

  const int64_t edges = partitioned ? partitioned->num_edges() : g.num_edges();
  JsonObject json = describe_run(world, grid, source, mode, d, sampler->name(), g, edges, from_blocks, type.name);
  json.add("batch_size", share.batch_size).add("bulk_size", bulk_size).add("seed", share.seed);
  const int64_t copies = mode == GraphMode::partitioned ? grid.replication() : 1;  // ranks sampling each minibatch
  add_rank_totals(json, world, grid, copies, epoch_s, sampling_s, {bulks, minibatches, sampled_edges, fingerprint_sum});
  return json;
}

}  // namespace

void run_hetero_distributed_bench(const GraphSource& source, SamplerOptions& sampler, const HeteroOptions& hetero,
                                  const DistributedBenchOptions& options) {
  run_mpi_json_job([&](Communicator& world) { return run(world, source, sampler, hetero, options); },
                   job_transport(options.transport, sampler));
}

#endif

}  // namespace matsamp::cli
