// Registers the CUDA backend by name ("cuda", "cuda:N"). In builds without CUDA
// the entry stays, and says why it cannot run.
#include "backend/backend_registry.h"
#include "kernels/cuda_backend.h"

namespace matsamp {
namespace {

const bool registered = register_backend(
    {"cuda", "an NVIDIA GPU, cuda:N for GPU N (k then fits --gpu-memory-fraction, not --memory-budget)",
     [](std::string* why) { return cuda_available(why) ? cuda_device_count() : 0; },
     [](int index, std::shared_ptr<DeviceMemorySource> lent) {
       CudaOptions options;
       options.device = index;
       options.memory_source = std::move(lent);
       return make_cuda_backend(options);
     }});

}  // namespace
}  // namespace matsamp
