// Graph matrices kept on the device across calls, so that the graph crosses the
// bus once. A host matrix is recognised by its address, shape, storage and a
// sample of its entries; when any of them changed it is uploaded again.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/device_csr.h"

namespace matsamp::gpu {

class ResidentMatrices {
 public:
  ResidentMatrices(DeviceEngine& engine, size_t capacity) : engine_(engine), capacity_(capacity) {}

  // The device copy of m, uploaded on first sight (evicting the least recently
  // used beyond capacity). Valid until the next get().
  const DeviceCsr& get(const CsrMatrix& m);
  int64_t bytes() const;
  void clear() { entries_.clear(); }

 private:
  struct Signature {
    const CsrMatrix* address;
    int64_t rows, cols, nnz;
    const void *rowptr, *colidx, *values;
    uint64_t sample;   // hash of up to 64 entries of each array
    bool operator==(const Signature& o) const;
  };
  struct Entry {
    Signature signature;
    DeviceCsr device;
    uint64_t last_use;
  };
  static Signature signature_of(const CsrMatrix& m);

  DeviceEngine& engine_;
  size_t capacity_;
  std::vector<std::unique_ptr<Entry>> entries_;   // stable addresses for the references handed out
  uint64_t clock_ = 0;
};

}  // namespace matsamp::gpu
