// This process's rank among those on its node, to pick its GPU.
#pragma once

namespace matsamp {

// From the launcher (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, MPI_LOCALRANKID) when it
// says, otherwise from MPI (ranks sharing memory with this one). Collective over
// MPI_COMM_WORLD in the second case; call it on every rank.
int local_rank();

}  // namespace matsamp
