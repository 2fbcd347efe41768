// The CUDA side of DeviceEngine: stream, memory pool, cuSPARSE handle, copies.
#include <algorithm>
#include <chrono>

#include "kernels/cuda_check.cuh"
#include "kernels/device_engine.h"

namespace matsamp {

bool cuda_available(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    if (why)
      *why = detail::concat("no usable CUDA device (cudaGetDeviceCount: ", cudaGetErrorString(status), ", ",
                            cudaGetErrorName(status), ")");
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

}  // namespace matsamp

namespace matsamp::gpu {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

struct DeviceEngine::Impl {
  int device = 0;
  int64_t memory_limit = 0;
  std::shared_ptr<DeviceMemorySource> source;  // or the own stream and pool:
  cudaStream_t stream = nullptr;
  cudaMemPool_t pool = nullptr;
  cusparseHandle_t sparse = nullptr;

  cudaStream_t current_stream() const { return source ? static_cast<cudaStream_t>(source->stream()) : stream; }
};

DeviceEngine::DeviceEngine(int device, int64_t memory_limit_bytes, std::shared_ptr<DeviceMemorySource> source)
    : impl_(std::make_unique<Impl>()) {
  std::string why;
  MATSAMP_CHECK(cuda_available(&why), why);
  int count = 0;
  MATSAMP_CUDA_CHECK(cudaGetDeviceCount(&count));
  MATSAMP_CHECK(device >= 0 && device < count, "CUDA device ", device, " does not exist (", count, " found)");
  impl_->device = device;
  impl_->memory_limit = memory_limit_bytes;
  impl_->source = std::move(source);
  const DeviceScope scope(*this);
  MATSAMP_CUSPARSE_CHECK(cusparseCreate(&impl_->sparse));
  if (impl_->source) return;
  MATSAMP_CUDA_CHECK(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking));
  // An own pool that keeps what it got (release threshold: never), so after the
  // first bulk, allocations are served without going to the driver.
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  MATSAMP_CUDA_CHECK(cudaMemPoolCreate(&impl_->pool, &props));
  uint64_t keep_everything = UINT64_MAX;
  MATSAMP_CUDA_CHECK(cudaMemPoolSetAttribute(impl_->pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
}

DeviceEngine::~DeviceEngine() {
  // Errors here cannot be reported; the process is leaving or the engine is unusable.
  const DeviceScope scope(*this);
  cudaStreamSynchronize(impl_->current_stream());
  if (impl_->sparse) cusparseDestroy(impl_->sparse);
  if (impl_->pool) cudaMemPoolDestroy(impl_->pool);
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
}

// Never throws (it also guards destructors): a device that cannot be made current
// shows as an error of the next CUDA call, which is checked.
DeviceScope::DeviceScope(const DeviceEngine& engine) : device_(engine.impl_->device) {
  if (cudaGetDevice(&previous_) != cudaSuccess) {
    cudaGetLastError();
    previous_ = -1;
  }
  if (previous_ != device_ && cudaSetDevice(device_) != cudaSuccess) cudaGetLastError();
}

DeviceScope::~DeviceScope() {
  if (previous_ >= 0 && previous_ != device_ && cudaSetDevice(previous_) != cudaSuccess) cudaGetLastError();
}

void* DeviceEngine::allocate(int64_t bytes) {
  if (bytes <= 0) return nullptr;
  auto out_of_memory = [&](const std::string& reason) {
    const int64_t in_use = pool_in_use();
    const DeviceMemory m = memory();
    uint64_t reserved = 0;  // a source's cache is not counted: it is the source's to give
    if (impl_->pool) cudaMemPoolGetAttribute(impl_->pool, cudaMemPoolAttrReservedMemCurrent, &reserved);
    int64_t available = m.free_bytes + static_cast<int64_t>(reserved);
    if (impl_->memory_limit > 0) available = std::min(available, impl_->memory_limit);
    throw DeviceOutOfMemory(
        detail::concat("GPU out of memory: ", bytes, " bytes requested with ", in_use, " in use (", reason, ")"), bytes,
        in_use, available, resident_bytes_);
  };
  if (impl_->memory_limit > 0 && pool_in_use() + bytes > impl_->memory_limit)
    out_of_memory(detail::concat("limit of ", impl_->memory_limit, " bytes"));
  if (impl_->source) {
    void* pointer = source_allocate(bytes);
    if (!pointer) out_of_memory("device full");
    return pointer;
  }
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocFromPoolAsync(&pointer, static_cast<size_t>(bytes), impl_->pool, impl_->stream);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    out_of_memory("device full");
  }
  MATSAMP_CUDA_CHECK(status);
  return pointer;
}

void DeviceEngine::release(void* pointer) noexcept {
  if (!pointer) return;
  if (impl_->source) source_release(pointer);
  else cudaFreeAsync(pointer, impl_->stream);
}

void* DeviceEngine::source_allocate(int64_t bytes) {
  void* pointer = impl_->source->allocate(bytes, impl_->source->stream());
  if (!pointer) return nullptr;
  const std::lock_guard<std::mutex> lock(source_lock_);
  source_arrays_[pointer] = bytes;
  source_in_use_ += bytes;
  source_peak_ = std::max(source_peak_, source_in_use_);
  return pointer;
}

void DeviceEngine::source_release(void* pointer) noexcept {
  {
    const std::lock_guard<std::mutex> lock(source_lock_);
    const auto found = source_arrays_.find(pointer);
    if (found != source_arrays_.end()) {
      source_in_use_ -= found->second;
      source_arrays_.erase(found);
    }
  }
  impl_->source->release(pointer);
}

void DeviceEngine::copy_to_device(void* device, const void* host, int64_t bytes) {
  if (bytes <= 0) return;
  const auto start = std::chrono::steady_clock::now();
  // From pageable memory the call returns once the host buffer may be reused.
  MATSAMP_CUDA_CHECK(
      cudaMemcpyAsync(device, host, static_cast<size_t>(bytes), cudaMemcpyHostToDevice, impl_->current_stream()));
  counters_.bytes_to_device += bytes;
  counters_.to_device_seconds += seconds_since(start);
}

void DeviceEngine::copy_to_host(void* host, const void* device, int64_t bytes) {
  if (bytes <= 0) return;
  const auto start = std::chrono::steady_clock::now();
  MATSAMP_CUDA_CHECK(
      cudaMemcpyAsync(host, device, static_cast<size_t>(bytes), cudaMemcpyDeviceToHost, impl_->current_stream()));
  MATSAMP_CUDA_CHECK(cudaStreamSynchronize(impl_->current_stream()));
  counters_.bytes_to_host += bytes;
  counters_.to_host_seconds += seconds_since(start);
}

void DeviceEngine::copy_on_device(void* to, const void* from, int64_t bytes) {
  if (bytes <= 0) return;
  MATSAMP_CUDA_CHECK(
      cudaMemcpyAsync(to, from, static_cast<size_t>(bytes), cudaMemcpyDeviceToDevice, impl_->current_stream()));
}

void DeviceEngine::fill_zero(void* device, int64_t bytes) {
  if (bytes <= 0) return;
  MATSAMP_CUDA_CHECK(cudaMemsetAsync(device, 0, static_cast<size_t>(bytes), impl_->current_stream()));
}

void DeviceEngine::synchronize() { MATSAMP_CUDA_CHECK(cudaStreamSynchronize(impl_->current_stream())); }

void DeviceEngine::release_cached_memory() {
  const DeviceScope scope(*this);
  synchronize();
  if (impl_->pool) MATSAMP_CUDA_CHECK(cudaMemPoolTrimTo(impl_->pool, 0));
}

void* DeviceEngine::stream() const { return impl_->current_stream(); }

void* DeviceEngine::sparse_handle() const {
  MATSAMP_CUSPARSE_CHECK(cusparseSetStream(impl_->sparse, impl_->current_stream()));
  return impl_->sparse;
}

int64_t DeviceEngine::pool_in_use() const {
  if (impl_->source) {
    const std::lock_guard<std::mutex> lock(source_lock_);
    return source_in_use_;
  }
  uint64_t used = 0;
  MATSAMP_CUDA_CHECK(cudaMemPoolGetAttribute(impl_->pool, cudaMemPoolAttrUsedMemCurrent, &used));
  return static_cast<int64_t>(used);
}

int64_t DeviceEngine::pool_peak() const {
  if (impl_->source) {
    const std::lock_guard<std::mutex> lock(source_lock_);
    return source_peak_;
  }
  uint64_t peak = 0;
  MATSAMP_CUDA_CHECK(cudaMemPoolGetAttribute(impl_->pool, cudaMemPoolAttrUsedMemHigh, &peak));
  return static_cast<int64_t>(peak);
}

void DeviceEngine::reset_peak() {
  if (impl_->source) {
    const std::lock_guard<std::mutex> lock(source_lock_);
    source_peak_ = source_in_use_;
    return;
  }
  uint64_t zero = 0;  // CUDA sets the high-water mark to the current use
  MATSAMP_CUDA_CHECK(cudaMemPoolSetAttribute(impl_->pool, cudaMemPoolAttrUsedMemHigh, &zero));
}

DeviceMemory DeviceEngine::memory() const {
  const DeviceScope scope(*this);  // cudaMemGetInfo reports the current device
  size_t free = 0, total = 0;
  MATSAMP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return {static_cast<int64_t>(free), static_cast<int64_t>(total)};
}

std::string DeviceEngine::device_name() const {
  cudaDeviceProp props{};
  MATSAMP_CUDA_CHECK(cudaGetDeviceProperties(&props, impl_->device));
  return props.name;
}

DeviceCounters DeviceEngine::counters() const {
  DeviceCounters c = counters_;
  c.peak_device_bytes = pool_peak();
  c.resident_bytes = resident_bytes_;
  c.memory = memory();
  c.device_name = device_name();
  return c;
}

}  // namespace matsamp::gpu
