// The sparse ops every sampler is written in (DESIGN.md, "The ops"), CPU/OpenMP backend.
// Each op's result is exactly that of the sparse product it stands for; rows of
// every result have sorted, unique column ids.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/csr.h"
#include "core/philox.h"

namespace matsamp {

class ColumnImportance;  // ops/column_importance.h

// 0, 1, …, k: one row per minibatch (the layer-wise and subgraph samplers' Q).
inline Offsets one_row_per_minibatch(int64_t k) {
  Offsets offsets(k + 1);
  for (int64_t g = 0; g <= k; ++g) offsets[g] = g;
  return offsets;
}

// C = A·B over (+, ×), each entry summed in the order of A's row.
CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b);

// R·A where R has one 1 per row, at column rows[i].
CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows);

// A·C where C has one nonzero per column: C[cols[j], j] = weights[j] (1 when empty).
CsrMatrix select_cols(const CsrMatrix& a, const std::vector<vid_t>& cols, const std::vector<float>& weights = {});

// Block-diagonal column extraction diag(A_1 … A_k)·[C_1; …; C_k]: rows of block g
// (row_offsets) keep the columns listed in cols[col_offsets[g] … col_offsets[g+1]),
// renumbered to col_offsets[g] + j and scaled by weights[j] (1 when empty).
CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                              const Offsets& col_offsets, const std::vector<float>& weights = {});

// select_cols_blocked(select_rows(a, rows), …) without forming R·A: a layer-wise
// sampler's extraction, where most of each selected row misses the sample.
CsrMatrix select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                                   const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                   const std::vector<float>& weights = {});

// P ∘ ¬M: P without the entries where M has one (M's values are ignored; M has
// P's shape). A masked row extraction: link prediction's seed edges taken out of
// the rows a minibatch samples from.
CsrMatrix mask_entries(CsrMatrix p, const CsrMatrix& mask);

// Rows of a keyed matrix M picked by key within each block: block g of M's rows
// (key_offsets) carries the keys keys[key_offsets[g] … key_offsets[g + 1]),
// ascending and distinct; row i of the result, in block g of row_offsets, is
// M's row whose key in block g is rows[i], empty when block g has none. M's
// columns. Link prediction's masks: a minibatch's excluded edges, keyed by
// source, looked up for the rows of its frontier.
CsrMatrix select_rows_by_key(const CsrMatrix& m, const std::vector<vid_t>& keys, const Offsets& key_offsets,
                             const std::vector<vid_t>& rows, const Offsets& row_offsets);

// Each block g of m's rows (row_offsets) as the last rows of block g of the
// result (padded_offsets, each block at least as long), the rows before them
// empty; the entries unchanged and in order (m's are moved). A node-wise layer
// that drew only its frontier's new vertices (PyG's expansion) back on the
// frontier's rows.
CsrMatrix pad_row_blocks(CsrMatrix m, const Offsets& row_offsets, const Offsets& padded_offsets);

// The ids 0, 1, …, n − 1: each row of a matrix named by its position (the draw
// over masked rows, whose row i is frontier row i).
std::vector<vid_t> sequence_ids(int64_t n);

// Runs of consecutive ids: run i is starts[i], starts[i] + 1, … up to its length
// run_offsets[i + 1] − run_offsets[i], the runs one after the other.
// sequence_ids(n) is the one run {0} of length n; pieces of an id list taken in a
// new order (disjoint trees' items hop by hop) are runs of positions.
std::vector<vid_t> sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets);

// ids[at[0]], ids[at[1]], …: an id list in the order of the positions `at`.
std::vector<vid_t> gather_ids(const std::vector<vid_t>& ids, const std::vector<vid_t>& at);

// Where each id goes when the ids are grouped by the range of `bounds` holding
// it (range q: [bounds[q], bounds[q + 1]), bounds ascending), in their order
// within a range: out[i] = the ids of the ranges before ids[i]'s, plus those of
// its range before i. Every id lies in [bounds.front(), bounds.back()).
std::vector<vid_t> range_positions(const std::vector<vid_t>& ids, const std::vector<vid_t>& bounds);

// A + B (same shape): row i holds the columns of row i of either, with the sum
// of their values where both have one (a + b in float). A random walk's visits,
// step by step.
CsrMatrix add_entries(const CsrMatrix& a, const CsrMatrix& b);

// Row i's first column id, or fallback[i] when row i is empty (one id per row
// of m): where each walker of a random walk is after a step, its picks in m
// (a walker without one stays).
std::vector<vid_t> first_columns(const CsrMatrix& m, const std::vector<vid_t>& fallback);

