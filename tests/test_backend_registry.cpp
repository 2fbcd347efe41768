// The backend registry: cpu always, cuda registered by kernels/ (in every
// build), devices parsed as users write them, one-line errors otherwise.
#include <gtest/gtest.h>

#include "backend/backend_registry.h"
#include "error_checks.h"
#include "kernels/cuda_backend.h"

namespace matsamp {
namespace {

TEST(BackendRegistry, ListsCpuFirstThenTheRegisteredKinds) {
  const auto kinds = backend_kinds();
  ASSERT_GE(kinds.size(), 2u);
  EXPECT_EQ(kinds[0]->name, "cpu");
  EXPECT_EQ(kinds[1]->name, "cuda");  // registered by kernels/register_cuda.cpp, kept by the whole-archive link
  EXPECT_EQ(backend_names(), "cpu, cuda");
  for (const BackendKind* kind : kinds) EXPECT_FALSE(kind->summary.empty()) << kind->name;
}

TEST(BackendRegistry, ParsesNamesWithAndWithoutAnIndex) {
  DeviceName d = parse_device("cuda:3");
  EXPECT_EQ(d.kind, "cuda");
  EXPECT_EQ(d.index, 3);
  EXPECT_TRUE(d.has_index);
  EXPECT_EQ(d.str(), "cuda:3");
  d = parse_device("cpu");
  EXPECT_EQ(d.kind, "cpu");
  EXPECT_FALSE(d.has_index);
  EXPECT_EQ(d.str(), "cpu");
}

TEST(BackendRegistry, RefusesUnknownKindsAndMalformedIndices) {
  testing::expect_error([] { parse_device("tpu"); }, "unknown device 'tpu'; the devices are cpu, cuda");
  for (const char* bad : {"cuda:", "cuda:-1", "cuda:x", "cuda:1x", "cuda:99999999999"})
    testing::expect_error([&] { parse_device(bad); }, "the index after ':' must be a non-negative integer");
  testing::expect_error([] { register_backend({"cpu", "again", nullptr, nullptr}); }, "backend 'cpu' registered twice");
  testing::expect_error([] { register_backend({"a:b", "", nullptr, nullptr}); }, "without ':'");
}

TEST(BackendRegistry, MakesTheCpuBackendAndSaysWhyOthersCannotRun) {
  EXPECT_EQ(make_backend(parse_device("cpu"))->name(), "cpu");
  testing::expect_error([] { make_backend(parse_device("cpu:1")); }, "cpu:1: this process sees 1 cpu device");
  std::string why;
  if (cuda_available(&why)) {
    EXPECT_EQ(make_backend(parse_device("cuda"))->name(), "cuda");
    const std::string past = "cuda:" + std::to_string(cuda_device_count());
    testing::expect_error([&] { make_backend(parse_device(past)); }, "this process sees");
  } else {
    testing::expect_error([] { make_backend(parse_device("cuda:0")); }, "cuda:0: " + why);
  }
}

// Lent device memory is for device kinds; a host backend has no device arrays to lend torch.
TEST(BackendRegistry, HostBackendsRefuseDeviceMemoryAndArrays) {
  struct NoMemory final : DeviceMemorySource {
    void* stream() const override { return nullptr; }
    void* allocate(int64_t, void*) override { return nullptr; }
    void release(void*) noexcept override {}
  };
  testing::expect_error([] { make_backend(parse_device("cpu"), std::make_shared<NoMemory>()); },
                        "cpu: the cpu backend takes no lent device memory");
  const auto cpu = make_backend(parse_device("cpu"));
  const Matrix m = cpu->upload(CsrMatrix(2, 2));
  testing::expect_error([&] { cpu->device_csr(m); }, "the cpu backend keeps its matrices on the host");
  const Ids ids = cpu->upload_ids({0, 1});
  testing::expect_error([&] { cpu->device_ids(ids); }, "the cpu backend keeps its ids on the host");
}

}  // namespace
}  // namespace matsamp
