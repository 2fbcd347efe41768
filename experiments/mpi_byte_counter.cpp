#include "mpi_byte_counter.h"

#include <mpi.h>

namespace matsamp::experiments {

namespace {

int64_t bytes_sent = 0;

int64_t bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<int64_t>(count) * size;
}

int size_of(MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return p;
}

int rank_in(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

}  // namespace

int64_t mpi_bytes_sent() { return bytes_sent; }
void reset_mpi_bytes() { bytes_sent = 0; }

}  // namespace matsamp::experiments

using matsamp::experiments::bytes_of;
using matsamp::experiments::rank_in;
using matsamp::experiments::size_of;

extern "C" {

int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  if (rank_in(comm) == root) matsamp::experiments::bytes_sent += bytes_of(count, type) * (size_of(comm) - 1);
  return PMPI_Bcast(buffer, count, type, root, comm);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const int me = rank_in(comm);
  for (int q = 0; q < size_of(comm); ++q)
    if (q != me) matsamp::experiments::bytes_sent += bytes_of(sendcounts[q], sendtype);
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  matsamp::experiments::bytes_sent += bytes_of(sendcount, sendtype) * (size_of(comm) - 1);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const int count = sendbuf == MPI_IN_PLACE ? recvcount : sendcount;
  const MPI_Datatype type = sendbuf == MPI_IN_PLACE ? recvtype : sendtype;
  matsamp::experiments::bytes_sent += bytes_of(count, type) * (size_of(comm) - 1);
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const int count = sendbuf == MPI_IN_PLACE ? recvcounts[rank_in(comm)] : sendcount;
  const MPI_Datatype type = sendbuf == MPI_IN_PLACE ? recvtype : sendtype;
  matsamp::experiments::bytes_sent += bytes_of(count, type) * (size_of(comm) - 1);
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int p = size_of(comm);
  matsamp::experiments::bytes_sent += 2 * bytes_of(count, type) * (p - 1) / p;
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (dest != rank_in(comm)) matsamp::experiments::bytes_sent += bytes_of(count, type);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  if (dest != rank_in(comm)) matsamp::experiments::bytes_sent += bytes_of(count, type);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (dest != rank_in(comm)) matsamp::experiments::bytes_sent += bytes_of(sendcount, sendtype);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm,
                       status);
}

}  // extern "C"
