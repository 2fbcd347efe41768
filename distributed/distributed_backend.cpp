#include "distributed_backend.h"

#include <numeric>
#include <type_traits>
#include <utility>

#include "backend/cpu_backend.h"
#include "csr_transfer.h"
#include "on_host.h"
#include "ops/op_checks.h"

namespace matsamp {

namespace {

// What a distributed handle refers to: an operand of the product, or a shared row.
// On a grid of one rank, which holds every row, also the matrix on the local backend.
struct DistributedMatrix final : Resident {
  int operand = -1;
  int shared_row = -1;
  Matrix whole;
};

std::vector<vid_t> identity_ids(size_t n) {
  std::vector<vid_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

}  // namespace

DistributedBackend::DistributedBackend(GraphProduct& product, std::unique_ptr<Backend> local)
    : product_(product), local_(std::move(local)) {
  product_.set_local_backend(*local_);
}

DistributedBackend::~DistributedBackend() { product_.release_local_backend(); }

Matrix DistributedBackend::register_distributed(const DistributedCsr& a) {
  // Row uniformity is a per-row property: the column, which holds every block once, decides.
  std::vector<int64_t> column_sums{has_uniform_rows(a.local) ? 0 : 1, a.local.nnz()};
  product_.grid().col_comm().all_reduce_sum(column_sums);
  auto storage = std::make_shared<DistributedMatrix>();
  storage->operand = product_.add_operand(a);
  if (holds_every_row()) storage->whole = product_.local_block(storage->operand);
  return Matrix(this, std::move(storage), a.rows(), a.cols(), column_sums[1]).set_uniform_rows(column_sums[0] == 0);
}

Matrix DistributedBackend::register_shared_row(const SharedRowBlock& row) {
  auto storage = std::make_shared<DistributedMatrix>();
  storage->shared_row = product_.add_shared_row(row);
  if (holds_every_row()) {
    CsrMatrix whole(1, row.blocks().n);
    row.append_positive(&whole.colidx, &whole.values);
    whole.rowptr[1] = whole.nnz();
    storage->whole = local_->upload(std::move(whole));
  }
  return Matrix(this, std::move(storage), 1, row.blocks().n, row.shape().positive);
}

bool DistributedBackend::holds_every_row() const { return product_.grid().size() == 1; }

const Matrix& DistributedBackend::local_view(const Matrix& m) const {
  if (m.owner() != this) return m;
  const Matrix& whole = static_cast<const DistributedMatrix*>(m.storage())->whole;
  return whole.defined() ? whole : m;
}

int DistributedBackend::operand_of(const Matrix& m) const {
  if (m.owner() != this) return -1;
  const auto* d = static_cast<const DistributedMatrix*>(m.storage());
  MATSAMP_CHECK(d->shared_row < 0, "distributed backend: a shared row (1 x ", m.cols(),
                ") takes part in its_sample and gather only");
  return d->operand;
}

int DistributedBackend::shared_row_of(const Matrix& m) const {
  return m.owner() == this ? static_cast<const DistributedMatrix*>(m.storage())->shared_row : -1;
}

void DistributedBackend::reject_distributed(const Matrix& m, const char* op) const {
  MATSAMP_CHECK(m.owner() != this, "distributed backend: ", op, " of a distributed graph matrix is not supported");
}

std::string DistributedBackend::name() const {
  return local_->name() +
         (product_.exchange() == GraphProduct::Exchange::sparsity_aware ? "+1.5d-aware" : "+1.5d-oblivious");
}

CsrMatrix DistributedBackend::to_host_impl(Matrix m) {
  reject_distributed(m, "to_host");
  return local_->to_host(std::move(m));
}

Matrix DistributedBackend::spgemm(const Matrix& a, const Matrix& b_in) {
  const Matrix& b = local_view(b_in);
  reject_distributed(a, "spgemm with the left operand");
  const int operand = operand_of(b);
  if (operand < 0) return local_->spgemm(a, b);
  CsrMatrix scratch;
  return local_->upload(product_.multiply(on_host(*local_, a, &scratch), operand));
}

CsrMatrix DistributedBackend::fetch_rows(const Matrix& a, const std::vector<vid_t>& rows) {
  // R·A with R the one-per-row selector; its product is exactly select_rows.
  const int64_t m = static_cast<int64_t>(rows.size()), n = a.rows();
  CsrMatrix selector(m, n);
  selector.colidx.resize(m);
  check_ids_below(rows, n, "select_rows", "row id", std::to_string(n) + " rows");
  for (int64_t i = 0; i < m; ++i) {
    selector.colidx[i] = static_cast<col_t>(rows[i]);
    selector.rowptr[i + 1] = i + 1;
  }
  selector.values.assign(m, 1.0f);
  return product_.multiply(selector, operand_of(a));
}

Matrix DistributedBackend::select_rows(const Matrix& a_in, const Ids& rows) {
  const Matrix& a = local_view(a_in);
  if (operand_of(a) < 0) return local_->select_rows(a, rows);
  std::vector<vid_t> scratch;
  return local_->upload(fetch_rows(a, on_host(*local_, rows, &scratch)));
}

Matrix DistributedBackend::sample_rows(const Matrix& a_in, const Ids& rows, int64_t s, const SampleKeys& keys,
                                       Ids* positions) {
  const Matrix& a = local_view(a_in);
  const int operand = operand_of(a);
  if (operand < 0) return local_->sample_rows(a, rows, s, keys, positions);
  MATSAMP_CHECK(!positions, "sample_rows: the positions of a distributed matrix's entries are not available");
  if (row_sampling_ == RowSampling::at_owner)
    return product_.sample_rows(rows, s, keys, operand, RowDraw::its, a.uniform_rows());
  // Fetch the rows whole, then sample them here: row i of P is row ids[i] of A.
  std::vector<vid_t> scratch;
  const std::vector<vid_t>& ids = on_host(*local_, rows, &scratch);
  Matrix p = local_->upload(fetch_rows(a, ids)).set_uniform_rows(a.uniform_rows());
  return local_->sample_rows(p, local_->upload_ids(identity_ids(ids.size())), s, keys);
}

Matrix DistributedBackend::sample_rows_before(const Matrix& a_in, const Ids& rows, int64_t s, const SampleKeys& keys,
                                              const Ids& order, const Ids& sorted_times,
                                              const std::vector<int64_t>& bounds, TemporalStrategy strategy,
                                              Ids* positions) {
  const Matrix& a = local_view(a_in);
  check_not_partitioned_for_time(a);
  return local_->sample_rows_before(a, rows, s, keys, order, sorted_times, bounds, strategy, positions);
}

Matrix DistributedBackend::select_rows_before(const Matrix& a_in, const Ids& rows, const Offsets& row_offsets,
                                              const Ids& order, const Ids& sorted_times,
                                              const std::vector<int64_t>& bounds) {
  const Matrix& a = local_view(a_in);
  check_not_partitioned_for_time(a);
  return local_->select_rows_before(a, rows, row_offsets, order, sorted_times, bounds);
}

Matrix DistributedBackend::sample_rows_with_replacement(const Matrix& a_in, const Ids& rows, int64_t s,
                                                        const SampleKeys& keys, Ids* positions) {
  const Matrix& a = local_view(a_in);
  MATSAMP_CHECK(operand_of(a) < 0,
                "sampling with replacement of a partitioned graph is not available: sample with replacement "
                "on a graph each process holds whole");
  return local_->sample_rows_with_replacement(a, rows, s, keys, positions);
}

void DistributedBackend::check_not_partitioned_for_time(const Matrix& a) const {
  MATSAMP_CHECK(operand_of(a) < 0,
                "temporal sampling of a partitioned graph is not available: sample by time on "
                "a graph each process holds whole");
}

Matrix DistributedBackend::labor_sample_rows(const Matrix& a_in, const Ids& rows, int64_t s, const SampleKeys& keys,
                                             Ids* positions) {
  const Matrix& a = local_view(a_in);
  const int operand = operand_of(a);
  if (operand < 0) return local_->labor_sample_rows(a, rows, s, keys, positions);
  MATSAMP_CHECK(!positions, "labor_sample_rows: the positions of a distributed matrix's entries are not available");
  if (row_sampling_ == RowSampling::at_owner)
    return product_.sample_rows(rows, s, keys, operand, RowDraw::labor, false);
  std::vector<vid_t> scratch;
  const std::vector<vid_t>& ids = on_host(*local_, rows, &scratch);
  const Matrix p = local_->upload(fetch_rows(a, ids));
  return local_->labor_sample_rows(p, local_->upload_ids(identity_ids(ids.size())), s, keys);
}

Matrix DistributedBackend::guided_sample_rows(const Matrix& a_in, const Ids& rows, int64_t s,
                                              const ColumnImportance& importance, const SampleKeys& keys) {
  const Matrix& a = local_view(a_in);
  const int operand = operand_of(a);
  if (operand < 0) return local_->guided_sample_rows(a, rows, s, importance, keys);
  std::vector<vid_t> scratch;
  const Matrix p = local_->upload(fetch_rows(a, on_host(*local_, rows, &scratch)));
  return local_->guided_sample_rows(p, local_->upload_ids(identity_ids(p.rows())), s, importance, keys);
}

Matrix DistributedBackend::select_cols_blocked(const Matrix& a, const Offsets& row_offsets, const BlockedIds& cols,
                                               const Values& weights) {
  reject_distributed(a, "column extraction");
  Communicator& row = product_.grid().row_comm();
  const Offsets& col_offsets = cols.offsets;
  if (row.size() == 1 || product_.row_work() == GraphProduct::RowWork::split ||
      row_offsets.size() != col_offsets.size() || row_offsets.empty())
    return local_->select_cols_blocked(a, row_offsets, cols, weights);
  // Blocks are independent products: each rank of the process row takes a contiguous
  // share of the minibatches, and the row gathers the pieces back in order.
  // The operands on the host: the CPU backend's own arrays, or copies.
  CsrMatrix a_copy;
  const CsrMatrix& whole = on_host(*local_, a, &a_copy);
  std::vector<vid_t> ids_copy;
  const std::vector<vid_t>& ids = on_host(*local_, cols.ids, &ids_copy);
  std::vector<float> scale_copy;
  const std::vector<float>& scale = weights.defined() ? on_host(*local_, weights, &scale_copy) : scale_copy;
  const int64_t k = static_cast<int64_t>(row_offsets.size()) - 1;
  const int64_t g0 = row.rank() * k / row.size(), g1 = (row.rank() + 1) * k / row.size();
  MATSAMP_CHECK(row_offsets.back() == whole.rows && col_offsets.back() == static_cast<int64_t>(ids.size()) &&
                    row_offsets[g0] <= row_offsets[g1] && col_offsets[g0] <= col_offsets[g1],
                "select_cols: offsets do not fit ", whole.shape(), " and ", ids.size(), " columns");
  const int64_t c0 = col_offsets[g0], c1 = col_offsets[g1];
  Offsets sub_rows(row_offsets.begin() + g0, row_offsets.begin() + g1 + 1);
  Offsets sub_cols(col_offsets.begin() + g0, col_offsets.begin() + g1 + 1);
  for (int64_t& o : sub_rows) o -= row_offsets[g0];
  for (int64_t& o : sub_cols) o -= c0;
  const Values sub_weights =
      scale.empty() ? Values{} : local_->upload_values(std::vector<float>(scale.begin() + c0, scale.begin() + c1));
  const BlockedIds sub_ids{local_->upload_ids(std::vector<vid_t>(ids.begin() + c0, ids.begin() + c1)), sub_cols};
  CsrMatrix part = local_->to_host(local_->select_cols_blocked(
      local_->upload(row_slice(whole, row_offsets[g0], row_offsets[g1])), sub_rows, sub_ids, sub_weights));
  for (col_t& c : part.colidx) c = static_cast<col_t>(c + c0);
  part.cols = static_cast<int64_t>(ids.size());
  return local_->upload(all_gather_rows(row, part));
}

Matrix DistributedBackend::select_rows_cols_blocked(const Matrix& a_in, const BlockedIds& rows, const BlockedIds& cols,
                                                    const Values& weights) {
  const Matrix& a = local_view(a_in);
  if (operand_of(a) < 0 && product_.grid().row_comm().size() == 1)
    return local_->select_rows_cols_blocked(a, rows, cols, weights);
  return Backend::select_rows_cols_blocked(a, rows, cols, weights);
}

Matrix DistributedBackend::sample_rows_masked(const Matrix& a_in, const Ids& rows, int64_t s, const SampleKeys& keys,
                                              const Matrix& mask, Ids* positions) {
  const Matrix& a = local_view(a_in);
  if (operand_of(a) < 0) return local_->sample_rows_masked(a, rows, s, keys, mask, positions);
  return Backend::sample_rows_masked(a, rows, s, keys, mask, positions);
}

Matrix DistributedBackend::normalize_rows(Matrix p, RowScale scale) {
  Matrix m = p.owner() == this ? local_view(p) : std::move(p);  // a local result stays movable
  reject_distributed(m, "normalize_rows");
  return local_->normalize_rows(std::move(m), scale);
}

Matrix DistributedBackend::its_sample(const Matrix& p_in, int64_t s, const SampleKeys& keys) {
  const Matrix& p = local_view(p_in);
  if (const int row = shared_row_of(p); row >= 0) return local_->upload(product_.sample_shared_row(row, s, keys));
  reject_distributed(p, "its_sample");
  return local_->its_sample(p, s, keys);
}

Compacted DistributedBackend::compact_columns(Matrix s, const Offsets& row_offsets, const BlockedIds& leading,
                                              Ids* carried) {
  reject_distributed(s, "compact_columns");
  return local_->compact_columns(std::move(s), row_offsets, leading, carried);
}

SharedCompacted DistributedBackend::compact_columns_shared(std::vector<Matrix> parts,
                                                           const std::vector<Offsets>& row_offsets,
                                                           const BlockedIds& leading, std::vector<Ids>* carried) {
  for (const Matrix& m : parts) reject_distributed(m, "compact_columns");
  return local_->compact_columns_shared(std::move(parts), row_offsets, leading, carried);
}

Matrix DistributedBackend::mask_entries(Matrix p, const Matrix& mask) {
  reject_distributed(p, "mask_entries");
  reject_distributed(mask, "mask_entries");
  return local_->mask_entries(std::move(p), mask);
}

Counts DistributedBackend::tally_induced_entries(Counts counts, const Matrix& a_in, const BlockedIds& blocks) {
  const Matrix& a = local_view(a_in);
  reject_distributed(a, "tally_induced_entries");
  return local_->tally_induced_entries(std::move(counts), a, blocks);
}

Matrix DistributedBackend::normalize_rows_by_tallies(const Matrix& a_in, const Counts& row_tallies,
                                                     const Counts& entry_tallies) {
  const Matrix& a = local_view(a_in);
  reject_distributed(a, "normalize_rows_by_tallies");
  return local_->normalize_rows_by_tallies(a, row_tallies, entry_tallies);
}

Matrix DistributedBackend::frontier_walk(const Matrix& adj_in, const BlockedIds& roots, int64_t steps,
                                         const FrontierKeys& keys, double enlargement) {
  const Matrix& adj = local_view(adj_in);
  reject_distributed(adj, "frontier_walk");
  return local_->frontier_walk(adj, roots, steps, keys, enlargement);
}

Values DistributedBackend::gather(const Matrix& p_in, const BlockedIds& at) {
  const Matrix& p = local_view(p_in);
  if (const int row = shared_row_of(p); row >= 0) {
    std::vector<vid_t> scratch;
    return local_->upload_values(product_.shared_row_values(row, on_host(*local_, at.ids, &scratch)));
  }
  reject_distributed(p, "gather");
  return local_->gather(p, at);
}

Ids DistributedBackend::entry_positions(const Matrix& a_in, const Ids& rows, const Matrix& s, const Ids& columns) {
  const Matrix& a = local_view(a_in);
  reject_distributed(a, "entry_positions");
  return local_->entry_positions(a, rows, s, columns);
}

}  // namespace matsamp
