#include "mpi_communicator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "collective_watchdog.h"
#include "core/error.h"

namespace matsamp {

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  fail(call, " failed: ", length > 0 ? std::string(text, length) : "error code " + std::to_string(code));
}

MpiSession::MpiSession() {
  int initialized = 0;
  check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  if (initialized) return;
  int provided = 0;
  // Multiple: training samples and fetches features on threads of their own, each
  // through its own communicator (concurrent_duplicate). OpenMP threads never call MPI.
  check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
  owned_ = true;
}

MpiSession::~MpiSession() {
  // Leaving on an error: MPI_Finalize would wait for the other ranks forever.
  // Exiting without it makes mpirun (or srun) end the whole job instead.
  if (std::uncaught_exceptions() > 0) return;
  int finalized = 0;
  if (owned_ && MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized) MPI_Finalize();
}

namespace {

MPI_Datatype mpi_type(DataType type) {
  switch (type) {
    case DataType::int8: return MPI_INT8_T;
    case DataType::int32: return MPI_INT32_T;
    case DataType::int64: return MPI_INT64_T;
    case DataType::float32: return MPI_FLOAT;
    case DataType::float64: return MPI_DOUBLE;
  }
  fail("MPI transport: unknown data type ", static_cast<int>(type));
}

// MPI_Comm_dup with errors returned instead of aborting.
MPI_Comm duplicate(MPI_Comm comm) {
  MPI_Comm out;
  check_mpi(MPI_Comm_dup(comm, &out), "MPI_Comm_dup");
  check_mpi(MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  return out;
}

class MpiCommunicator final : public Communicator {
 public:
  // Takes ownership of comm.
  MpiCommunicator(MPI_Comm comm, int64_t limit) : comm_(comm), limit_(limit) {
    MATSAMP_CHECK(limit > 0 && limit <= INT_MAX, "MPI transport: message limit ", limit, " outside [1, INT_MAX]");
    check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    chunked_ = duplicate(comm_);
    world_ranks_ = ranks_in_world(comm_, size_);
  }
  ~MpiCommunicator() override {
    int finalized = 0;
    if (MPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;
    MPI_Comm_free(&chunked_);
    MPI_Comm_free(&comm_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string transport() const override { return "mpi"; }

  void all_reduce_sum(void* data, int64_t n, DataType type) override {
    check_count(n, "all_reduce_sum");
    const CollectiveWait wait("MPI_Allreduce", size_, only_other());
    char* bytes = static_cast<char*>(data);
    for (int64_t at = 0; at < n; at += limit_) {
      const int chunk = static_cast<int>(std::min(limit_, n - at));
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, bytes + at * size_of(type), chunk, mpi_type(type), MPI_SUM, comm_),
                "MPI_Allreduce");
    }
    count_all_reduce(n, type);
  }

  void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                   const std::vector<int64_t>& recv_counts, DataType type) override {
    check_exchange(send_counts, recv_counts);
    const CollectiveWait wait("MPI_Alltoallv", size_, only_other());
    std::vector<int> sc, sd, rc, rd;
    // Each rank sees only its own counts, so the ranks decide the path together.
    int fits = as_int_layout(send_counts, sc, sd) && as_int_layout(recv_counts, rc, rd);
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_LAND, comm_), "MPI_Allreduce");
    if (fits) {
      check_mpi(
          MPI_Alltoallv(send, sc.data(), sd.data(), mpi_type(type), recv, rc.data(), rd.data(), mpi_type(type), comm_),
          "MPI_Alltoallv");
    } else {
      std::vector<const void*> parts(size_);
      for (int peer = 0; peer < size_; ++peer)
        parts[peer] = static_cast<const char*>(send) + displacement(send_counts, peer) * size_of(type);
      exchange_in_chunks(parts, send_counts, recv, recv_counts, type);
    }
    count_all_to_allv(send_counts, type);
  }

