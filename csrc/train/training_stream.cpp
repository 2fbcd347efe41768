#include "train/training_stream.h"

#ifdef MATSAMP_TORCH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <map>
#include <mutex>
#endif

namespace matsamp {

#ifdef MATSAMP_TORCH_CUDA
namespace {

// One per device, taken once from torch's pool of high-priority streams (the
// sampler's stream has the default, lowest, priority).
c10::cuda::CUDAStream training_stream(c10::DeviceIndex device) {
  static std::mutex mutex;
  static std::map<c10::DeviceIndex, c10::cuda::CUDAStream> streams;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = streams.find(device);
  if (found == streams.end())
    found = streams.emplace(device, c10::cuda::getStreamFromPool(/*isHighPriority=*/true, device)).first;
  return found->second;
}

}  // namespace

struct TrainingStreamScope::Guard {
  explicit Guard(c10::cuda::CUDAStream s) : stream(s), current(s) {}
  c10::cuda::CUDAStream stream;
  c10::cuda::CUDAStreamGuard current;  // restores the thread's stream and device
};

TrainingStreamScope::TrainingStreamScope(const c10::Device& device) {
  if (!device.is_cuda()) return;
  guard_ = std::make_unique<Guard>(training_stream(device.has_index() ? device.index() : c10::cuda::current_device()));
}

void TrainingStreamScope::wait() const {
  if (guard_) guard_->stream.synchronize();
}
#else
struct TrainingStreamScope::Guard {};
TrainingStreamScope::TrainingStreamScope(const c10::Device&) {}
void TrainingStreamScope::wait() const {}
#endif

TrainingStreamScope::~TrainingStreamScope() = default;

}  // namespace matsamp
