// The CUDA backend next to the CPU one, for tests that compare them. Tests
// skip, saying why, where there is no usable device.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "host_ops.h"
#include "kernels/cuda_backend.h"

namespace matsamp::testing {

class CudaVersusCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!cuda_available(&why)) GTEST_SKIP() << "no CUDA device: " << why;
    cuda = make_cuda_backend(options());
    cpu = make_cpu_backend();
    cuda_ops = std::make_unique<HostOps>(*cuda);
    cpu_ops = std::make_unique<HostOps>(*cpu);
  }
  virtual CudaOptions options() const { return {}; }

  std::unique_ptr<Backend> cuda;
  std::unique_ptr<Backend> cpu;
  std::unique_ptr<HostOps> cuda_ops, cpu_ops;  // the ops on host operands
};

}  // namespace matsamp::testing