  void all_gatherv(const void* send, int64_t n, void* recv, const std::vector<int64_t>& recv_counts,
                   DataType type) override {
    check_own_part(n, recv_counts);
    const CollectiveWait wait("MPI_Allgatherv", size_, only_other());
    std::vector<int> rc, rd;
    if (as_int_layout(recv_counts, rc, rd)) {  // the same counts everywhere: the same path
      check_mpi(
          MPI_Allgatherv(send, static_cast<int>(n), mpi_type(type), recv, rc.data(), rd.data(), mpi_type(type), comm_),
          "MPI_Allgatherv");
    } else {
      // Every rank sends its one part to every other rank.
      exchange_in_chunks(std::vector<const void*>(size_, send), std::vector<int64_t>(size_, n), recv, recv_counts,
                         type);
    }
    count_all_gatherv(n, type);
  }

  void broadcast(void* data, int64_t n, DataType type, int root) override {
    check_count(n, "broadcast");
    check_peer(root, "broadcast root");
    const CollectiveWait wait("MPI_Bcast", size_, only_other());
    char* bytes = static_cast<char*>(data);
    for (int64_t at = 0; at < n; at += limit_) {
      const int chunk = static_cast<int>(std::min(limit_, n - at));
      check_mpi(MPI_Bcast(bytes + at * size_of(type), chunk, mpi_type(type), root, comm_), "MPI_Bcast");
    }
    count_broadcast(n, type, root);
  }

  void send(const void* data, int64_t n, DataType type, int peer, int tag) override {
    check_count(n, "send");
    check_peer(peer, "send peer");
    const CollectiveWait wait("MPI_Send", size_, world_ranks_[peer]);
    const char* bytes = static_cast<const char*>(data);
    int64_t chunks = 0;
    for (int64_t at = 0; at == 0 || at < n; at += limit_, ++chunks) {  // one message even when empty
      const int chunk = static_cast<int>(std::min(limit_, n - at));
      check_mpi(MPI_Send(bytes + at * size_of(type), chunk, mpi_type(type), peer, tag, comm_), "MPI_Send");
    }
    count_send(n, type, chunks);
  }

  void recv(void* data, int64_t n, DataType type, int peer, int tag) override {
    check_count(n, "recv");
    check_peer(peer, "recv peer");
    const CollectiveWait wait("MPI_Recv", size_, world_ranks_[peer]);
    char* bytes = static_cast<char*>(data);
    for (int64_t at = 0; at == 0 || at < n; at += limit_) {
      const int chunk = static_cast<int>(std::min(limit_, n - at));
      MPI_Status status;
      check_mpi(MPI_Recv(bytes + at * size_of(type), chunk, mpi_type(type), peer, tag, comm_, &status), "MPI_Recv");
      int got = 0;
      check_mpi(MPI_Get_count(&status, mpi_type(type), &got), "MPI_Get_count");
      MATSAMP_CHECK(got == chunk, "recv from rank ", peer, ": expected ", chunk, " elements, got ", got);
    }
  }

  void barrier() override {
    const CollectiveWait wait("MPI_Barrier", size_, only_other());
    check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
  }

  std::unique_ptr<Communicator> split(int color, int key) override {
    MATSAMP_CHECK(color >= 0, "split: color must be non-negative, got ", color);
    const CollectiveWait wait("MPI_Comm_split", size_, only_other());
    MPI_Comm out;
    check_mpi(MPI_Comm_split(comm_, color, key, &out), "MPI_Comm_split");
    return std::make_unique<MpiCommunicator>(out, limit_);
  }

  std::unique_ptr<Communicator> concurrent_duplicate() override {
    int level = MPI_THREAD_SINGLE;
    check_mpi(MPI_Query_thread(&level), "MPI_Query_thread");  // the same on every rank: one library
    if (level != MPI_THREAD_MULTIPLE) return nullptr;
    return std::make_unique<MpiCommunicator>(duplicate(comm_), limit_);
  }

