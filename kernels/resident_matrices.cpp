#include "kernels/resident_matrices.h"

#include <algorithm>
#include <cstring>

namespace matsamp::gpu {

namespace {

template <class T>
void mix_sample(const std::vector<T>& values, uint64_t& hash) {
  const size_t n = values.size(), step = std::max<size_t>(1, n / 64);
  for (size_t i = 0; i < n; i += step) {
    uint64_t word = 0;
    std::memcpy(&word, &values[i], sizeof(T));
    hash = (hash ^ word) * 0x100000001B3ull;
  }
  if (n) {
    uint64_t last = 0;
    std::memcpy(&last, &values[n - 1], sizeof(T));
    hash = (hash ^ last) * 0x100000001B3ull;
  }
}

}  // namespace

bool ResidentMatrices::Signature::operator==(const Signature& o) const {
  return address == o.address && rows == o.rows && cols == o.cols && nnz == o.nnz && rowptr == o.rowptr &&
         colidx == o.colidx && values == o.values && sample == o.sample;
}

ResidentMatrices::Signature ResidentMatrices::signature_of(const CsrMatrix& m) {
  uint64_t hash = 0xCBF29CE484222325ull;
  mix_sample(m.rowptr, hash);
  mix_sample(m.colidx, hash);
  mix_sample(m.values, hash);
  return {&m, m.rows, m.cols, m.nnz(), m.rowptr.data(), m.colidx.data(), m.values.data(), hash};
}

const DeviceCsr& ResidentMatrices::get(const CsrMatrix& m) {
  const Signature signature = signature_of(m);
  ++clock_;
  for (auto& e : entries_)
    if (e->signature.address == &m) {
      if (!(e->signature == signature)) {   // changed since: upload again
        e->device = DeviceCsr();
        e->device = upload(engine_, m);
        e->signature = signature;
      }
      e->last_use = clock_;
      engine_.set_resident_bytes(bytes());
      return e->device;
    }
  if (entries_.size() >= capacity_) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const auto& x, const auto& y) { return x->last_use < y->last_use; });
    entries_.erase(oldest);
  }
  entries_.push_back(std::make_unique<Entry>(Entry{signature, upload(engine_, m), clock_}));
  engine_.set_resident_bytes(bytes());
  return entries_.back()->device;
}

int64_t ResidentMatrices::bytes() const {
  int64_t total = 0;
  for (const auto& e : entries_) total += e->device.bytes();
  return total;
}

}  // namespace matsamp::gpu
