#include "distributed_backend.h"

#include <numeric>
#include <utility>

#include "csr_transfer.h"

namespace matsamp {

CsrMatrix placeholder_of(const DistributedCsr& a) { return CsrMatrix(a.rows(), a.cols()); }

DistributedBackend::DistributedBackend(GraphProduct& product, std::unique_ptr<Backend> local)
    : product_(product), local_(std::move(local)) {}

void DistributedBackend::bind(const CsrMatrix& placeholder, const DistributedCsr& a) {
  MATSAMP_CHECK(placeholder.rows == a.rows() && placeholder.cols == a.cols() && placeholder.nnz() == 0,
                "DistributedBackend: placeholder ", placeholder.shape(), " does not stand for a ", a.rows(), " x ",
                a.cols(), " distributed matrix");
  // Row uniformity is a per-row property: the column, which holds every block once, decides.
  std::vector<int64_t> non_uniform{has_uniform_rows(a.local) ? 0 : 1};
  product_.grid().col_comm().all_reduce_sum(non_uniform);
  bound_[&placeholder] = {product_.add_operand(a), non_uniform[0] == 0};
}

const DistributedBackend::Bound* DistributedBackend::bound(const CsrMatrix& m) const {
  const auto it = bound_.find(&m);
  return it == bound_.end() ? nullptr : &it->second;
}

void DistributedBackend::reject_placeholder(const CsrMatrix& m, const char* op) const {
  MATSAMP_CHECK(!bound(m), "distributed backend: ", op, " of a distributed graph matrix is not supported");
}

std::string DistributedBackend::name() const {
  return local_->name() + (product_.exchange() == GraphProduct::Exchange::sparsity_aware ? "+1.5d-aware"
                                                                                          : "+1.5d-oblivious");
}

CsrMatrix DistributedBackend::spgemm(const CsrMatrix& a, const CsrMatrix& b) {
  reject_placeholder(a, "spgemm with the left operand");
  if (const Bound* right = bound(b)) return product_.multiply(a, right->operand);
  return local_->spgemm(a, b);
}

CsrMatrix DistributedBackend::distributed_select_rows(const Bound& b, int64_t n, const std::vector<vid_t>& rows) {
  // R·A with R the one-per-row selector; its product is exactly select_rows.
  const int64_t m = static_cast<int64_t>(rows.size());
  CsrMatrix selector(m, n);
  selector.colidx.resize(m);
  for (int64_t i = 0; i < m; ++i) {
    MATSAMP_CHECK(rows[i] >= 0 && rows[i] < n, "select_rows: row id ", rows[i], " out of range for ", n, " rows");
    selector.colidx[i] = static_cast<col_t>(rows[i]);
    selector.rowptr[i + 1] = i + 1;
  }
  selector.values.assign(m, 1.0f);
  return product_.multiply(selector, b.operand);
}

CsrMatrix DistributedBackend::select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) {
  if (const Bound* b = bound(a)) return distributed_select_rows(*b, a.rows, rows);
  return local_->select_rows(a, rows);
}

CsrMatrix DistributedBackend::sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                          const SampleKeys& keys, bool uniform_rows) {
  const Bound* b = bound(a);
  if (!b) return local_->sample_rows(a, rows, s, keys, uniform_rows);
  if (row_sampling_ == RowSampling::at_owner) return product_.sample_rows(rows, s, keys, b->operand, b->uniform_rows);
  // Fetch the rows whole, then sample them here: row i of P is row rows[i] of A.
  const CsrMatrix p = distributed_select_rows(*b, a.rows, rows);
  std::vector<vid_t> identity(rows.size());
  std::iota(identity.begin(), identity.end(), 0);
  return local_->sample_rows(p, identity, s, keys, b->uniform_rows);
}

CsrMatrix DistributedBackend::labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                                const SampleKeys& keys) {
  const Bound* b = bound(a);
  if (!b) return local_->labor_sample_rows(a, rows, s, keys);
  if (row_sampling_ == RowSampling::at_owner) return product_.labor_sample_rows(rows, s, keys, b->operand);
  const CsrMatrix p = distributed_select_rows(*b, a.rows, rows);
  std::vector<vid_t> identity(rows.size());
  std::iota(identity.begin(), identity.end(), 0);
  return local_->labor_sample_rows(p, identity, s, keys);
}

CsrMatrix DistributedBackend::select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets,
                                                  const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                                  const std::vector<float>& weights) {
  reject_placeholder(a, "column extraction");
  Communicator& row = product_.grid().row_comm();
  if (row.size() == 1 || row_offsets.size() != col_offsets.size() || row_offsets.empty())
    return local_->select_cols_blocked(a, row_offsets, cols, col_offsets, weights);
  // Blocks are independent products: each rank of the process row takes a contiguous
  // share of the minibatches, and the row gathers the pieces back in order.
  const int64_t k = static_cast<int64_t>(row_offsets.size()) - 1;
  const int64_t g0 = row.rank() * k / row.size(), g1 = (row.rank() + 1) * k / row.size();
  MATSAMP_CHECK(row_offsets.back() == a.rows && col_offsets.back() == static_cast<int64_t>(cols.size()) &&
                    row_offsets[g0] <= row_offsets[g1] && col_offsets[g0] <= col_offsets[g1],
                "select_cols: offsets do not fit ", a.shape(), " and ", cols.size(), " columns");
  const int64_t c0 = col_offsets[g0], c1 = col_offsets[g1];
  Offsets sub_rows(row_offsets.begin() + g0, row_offsets.begin() + g1 + 1);
  Offsets sub_cols(col_offsets.begin() + g0, col_offsets.begin() + g1 + 1);
  for (int64_t& o : sub_rows) o -= row_offsets[g0];
  for (int64_t& o : sub_cols) o -= c0;
  const std::vector<float> sub_weights =
      weights.empty() ? std::vector<float>{} : std::vector<float>(weights.begin() + c0, weights.begin() + c1);
  CsrMatrix part = local_->select_cols_blocked(row_slice(a, row_offsets[g0], row_offsets[g1]), sub_rows,
                                               std::vector<vid_t>(cols.begin() + c0, cols.begin() + c1), sub_cols,
                                               sub_weights);
  for (col_t& c : part.colidx) c = static_cast<col_t>(c + c0);
  part.cols = static_cast<int64_t>(cols.size());
  return all_gather_rows(row, part);
}

void DistributedBackend::normalize_rows(CsrMatrix& p, bool square_first) {
  local_->normalize_rows(p, square_first);
}

CsrMatrix DistributedBackend::its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
  reject_placeholder(p, "its_sample");
  return local_->its_sample(p, s, keys);
}

CompactResult DistributedBackend::compact_columns(CsrMatrix s, const Offsets& row_offsets,
                                                  const std::vector<vid_t>& leading, const Offsets& leading_offsets) {
  return local_->compact_columns(std::move(s), row_offsets, leading, leading_offsets);
}

}  // namespace matsamp