  [[noreturn]] void abort(const std::string& message) override {
    std::fprintf(stderr, "matsamp: rank %d: error: %s\n", world_rank(), message.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();  // MPI_Abort does not return; this only satisfies [[noreturn]]
  }

 private:
  static int world_rank() {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
  }

  // The job's rank of each of comm's ranks (what a timeout names).
  static std::vector<int> ranks_in_world(MPI_Comm comm, int size) {
    MPI_Group group, world;
    check_mpi(MPI_Comm_group(comm, &group), "MPI_Comm_group");
    check_mpi(MPI_Comm_group(MPI_COMM_WORLD, &world), "MPI_Comm_group");
    std::vector<int> ranks(size), out(size);
    for (int r = 0; r < size; ++r) ranks[r] = r;
    check_mpi(MPI_Group_translate_ranks(group, size, ranks.data(), world, out.data()), "MPI_Group_translate_ranks");
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    return out;
  }
  // The one other rank (in the job) a collective of two waits for; -1 with more.
  int only_other() const { return size_ == 2 ? world_ranks_[1 - rank_] : -1; }

  // Where the part of `peer` starts: the sum of the counts before it.
  static int64_t displacement(const std::vector<int64_t>& counts, int peer) {
    int64_t at = 0;
    for (int q = 0; q < peer; ++q) at += counts[q];
    return at;
  }

  // Counts and their displacements as MPI ints; false when some exceed the limit.
  bool as_int_layout(const std::vector<int64_t>& counts, std::vector<int>& out, std::vector<int>& displs) const {
    out.resize(counts.size());
    displs.resize(counts.size());
    int64_t at = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] > limit_ || at > limit_) return false;
      out[i] = static_cast<int>(counts[i]);
      displs[i] = static_cast<int>(at);
      at += counts[i];
    }
    return true;
  }

  // All-to-allv as point-to-point messages of at most limit_ elements each; the part
  // for peer q starts at send_parts[q].
  void exchange_in_chunks(const std::vector<const void*>& send_parts, const std::vector<int64_t>& send_counts,
                          void* recv, const std::vector<int64_t>& recv_counts, DataType type) {
    const size_t item = size_of(type);
    const MPI_Datatype t = mpi_type(type);
    std::vector<char*> recv_parts(size_);
    for (int peer = 0; peer < size_; ++peer)
      recv_parts[peer] = static_cast<char*>(recv) + displacement(recv_counts, peer) * item;
    std::vector<MPI_Request> requests;
    for (int peer = 0; peer < size_; ++peer)
      for (int64_t done = 0; peer != rank_ && done < recv_counts[peer]; done += limit_) {
        requests.emplace_back();
        check_mpi(MPI_Irecv(recv_parts[peer] + done * item,
                            static_cast<int>(std::min(limit_, recv_counts[peer] - done)), t, peer, 0, chunked_,
                            &requests.back()),
                  "MPI_Irecv");
      }
    for (int peer = 0; peer < size_; ++peer)
      for (int64_t done = 0; peer != rank_ && done < send_counts[peer]; done += limit_) {
        requests.emplace_back();
        check_mpi(MPI_Isend(static_cast<const char*>(send_parts[peer]) + done * item,
                            static_cast<int>(std::min(limit_, send_counts[peer] - done)), t, peer, 0, chunked_,
                            &requests.back()),
                  "MPI_Isend");
      }
    if (send_counts[rank_] > 0) std::memmove(recv_parts[rank_], send_parts[rank_], send_counts[rank_] * item);
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  MPI_Comm comm_;
  MPI_Comm chunked_;
  int64_t limit_;
  int rank_ = 0, size_ = 1;
  std::vector<int> world_ranks_;
};

}  // namespace

std::unique_ptr<Communicator> make_mpi_communicator(MPI_Comm comm, int64_t max_message_elements) {
  return std::make_unique<MpiCommunicator>(duplicate(comm), max_message_elements);
}

}  // namespace matsamp
