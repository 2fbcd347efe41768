// The seam between the samplers and what runs them: a backend is the sparse ops
// of DESIGN.md over matrices and id lists that live in it, plus transfers, and
// nothing else (no op knows which sampler calls it). The CPU backend is here;
// the CUDA backend is in kernels/, the distributed one in distributed/. Every
// backend gives exactly the CPU reference's results (csrc/ops/ops.h).
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/device_memory.h"
#include "backend/resident.h"
#include "ops/frontier.h"
#include "ops/ops.h"

namespace matsamp {

class Communicator;  // distributed/communicator.h

// How normalize_rows scales a row.
enum class RowScale {
  by_sum,             // each value / the row's sum
  by_sum_of_squares,  // each value squared, then / the sum of the squares
  mean,               // every entry 1 / (entries in the row): mean aggregation
};

// compact_columns' result: the adjacency with per-minibatch local columns, and
// its column list (column offsets[g] + j is ids[offsets[g] + j]).
struct Compacted {
  Matrix adj;
  BlockedIds vertices;
};

// compact_columns_shared's result: each part relabelled, and the shared list.
struct SharedCompacted {
  std::vector<Matrix> adj;
  BlockedIds vertices;
};

// What a backend's transfer ops did so far: each call of one is a copy between
// the host and the backend (on the CPU a hand-over, counted all the same), with
// the bytes of the arrays it handed over; and calls of synchronize(). A sampler
// whose steps stay in the backend makes none of either between its ops.
struct TransferCounts {
  int64_t copies = 0;
  int64_t bytes = 0;
  int64_t syncs = 0;
  TransferCounts& operator+=(const TransferCounts& other);
  TransferCounts operator-(const TransferCounts& other) const;
};

// request_rows' result in a backend (ops.h: RowRequests); the counts are sizes, on the host.
struct RequestedRows {
  Ids words;
  Ids back;
  std::vector<int64_t> counts;
};

// sample_requested_rows' result: the rows drawn, and how many entries each
// segment of them (one per asking process) holds.
struct AnsweredRows {
  Matrix rows;
  std::vector<int64_t> entries;
};

class ResidentArrays;  // backend/resident_arrays.h

struct DeviceCsrArrays {
  const int64_t* rowptr = nullptr;  // rows + 1
  const col_t* colidx = nullptr;    // nnz
  const float* values = nullptr;    // nnz; null without values
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;

  // ---- Transfers (counted here, done by the *_impl of each backend)
  // A graph matrix the samplers read again and again; `a` must outlive every
  // handle made from it (the CPU keeps a reference, a GPU a copy). The handle
  // knows whether its rows are uniform (Matrix::uniform_rows).
  Matrix register_graph(const CsrMatrix& a);
  Matrix upload(CsrMatrix m);
  Ids upload_ids(std::vector<vid_t> ids);
  Values upload_values(std::vector<float> values);
  // Handles are taken by value: a handle moved in that is its storage's only one
  // gives its arrays up without a copy.
  CsrMatrix to_host(Matrix m);
  std::vector<vid_t> ids_to_host(Ids ids);
  std::vector<float> values_to_host(Values values);
  // Waits until the work queued so far has finished (to time a step).
  void synchronize();
  // The transfers and synchronizations of this backend since it was made (safe
  // to read while other threads use it; their calls are counted as well). A
  // backend over another counts the other's, where its ops copy.
  virtual TransferCounts transfer_counts() const;
  // ---- The device behind the backend (none on the CPU: zeros, no-ops)
  // What it did so far: bytes moved, peak and resident memory, free memory now.
  virtual DeviceCounters device_counters() const { return {}; }
  // Gives the memory the backend's pool keeps between calls back to the device,
  // so that another allocator on it (torch's, when training or in Python) can
  // use it; the next call grows the pool again.
  virtual void release_cached_memory() {}
  // Measured on the memory the backend samples in (the host's once per machine and
  // thread count, then kept: util/host_rates.h; device memory on a GPU): bytes/s of
  // a large copy (read + write) and random 4-byte gathers/s. What bench's floor is
  // taken on.
  virtual double copy_bandwidth();
  virtual double gather_rate();
  // The arrays behind a handle where the device keeps them, for a consumer on the
  // same device (torch): read-only, valid while the handle lives, and complete
  // (the queued work has finished when these return). Host backends throw.
  virtual DeviceCsrArrays device_csr(const Matrix& m);
  virtual const vid_t* device_ids(const Ids& ids);
  // A backend whose ops are collectives of several processes (graph-partitioned
  // sampling) serves the others until every one has called this: call it after
  // sampling calls that processes may end at different points, before any
  // other collective. Elsewhere it does nothing.
  virtual void finish_collectives() {}
  // What such a backend's collectives go through (null: its ops are local). Sampling
  // runs on a thread of its own only where training makes no other call through it.
  virtual const Communicator* collective_communicator() const { return nullptr; }
  // The backend's arrays for a transport that moves them in place (null where they
  // cannot be reached from outside: they then travel through the transfers).
  virtual ResidentArrays* resident_arrays() { return nullptr; }

