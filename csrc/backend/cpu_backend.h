// The CPU backend's storage: host arrays, reachable by the code that builds on
// this backend (a backend that delegates to it, tests of the seam).
#pragma once
#include <memory>
#include <mutex>

#include "backend/backend.h"

namespace matsamp {

// A matrix on the host: owned, or a registered graph's (borrowed, read-only).
struct HostMatrix final : Resident {
  CsrMatrix owned;
  const CsrMatrix* borrowed = nullptr;
  const CsrMatrix& get() const { return borrowed ? *borrowed : owned; }
  // A registered graph's sample_rows draw tables (ops.h), built on its first
  // weighted draw and kept: every later draw reads them. Null for other matrices.
  const DrawTables* draw_tables() const {
    if (!borrowed) return nullptr;
    std::call_once(tables_built_, [this] { tables_ = std::make_unique<DrawTables>(matsamp::draw_tables(*borrowed)); });
    return tables_.get();
  }

 private:
  mutable std::once_flag tables_built_;
  mutable std::unique_ptr<DrawTables> tables_;
};

template <class T>
struct HostArray final : Resident {
  std::vector<T> data;
};

// The host arrays behind a CPU backend's handle (read-only, valid while the
// handle lives), or null for a handle of any other backend.
inline const CsrMatrix* host_view(const Matrix& m) {
  const auto* h = dynamic_cast<const HostMatrix*>(m.storage());
  return h ? &h->get() : nullptr;
}
template <class T>
const std::vector<T>* host_view(const Array<T>& a) {
  const auto* h = dynamic_cast<const HostArray<T>*>(a.storage());
  return h ? &h->data : nullptr;
}

}  // namespace matsamp
