// The NCCL transport on device and host buffers: each collective delivers what was sent, and
// ranks that would share a GPU get a clear error. Skips (saying why) without GPUs. Built only with NCCL.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "distributed/local_rank.h"
#include "distributed/nccl_communicator.h"
#include "mpi_test_env.h"

namespace matsamp {
namespace {

using testing::world;

// A buffer in device or host memory, filled from a host vector and read back into one.
template <class T>
class Buffer {
 public:
  Buffer(const std::vector<T>& values, bool on_device) : values_(values), on_device_(on_device) {
    if (!on_device_) return;
    EXPECT_EQ(cudaMalloc(&device_, std::max<size_t>(1, values.size()) * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(device_, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Buffer() {
    if (device_) cudaFree(device_);
  }
  T* data() { return on_device_ ? static_cast<T*>(device_) : values_.data(); }
  std::vector<T> host() const {
    if (!on_device_) return values_;
    std::vector<T> out(values_.size());
    EXPECT_EQ(cudaMemcpy(out.data(), device_, out.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }

 private:
  std::vector<T> values_;
  bool on_device_;
  void* device_ = nullptr;
};

// Whether some rank lacks a GPU / shares one with another rank of its node;
// the ranks decide together so that all skip or none.
bool some_rank(bool mine) {
  std::vector<int64_t> count{mine ? 1 : 0};
  world().all_reduce_sum(count);
  return count[0] > 0;
}
int visible_gpus() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess ? devices : 0;
}
bool some_rank_without_gpu() { return some_rank(visible_gpus() == 0); }
bool some_ranks_share_a_gpu() { return some_rank(local_rank() >= visible_gpus()); }

// Every collective delivers what was sent, with the buffers where `on_device` says
// (host buffers are staged through the communicator's device memory).
void expect_collectives_deliver(Communicator& comm, bool on_device) {
  const int p = comm.size(), me = comm.rank();
  Buffer<float> sums(std::vector<float>(5, 1.0f + me), on_device);
  comm.all_reduce_sum(sums.data(), 5, DataType::float32);
  EXPECT_EQ(sums.host(), std::vector<float>(5, p + p * (p - 1) / 2.0f));

  std::vector<int64_t> send, send_counts(p), recv_counts(p), want;
  for (int q = 0; q < p; ++q) {
    send_counts[q] = (me + q) % 3 + 1;
    recv_counts[q] = (q + me) % 3 + 1;
    for (int64_t i = 0; i < send_counts[q]; ++i) send.push_back(100 * me + q);
    for (int64_t i = 0; i < recv_counts[q]; ++i) want.push_back(100 * q + me);
  }
  Buffer<int64_t> out(send, on_device), in(std::vector<int64_t>(want.size(), -1), on_device);
  comm.all_to_allv(out.data(), send_counts, in.data(), recv_counts, DataType::int64);
  EXPECT_EQ(in.host(), want);

  std::vector<int32_t> gathered(p);
  std::iota(gathered.begin(), gathered.end(), 0);
  Buffer<int32_t> mine(std::vector<int32_t>{me}, on_device), all(std::vector<int32_t>(p, -1), on_device);
  comm.all_gatherv(mine.data(), 1, all.data(), std::vector<int64_t>(p, 1), DataType::int32);
  EXPECT_EQ(all.host(), gathered);

  Buffer<double> value(std::vector<double>{me == 0 ? 2.5 : 0.0}, on_device);
  comm.broadcast(value.data(), 1, DataType::float64, 0);
  EXPECT_EQ(value.host(), std::vector<double>{2.5});

  // A ring: each rank sends its id to the next; even ranks send first, odd ones receive first,
  // so that no cycle of ranks waits to send.
  if (p > 1) {
    Buffer<int32_t> to_next(std::vector<int32_t>{me}, on_device), from_previous(std::vector<int32_t>{-1}, on_device);
    const int next = (me + 1) % p, previous = (me + p - 1) % p;
    if (me % 2 == 0) {
      comm.send(to_next.data(), 1, DataType::int32, next, 0);
      comm.recv(from_previous.data(), 1, DataType::int32, previous, 0);
    } else {
      comm.recv(from_previous.data(), 1, DataType::int32, previous, 0);
      comm.send(to_next.data(), 1, DataType::int32, next, 0);
    }
    EXPECT_EQ(from_previous.host(), std::vector<int32_t>{previous});
  }

  auto half = comm.split(me % 2, me);
  EXPECT_EQ(half->size(), (p - me % 2 + 1) / 2);
  comm.barrier();
}

TEST(NcclCommunicator, CollectivesOnDeviceBuffers) {
  if (some_rank_without_gpu()) GTEST_SKIP() << "no GPU for every rank";
  if (some_ranks_share_a_gpu()) GTEST_SKIP() << "ranks share a GPU (RanksSharingAGpuAreAClearError runs)";
  auto comm = make_nccl_communicator(world());
  EXPECT_TRUE(comm->takes_device_buffers());
  expect_collectives_deliver(*comm, true);
}

// What the CLI's --transport nccl passes: the sampling's and feature fetch's host vectors.
TEST(NcclCommunicator, CollectivesOnHostBuffers) {
  if (some_rank_without_gpu()) GTEST_SKIP() << "no GPU for every rank";
  if (some_ranks_share_a_gpu()) GTEST_SKIP() << "ranks share a GPU (RanksSharingAGpuAreAClearError runs)";
  auto comm = make_nccl_communicator(world());
  expect_collectives_deliver(*comm, false);
  // The typed conveniences (counts exchanged first, then the data), as the distributed product uses them.
  const int p = comm->size(), me = comm->rank();
  const std::vector<int64_t> everyone = comm->all_gatherv(std::vector<int64_t>(me + 1, me));
  std::vector<int64_t> want;
  for (int q = 0; q < p; ++q) want.insert(want.end(), q + 1, q);
  EXPECT_EQ(everyone, want);
}

// NCCL itself answers "invalid usage"; every rank must get the reason instead.
TEST(NcclCommunicator, RanksSharingAGpuAreAClearError) {
  if (some_rank_without_gpu()) GTEST_SKIP() << "no GPU for every rank";
  if (!some_ranks_share_a_gpu()) GTEST_SKIP() << "every rank has a GPU of its own";
  try {
    make_nccl_communicator(world());
    ADD_FAILURE() << "ranks sharing a GPU were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("would share one GPU; NCCL needs one GPU per rank"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace matsamp
