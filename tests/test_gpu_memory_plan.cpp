// Host-side decisions of the CUDA backend; these run on every machine.
#include <gtest/gtest.h>

#include "backend/device_memory.h"
#include "kernels/cuda_backend.h"
#include "kernels/gpu_memory_plan.h"

namespace matsamp {
namespace {

constexpr int64_t GiB = int64_t{1} << 30;

TEST(GpuMemoryPlan, DeviceCsrBytes) {
  EXPECT_EQ(device_csr_bytes(3, 10), 8 * 4 + 10 * 8);
  EXPECT_EQ(device_csr_bytes(3, 10, /*values=*/false), 8 * 4 + 10 * 4);
}

TEST(GpuMemoryPlan, BudgetIsAFractionOfWhatTheGraphLeaves) {
  EXPECT_EQ(device_memory_budget(10 * GiB, 2 * GiB, 0.5), 4 * GiB / kDeviceBytesPerEstimatedByte);
  EXPECT_EQ(device_memory_budget(10 * GiB, 0, 1.0), 10 * GiB / kDeviceBytesPerEstimatedByte);
  EXPECT_EQ(device_memory_budget(GiB, 3 * GiB, 0.8), 1) << "a graph larger than the free memory leaves the minimum";
  EXPECT_THROW(device_memory_budget(GiB, 0, 0.0), Error);
  EXPECT_THROW(device_memory_budget(GiB, 0, 1.5), Error);
}

TEST(GpuMemoryPlan, BulkSizeThatFitsScalesDownAndNeverRepeatsK) {
  EXPECT_EQ(bulk_size_that_fits(100, 200, 50), 25);
  EXPECT_EQ(bulk_size_that_fits(100, 101, 100), 99);
  EXPECT_EQ(bulk_size_that_fits(10, 100, 500), 9) << "k failed, so at most k - 1";
  EXPECT_EQ(bulk_size_that_fits(10, 100, 5), 0) << "not even one";
  EXPECT_EQ(bulk_size_that_fits(1, 100, 50), 0);
  EXPECT_EQ(bulk_size_that_fits(8, 100, 0), 0);
}

TEST(GpuMemoryPlan, SplitRowsByWork) {
  // Row work 3, 2, 7, 0, 1.
  const std::vector<int64_t> prefix{0, 3, 5, 12, 12, 13};
  EXPECT_EQ(split_rows_by_work(prefix, 5), (std::vector<int64_t>{0, 2, 3, 5})) << "row 2 alone: heavier than 5";
  EXPECT_EQ(split_rows_by_work(prefix, 100), (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(split_rows_by_work(prefix, 1), (std::vector<int64_t>{0, 1, 2, 3, 5}));
  EXPECT_EQ(split_rows_by_work({0}, 4), (std::vector<int64_t>{0}));
  EXPECT_THROW(split_rows_by_work(prefix, 0), Error);
}

TEST(GpuMemoryPlan, OutOfMemoryAdviceNamesTheBulkSizeThatFits) {
  // 9 GiB held (2 of them graph) when 2 more were asked; 10 GiB could be had.
  const DeviceOutOfMemory oom("GPU out of memory", 2 * GiB, 9 * GiB, 10 * GiB, 2 * GiB);
  const std::string advice = explain_out_of_memory(oom, 64).what();
  EXPECT_NE(advice.find("GPU out of memory sampling 64 minibatches at once"), std::string::npos) << advice;
  EXPECT_NE(advice.find("use --bulk-size 56 or less"), std::string::npos) << advice;  // 64 * 8 / 9
  const std::string hopeless = explain_out_of_memory(oom, 1).what();
  EXPECT_NE(hopeless.find("not even one minibatch fits"), std::string::npos) << hopeless;
}

TEST(CudaBackendEntry, UnavailableMeansAReasonAndAClearError) {
  std::string why;
  if (cuda_available(&why)) GTEST_SKIP() << "a CUDA device is present; gpu_tests cover the backend";
  EXPECT_FALSE(why.empty());
  try {
    make_cuda_backend();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), why);
  }
}

}  // namespace
}  // namespace matsamp
