// The CUDA backend next to the CPU one, for tests that compare them. Tests
// skip, saying why, where there is no usable device.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernels/cuda_backend.h"

namespace matsamp::testing {

class CudaVersusCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!cuda_available(&why)) GTEST_SKIP() << "no CUDA device: " << why;
    cuda = make_cuda_backend(options());
    cpu = make_cpu_backend();
  }
  virtual CudaOptions options() const { return {}; }

  std::unique_ptr<Backend> cuda;
  std::unique_ptr<Backend> cpu;
};

}  // namespace matsamp::testing
