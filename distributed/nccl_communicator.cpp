// Host code only (cudart and NCCL calls), compiled by the C++ compiler.
#include "nccl_communicator.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "agreement.h"
#include "core/error.h"
#include "local_rank.h"

namespace matsamp {

namespace {

void check_cuda(cudaError_t code, const char* call) {
  if (code != cudaSuccess) fail(call, " failed: ", cudaGetErrorString(code));
}

void check_nccl(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) fail(call, " failed: ", ncclGetErrorString(code));
}

ncclDataType_t nccl_type(DataType type) {
  switch (type) {
    case DataType::int8: return ncclInt8;
    case DataType::int32: return ncclInt32;
    case DataType::int64: return ncclInt64;
    case DataType::float32: return ncclFloat32;
    case DataType::float64: return ncclFloat64;
  }
  fail("NCCL transport: unknown data type ", static_cast<int>(type));
}

class NcclCommunicator final : public Communicator {
 public:
  // Takes ownership of comm.
  NcclCommunicator(Communicator& bootstrap, ncclComm_t comm, int device)
      : bootstrap_(bootstrap), comm_(comm), device_(device) {
    check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    check_nccl(ncclCommUserRank(comm_, &rank_), "ncclCommUserRank");
    check_nccl(ncclCommCount(comm_, &size_), "ncclCommCount");
  }
  ~NcclCommunicator() override {
    ncclCommDestroy(comm_);
    if (scratch_) cudaFree(scratch_);
    cudaStreamDestroy(stream_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string transport() const override { return "nccl"; }

  void all_reduce_sum(void* data, int64_t n, DataType type) override {
    check_count(n, "all_reduce_sum");
    check_nccl(ncclAllReduce(data, data, static_cast<size_t>(n), nccl_type(type), ncclSum, comm_, stream_),
               "ncclAllReduce");
    finish("all_reduce_sum");
    count_all_reduce(n, type);
  }

  void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                   const std::vector<int64_t>& recv_counts, DataType type) override {
    check_exchange(send_counts, recv_counts);
    const size_t item = size_of(type);
    int64_t send_at = 0, recv_at = 0;
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (int peer = 0; peer < size_; ++peer) {
      const char* from = static_cast<const char*>(send) + send_at * item;
      char* to = static_cast<char*>(recv) + recv_at * item;
      if (peer == rank_) {
        if (send_counts[peer] > 0)
          check_cuda(cudaMemcpyAsync(to, from, send_counts[peer] * item, cudaMemcpyDeviceToDevice, stream_),
                     "cudaMemcpyAsync");
      } else {
        if (send_counts[peer] > 0)
          check_nccl(ncclSend(from, send_counts[peer], nccl_type(type), peer, comm_, stream_), "ncclSend");
        if (recv_counts[peer] > 0)
          check_nccl(ncclRecv(to, recv_counts[peer], nccl_type(type), peer, comm_, stream_), "ncclRecv");
      }
      send_at += send_counts[peer];
      recv_at += recv_counts[peer];
    }
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    finish("all_to_allv");
    count_all_to_allv(send_counts, type);
  }

  void all_gatherv(const void* send, int64_t n, void* recv, const std::vector<int64_t>& recv_counts,
                   DataType type) override {
    check_own_part(n, recv_counts);
    // One broadcast per root, grouped: the parts land in rank order.
    int64_t at = 0;
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (int root = 0; root < size_; ++root) {
      if (recv_counts[root] > 0)
        check_nccl(ncclBroadcast(send, static_cast<char*>(recv) + at * size_of(type), recv_counts[root],
                                 nccl_type(type), root, comm_, stream_),
                   "ncclBroadcast");
      at += recv_counts[root];
    }
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    finish("all_gatherv");
    count_all_gatherv(n, type);
  }

  void broadcast(void* data, int64_t n, DataType type, int root) override {
    check_count(n, "broadcast");
    check_peer(root, "broadcast root");
    check_nccl(ncclBroadcast(data, data, static_cast<size_t>(n), nccl_type(type), root, comm_, stream_),
               "ncclBroadcast");
    finish("broadcast");
    count_broadcast(n, type, root);
  }

  void send(const void* data, int64_t n, DataType type, int peer, int) override {
    check_count(n, "send");
    check_peer(peer, "send peer");
    check_nccl(ncclSend(data, static_cast<size_t>(n), nccl_type(type), peer, comm_, stream_), "ncclSend");
    finish("send");
    count_send(n, type, 1);
  }

  void recv(void* data, int64_t n, DataType type, int peer, int) override {
    check_count(n, "recv");
    check_peer(peer, "recv peer");
    check_nccl(ncclRecv(data, static_cast<size_t>(n), nccl_type(type), peer, comm_, stream_), "ncclRecv");
    finish("recv");
  }

  void barrier() override {
    if (!scratch_) check_cuda(cudaMalloc(&scratch_, sizeof(int32_t)), "cudaMalloc");
    check_nccl(ncclAllReduce(scratch_, scratch_, 1, ncclInt32, ncclSum, comm_, stream_), "ncclAllReduce");
    finish("barrier");
  }

  std::unique_ptr<Communicator> split(int color, int key) override {
    MATSAMP_CHECK(color >= 0, "split: color must be non-negative, got ", color);
    ncclComm_t out;
    check_nccl(ncclCommSplit(comm_, color, key, &out, nullptr), "ncclCommSplit");
    return std::make_unique<NcclCommunicator>(bootstrap_, out, device_);
  }

  [[noreturn]] void abort(const std::string& message) override {
    ncclCommAbort(comm_);  // unblocks kernels waiting on peers that are gone
    bootstrap_.abort(message);
    std::abort();  // not reached: the bootstrap's abort ends the job
  }

 private:
  // The interface is blocking: wait for the stream, then surface asynchronous NCCL errors.
  void finish(const char* op) {
    const cudaError_t done = cudaStreamSynchronize(stream_);
    ncclResult_t async = ncclSuccess;
    check_nccl(ncclCommGetAsyncError(comm_, &async), "ncclCommGetAsyncError");
    check_nccl(async, op);
    check_cuda(done, "cudaStreamSynchronize");
  }

  Communicator& bootstrap_;
  ncclComm_t comm_;
  int device_;
  cudaStream_t stream_ = nullptr;
  void* scratch_ = nullptr;
  int rank_ = 0, size_ = 1;
};

// NCCL refuses two ranks of one communicator on one GPU ("invalid usage"): say
// so plainly, the same on every rank. Collective.
void check_one_gpu_per_rank(Communicator& bootstrap, int device) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::string where = std::string(host) + ":" + std::to_string(device);
  const std::vector<int64_t> keys =
      bootstrap.all_gatherv(std::vector<int64_t>{static_cast<int64_t>(std::hash<std::string>{}(where))});
  std::vector<std::pair<int64_t, int>> by_key;
  for (int r = 0; r < static_cast<int>(keys.size()); ++r) by_key.emplace_back(keys[r], r);
  std::sort(by_key.begin(), by_key.end());
  for (size_t i = 1; i < by_key.size(); ++i)
    MATSAMP_CHECK(by_key[i].first != by_key[i - 1].first, "NCCL transport: ranks ", by_key[i - 1].second, " and ",
                  by_key[i].second,
                  " would share one GPU; NCCL needs one GPU per rank (start at most as many "
                  "ranks per node as it has GPUs, or use the MPI transport)");
}

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(Communicator& bootstrap, int device) {
  const int on_node = local_rank();  // collective: before anything can fail on one rank only
  ncclUniqueId id;
  agree_on(bootstrap, [&] {
    int devices = 0;
    check_cuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    MATSAMP_CHECK(devices > 0, "NCCL transport: no GPU visible to rank ", bootstrap.rank());
    if (device < 0) device = on_node % devices;
    MATSAMP_CHECK(device < devices, "NCCL transport: GPU ", device, " asked for, ", devices, " visible");
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    if (bootstrap.rank() == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  });
  check_one_gpu_per_rank(bootstrap, device);
  bootstrap.broadcast(&id, sizeof id, DataType::int8, 0);
  ncclComm_t comm;
  check_nccl(ncclCommInitRank(&comm, bootstrap.size(), id, bootstrap.rank()), "ncclCommInitRank");
  return std::make_unique<NcclCommunicator>(bootstrap, comm, device);
}

}  // namespace matsamp
