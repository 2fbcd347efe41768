// A local backend's arrays on the host, for the steps of the distributed layer that
// still run there: the CPU backend's own arrays (no copy), or a copy in *scratch
// through the backend's transfers (counted).
#pragma once
#include <type_traits>
#include <vector>

#include "backend/cpu_backend.h"

namespace matsamp {

template <class T>
const std::vector<T>& on_host(Backend& local, const Array<T>& a, std::vector<T>* scratch) {
  if (const std::vector<T>* own = host_view(a)) return *own;
  if constexpr (std::is_same_v<T, vid_t>) *scratch = local.ids_to_host(a);
  else *scratch = local.values_to_host(a);
  return *scratch;
}

inline const CsrMatrix& on_host(Backend& local, const Matrix& m, CsrMatrix* scratch) {
  if (const CsrMatrix* own = host_view(m)) return *own;
  return *scratch = local.to_host(m);
}

}  // namespace matsamp