// Divides each row by its sum, after squaring each value when square_first.
// All-zero rows stay zero.
void normalize_rows(CsrMatrix& p, bool square_first = false);

// 1 / (factor · v) for every value v (in float): the layer-wise samplers'
// importance weights 1/(s·p(v)).
std::vector<float> reciprocals(const std::vector<float>& values, float factor);

// Q with one row per block g of ids (ids[offsets[g], offsets[g + 1])) and `cols`
// columns, holding a 1 at every distinct id of its block (any order, repeats
// allowed): the layer-wise samplers' frontier indicator.
CsrMatrix block_indicator(const std::vector<vid_t>& ids, const Offsets& offsets, int64_t cols);

// Names the random numbers of its_sample: row r of block g draws from
// (seed, epoch, layer, first_minibatch + g, r - row_offsets[g], draw).
struct SampleKeys {
  uint64_t seed = 0;
  uint32_t epoch = 0;
  uint32_t layer = 0;
  int64_t first_minibatch = 0;
  Offsets row_offsets;  // k + 1 entries; its back() is the number of rows sampled
};

// Per row, exactly min(s, #positive entries) distinct entries, each drawn with
// probability proportional to its value (inverse transform sampling with redraw
// on repeats). Values of the result are the chosen values of P. When P has a
// single row and keys name several rows, that row is shared by all of them.
CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys);

// A weighted matrix's draw tables, built once for every sample_rows call on it:
// each row of normalize_rows(a) (its values), their inclusive prefix of quantized
// weights (its_sample_row.h), each row's number of positive values, and a long
// row's guide: about one bucket of the prefix's range per 4 entries, each
// naming the entries a draw landing in it can pick, so a draw searches a few
// entries instead of the whole row (same picks). About 13 bytes per entry;
// with them a weighted row costs O(s) instead of O(d).
struct DrawTables {
  std::vector<float> normalized;
  std::vector<uint64_t> prefix;
  std::vector<int64_t> positive;
  std::vector<int64_t> guide_begin;  // row r's guide: guide[guide_begin[r], guide_begin[r + 1]), empty for short rows
  std::vector<int32_t> guide;
};
DrawTables draw_tables(const CsrMatrix& a);

// Fast path of its_sample(normalize_rows(select_rows(a, rows)), s, keys) that
// never forms P; the result is exactly that composition's. With uniform_rows
// (every row of a holds equal positive values, see has_uniform_rows) a row
// costs O(s log s) whatever its length; with `tables` (draw_tables(a)) a
// weighted row O(s log d). With `positions`, also each entry's position in a
// (the index into a.colidx it was drawn from).
CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                      bool uniform_rows, std::vector<vid_t>* positions = nullptr, const DrawTables* tables = nullptr);

// sample_rows over the masked rows: exactly sample_rows(mask_entries(select_rows(a,
// rows), mask), 0 … m - 1, s, keys, uniform_rows), without forming them (a
// row without mask entries costs what sample_rows costs). Link prediction's
// seed edges out of GraphSAGE's draws.
CsrMatrix sample_rows_masked(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             bool uniform_rows, const CsrMatrix& mask, std::vector<vid_t>* positions = nullptr);

// sample_rows with replacement (PyG's replace=True): each row of
// normalize_rows(select_rows(a, rows)) with a positive entry draws s times,
// independently, draw t landing where the target scale_to(random_bits(row key,
// t), W) falls in the row's prefix of quantized weights (W their sum; equal
// weights when uniform_rows): s entries per row, repeats kept, in a's order,
// with their normalized values; none for a row without a positive entry.
// `positions` as sample_rows'.
CsrMatrix sample_rows_with_replacement(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                       const SampleKeys& keys, bool uniform_rows,
                                       std::vector<vid_t>* positions = nullptr);

// Each row's entries in time order, what temporal sampling reads: order[rowptr[r],
// rowptr[r + 1]) lists row r's positions by (time, position), sorted_times their
// times in that order. Rows sorted in parallel.
struct TimeOrder {
  std::vector<vid_t> order;
  std::vector<vid_t> sorted_times;
};
TimeOrder time_order(const CsrMatrix& a, const std::vector<int64_t>& entry_times);
// Each entry's time from its column vertex's (PyG's node-level time: a neighbour
// is as late as its vertex), what time_order takes.
std::vector<int64_t> column_times(const CsrMatrix& a, const std::vector<int64_t>& vertex_times);

