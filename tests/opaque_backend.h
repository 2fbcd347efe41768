// A backend whose matrices and id lists are sealed: only it opens them, and
// results reach the host through its transfers alone, which the Backend base
// counts. It computes with a CPU backend inside, so its results are the CPU's;
// a sampler run on it shows every copy it makes between host and "device".
// With expose_arrays() its arrays act as device memory a transport may move in
// place (what NCCL does with the CUDA backend's), so that a distributed run on it
// shows which copies remain once the transport takes the backend's buffers.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "backend/cpu_backend.h"
#include "backend/resident.h"
#include "backend/resident_arrays.h"

namespace matsamp::testing {

template <class Handle>
struct Sealed final : Resident {
  explicit Sealed(Handle h) : inner(std::move(h)) {}
  Handle inner;
};

class OpaqueBackend final : public Backend, public ResidentArrays {
 public:
  std::string name() const override { return "opaque"; }
  // The transfers so far that were copies to the host.
  int64_t downloads() const { return downloads_; }
  void expose_arrays() { exposed_ = true; }

  ResidentArrays* resident_arrays() override { return exposed_ ? this : nullptr; }
  Memory memory() const override { return Memory::device; }
  Ids allocate_ids(int64_t n) override { return seal(inner_arrays().allocate_ids(n)); }
  Matrix allocate_rows(int64_t rows, int64_t cols, int64_t nnz) override {
    return seal(inner_arrays().allocate_rows(rows, cols, nnz));
  }
  Matrix rows_from_lengths(Matrix m) override {
    Matrix inner = open(m);
    m = Matrix();  // the inner handle is then its storage's only one
    return seal(inner_arrays().rows_from_lengths(std::move(inner)));
  }
  Ids row_lengths(const Matrix& m) override { return seal(inner_arrays().row_lengths(open(m))); }
  WritableCsrArrays arrays(const Matrix& m) override { return inner_arrays().arrays(open(m)); }
  vid_t* arrays(const Ids& ids) override { return inner_arrays().arrays(open(ids)); }

