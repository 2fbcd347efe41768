// Shared pieces of the tests run under mpirun.
#pragma once
#include <gtest/gtest.h>
#include <mpi.h>

#include <unistd.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "distributed/mpi_communicator.h"
#include "distributed/process_grid.h"
#include "test_data.h"

namespace matsamp::testing {

// MPI_COMM_WORLD as a Communicator, made once (main() has initialized MPI).
inline Communicator& world() {
  static std::unique_ptr<Communicator> comm = make_mpi_communicator(MPI_COMM_WORLD);
  return *comm;
}

// The replication factors c the grid accepts for this job's p (c² divides p).
inline std::vector<int> valid_replications() {
  std::vector<int> out;
  for (int c = 1; c * c <= world().size(); ++c)
    if (world().size() % (c * c) == 0) out.push_back(c);
  return out;
}

// Every rank's pairs, on every rank, grouped by minibatch id.
inline std::map<int64_t, std::vector<uint64_t>> gather_fingerprints(
    const std::vector<std::pair<int64_t, uint64_t>>& mine) {
  std::vector<int64_t> ids, values;
  for (const auto& [id, f] : mine) {
    ids.push_back(id);
    values.push_back(static_cast<int64_t>(f));
  }
  const std::vector<int64_t> all_ids = world().all_gatherv(ids), all_values = world().all_gatherv(values);
  std::map<int64_t, std::vector<uint64_t>> out;
  for (size_t i = 0; i < all_ids.size(); ++i) out[all_ids[i]].push_back(static_cast<uint64_t>(all_values[i]));
  return out;
}

// Every minibatch of the reference (id, fingerprint) was sampled `copies` times
// across the ranks (all: gather_fingerprints), each time equal to the reference.
inline void expect_same_minibatches(const std::vector<std::pair<int64_t, uint64_t>>& reference,
                                    const std::map<int64_t, std::vector<uint64_t>>& all, size_t copies,
                                    const std::string& where) {
  EXPECT_EQ(all.size(), reference.size()) << where;
  for (const auto& [id, want] : reference) {
    const auto it = all.find(id);
    if (it == all.end()) {
      ADD_FAILURE() << where << ": minibatch " << id << " was not sampled";
      continue;
    }
    EXPECT_EQ(it->second.size(), copies) << where << ": minibatch " << id;
    for (uint64_t got : it->second) EXPECT_EQ(got, want) << where << ": minibatch " << id << " differs";
  }
}

// A fresh scratch directory made by rank 0 and named for this job (concurrent jobs
// do not share it); every rank gets its path.
inline std::string shared_scratch_dir(const std::string& name) {
  std::string dir;
  if (world().rank() == 0)
    dir = scratch_dir(name + "_np" + std::to_string(world().size()) + "_" + std::to_string(getpid()));
  int64_t length = static_cast<int64_t>(dir.size());
  world().broadcast(&length, 1, DataType::int64, 0);
  dir.resize(length);
  world().broadcast(dir.data(), length, DataType::int8, 0);
  return dir;
}

}  // namespace matsamp::testing
