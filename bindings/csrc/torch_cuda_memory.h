// Torch's caching allocator and current CUDA stream, lent to the CUDA backend:
// the sampling ops then run on the caller's stream, ordered with its work (no
// whole-device synchronize), and their results become tensors without a copy.
#pragma once
#include <memory>

#include "backend/device_memory.h"

namespace matsamp::bindings {

// True when this extension was built against a torch with CUDA.
bool torch_has_cuda_memory();

// The source for CUDA device `device`; nullptr when torch has no CUDA.
std::shared_ptr<DeviceMemorySource> torch_cuda_memory(int device);

}  // namespace matsamp::bindings
