#include "backend/backend.h"

#include "util/host_rates.h"

#include <numeric>

#include "backend/cpu_backend.h"
#include "ops/column_importance.h"

namespace matsamp {

std::string Matrix::shape() const {
  return std::to_string(rows_) + " x " + std::to_string(cols_) + " (" + std::to_string(nnz_) + " nonzeros)";
}

TransferCounts& TransferCounts::operator+=(const TransferCounts& other) {
  copies += other.copies;
  bytes += other.bytes;
  syncs += other.syncs;
  return *this;
}

TransferCounts TransferCounts::operator-(const TransferCounts& other) const {
  return {copies - other.copies, bytes - other.bytes, syncs - other.syncs};
}

namespace {
int64_t csr_bytes(int64_t rows, int64_t nnz) {
  return (rows + 1) * static_cast<int64_t>(sizeof(int64_t)) + nnz * static_cast<int64_t>(sizeof(col_t) + sizeof(float));
}
template <class T>
int64_t array_bytes(int64_t size) {
  return size * static_cast<int64_t>(sizeof(T));
}
}  // namespace

void Backend::count_copy(int64_t bytes) {
  copies_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

Matrix Backend::register_graph(const CsrMatrix& a) {
  count_copy(csr_bytes(a.rows, a.nnz()));
  return register_graph_impl(a);
}
Matrix Backend::upload(CsrMatrix m) {
  count_copy(csr_bytes(m.rows, m.nnz()));
  return upload_impl(std::move(m));
}
Ids Backend::upload_ids(std::vector<vid_t> ids) {
  count_copy(array_bytes<vid_t>(static_cast<int64_t>(ids.size())));
  return upload_ids_impl(std::move(ids));
}
Values Backend::upload_values(std::vector<float> values) {
  count_copy(array_bytes<float>(static_cast<int64_t>(values.size())));
  return upload_values_impl(std::move(values));
}
CsrMatrix Backend::to_host(Matrix m) {
  count_copy(csr_bytes(m.rows(), m.nnz()));
  return to_host_impl(std::move(m));
}
std::vector<vid_t> Backend::ids_to_host(Ids ids) {
  count_copy(array_bytes<vid_t>(ids.size()));
  return ids_to_host_impl(std::move(ids));
}
std::vector<float> Backend::values_to_host(Values values) {
  count_copy(array_bytes<float>(values.size()));
  return values_to_host_impl(std::move(values));
}
void Backend::synchronize() {
  syncs_.fetch_add(1, std::memory_order_relaxed);
  synchronize_impl();
}

TransferCounts Backend::transfer_counts() const {
  return {copies_.load(std::memory_order_relaxed), bytes_.load(std::memory_order_relaxed),
          syncs_.load(std::memory_order_relaxed)};
}

Compacted Backend::compact_columns(Matrix s, const Offsets& row_offsets, const BlockedIds& leading, Ids* carried) {
  std::vector<Matrix> parts;
  parts.push_back(std::move(s));
  std::vector<Ids> moving;
  if (carried) moving.push_back(std::move(*carried));
  SharedCompacted c = compact_columns_shared(std::move(parts), {row_offsets}, leading, carried ? &moving : nullptr);
  if (carried) *carried = std::move(moving[0]);
  return {std::move(c.adj[0]), std::move(c.vertices)};
}

Matrix Backend::guided_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const ColumnImportance& importance,
                                   const SampleKeys& keys) {
  check_mine(a, "guided_sample_rows");
  if (const CsrMatrix* own = host_view(a))
    return upload(matsamp::guided_sample_rows(*own, ids_to_host(rows), s, importance, keys));
  const CsrMatrix picked = to_host(select_rows(a, rows));  // row i of picked is rows[i]: keyed alike
  std::vector<vid_t> identity(picked.rows);
  std::iota(identity.begin(), identity.end(), 0);
  return upload(matsamp::guided_sample_rows(picked, identity, s, importance, keys));
}

Matrix Backend::select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                         const Values& weights) {
  return select_cols_blocked(select_rows(a, rows.ids), rows.offsets, cols, weights);
}

Matrix Backend::sample_rows_masked(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                   const Matrix& mask, Ids* positions) {
  const auto [masked, masked_ids] = masked_rows(*this, a, rows, mask);
  Matrix drawn = sample_rows(masked, masked_ids, s, keys);
  if (positions) *positions = entry_positions(a, rows, drawn, sequence_ids(a.cols()));
  return drawn;
}

std::pair<Matrix, Ids> masked_rows(Backend& backend, const Matrix& a, const Ids& rows, const Matrix& mask) {
  Matrix masked = backend.mask_entries(backend.select_rows(a, rows), mask);
  masked.set_uniform_rows(a.uniform_rows());  // rows of a, fewer entries: still uniform when a's are
  Ids positions = backend.sequence_ids(masked.rows());
  return {std::move(masked), std::move(positions)};
}

void Backend::check_made_here(const Backend* owner, bool defined, const char* op) const {
  MATSAMP_CHECK(defined, op, ": an operand is an empty handle");
  MATSAMP_CHECK(owner == this, op, ": an operand lives in the ", owner ? owner->name() : std::string("?"),
                " backend, not in this ", name(), " backend");
}

double Backend::copy_bandwidth() { return host_rates().copy_bandwidth; }

double Backend::gather_rate() { return host_rates().gather_rate; }

DeviceCsrArrays Backend::device_csr(const Matrix& /*m*/) {
  fail("the ", name(), " backend keeps its matrices on the host: no device arrays");
}

const vid_t* Backend::device_ids(const Ids& /*ids*/) {
  fail("the ", name(), " backend keeps its ids on the host: no device array");
}

}  // namespace matsamp
