// The backend of graph-partitioned sampling. A matrix registered here with
// register_distributed is a 1.5D block row (no rank holds it whole); every op
// whose graph operand is one runs as the distributed product. Everything else
// runs on the local backend, whose handles pass through unchanged, and the
// block-diagonal column extraction is split across the process row. On a grid
// of one rank the block is the whole matrix: it is also registered on the local
// backend and every op runs there, on its memory, as one process's would.
#pragma once
#include <memory>

#include "backend/backend.h"
#include "graph_product.h"

namespace matsamp {

class DistributedBackend final : public Backend {
 public:
  // Where sample_rows of a distributed matrix samples: at each row's owner, which
  // sends back only the picks (GraphProduct::sample_rows), or here, after fetching
  // the rows whole through the product. Both give the same rows, bit for bit.
  enum class RowSampling { at_owner, fetched_rows };

  // The product draws its owners' rows on `local` (its blocks are registered there).
  DistributedBackend(GraphProduct& product, std::unique_ptr<Backend> local);
  ~DistributedBackend() override;
  void set_row_sampling(RowSampling where) { row_sampling_ = where; }
  Backend& local() { return *local_; }

  // A distributed matrix as a handle of this backend. Collective over the grid
  // (row uniformity and the number of nonzeros are agreed on); `a` must outlive
  // every handle made from it.
  Matrix register_distributed(const DistributedCsr& a);
  // A 1 x n row every minibatch shares, held by blocks (shared_row.h): its_sample and
  // gather of it are the product's shared-row ops. `row` must outlive every handle.
  Matrix register_shared_row(const SharedRowBlock& row);

  std::string name() const override;
  void finish_collectives() override { product_.finish(); }
  const Communicator* collective_communicator() const override { return &product_.grid().world(); }
  // The device is the local backend's. Every transfer, this backend's and those its
  // ops make around the product (staging through the host), is the local backend's.
  TransferCounts transfer_counts() const override { return local_->transfer_counts(); }
  DeviceCounters device_counters() const override { return local_->device_counters(); }
  void release_cached_memory() override { local_->release_cached_memory(); }
  double copy_bandwidth() override { return local_->copy_bandwidth(); }
  double gather_rate() override { return local_->gather_rate(); }
  ResidentArrays* resident_arrays() override { return local_->resident_arrays(); }