  // ---- Ops (contracts in ops/ops.h)
  virtual Matrix spgemm(const Matrix& a, const Matrix& b) = 0;
  virtual Matrix select_rows(const Matrix& a, const Ids& rows) = 0;
  // diag(A_1 … A_k)·[C_1; …; C_k] with C_g the columns of cols block g scaled
  // by weights (undefined: 1).
  virtual Matrix select_cols_blocked(const Matrix& a, const Offsets& row_offsets, const BlockedIds& cols,
                                     const Values& weights) = 0;
  // select_cols_blocked(select_rows(a, rows.ids), rows.offsets, …) without
  // forming R·A. The default composes the two.
  virtual Matrix select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                          const Values& weights);
  // P ∘ ¬M (ops.h).
  virtual Matrix mask_entries(Matrix p, const Matrix& mask) = 0;
  // Rows of m picked by key within each block (ops.h: select_rows_by_key);
  // keys.offsets are m's row blocks.
  virtual Matrix select_rows_by_key(const Matrix& m, const BlockedIds& keys, const BlockedIds& rows) = 0;
  // m's row blocks at the ends of longer blocks, the rows before them empty (ops.h: pad_row_blocks).
  virtual Matrix pad_row_blocks(Matrix m, const Offsets& row_offsets, const Offsets& padded_offsets) = 0;
  // The ids 0 … n - 1 (ops.h: sequence_ids).
  virtual Ids sequence_ids(int64_t n) = 0;
  // Runs of consecutive ids, and ids in the order of positions (ops.h: sequence_runs, gather_ids).
  virtual Ids sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) = 0;
  virtual Ids gather_ids(const Ids& ids, const Ids& at) = 0;
  // ops.h's range_positions (the ranges' bounds on the host).
  virtual Ids range_positions(const Ids& ids, const std::vector<vid_t>& bounds) = 0;
  // A + B and each row's first column (ops.h: add_entries, first_columns).
  virtual Matrix add_entries(const Matrix& a, const Matrix& b) = 0;
  virtual Ids first_columns(const Matrix& m, const Ids& fallback) = 0;
  virtual Matrix normalize_rows(Matrix p, RowScale scale) = 0;
  virtual Values reciprocals(const Values& values, float factor) = 0;
  // ids.blocks() rows of `cols` columns: row g marks the ids of block g.
  virtual Matrix block_indicator(const BlockedIds& ids, int64_t cols) = 0;
  virtual Matrix its_sample(const Matrix& p, int64_t s, const SampleKeys& keys) = 0;
  // its_sample(normalize_rows(select_rows(a, rows)), s, keys) without forming P.
  // With `positions`, also each entry's position in a (index into its column
  // ids): what names a sampled edge, carried through compact_columns.
  virtual Matrix sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                             Ids* positions = nullptr) = 0;
  // sample_rows with replacement (ops.h: sample_rows_with_replacement): s draws
  // per row with a positive entry, repeats kept; positions as sample_rows'.
  virtual Matrix sample_rows_with_replacement(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                              Ids* positions = nullptr) = 0;
  // sample_rows over select_rows(a, rows) ∘ ¬mask (ops.h: sample_rows_masked),
  // positions in a. The default composes select_rows, mask_entries and
  // sample_rows (rows read whole) and locates the positions (entry_positions).
  virtual Matrix sample_rows_masked(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                    const Matrix& mask, Ids* positions = nullptr);
  // Temporal sampling (ops.h: sample_rows_before): a's time order (TimeOrder's
  // two arrays), bounds one per block of keys (the seed times); positions as sample_rows'.
  virtual Matrix sample_rows_before(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                    const Ids& order, const Ids& sorted_times, const std::vector<int64_t>& bounds,
                                    TemporalStrategy strategy, Ids* positions = nullptr) = 0;
  // The rows cut to their entries no later than their block's bound (ops.h:
  // select_rows_before; row_offsets the blocks of rows), for a draw that reads rows whole.
  virtual Matrix select_rows_before(const Matrix& a, const Ids& rows, const Offsets& row_offsets, const Ids& order,
                                    const Ids& sorted_times, const std::vector<int64_t>& bounds) = 0;
  // LABOR-0's draw (ops.h); positions as sample_rows'.
  virtual Matrix labor_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                   Ids* positions = nullptr) = 0;
  // ops.h's guided_sample_rows. The default samples on the host: A's form there
  // when it has one, else the selected rows copied there.
  virtual Matrix guided_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const ColumnImportance& importance,
                                    const SampleKeys& keys);
  // Block g of s (row_offsets) gets the columns leading block g first, then its
  // other non-empty columns in ascending id. leading.ids undefined: no block has
  // leading columns (its offsets are all 0). With `carried` (one id per entry
  // of s), its ids move with their entries.
  // By default compact_columns_shared of the one part.
  virtual Compacted compact_columns(Matrix s, const Offsets& row_offsets, const BlockedIds& leading,
                                    Ids* carried = nullptr);
  // compact_columns of several matrices whose block g shares one vertex list
  // (ops.h: compact_columns_shared): a heterogeneous graph's relations into one
  // vertex type. carried: null, or one array per part (undefined where none)
  // moved with that part's entries, as compact_columns'.
  virtual SharedCompacted compact_columns_shared(std::vector<Matrix> parts, const std::vector<Offsets>& row_offsets,
                                                 const BlockedIds& leading, std::vector<Ids>* carried = nullptr) = 0;
  // P's value at (row g, at.ids[i]) for i in block g of `at` (row 0 for every
  // block when P is one shared row); 0 where P has no entry.
  virtual Values gather(const Matrix& p, const BlockedIds& at) = 0;
  // Where each entry of s is in a (ops.h: entry_positions): row i of s is a's
  // row rows.ids[i], column j of s is a's column columns[j]; -1 where a has none.
  virtual Ids entry_positions(const Matrix& a, const Ids& rows, const Matrix& s, const Ids& columns) = 0;
  // Tallies kept across calls (ops.h; GraphSAINT's pre-sampled counts), taken
  // by value to be added to in place: n counts plus one at every id of `ids`;
  // one count per entry of the square a plus one at every entry inside a
  // block's induced subgraph; a's rows normalized, then scaled by them.
  virtual Counts tally_ids(Counts counts, int64_t n, const Ids& ids) = 0;
  virtual Counts tally_induced_entries(Counts counts, const Matrix& a, const BlockedIds& blocks) = 0;
  virtual Matrix normalize_rows_by_tallies(const Matrix& a, const Counts& row_tallies, const Counts& entry_tallies) = 0;
  // GraphSAINT's frontier walk over the square graph adj (ops/frontier.h) from
  // the frontiers roots block g: row g of the result (k x adj.cols, values 1)
  // holds the distinct vertices minibatch g popped in `steps` steps, ascending
  // (ops/frontier.h: popped_sets).
  virtual Matrix frontier_walk(const Matrix& adj, const BlockedIds& roots, int64_t steps, const FrontierKeys& keys,
                               double enlargement) = 0;
  // Rows of a partitioned graph asked of their owners (ops.h: request_rows,
  // sample_requested_rows): the requests for `rows` (ids below n) in the ranges
  // of bounds, and an owner's draw of the rows asked of its block, in segments of
  // the given request counts (one per asking process).
  virtual RequestedRows request_rows(const Ids& rows, int64_t n, const SampleKeys& keys,
                                     const std::vector<vid_t>& bounds) = 0;
  virtual AnsweredRows sample_requested_rows(const Matrix& block, const Ids& words,
                                             const std::vector<int64_t>& segments, vid_t first_row, int64_t s,
                                             const RandomKey& base, RowDraw draw) = 0;

 protected:
  virtual Matrix register_graph_impl(const CsrMatrix& a) = 0;
  virtual Matrix upload_impl(CsrMatrix m) = 0;
  virtual Ids upload_ids_impl(std::vector<vid_t> ids) = 0;
  virtual Values upload_values_impl(std::vector<float> values) = 0;
  virtual CsrMatrix to_host_impl(Matrix m) = 0;
  virtual std::vector<vid_t> ids_to_host_impl(Ids ids) = 0;
  virtual std::vector<float> values_to_host_impl(Values values) = 0;
  virtual void synchronize_impl() {}

  // Throws unless the handle is defined and was made by this backend.
  template <class Handle>
  void check_mine(const Handle& h, const char* op) const {
    check_made_here(h.owner(), h.defined(), op);
  }
  void check_made_here(const Backend* owner, bool defined, const char* op) const;

 private:
  void count_copy(int64_t bytes);
  std::atomic<int64_t> copies_{0}, bytes_{0}, syncs_{0};
};

// The operands of a draw over masked rows: select_rows(a, rows) ∘ ¬mask (its
// rows uniform when a's are) and the ids 0 … m - 1 of its rows.
std::pair<Matrix, Ids> masked_rows(Backend& backend, const Matrix& a, const Ids& rows, const Matrix& mask);

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace matsamp
