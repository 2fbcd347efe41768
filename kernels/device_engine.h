// One GPU engine: a device, one stream, a stream-ordered memory pool and a
// cuSPARSE handle; or, with a DeviceMemorySource, the source's stream and memory. Plain C++ so that host glue needs no nvcc; device_engine.cu
// holds the CUDA side. Every allocation of the backend goes through allocate()
// (no cudaMalloc in the sampling loop), every copy through the engine's stream.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels/device_types.h"

namespace matsamp::gpu {

class DeviceEngine {
 public:
  DeviceEngine(int device, int64_t memory_limit_bytes, std::shared_ptr<DeviceMemorySource> source = nullptr);
  ~DeviceEngine();
  DeviceEngine(const DeviceEngine&) = delete;
  DeviceEngine& operator=(const DeviceEngine&) = delete;

  // Stream-ordered allocation from the engine's pool (or its source); throws DeviceOutOfMemory.
  void* allocate(int64_t bytes);
  void release(void* pointer) noexcept;

  void copy_to_device(void* device, const void* host, int64_t bytes);
  void copy_to_host(void* host, const void* device, int64_t bytes);  // returns when done
  void copy_on_device(void* to, const void* from, int64_t bytes);
  void fill_zero(void* device, int64_t bytes);
  void synchronize();
  // Waits for the stream, then returns the pool's unused memory to the driver.
  void release_cached_memory();

  void* stream() const;         // a cudaStream_t: the one to run on now
  void* sparse_handle() const;  // a cusparseHandle_t on stream()

  // Bytes of graph matrices kept resident (reported in out-of-memory errors).
  void set_resident_bytes(int64_t bytes) { resident_bytes_ = bytes; }
  int64_t pool_in_use() const;
  int64_t pool_peak() const;
  void reset_peak();  // the high-water mark restarts from what is in use
  DeviceMemory memory() const;
  std::string device_name() const;
  DeviceCounters counters() const;

 private:
  void* source_allocate(int64_t bytes);
  void source_release(void* pointer) noexcept;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  // A source's memory, counted here (an own pool counts its own): arrays can be
  // released from other threads (tensors' deleters), hence the lock.
  mutable std::mutex source_lock_;
  std::unordered_map<void*, int64_t> source_arrays_;
  int64_t source_in_use_ = 0, source_peak_ = 0;
  int64_t resident_bytes_ = 0;
  DeviceCounters counters_;
  friend class DeviceScope;
};

// Makes the engine's device the calling thread's current one while alive, then
// restores the previous: kernel launches go to the current device, and the
// backend may be called from any thread (a prefetcher, a DataLoader worker) and
// must not move its caller (torch) to another device.
class DeviceScope {
 public:
  explicit DeviceScope(const DeviceEngine& engine);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
  int device_ = -1;
};

// A device array owned through the engine's pool; move-only.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(DeviceEngine& engine, int64_t size)
      : engine_(&engine),
        size_(size),
        data_(size > 0 ? static_cast<T*>(engine.allocate(size * static_cast<int64_t>(sizeof(T)))) : nullptr) {}
  ~DeviceArray() { reset(); }
  DeviceArray(DeviceArray&& other) noexcept { swap(other); }
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    if (this != &other) {
      reset();
      swap(other);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t bytes() const { return size_ * static_cast<int64_t>(sizeof(T)); }
  void swap(DeviceArray& other) noexcept {
    std::swap(engine_, other.engine_);
    std::swap(size_, other.size_);
    std::swap(data_, other.data_);
  }
  void reset() noexcept {
    if (data_) engine_->release(data_);
    data_ = nullptr;
    size_ = 0;
  }

 private:
  DeviceEngine* engine_ = nullptr;
  int64_t size_ = 0;
  T* data_ = nullptr;
};

template <class T>
DeviceArray<T> to_device(DeviceEngine& engine, const T* host, int64_t size) {
  DeviceArray<T> out(engine, size);
  if (size > 0) engine.copy_to_device(out.data(), host, out.bytes());
  return out;
}

template <class T>
DeviceArray<T> to_device(DeviceEngine& engine, const std::vector<T>& host) {
  return to_device(engine, host.data(), static_cast<int64_t>(host.size()));
}

template <class T>
std::vector<T> to_host(DeviceEngine& engine, const T* device, int64_t size) {
  std::vector<T> out(size);
  if (size > 0) engine.copy_to_host(out.data(), device, size * static_cast<int64_t>(sizeof(T)));
  return out;
}

template <class T>
std::vector<T> to_host(DeviceEngine& engine, const DeviceArray<T>& device) {
  return to_host(engine, device.data(), device.size());
}

// One element read back (a size the next step allocates by).
template <class T>
T read_one(DeviceEngine& engine, const T* device) {
  T value{};
  engine.copy_to_host(&value, device, sizeof(T));
  return value;
}

}  // namespace matsamp::gpu
