// The CUDA stream a trainer's torch work runs on.
//
// On a GPU that also samples, training's many small kernels queued behind the
// sampler's large ones, which fill every SM: each step waited, and training took
// about the sampler's time longer than alone. On a stream of higher priority than
// the sampler's, the GPU starts training's blocks first (experiments/training.md,
// "The training pipeline"). All threads of a trainer use their device's
// one stream, so a step's tensors made by the preparing thread are ordered before
// training reads them, and torch's caching allocator reuses their memory only after.
#pragma once
#include <c10/core/Device.h>

#include <memory>

namespace matsamp {

// While alive, the calling thread's current torch stream on `device` is that
// device's training stream. On the CPU, or with a torch without CUDA: nothing.
class TrainingStreamScope {
 public:
  explicit TrainingStreamScope(const c10::Device& device);
  ~TrainingStreamScope();
  TrainingStreamScope(const TrainingStreamScope&) = delete;
  TrainingStreamScope& operator=(const TrainingStreamScope&) = delete;

  // Waits for the work queued on the stream, for code that reads its results on
  // another stream (checkpoints, copies after the epoch).
  void wait() const;

 private:
  struct Guard;
  std::unique_ptr<Guard> guard_;
};

}  // namespace matsamp
