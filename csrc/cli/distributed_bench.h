// `matsamp bench` under mpirun or srun: one epoch sampled by every rank of the job,
// graph replicated or partitioned (1.5D), timed per rank and step, with the bytes moved
// beside the model of experiments/distributed.md. Rank 0 prints the JSON.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "cli/graph_source.h"
#include "cli/sampler_options.h"
#include "util/json.h"

namespace matsamp {
class Communicator;  // distributed/communicator.h
}

namespace matsamp::cli {

// --transport and --collective-timeout: what carries a job's collectives, and how
// long a rank waits in one for its peers before it ends the job (0: no bound).
struct TransportOptions {
  static constexpr double kDefaultCollectiveTimeout = 1800;  // seconds
  std::string name = "mpi";
  double collective_timeout = kDefaultCollectiveTimeout;
  // Whether either was given (a run that is not distributed refuses them).
  bool given() const { return name != "mpi" || collective_timeout != kDefaultCollectiveTimeout; }
};

struct DistributedBenchOptions {
  std::string mode;         // "" (not distributed), replicated, partitioned
  int replication = 1;      // c: the grid is (p/c) x c
  bool oblivious = false;   // partitioned: broadcast whole block rows instead of the rows needed
  bool fetch_rows = false;  // partitioned GraphSAGE: fetch frontier rows whole, sample them here
  TransportOptions transport;
  std::string row_work = "shared";  // partitioned: how the c ranks of a process row share its minibatches
};

// The transport of a job's collectives (--transport): mpi, or nccl with one GPU per
// rank (`gpu`; negative: the GPU of the rank's local rank, as pick_rank_gpu chooses).
struct JobTransport {
  std::string name = "mpi";
  int gpu = -1;
  double collective_timeout = TransportOptions::kDefaultCollectiveTimeout;  // seconds; 0: none
};
void add_transport_options(CLI::App& command, TransportOptions& transport);
// --row-work shared|split (GraphProduct::RowWork).
void add_row_work_option(CLI::App& command, std::string& row_work);
// The transport named, on the GPU --device names (cuda:N), if it names one.
JobTransport job_transport(const TransportOptions& transport, const SamplerOptions& sampler);

// Ranks in the job as the launcher tells them (mpirun, MPICH/Hydra, srun); 0
// when no launcher started this process.
int launched_ranks();
// Throws the one-line error of a --distributed run that no launcher started.
void require_launcher();

void add_distributed_bench_options(CLI::App& bench, DistributedBenchOptions& options);
// True with --distributed, or when the job has several ranks (then replicated is the default).
bool distributed_bench_requested(DistributedBenchOptions& options);
// Collective over the job (errors as run_mpi_job's).
void run_distributed_bench(const GraphSource& source, SamplerOptions& sampler, const DistributedBenchOptions& options);

// Runs job(world) as one MPI job (world: the chosen transport over every rank): an
// error every rank agreed on ends them all with exit code 1 (rank 0 prints it, once,
// before any rank exits), any other aborts the job rather than leave the other ranks
// waiting.
void run_mpi_job(const std::function<void(Communicator& world)>& job, const JobTransport& transport = {});
// Runs job(world) as one MPI job whose rank 0 prints the JSON job returns; errors as
// run_mpi_job's.
void run_mpi_json_job(const std::function<JsonObject(Communicator& world)>& job, const JobTransport& transport = {});

}  // namespace matsamp::cli
