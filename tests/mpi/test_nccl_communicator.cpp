// The NCCL transport on device buffers: each collective delivers what was sent, and
// ranks that would share a GPU get a clear error. Skips (saying why) without GPUs. Built only with NCCL.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <numeric>

#include "core/error.h"
#include "distributed/local_rank.h"
#include "distributed/nccl_communicator.h"
#include "mpi_test_env.h"

namespace matsamp {
namespace {

using testing::world;

// Host vector -> device and back.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(const std::vector<T>& host) : size_(host.size()) {
    EXPECT_EQ(cudaMalloc(&data_, std::max<size_t>(1, size_) * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(data_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceBuffer() { cudaFree(data_); }
  T* data() { return static_cast<T*>(data_); }
  std::vector<T> host() const {
    std::vector<T> out(size_);
    EXPECT_EQ(cudaMemcpy(out.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }

 private:
  void* data_ = nullptr;
  size_t size_;
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

TEST(NcclCommunicator, CollectivesOnDeviceBuffers) {
  if (some_rank_without_gpu()) GTEST_SKIP() << "no GPU for every rank";
  if (some_ranks_share_a_gpu()) GTEST_SKIP() << "ranks share a GPU (RanksSharingAGpuAreAClearError runs)";
  auto comm = make_nccl_communicator(world());
  const int p = comm->size(), me = comm->rank();

  DeviceBuffer<float> sums(std::vector<float>(5, 1.0f + me));
  comm->all_reduce_sum(sums.data(), 5, DataType::float32);
  EXPECT_EQ(sums.host(), std::vector<float>(5, p + p * (p - 1) / 2.0f));

  std::vector<int64_t> send, send_counts(p), recv_counts(p), want;
  for (int q = 0; q < p; ++q) {
    send_counts[q] = (me + q) % 3;
    recv_counts[q] = (q + me) % 3;
    for (int64_t i = 0; i < send_counts[q]; ++i) send.push_back(100 * me + q);
    for (int64_t i = 0; i < recv_counts[q]; ++i) want.push_back(100 * q + me);
  }
  DeviceBuffer<int64_t> out(send), in(want);
  comm->all_to_allv(out.data(), send_counts, in.data(), recv_counts, DataType::int64);
  EXPECT_EQ(in.host(), want);

  std::vector<int32_t> gathered(p);
  std::iota(gathered.begin(), gathered.end(), 0);
  DeviceBuffer<int32_t> mine(std::vector<int32_t>{me}), all(std::vector<int32_t>(p, -1));
  comm->all_gatherv(mine.data(), 1, all.data(), std::vector<int64_t>(p, 1), DataType::int32);
  EXPECT_EQ(all.host(), gathered);

  DeviceBuffer<double> value(std::vector<double>{me == 0 ? 2.5 : 0.0});
  comm->broadcast(value.data(), 1, DataType::float64, 0);
  EXPECT_EQ(value.host(), std::vector<double>{2.5});

  auto half = comm->split(me % 2, me);
  EXPECT_EQ(half->size(), (p - me % 2 + 1) / 2);
  comm->barrier();
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
