#include "torch_cuda_memory.h"

#ifdef MATSAMP_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/util/Exception.h>
#endif

namespace matsamp::bindings {

#ifdef MATSAMP_TORCH_CUDA
namespace {

class TorchCudaMemory final : public DeviceMemorySource {
 public:
  explicit TorchCudaMemory(int device) : device_(static_cast<c10::DeviceIndex>(device)) {}
  void* stream() const override { return c10::cuda::getCurrentCUDAStream(device_).stream(); }
  // The backend allocates with its device current (torch allocates on that one).
  void* allocate(int64_t bytes, void* stream) override {
    try {
      return c10::cuda::CUDACachingAllocator::raw_alloc_with_stream(static_cast<size_t>(bytes),
                                                                    static_cast<cudaStream_t>(stream));
    } catch (const c10::OutOfMemoryError&) {
      return nullptr;  // the backend says what would have fitted
    }
  }
  void release(void* pointer) noexcept override { c10::cuda::CUDACachingAllocator::raw_delete(pointer); }

 private:
  c10::DeviceIndex device_;
};

}  // namespace

bool torch_has_cuda_memory() { return true; }
std::shared_ptr<DeviceMemorySource> torch_cuda_memory(int device) { return std::make_shared<TorchCudaMemory>(device); }
#else
bool torch_has_cuda_memory() { return false; }
std::shared_ptr<DeviceMemorySource> torch_cuda_memory(int) { return nullptr; }
#endif

}  // namespace matsamp::bindings
