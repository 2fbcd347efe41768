// Bytes this process hands to MPI for other ranks, counted by interposing the MPI
// calls (PMPI) that CombBLAS's SpGEMM and our transport use: the same yardstick for
// both. Conventions follow distributed/communicator.h: direct sends to each other rank
// (a broadcast counts at its root, once per receiver; an all-reduce counts 2 (p-1)/p).
#pragma once
#include <cstdint>

namespace matsamp::experiments {

int64_t mpi_bytes_sent();
void reset_mpi_bytes();

}  // namespace matsamp::experiments