// Temporal sampling: row rows[i] of block g draws only among its entries whose
// time is at most bounds[g] (its minibatch's, or with one seed per block its
// tree's, seed time): the first c of the row in time order (a binary search).
// uniform: its_sample's draw over those c entries in time order, weighted by A's
// values normalized by their sum (in that order), under sample_rows' keys; with
// uniform_rows (has_uniform_rows(a)) in O(log d + s); last: the last min(s, c) of
// them with positive values (the latest times, the later position first), no
// randomness. Picks are in column order with their normalized values; `positions`
// as sample_rows'.
enum class TemporalStrategy { uniform, last };
CsrMatrix sample_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             const std::vector<vid_t>& order, const std::vector<vid_t>& sorted_times,
                             const std::vector<int64_t>& bounds, TemporalStrategy strategy, bool uniform_rows,
                             std::vector<vid_t>* positions = nullptr);
// Rows rows[i] of a, block g (row_offsets) cut to the entries whose time is at
// most bounds[g], in a's (column) order with a's values: the rows a draw that
// reads them whole (LABOR) samples by time, as select_rows' are sampled untimed.
CsrMatrix select_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                             const std::vector<vid_t>& order, const std::vector<vid_t>& sorted_times,
                             const std::vector<int64_t>& bounds);
// "uniform" or "last" (pyg-lib's temporal_strategy names) as the strategy.
TemporalStrategy parse_temporal_strategy(const std::string& name);

// The same with the key of each row given (keys[i] for rows[i]): how the owner of
// distributed rows samples them for another process, bit-identical to the form
// above when keys[i] = row_key(keys, i).
CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const std::vector<RandomKey>& keys,
                      bool uniform_rows);

// The random key of row r of a keyed call: its block's global minibatch id and
// its position in the block.
RandomKey row_key(const SampleKeys& keys, int64_t r);

// LABOR-0 (layer-neighbour sampling): row i of block g of P = normalize_rows(select_rows(a,
// rows)) keeps each entry (i, t) with p_it > 0 independently with probability
// min(1, s·p_it), deciding by u_g(t) < s·p_it with u_g(t) = labor_uniform(keys, g, t):
// one uniform number per minibatch and column, shared by the minibatch's rows, so
// rows that share a neighbour tend to keep it together. A row keeps s entries in
// expectation (fewer where s·p > 1 is capped at 1); kept values are those of P.
// With `positions`, also each kept entry's position in a (as sample_rows'); with
// uniform_rows (every row of a holds equal positive values, see has_uniform_rows)
// a row's sum is not read from it (the same result).
CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                            std::vector<vid_t>* positions = nullptr, bool uniform_rows = false);
double labor_uniform(const SampleKeys& keys, int64_t minibatch, vid_t column);
// The same with each row's key given (its seed, epoch, layer and minibatch count;
// its row does not): how the owner of distributed rows decides them for another
// process, bit-identical to the form above when keys[i] = row_key(keys, i).
CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                            const std::vector<RandomKey>& keys, bool uniform_rows = false);

// Rows of a partitioned graph asked of the processes that own them (the
// distributed product's sampling at owners). A request travels as two words: its
// key's minibatch, then its key's row (high 32 bits) and its vertex (low 32 bits).
struct RowRequests {
  std::vector<int64_t> words;   // two per request; requests ordered by vertex, ties in row order
  std::vector<vid_t> back;      // for each row in range, in row order: its request's index
  std::vector<int64_t> counts;  // requests in each range [bounds[q], bounds[q + 1])
};
// The requests for the rows of `rows` (ids below n) in [bounds.front(), bounds.back())
// under `keys` (row r's key is row_key(keys, r)); bounds ascending.
RowRequests request_rows(const std::vector<vid_t>& rows, int64_t n, const SampleKeys& keys,
                         const std::vector<vid_t>& bounds);
inline int64_t request_word_minibatch(uint64_t minibatch) { return static_cast<int64_t>(minibatch); }
inline int64_t request_word_row(uint64_t row, vid_t vertex) {
  return static_cast<int64_t>((row << 32) | static_cast<uint32_t>(vertex));
}
inline vid_t requested_vertex(int64_t word) { return static_cast<vid_t>(static_cast<uint64_t>(word) & 0xFFFFFFFFu); }
inline uint64_t requested_row(int64_t word) { return static_cast<uint64_t>(word) >> 32; }

