#include "local_rank.h"

#include <mpi.h>

#include <cstdlib>

#include "mpi_communicator.h"

namespace matsamp {

int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int rank = 0;
  const int code = MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  check_mpi(code, "MPI_Comm_rank");
  return rank;
}

}  // namespace matsamp
