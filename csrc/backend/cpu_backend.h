// The CPU backend's storage: host arrays, reachable by the code that builds on
// this backend (a backend that delegates to it, tests of the seam).
#pragma once
#include "backend/backend.h"

namespace matsamp {

// A matrix on the host: owned, or a registered graph's (borrowed, read-only).
struct HostMatrix final : Resident {
  CsrMatrix owned;
  const CsrMatrix* borrowed = nullptr;
  const CsrMatrix& get() const { return borrowed ? *borrowed : owned; }
};

template <class T>
struct HostArray final : Resident {
  std::vector<T> data;
};

}  // namespace matsamp