// How an owner draws the rows asked of it: sample_rows' or labor_sample_rows' draw.
enum class RowDraw { its, labor };
// The requested rows of a block whose first row is first_row, drawn under base's
// seed, epoch and layer with each request's minibatch and row: row i of the result
// is request i's, bit-identical to that row drawn where it was asked.
CsrMatrix sample_requested_rows(const CsrMatrix& block, const std::vector<int64_t>& words, vid_t first_row, int64_t s,
                                const RandomKey& base, RowDraw draw, bool uniform_rows);

// Guided sampling (DGS): labor_sample_rows with column t's chance in row i scaled
// by its importance w_t: entry (i, t) of P = normalize_rows(select_rows(a, rows))
// is kept with probability π_it = min(1, s·q_it), q_it = a_it·w_t / Σ_t' a_it'·w_t'
// (the same shared uniforms u_g(t)), and weighted p_it / π_it, so that over the draws
// a kept row's weighted sum of any x equals Σ_t p_it·x_t on average (Horvitz–Thompson).
// With every weight 1 it keeps LABOR-0's entries.
CsrMatrix guided_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                             const ColumnImportance& importance, const SampleKeys& keys);

// True when every row's stored values are equal and positive (unweighted graphs).
bool has_uniform_rows(const CsrMatrix& a);

// The result of compact_columns: the adjacency with per-minibatch local columns
// (stacked: column col_offsets[g] + j is vertices[col_offsets[g] + j]).
struct CompactResult {
  CsrMatrix adj;
  std::vector<vid_t> vertices;
  Offsets col_offsets;
};

// Drops empty columns and renumbers the rest per minibatch: block g's vertex list
// is leading[leading_offsets[g] …) first (kept even when empty), then the other
// non-empty columns of its rows in ascending vertex id.
// S is taken by value and relabelled in place: move it in when it is not needed
// afterwards (the sampled layers are large). With `carried` (one value per
// entry of S), its values move with their entries (e.g. their positions in the
// graph, from sample_rows).
CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                              const Offsets& leading_offsets, std::vector<vid_t>* carried = nullptr);

// compact_columns of several matrices with the same columns and k row blocks
// each (parts[i]'s in row_offsets[i]) that share each block's vertex list:
// leading block g first, then the other non-empty columns of block g of any
// part, ascending. The relations of a heterogeneous graph into one vertex type.
// carried: empty, or one pointer per part (null where none) whose values move
// with that part's entries, as compact_columns' `carried`.
struct SharedCompactResult {
  std::vector<CsrMatrix> adj;  // parts[i] relabelled, in order
  std::vector<vid_t> vertices;
  Offsets col_offsets;
};
SharedCompactResult compact_columns_shared(std::vector<CsrMatrix> parts, const std::vector<Offsets>& row_offsets,
                                           const std::vector<vid_t>& leading, const Offsets& leading_offsets,
                                           const std::vector<std::vector<vid_t>*>& carried = {});

// The gather op: P's value at (row g, at[i]) for every i in block g of offsets
// (row 0 for every block when P is one shared row), 0 where P has no entry.
std::vector<float> entries_at(const CsrMatrix& p, const std::vector<vid_t>& at, const Offsets& offsets);

// Where each entry of s is in a: for entry e in row i of s, the position (index
// into a.colidx) of a's entry (rows[i], columns[s.colidx[e]]), or -1 where a has
// none (rows of a sorted). A sampled layer's edges as the graph's entries, e.g.
// to name them by the caller's edge ids.
std::vector<vid_t> entry_positions(const CsrMatrix& a, const std::vector<vid_t>& rows, const CsrMatrix& s,
                                   const std::vector<vid_t>& columns);

// Tallies kept across calls (GraphSAINT's pre-sampled counts). tally_ids:
// counts plus one at every id (each below counts.size()).
std::vector<int64_t> tally_ids(std::vector<int64_t> counts, const std::vector<vid_t>& ids);
// counts (one per entry of the square a, CSR order) plus, for each block g of
// ids (distinct within a block), one at every entry (u, v) of a with u and v
// both in block g: how often each entry lies inside the blocks' induced subgraphs.
std::vector<int64_t> tally_induced_entries(std::vector<int64_t> counts, const CsrMatrix& a,
                                           const std::vector<vid_t>& ids, const Offsets& offsets);
// Each row of a divided by its sum (a double, summed in row order), entry e of row
// v then scaled by row_tallies[v] / entry_tallies[e] where both are positive.
CsrMatrix normalize_rows_by_tallies(const CsrMatrix& a, const std::vector<int64_t>& row_tallies,
                                    const std::vector<int64_t>& entry_tallies);

}  // namespace matsamp