  Matrix spgemm(const Matrix& a, const Matrix& b) override;
  Matrix select_rows(const Matrix& a, const Ids& rows) override;
  Matrix select_cols_blocked(const Matrix& a, const Offsets& row_offsets, const BlockedIds& cols,
                             const Values& weights) override;
  // A graph held whole runs these as one op of the local backend; a distributed one
  // as the default composition of the ops above.
  Matrix select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                  const Values& weights) override;
  Matrix sample_rows_masked(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Matrix& mask,
                            Ids* positions = nullptr) override;
  Matrix normalize_rows(Matrix p, RowScale scale) override;
  Values reciprocals(const Values& values, float factor) override { return local_->reciprocals(values, factor); }
  Matrix block_indicator(const BlockedIds& ids, int64_t cols) override { return local_->block_indicator(ids, cols); }
  Matrix select_rows_by_key(const Matrix& m, const BlockedIds& keys, const BlockedIds& rows) override {
    return local_->select_rows_by_key(m, keys, rows);
  }
  Matrix pad_row_blocks(Matrix m, const Offsets& row_offsets, const Offsets& padded_offsets) override {
    return local_->pad_row_blocks(std::move(m), row_offsets, padded_offsets);
  }
  Ids sequence_ids(int64_t n) override { return local_->sequence_ids(n); }
  Ids sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) override {
    return local_->sequence_runs(starts, run_offsets);
  }
  Ids gather_ids(const Ids& ids, const Ids& at) override { return local_->gather_ids(ids, at); }
  Ids range_positions(const Ids& ids, const std::vector<vid_t>& bounds) override {
    return local_->range_positions(ids, bounds);
  }
  Matrix add_entries(const Matrix& a, const Matrix& b) override { return local_->add_entries(a, b); }
  Ids first_columns(const Matrix& m, const Ids& fallback) override { return local_->first_columns(m, fallback); }
  Matrix its_sample(const Matrix& p, int64_t s, const SampleKeys& keys) override;
  Matrix sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                     Ids* positions = nullptr) override;
  // LABOR's rows, decided where sample_rows would sample them (RowSampling):
  // an entry's number depends on its minibatch and column only, so any rank
  // decides a row as one process does.
  // A distributed graph has no entry times yet: an error; local matrices pass through.
  Matrix sample_rows_before(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds, TemporalStrategy strategy,
                            Ids* positions = nullptr) override;
  Matrix select_rows_before(const Matrix& a, const Ids& rows, const Offsets& row_offsets, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds) override;
  // Draws with replacement of a partitioned graph are not there yet: an error for one.
  Matrix sample_rows_with_replacement(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                      Ids* positions = nullptr) override;
  Matrix labor_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                           Ids* positions = nullptr) override;
  // Rows fetched whole from their owners, then drawn here.
  Matrix guided_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const ColumnImportance& importance,
                            const SampleKeys& keys) override;
  Compacted compact_columns(Matrix s, const Offsets& row_offsets, const BlockedIds& leading,
                            Ids* carried = nullptr) override;
  SharedCompacted compact_columns_shared(std::vector<Matrix> parts, const std::vector<Offsets>& row_offsets,
                                         const BlockedIds& leading, std::vector<Ids>* carried = nullptr) override;
  Matrix mask_entries(Matrix p, const Matrix& mask) override;
  Counts tally_ids(Counts counts, int64_t n, const Ids& ids) override {
    return local_->tally_ids(std::move(counts), n, ids);
  }
  Counts tally_induced_entries(Counts counts, const Matrix& a, const BlockedIds& blocks) override;
  Matrix normalize_rows_by_tallies(const Matrix& a, const Counts& row_tallies, const Counts& entry_tallies) override;
  Values gather(const Matrix& p, const BlockedIds& at) override;
  Ids entry_positions(const Matrix& a, const Ids& rows, const Matrix& s, const Ids& columns) override;
  RequestedRows request_rows(const Ids& rows, int64_t n, const SampleKeys& keys,
                             const std::vector<vid_t>& bounds) override {
    return local_->request_rows(rows, n, keys, bounds);
  }
  AnsweredRows sample_requested_rows(const Matrix& block, const Ids& words, const std::vector<int64_t>& segments,
                                     vid_t first_row, int64_t s, const RandomKey& base, RowDraw draw) override {
    return local_->sample_requested_rows(local_view(block), words, segments, first_row, s, base, draw);
  }
  // The walk needs the whole graph: a local (replicated) matrix only.
  Matrix frontier_walk(const Matrix& adj, const BlockedIds& roots, int64_t steps, const FrontierKeys& keys,
                       double enlargement) override;

 protected:
  Matrix register_graph_impl(const CsrMatrix& a) override { return local_->register_graph(a); }
  Matrix upload_impl(CsrMatrix m) override { return local_->upload(std::move(m)); }
  Ids upload_ids_impl(std::vector<vid_t> ids) override { return local_->upload_ids(std::move(ids)); }
  Values upload_values_impl(std::vector<float> values) override { return local_->upload_values(std::move(values)); }
  CsrMatrix to_host_impl(Matrix m) override;
  std::vector<vid_t> ids_to_host_impl(Ids ids) override { return local_->ids_to_host(std::move(ids)); }
  std::vector<float> values_to_host_impl(Values values) override { return local_->values_to_host(std::move(values)); }
  void synchronize_impl() override { local_->synchronize(); }

 private:
  // Whether this rank holds every row (a grid of one rank).
  bool holds_every_row() const;
  // The local backend's handle of a distributed matrix this rank holds whole; m otherwise.
  const Matrix& local_view(const Matrix& m) const;
  // The operand id of a distributed handle; -1 for a local one or a shared row.
  int operand_of(const Matrix& m) const;
  // The product's id of a shared row's handle; -1 for any other.
  int shared_row_of(const Matrix& m) const;
  void reject_distributed(const Matrix& m, const char* op) const;
  // A partitioned graph has no entry times yet: an error for one.
  void check_not_partitioned_for_time(const Matrix& a) const;
  // Rows of a distributed matrix, fetched whole through the product (R·A).
  CsrMatrix fetch_rows(const Matrix& a, const std::vector<vid_t>& rows);

  GraphProduct& product_;
  std::unique_ptr<Backend> local_;
  RowSampling row_sampling_ = RowSampling::at_owner;
};

}  // namespace matsamp
