// The CUDA backend's entry points in a build without CUDA: it reports itself
// unavailable, so callers need no #ifdefs.
#include "kernels/cuda_backend.h"

namespace matsamp {

namespace {
const char* kNotBuilt =
    "this matsamp was built without CUDA (it needs nvcc at configure time and -DMATSAMP_WITH_CUDA=ON)";
}

bool cuda_available(std::string* why) {
  if (why) *why = kNotBuilt;
  return false;
}

int cuda_device_count() { return 0; }

std::unique_ptr<Backend> make_cuda_backend(const CudaOptions&) { fail(kNotBuilt); }

}  // namespace matsamp
