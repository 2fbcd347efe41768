#include "backend/backend.h"

namespace matsamp {

std::string Matrix::shape() const {
  return std::to_string(rows_) + " x " + std::to_string(cols_) + " (" + std::to_string(nnz_) + " nonzeros)";
}

Matrix Backend::select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                         const Values& weights) {
  return select_cols_blocked(select_rows(a, rows.ids), rows.offsets, cols, weights);
}

Matrix Backend::mask_entries(Matrix p, const Matrix& mask) {
  return upload(matsamp::mask_entries(to_host(std::move(p)), to_host(mask)));
}

void Backend::check_made_here(const Backend* owner, bool defined, const char* op) const {
  MATSAMP_CHECK(defined, op, ": an operand is an empty handle");
  MATSAMP_CHECK(owner == this, op, ": an operand lives in the ", owner ? owner->name() : std::string("?"),
                " backend, not in this ", name(), " backend");
}

}  // namespace matsamp