  Matrix spgemm(const Matrix& a, const Matrix& b) override { return seal(inner_->spgemm(open(a), open(b))); }
  Matrix select_rows(const Matrix& a, const Ids& rows) override {
    return seal(inner_->select_rows(open(a), open(rows)));
  }
  Matrix select_cols_blocked(const Matrix& a, const Offsets& row_offsets, const BlockedIds& cols,
                             const Values& weights) override {
    return seal(inner_->select_cols_blocked(open(a), row_offsets, open(cols), open_or_none(weights)));
  }
  Matrix select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                  const Values& weights) override {
    return seal(inner_->select_rows_cols_blocked(open(a), open(rows), open(cols), open_or_none(weights)));
  }
  Matrix mask_entries(Matrix p, const Matrix& mask) override { return seal(inner_->mask_entries(open(p), open(mask))); }
  Matrix select_rows_by_key(const Matrix& m, const BlockedIds& keys, const BlockedIds& rows) override {
    return seal(inner_->select_rows_by_key(open(m), open(keys), open(rows)));
  }
  Matrix pad_row_blocks(Matrix m, const Offsets& row_offsets, const Offsets& padded_offsets) override {
    return seal(inner_->pad_row_blocks(open(m), row_offsets, padded_offsets));
  }
  Ids sequence_ids(int64_t n) override { return seal(inner_->sequence_ids(n)); }
  Ids sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) override {
    return seal(inner_->sequence_runs(starts, run_offsets));
  }
  Ids gather_ids(const Ids& ids, const Ids& at) override { return seal(inner_->gather_ids(open(ids), open(at))); }
  Ids range_positions(const Ids& ids, const std::vector<vid_t>& bounds) override {
    return seal(inner_->range_positions(open(ids), bounds));
  }
  Matrix add_entries(const Matrix& a, const Matrix& b) override { return seal(inner_->add_entries(open(a), open(b))); }
  Ids first_columns(const Matrix& m, const Ids& fallback) override {
    return seal(inner_->first_columns(open(m), open(fallback)));
  }
  Matrix normalize_rows(Matrix p, RowScale scale) override { return seal(inner_->normalize_rows(open(p), scale)); }
  Values reciprocals(const Values& values, float factor) override {
    return seal(inner_->reciprocals(open(values), factor));
  }
  Matrix block_indicator(const BlockedIds& ids, int64_t cols) override {
    return seal(inner_->block_indicator(open(ids), cols));
  }
  Matrix its_sample(const Matrix& p, int64_t s, const SampleKeys& keys) override {
    return seal(inner_->its_sample(open(p), s, keys));
  }
  Matrix sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                     Ids* positions = nullptr) override {
    return sealed_with_positions(positions,
                                 [&](Ids* at) { return inner_->sample_rows(open(a), open(rows), s, keys, at); });
  }
  Matrix sample_rows_with_replacement(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                      Ids* positions = nullptr) override {
    return sealed_with_positions(
        positions, [&](Ids* at) { return inner_->sample_rows_with_replacement(open(a), open(rows), s, keys, at); });
  }
  Matrix sample_rows_masked(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Matrix& mask,
                            Ids* positions = nullptr) override {
    return sealed_with_positions(
        positions, [&](Ids* at) { return inner_->sample_rows_masked(open(a), open(rows), s, keys, open(mask), at); });
  }
  Matrix sample_rows_before(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds, TemporalStrategy strategy,
                            Ids* positions = nullptr) override {
    return sealed_with_positions(positions, [&](Ids* at) {
      return inner_->sample_rows_before(open(a), open(rows), s, keys, open(order), open(sorted_times), bounds, strategy,
                                        at);
    });
  }
  Matrix select_rows_before(const Matrix& a, const Ids& rows, const Offsets& row_offsets, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds) override {
    return seal(inner_->select_rows_before(open(a), open(rows), row_offsets, open(order), open(sorted_times), bounds));
  }
  Matrix labor_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                           Ids* positions = nullptr) override {
    return sealed_with_positions(positions,
                                 [&](Ids* at) { return inner_->labor_sample_rows(open(a), open(rows), s, keys, at); });
  }
  Matrix guided_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const ColumnImportance& importance,
                            const SampleKeys& keys) override {
    return seal(inner_->guided_sample_rows(open(a), open(rows), s, importance, keys));
  }
  Compacted compact_columns(Matrix s, const Offsets& row_offsets, const BlockedIds& leading,
                            Ids* carried = nullptr) override {
    Ids inner_carried = carried ? open(*carried) : Ids{};
    Compacted c = inner_->compact_columns(open(s), row_offsets, {open_or_none(leading.ids), leading.offsets},
                                          carried ? &inner_carried : nullptr);
    if (carried) *carried = seal(std::move(inner_carried));
    return {seal(std::move(c.adj)), {seal(std::move(c.vertices.ids)), std::move(c.vertices.offsets)}};
  }
  SharedCompacted compact_columns_shared(std::vector<Matrix> parts, const std::vector<Offsets>& row_offsets,
                                         const BlockedIds& leading, std::vector<Ids>* carried = nullptr) override {
    std::vector<Matrix> opened;
    for (const Matrix& m : parts) opened.push_back(open(m));
    parts.clear();  // the inner handles are then their storage's only ones
    std::vector<Ids> inner_carried;
    if (carried)
      for (Ids& c : *carried) inner_carried.push_back(open_or_none(std::exchange(c, Ids{})));
    SharedCompacted c = inner_->compact_columns_shared(std::move(opened), row_offsets, open(leading),
                                                       carried ? &inner_carried : nullptr);
    for (size_t i = 0; i < inner_carried.size(); ++i)
      if (inner_carried[i].defined()) (*carried)[i] = seal(std::move(inner_carried[i]));
    SharedCompacted out{{}, {seal(std::move(c.vertices.ids)), std::move(c.vertices.offsets)}};
    for (Matrix& m : c.adj) out.adj.push_back(seal(std::move(m)));
    return out;
  }
  Values gather(const Matrix& p, const BlockedIds& at) override { return seal(inner_->gather(open(p), open(at))); }
  Ids entry_positions(const Matrix& a, const Ids& rows, const Matrix& s, const Ids& columns) override {
    return seal(inner_->entry_positions(open(a), open(rows), open(s), open(columns)));
  }
  Counts tally_ids(Counts counts, int64_t n, const Ids& ids) override {
    return seal(inner_->tally_ids(open_or_none(counts), n, open(ids)));
  }
  Counts tally_induced_entries(Counts counts, const Matrix& a, const BlockedIds& blocks) override {
    return seal(inner_->tally_induced_entries(open_or_none(counts), open(a), open(blocks)));
  }
  Matrix normalize_rows_by_tallies(const Matrix& a, const Counts& row_tallies, const Counts& entry_tallies) override {
    return seal(inner_->normalize_rows_by_tallies(open(a), open(row_tallies), open(entry_tallies)));
  }
  Matrix frontier_walk(const Matrix& adj, const BlockedIds& roots, int64_t steps, const FrontierKeys& keys,
                       double enlargement) override {
    return seal(inner_->frontier_walk(open(adj), open(roots), steps, keys, enlargement));
  }
  RequestedRows request_rows(const Ids& rows, int64_t n, const SampleKeys& keys,
                             const std::vector<vid_t>& bounds) override {
    RequestedRows r = inner_->request_rows(open(rows), n, keys, bounds);
    return {seal(std::move(r.words)), seal(std::move(r.back)), std::move(r.counts)};
  }
  AnsweredRows sample_requested_rows(const Matrix& block, const Ids& words, const std::vector<int64_t>& segments,
                                     vid_t first_row, int64_t s, const RandomKey& base, RowDraw draw) override {
    AnsweredRows a = inner_->sample_requested_rows(open(block), open(words), segments, first_row, s, base, draw);
    return {seal(std::move(a.rows)), std::move(a.entries)};
  }

 protected:
  Matrix register_graph_impl(const CsrMatrix& a) override { return seal(inner_->register_graph(a)); }
  Matrix upload_impl(CsrMatrix m) override { return seal(inner_->upload(std::move(m))); }
  Ids upload_ids_impl(std::vector<vid_t> ids) override { return seal(inner_->upload_ids(std::move(ids))); }
  Values upload_values_impl(std::vector<float> v) override { return seal(inner_->upload_values(std::move(v))); }
  CsrMatrix to_host_impl(Matrix m) override {
    ++downloads_;
    return inner_->to_host(open(m));
  }
  std::vector<vid_t> ids_to_host_impl(Ids ids) override {
    ++downloads_;
    return inner_->ids_to_host(open(ids));
  }
  std::vector<float> values_to_host_impl(Values v) override {
    ++downloads_;
    return inner_->values_to_host(open(v));
  }

 private:
  // The inner backend's draw(at), its matrix and (when asked for) positions sealed.
  template <class Draw>
  Matrix sealed_with_positions(Ids* positions, Draw draw) {
    Ids at;
    Matrix drawn = seal(draw(positions ? &at : nullptr));
    if (positions) *positions = seal(std::move(at));
    return drawn;
  }
  Matrix seal(Matrix m) {
    const int64_t rows = m.rows(), cols = m.cols(), nnz = m.nnz();
    const bool uniform = m.uniform_rows();
    return Matrix(this, std::make_shared<Sealed<Matrix>>(std::move(m)), rows, cols, nnz).set_uniform_rows(uniform);
  }
  template <class T>
  Array<T> seal(Array<T> a) {
    const int64_t size = a.size();
    return Array<T>(this, std::make_shared<Sealed<Array<T>>>(std::move(a)), size);
  }
  template <class Handle>
  const Handle& open(const Handle& h) const {
    check_mine(h, "opaque backend");
    return static_cast<const Sealed<Handle>*>(h.storage())->inner;
  }
  BlockedIds open(const BlockedIds& b) const { return {open(b.ids), b.offsets}; }
  template <class T>
  Array<T> open_or_none(const Array<T>& a) const {
    return a.defined() ? open(a) : Array<T>{};
  }

  ResidentArrays& inner_arrays() {
    MATSAMP_CHECK(exposed_, "opaque backend: its arrays are sealed (expose_arrays)");
    return *inner_->resident_arrays();
  }

  std::unique_ptr<Backend> inner_ = make_cpu_backend();
  int64_t downloads_ = 0;
  bool exposed_ = false;
};

}  // namespace matsamp::testing
