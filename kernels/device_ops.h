// The ops of DESIGN.md on device-resident CSR (implemented in the .cu files of
// kernels/). Each result equals the CPU op's (csrc/ops/ops.h) bit for bit, unless
// its comment says otherwise; arguments are checked by the caller (the backend
// checks them on the host, with the CPU ops' messages).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/device_csr.h"
#include "ops/frontier.h"

namespace matsamp::gpu {

// Stacked blocks on the device: block g is [offsets[g], offsets[g+1]), k blocks.
struct DeviceOffsets {
  const int64_t* offsets = nullptr;  // k + 1
  int64_t blocks = 0;                // k
  int64_t total = 0;                 // offsets[k], known on the host
};

// The random-number names of a sampling op (SampleKeys with device offsets).
struct DeviceKeys {
  uint64_t seed = 0;
  uint32_t epoch = 0;
  uint32_t layer = 0;
  int64_t first_minibatch = 0;
  DeviceOffsets rows;  // rows.total rows are sampled
  // Rows asked by other processes: row r's minibatch and row are its request's
  // words (ops.h: request_rows) instead of its place in rows' blocks.
  const int64_t* words = nullptr;
};

// C = A·B summing every entry in the order of A's row, like the CPU's Gustavson
// loop, so values are bit-identical (expand, stable sort, ordered reduce). Rows
// are processed in chunks whose temporaries fit budget_bytes.
DeviceCsr spgemm_ordered(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t budget_bytes);

// C = A·B with cuSPARSE's generic SpGEMM: ALG1 when its buffers fit budget_bytes,
// else the memory-frugal ALG2, then ALG3 with shrinking chunk fractions, and
// rows split in halves when even that does not fit. Rows come out sorted; values
// may differ from the CPU in the last bit (cuSPARSE's summation order).
DeviceCsr spgemm_cusparse(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t budget_bytes);

// R·A: the rows `rows[0..m)` of A (values 1 where A has none).
DeviceCsr select_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t m);

// diag(A_1 … A_k)·[C_1; …; C_k] (see ops.h); weights may be null (all 1).
DeviceCsr select_cols_blocked(DeviceEngine& engine, const CsrView& a, DeviceOffsets row_blocks, const vid_t* cols,
                              DeviceOffsets col_blocks, const float* weights);

// P's entry (0 when absent) at column cols[i] of row g for each i of block g
// (row 0 when P is one shared row): the probabilities of a layer-wise frontier.
DeviceArray<float> entries_at(DeviceEngine& engine, const CsrView& p, DeviceOffsets blocks, const vid_t* cols);

// entry_positions of ops.h (ids checked by the caller): for each entry of S's
// row i, its position in A at row rows[i] and column columns[S column], or -1;
// columns null: S's columns are A's (sample_rows' positions).
DeviceArray<vid_t> entry_positions(DeviceEngine& engine, const CsrView& a, const vid_t* rows, const CsrView& s,
                                   const vid_t* columns);

// Divides each row by its sum (a double summed in row order, like the CPU), after
// squaring each value when square_first. p must have values.
void normalize_rows(DeviceEngine& engine, DeviceCsr& p, bool square_first);

// Sets every value of p (allocating values when it has none) to `value`.
void fill_values(DeviceEngine& engine, DeviceCsr& p, float value);

// reciprocals of ops.h: 1 / (factor · v) for each of the n values.
DeviceArray<float> reciprocals(DeviceEngine& engine, const float* values, int64_t n, float factor);

// block_indicator of ops.h (ids checked by the caller).
DeviceCsr block_indicator(DeviceEngine& engine, const vid_t* ids, DeviceOffsets blocks, int64_t cols);

// select_rows_by_key of ops.h (arguments checked by the caller; keys ascending
// and distinct per block, as upload_excluded makes them).
DeviceCsr select_rows_by_key(DeviceEngine& engine, const CsrView& m, const vid_t* keys, DeviceOffsets key_blocks,
                             const vid_t* rows, DeviceOffsets row_blocks);

// pad_row_blocks of ops.h (blocks checked by the caller); m's entries are moved.
DeviceCsr pad_row_blocks(DeviceEngine& engine, DeviceCsr m, DeviceOffsets row_blocks, DeviceOffsets padded_blocks);

// mask_entries of ops.h: P without the entries the mask's row has (mask rows sorted).
DeviceCsr mask_entries(DeviceEngine& engine, const CsrView& p, const CsrView& mask);

// sequence_ids of ops.h.
DeviceArray<vid_t> sequence_ids(DeviceEngine& engine, int64_t n);

// sequence_runs and gather_ids of ops.h (run starts on the device; positions checked by the caller).
DeviceArray<vid_t> sequence_runs(DeviceEngine& engine, const int64_t* starts, DeviceOffsets runs);
DeviceArray<vid_t> gather_ids(DeviceEngine& engine, const vid_t* ids, const vid_t* at, int64_t n);
// range_positions of ops.h (bounds ascending, checked by the caller); throws for
// an id outside them.
DeviceArray<vid_t> range_positions(DeviceEngine& engine, const vid_t* ids, int64_t n, const std::vector<vid_t>& bounds);

// add_entries of ops.h (same shapes, checked by the caller).
DeviceCsr add_entries(DeviceEngine& engine, const CsrView& a, const CsrView& b);

// first_columns of ops.h: fallback has m.rows ids.
DeviceArray<vid_t> first_columns(DeviceEngine& engine, const CsrView& m, const vid_t* fallback);

