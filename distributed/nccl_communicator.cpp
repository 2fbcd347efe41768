// Host code only (cudart and NCCL calls), compiled by the C++ compiler.
#include "nccl_communicator.h"
#include "transports.h"

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
#include "collective_watchdog.h"
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

bool is_device_memory(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error of a pointer CUDA does not know
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

// A device buffer that grows to the largest host message staged through it.
class StagingBuffer {
 public:
  explicit StagingBuffer(int device) : device_(device) {}
  ~StagingBuffer() {
    if (data_) cudaFree(data_);
  }
  void* reserve(size_t bytes) {
    if (bytes > capacity_) {
      check_cuda(cudaSetDevice(device_), "cudaSetDevice");  // the calling thread's device may be another
      if (data_) check_cuda(cudaFree(data_), "cudaFree");
      data_ = nullptr;
      check_cuda(cudaMalloc(&data_, bytes), "NCCL transport: cudaMalloc of a staging buffer");
      capacity_ = bytes;
    }
    return data_;
  }

 private:
  int device_;
  void* data_ = nullptr;
  size_t capacity_ = 0;
};

class NcclCommunicator final : public Communicator {
 public:
  // Takes ownership of comm.
  NcclCommunicator(Communicator& bootstrap, ncclComm_t comm, int device)
      : bootstrap_(bootstrap), comm_(comm), device_(device), send_staging_(device), recv_staging_(device) {
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
  bool takes_device_buffers() const override { return true; }

  void all_reduce_sum(void* data, int64_t n, DataType type) override {
    check_count(n, "all_reduce_sum");
    const size_t bytes = n * size_of(type);
    void* on_device = stage_in(data, bytes, send_staging_);
    check_nccl(ncclAllReduce(on_device, on_device, static_cast<size_t>(n), nccl_type(type), ncclSum, comm_, stream_),
               "ncclAllReduce");
    finish("all_reduce_sum");
    stage_out(data, on_device, bytes);
    count_all_reduce(n, type);
  }

  void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                   const std::vector<int64_t>& recv_counts, DataType type) override {
    check_exchange(send_counts, recv_counts);
    const size_t item = size_of(type);
    const size_t recv_bytes = total(recv_counts) * item;
    send = stage_in(send, total(send_counts) * item, send_staging_);
    void* const recv_host = recv;
    recv = stage_at(recv, recv_bytes, recv_staging_);
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
    stage_out(recv_host, recv, recv_bytes);
    count_all_to_allv(send_counts, type);
  }

  void all_gatherv(const void* send, int64_t n, void* recv, const std::vector<int64_t>& recv_counts,
                   DataType type) override {
    check_own_part(n, recv_counts);
    const size_t recv_bytes = total(recv_counts) * size_of(type);
    send = stage_in(send, n * size_of(type), send_staging_);
    void* const recv_host = recv;
    recv = stage_at(recv, recv_bytes, recv_staging_);
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
    stage_out(recv_host, recv, recv_bytes);
    count_all_gatherv(n, type);
  }

  void broadcast(void* data, int64_t n, DataType type, int root) override {
    check_count(n, "broadcast");
    check_peer(root, "broadcast root");
    const size_t bytes = n * size_of(type);
    void* on_device = stage_in(data, bytes, send_staging_);
    check_nccl(ncclBroadcast(on_device, on_device, static_cast<size_t>(n), nccl_type(type), root, comm_, stream_),
               "ncclBroadcast");
    finish("broadcast");
    stage_out(data, on_device, bytes);
    count_broadcast(n, type, root);
  }

  void send(const void* data, int64_t n, DataType type, int peer, int) override {
    check_count(n, "send");
    check_peer(peer, "send peer");
    data = stage_in(data, n * size_of(type), send_staging_);
    check_nccl(ncclSend(data, static_cast<size_t>(n), nccl_type(type), peer, comm_, stream_), "ncclSend");
    finish("send");
    count_send(n, type, 1);
  }

  void recv(void* data, int64_t n, DataType type, int peer, int) override {
    check_count(n, "recv");
    check_peer(peer, "recv peer");
    const size_t bytes = n * size_of(type);
    void* on_device = stage_at(data, bytes, recv_staging_);
    check_nccl(ncclRecv(on_device, static_cast<size_t>(n), nccl_type(type), peer, comm_, stream_), "ncclRecv");
    finish("recv");
    stage_out(data, on_device, bytes);
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

  // Through the bootstrap (MPI): NCCL's operations on two communicators of one GPU
  // must not run at once, since their kernels may wait for each other across ranks.
  std::unique_ptr<Communicator> concurrent_duplicate() override { return bootstrap_.concurrent_duplicate(); }

  [[noreturn]] void abort(const std::string& message) override {
    ncclCommAbort(comm_);  // unblocks kernels waiting on peers that are gone
    bootstrap_.abort(message);
    std::abort();  // not reached: the bootstrap's abort ends the job
  }

 private:
  // The interface is blocking: wait for the stream, then surface asynchronous NCCL errors.
  void finish(const char* op) {
    const CollectiveWait wait(op, size_);  // the stream waits on the peers
    const cudaError_t done = cudaStreamSynchronize(stream_);
    ncclResult_t async = ncclSuccess;
    check_nccl(ncclCommGetAsyncError(comm_, &async), "ncclCommGetAsyncError");
    check_nccl(async, op);
    check_cuda(done, "cudaStreamSynchronize");
  }

  // Host buffers travel through device staging buffers (NCCL reads and writes device
  // memory only); device buffers are used in place.
  static int64_t total(const std::vector<int64_t>& counts) {
    int64_t sum = 0;
    for (int64_t c : counts) sum += c;
    return sum;
  }
  // The device address of `bytes` at p: p itself, or the staging buffer (contents not copied).
  void* stage_at(void* p, size_t bytes, StagingBuffer& staging) {
    if (bytes == 0 || is_device_memory(p)) return p;
    return staging.reserve(bytes);
  }
  // As stage_at, with the host bytes copied over.
  const void* stage_in(const void* p, size_t bytes, StagingBuffer& staging) {
    void* on_device = stage_at(const_cast<void*>(p), bytes, staging);
    if (on_device != p)
      check_cuda(cudaMemcpyAsync(on_device, p, bytes, cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync");
    return on_device;
  }
  void* stage_in(void* p, size_t bytes, StagingBuffer& staging) {
    return const_cast<void*>(stage_in(static_cast<const void*>(p), bytes, staging));
  }
  // After the operation: the staged result back to the host buffer p.
  void stage_out(void* p, const void* on_device, size_t bytes) {
    if (on_device == p || bytes == 0) return;
    check_cuda(cudaMemcpyAsync(p, on_device, bytes, cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }

  Communicator& bootstrap_;
  ncclComm_t comm_;
  int device_;
  cudaStream_t stream_ = nullptr;
  void* scratch_ = nullptr;
  StagingBuffer send_staging_, recv_staging_;
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
  agree_on(bootstrap, [&] {  // every rank sees it: one message from rank 0, not one per rank
    for (size_t i = 1; i < by_key.size(); ++i)
      MATSAMP_CHECK(by_key[i].first != by_key[i - 1].first, "NCCL transport: ranks ", by_key[i - 1].second, " and ",
                    by_key[i].second,
                    " would share one GPU; NCCL needs one GPU per rank (start at most as many "
                    "ranks per node as it has GPUs, or use the MPI transport)");
  });
}

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(Communicator& bootstrap, int device) {
  const int on_node = local_rank();  // collective: before anything can fail on one rank only
  ncclUniqueId id;
  agree_on(bootstrap, [&] {
    int devices = 0;
    const cudaError_t counted = cudaGetDeviceCount(&devices);
    MATSAMP_CHECK(counted == cudaSuccess && devices > 0, "NCCL transport: no GPU visible to rank ", bootstrap.rank(),
                  counted == cudaSuccess ? std::string() : std::string(" (") + cudaGetErrorString(counted) + ")",
                  "; NCCL needs one GPU per rank (the MPI transport needs none)");
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

namespace {
const bool registered = register_transport("nccl", make_nccl_communicator);
}  // namespace

}  // namespace matsamp
