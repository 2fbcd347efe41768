// Device memory ceilings, measured like util/bandwidth.cpp does on the host:
// best of a few timed runs, so that bench's floor uses this GPU's numbers.
#include "kernels/cuda_check.cuh"
#include "kernels/device_rates.h"

namespace matsamp::gpu {

namespace {

constexpr int kRuns = 3;

// Seconds of the fastest of kRuns launches of work() on the engine's stream.
template <class Work>
double best_seconds(DeviceEngine& engine, Work work) {
  const cudaStream_t stream = stream_of(engine);
  cudaEvent_t start, stop;
  MATSAMP_CUDA_CHECK(cudaEventCreate(&start));
  MATSAMP_CUDA_CHECK(cudaEventCreate(&stop));
  float best_ms = 0;
  for (int run = 0; run <= kRuns; ++run) {  // run 0 warms up
    MATSAMP_CUDA_CHECK(cudaEventRecord(start, stream));
    work();
    MATSAMP_CUDA_CHECK(cudaEventRecord(stop, stream));
    MATSAMP_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    MATSAMP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (run == 1 || (run > 1 && ms < best_ms)) best_ms = ms;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best_ms / 1e3;
}

// The probes' buffers are not the sampler's memory: once they are freed, the
// pool's high-water mark restarts from what is left in use.
void forget_probe_memory(DeviceEngine& engine) {
  engine.synchronize();
  engine.reset_peak();
}

__device__ inline uint32_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

__global__ void gather(const uint32_t* table, uint32_t mask, int64_t gathers, uint32_t* sink) {
  uint32_t sum = 0;
  for (int64_t i = thread_index(); i < gathers; i += thread_count()) sum += table[mix(i) & mask];
  sink[thread_index()] = sum;  // keeps the loads
}

}  // namespace

double measure_copy_bandwidth(DeviceEngine& engine) {
  const DeviceScope scope(engine);
  const int64_t bytes = int64_t{512} << 20;
  double seconds;
  {
    DeviceArray<char> from(engine, bytes), to(engine, bytes);
    engine.fill_zero(from.data(), bytes);
    seconds = best_seconds(engine, [&] { engine.copy_on_device(to.data(), from.data(), bytes); });
  }
  forget_probe_memory(engine);
  return 2.0 * bytes / seconds;
}

double measure_gather_rate(DeviceEngine& engine) {
  const DeviceScope scope(engine);
  const int64_t entries = int64_t{64} << 20, gathers = int64_t{1} << 28;  // a 256 MiB table
  double seconds;
  {
    DeviceArray<uint32_t> table(engine, entries);
    engine.fill_zero(table.data(), table.bytes());
    const unsigned blocks = blocks_for_threads(gathers);
    DeviceArray<uint32_t> sink(engine, static_cast<int64_t>(blocks) * kBlockThreads);
    seconds = best_seconds(engine, [&] {
      gather<<<blocks, kBlockThreads, 0, stream_of(engine)>>>(table.data(), static_cast<uint32_t>(entries - 1), gathers,
                                                              sink.data());
      MATSAMP_CUDA_LAUNCHED("gather");
    });
  }
  forget_probe_memory(engine);
  return gathers / seconds;
}

}  // namespace matsamp::gpu