// its_sample of ops.h: p.rows == rows sampled, or a single row shared by all.
DeviceCsr its_sample(DeviceEngine& engine, const CsrView& p, int64_t s, const DeviceKeys& keys);

// sample_rows of ops.h (rows[i] of A for keyed row i).
DeviceCsr sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s, const DeviceKeys& keys,
                      bool uniform_rows);

// sample_rows_with_replacement of ops.h (rows[i] of A for keyed row i).
DeviceCsr sample_rows_with_replacement(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                                       const DeviceKeys& keys, bool uniform_rows);

// sample_rows_before of ops.h (rows[i] of A for keyed row i): A's time order
// (order, sorted_times), bounds one per block of keys.rows; last: the latest entries.
DeviceCsr sample_rows_before(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                             const DeviceKeys& keys, const vid_t* order, const vid_t* sorted_times,
                             const int64_t* bounds, bool last);

// select_rows_before of ops.h: rows[i] of A for row i of `blocks`, cut to its
// entries no later than bounds[its block], in A's order (A's values, 1 for a pattern).
DeviceCsr select_rows_before(DeviceEngine& engine, const CsrView& a, const vid_t* rows, DeviceOffsets blocks,
                             const vid_t* order, const vid_t* sorted_times, const int64_t* bounds);

// request_rows of ops.h (rows checked by the caller): words and back on the
// device, the counts per range of bounds read back.
struct DeviceRequests {
  DeviceArray<int64_t> words;
  DeviceArray<vid_t> back;
  std::vector<int64_t> counts;
};
DeviceRequests request_rows(DeviceEngine& engine, const vid_t* rows, int64_t m, const DeviceKeys& keys,
                            const std::vector<vid_t>& bounds);
// The rows of a block [first_row, first_row + block_rows) that requests name
// (an error for one outside it).
DeviceArray<vid_t> requested_local_rows(DeviceEngine& engine, const int64_t* words, int64_t count, vid_t first_row,
                                        int64_t block_rows);
// rowptr at the given rows, read back; each row's length.
std::vector<int64_t> row_pointers_at(DeviceEngine& engine, const int64_t* rowptr, const std::vector<int64_t>& rows);
DeviceArray<vid_t> row_lengths(DeviceEngine& engine, const int64_t* rowptr, int64_t rows);

// labor_sample_rows of ops.h (rows[i] of A for keyed row i), decided on the device.
DeviceCsr labor_sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                            const DeviceKeys& keys);

// A ColumnImportance on the device: listed ids (ascending) with their weights, 1
// for the own range [own_first, own_end), `elsewhere` for every other column.
struct DeviceImportance {
  const vid_t* ids = nullptr;
  const float* weights = nullptr;
  int64_t count = 0;
  vid_t own_first = 0, own_end = 0;
  float elsewhere = 1.0f;
};

// guided_sample_rows of ops.h (rows[i] of A for keyed row i), decided on the device.
DeviceCsr guided_sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                             const DeviceImportance& importance, const DeviceKeys& keys);

struct DeviceCompact {
  DeviceCsr adj;
  DeviceArray<vid_t> vertices;
  std::vector<int64_t> col_offsets;  // host: k + 1
};

// compact_columns of ops.h. Throws when a vertex repeats among the leading
// vertices of one block, or the stacked column count overflows col_t.
// With `carried` (one id per entry of s), its ids move with their entries.
DeviceCompact compact_columns(DeviceEngine& engine, const DeviceCsr& s, DeviceOffsets row_blocks, const vid_t* leading,
                              DeviceOffsets leading_blocks, DeviceArray<vid_t>* carried = nullptr);

struct DeviceSharedCompact {
  std::vector<DeviceCsr> adj;  // each part relabelled, in order
  DeviceArray<vid_t> vertices;
  std::vector<int64_t> col_offsets;  // host: k + 1
};
// compact_columns_shared of ops.h: the parts (same columns; part i's k row
// blocks in row_blocks[i]) share each block's vertex list.
// carried: empty, or one array per part (null where none) moved with that
// part's entries, as compact_columns'.
DeviceSharedCompact compact_columns_shared(DeviceEngine& engine, const std::vector<const DeviceCsr*>& parts,
                                           const std::vector<DeviceOffsets>& row_blocks, const vid_t* leading,
                                           DeviceOffsets leading_blocks,
                                           const std::vector<DeviceArray<vid_t>*>& carried = {});

// The tallies of ops.h, added to counts in place: tally_ids (m ids below the
// counts' size) and tally_induced_entries (one count per entry of the square a;
// ids distinct within each block).
void tally_ids(DeviceEngine& engine, int64_t* counts, const vid_t* ids, int64_t m);
void tally_induced_entries(DeviceEngine& engine, int64_t* counts, const CsrView& a, const vid_t* ids,
                           DeviceOffsets blocks);
// normalize_rows_by_tallies of ops.h (a.rows row tallies, a.nnz entry tallies).
DeviceCsr normalize_rows_by_tallies(DeviceEngine& engine, const CsrView& a, const int64_t* row_tallies,
                                    const int64_t* entry_tallies);

// frontier_sample of ops/frontier.h, pop for pop the CPU's Dashboard (one thread
// block per minibatch), as popped_sets makes it: row g holds the distinct
// vertices walk g popped. `offsets` are root_blocks' on the host.
DeviceCsr frontier_sample(DeviceEngine& engine, const CsrView& adj, const vid_t* roots, DeviceOffsets root_blocks,
                          const Offsets& offsets, int64_t steps, const FrontierKeys& keys, double enlargement);

}  // namespace matsamp::gpu
