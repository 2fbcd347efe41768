// CPU kernel of gather_rows: index_select along dim 0, after a bounds check
// that names the offending position (index_select's own message does not).
#include <torch/library.h>

#include "convert.h"

namespace matsamp::bindings {

namespace {

at::Tensor gather_rows_cpu(const at::Tensor& features, const at::Tensor& index) {
  constexpr const char* op = "matsamp.gather_rows";
  TORCH_CHECK_VALUE(features.dim() >= 1, op, ": features must have at least one dimension");
  TORCH_CHECK_VALUE(features.device().is_cpu(), op, ": features are on ", features.device(),
                    " but index is on the CPU");
  check_vector(index, at::kLong, op, "index");
  const at::Tensor ids = index.contiguous();
  check_ids_in_range(ids.data_ptr<int64_t>(), ids.numel(), features.size(0), op, "index");
  return at::index_select(features, 0, ids);
}

}  // namespace

TORCH_LIBRARY_IMPL(matsamp, CPU, m) { m.impl("gather_rows", TORCH_FN(gather_rows_cpu)); }

}  // namespace matsamp::bindings
