#include "graph_product.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "csr_transfer.h"
#include "ops/op_checks.h"
#include "util/timer.h"

namespace matsamp {

namespace {

constexpr int kChainTag = 4101;  // the running sum passed along a process row

// The keys base + (words[2i], words[2i + 1]) as (minibatch, row), i < count.
std::vector<RandomKey> keys_of(const RandomKey& base, const int64_t* words, size_t count) {
  std::vector<RandomKey> keys(count, base);
  for (size_t i = 0; i < count; ++i) {
    keys[i].minibatch = static_cast<uint64_t>(words[2 * i]);
    keys[i].row = static_cast<uint64_t>(words[2 * i + 1]);
  }
  return keys;
}

// Rows of a matrix, appended: their lengths, column ids and values.
struct RowsOut {
  std::vector<int64_t> lengths;
  std::vector<col_t> colidx;
  std::vector<float> values;

  void append(const CsrMatrix& m, const std::vector<vid_t>& rows) {
    for (vid_t r : rows) {
      const int64_t b = m.rowptr[r], e = m.rowptr[r + 1];
      lengths.push_back(e - b);
      colidx.insert(colidx.end(), m.colidx.begin() + b, m.colidx.begin() + e);
      values.insert(values.end(), m.values.begin() + b, m.values.begin() + e);
    }
  }
};

// The answer to rank `asker`'s request for rows ids[0, count) of this rank's block of
// `a`: the rows whole, or sampled as the header says with the keys (minibatch, row)
// of key_words. Returns the entries appended.
int64_t answer(const DistributedCsr& a, bool uniform_rows, const col_t* ids, int64_t count, const int64_t* key_words,
               const GraphProduct::Header& h, int asker, RowsOut& out) {
  const vid_t first = a.first_row(), end = a.blocks.end(a.block);
  std::vector<vid_t> local(count);
  for (int64_t i = 0; i < count; ++i) {
    MATSAMP_CHECK(ids[i] >= first && ids[i] < end, "distributed product: rank ", asker,
                  " of the process column asked for row ", ids[i], ", outside this rank's block [", first, ", ", end,
                  ")");
    local[i] = ids[i] - first;
  }
  const int64_t entries_before = static_cast<int64_t>(out.colidx.size());
  using RowOp = GraphProduct::RowOp;
  const auto op = static_cast<RowOp>(h.op);
  MATSAMP_CHECK(op == RowOp::whole_rows || op == RowOp::sample_rows || op == RowOp::labor_sample_rows,
                "distributed product: rank ", asker, " asked for unknown row op ", h.op);
  if (op == RowOp::whole_rows) {
    out.append(a.local, local);
  } else {
    const RandomKey base{static_cast<uint64_t>(h.key_seed), static_cast<uint32_t>(h.key_epoch),
                         static_cast<uint32_t>(h.key_layer)};
    const std::vector<RandomKey> keys = keys_of(base, key_words, count);
    const CsrMatrix sampled = op == RowOp::labor_sample_rows ? labor_sample_rows(a.local, local, h.s, keys)
                                                             : sample_rows(a.local, local, h.s, keys, uniform_rows);
    std::vector<vid_t> all(count);
    std::iota(all.begin(), all.end(), 0);
    out.append(sampled, all);
  }
  return static_cast<int64_t>(out.colidx.size()) - entries_before;
}

}  // namespace

GraphProduct::GraphProduct(ProcessGrid& grid, Exchange exchange, RowWork work)
    : grid_(grid), exchange_(exchange), work_(work) {}

int GraphProduct::add_operand(const DistributedCsr& a) {
  MATSAMP_CHECK(a.blocks.count == grid_.process_rows() && a.block == grid_.row(), "GraphProduct: operand has ",
                a.blocks.count, " block rows (block ", a.block, " here) but the grid has ", grid_.process_rows(),
                " process rows (this is row ", grid_.row(), ")");
  operands_.push_back(&a);
  uniform_blocks_.push_back(has_uniform_rows(a.local));
  return static_cast<int>(operands_.size()) - 1;
}

const DistributedCsr& GraphProduct::operand(int64_t id) const {
  MATSAMP_CHECK(id >= 0 && id < static_cast<int64_t>(operands_.size()), "GraphProduct: unknown operand ", id);
  return *operands_[id];
}

std::pair<vid_t, vid_t> GraphProduct::chunk(const RowBlocks& blocks) const {
  const int first = first_block();
  return {blocks.begin(first), blocks.end(first + blocks_per_chunk() - 1)};
}

CsrMatrix GraphProduct::multiply(const CsrMatrix& q, int operand_id) {
  const DistributedCsr& a = operand(operand_id);
  MATSAMP_CHECK(q.cols == a.rows(), "distributed product: Q is ", q.shape(), " but A has ", a.rows(), " rows");
  const auto [lo, hi] = chunk(a.blocks);

  // The nonzero columns of Q in this rank's chunk: the rows of A it needs (sorted,
  // sized by Q rather than by the chunk).
  RowRequest request;
  for (col_t k : q.colidx)
    if (k >= lo && k < hi) request.ids.push_back(k);
  std::sort(request.ids.begin(), request.ids.end());
  request.ids.erase(std::unique(request.ids.begin(), request.ids.end()), request.ids.end());
  FetchedRows fetched;
  ProductCall record;
  {
    ScopedTimer timer(&record.exchange_s);
    exchange_round(&request, operand_id, &fetched, &record);
  }

  // Finish the sum along the process row in column order.
  Communicator& row = grid_.row_comm();
  const int j = row_reduces() ? row.rank() : 0, c = row_reduces() ? row.size() : 1;
  const int64_t row_bytes_before = bytes_sent(row);
  CsrMatrix running(q.rows, a.cols()), p;
  {
    ScopedTimer timer(&record.reduce_s);
    if (j > 0) running = recv_csr(row, j - 1, kChainTag);
  }
  {
    ScopedTimer timer(&record.compute_s);
    p = continue_product(q, fetched, lo, hi, running);
  }
  {
    ScopedTimer timer(&record.reduce_s);
    if (j + 1 < c) send_csr(row, p, j + 1, kChainTag);
    if (c > 1) broadcast_csr(row, p, c - 1);
  }
  record.reduce_bytes = bytes_sent(row) - row_bytes_before;
  record.result_nonzeros = p.nnz();
  calls_.push_back(record);
  return p;
}

CsrMatrix GraphProduct::sample_rows(const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys, int operand_id,
                                    bool uniform_rows) {
  return sample_rows_at_owners(rows, s, keys, operand_id, RowOp::sample_rows, uniform_rows);
}

CsrMatrix GraphProduct::labor_sample_rows(const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                                          int operand_id) {
  return sample_rows_at_owners(rows, s, keys, operand_id, RowOp::labor_sample_rows, false);
}

CsrMatrix GraphProduct::sample_rows_at_owners(const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                                              int operand_id, RowOp row_op, bool uniform_rows) {
  const DistributedCsr& a = operand(operand_id);
  const bool labor = row_op == RowOp::labor_sample_rows;
  const char* op = labor ? "distributed labor_sample_rows" : "distributed sample_rows";
  check_sample_keys(keys, s, op);
  const int64_t m = static_cast<int64_t>(rows.size());
  MATSAMP_CHECK(m == keys.row_offsets.back(), op, ": ", m, " rows selected but the keys name ",
                keys.row_offsets.back());
  for (vid_t v : rows)
    MATSAMP_CHECK(v >= 0 && v < a.rows(), op, ": row id ", v, " out of range for ", a.rows(), " rows");
  const auto [lo, hi] = chunk(a.blocks);

  // This rank's rows: those in its chunk, asked for by vertex id (so grouped by owner).
  std::vector<int64_t> positions;
  for (int64_t r = 0; r < m; ++r)
    if (rows[r] >= lo && rows[r] < hi) positions.push_back(r);
  std::vector<int64_t> by_vertex(positions.size());
  std::iota(by_vertex.begin(), by_vertex.end(), 0);
  std::stable_sort(by_vertex.begin(), by_vertex.end(),
                   [&](int64_t x, int64_t y) { return rows[positions[x]] < rows[positions[y]]; });
  RowRequest request;
  request.op = row_op;
  request.s = s;
  request.key_base = {keys.seed, keys.epoch, keys.layer};
  for (int64_t i : by_vertex) {
    request.ids.push_back(rows[positions[i]]);
    const RandomKey key = row_key(keys, positions[i]);
    request.key_words.push_back(static_cast<int64_t>(key.minibatch));
    request.key_words.push_back(static_cast<int64_t>(key.row));
  }
  FetchedRows fetched;
  ProductCall record;
  {
    ScopedTimer timer(&record.exchange_s);
    exchange_round(&request, operand_id, &fetched, &record);
  }
  CsrMatrix piece;  // this chunk's sampled rows, in frontier order
  {
    ScopedTimer timer(&record.compute_s);
    if (exchange_ == Exchange::oblivious) {  // the chunk's rows came whole: sample them here
      std::vector<vid_t> local(request.ids.size());
      for (size_t i = 0; i < local.size(); ++i) local[i] = request.ids[i] - lo;
      const std::vector<RandomKey> row_keys = keys_of(request.key_base, request.key_words.data(), local.size());
      fetched.rows = labor ? matsamp::labor_sample_rows(fetched.rows, local, s, row_keys)
                           : matsamp::sample_rows(fetched.rows, local, s, row_keys, uniform_rows);
    }
    std::vector<vid_t> back(by_vertex.size());  // sampled row of each position, in frontier order
    for (size_t i = 0; i < by_vertex.size(); ++i) back[by_vertex[i]] = static_cast<vid_t>(i);
    piece = select_rows(fetched.rows, back);
  }

  // The process row puts its chunks together: row r comes from the chunk holding rows[r].
  Communicator& row = grid_.row_comm();
  const int64_t row_bytes_before = bytes_sent(row);
  CsrMatrix p;
  {
    ScopedTimer timer(&record.reduce_s);
    if (!row_reduces()) {
      p = std::move(piece);
    } else {
      const CsrMatrix chunks = all_gather_rows(row, piece);
      std::vector<int> chunk_of(m);
      for (int64_t r = 0; r < m; ++r) chunk_of[r] = a.blocks.owner(rows[r]) / blocks_per_chunk();
      std::vector<int64_t> next(row.size() + 1, 0);  // first row of each chunk's piece, then its cursor
      for (int c : chunk_of) ++next[c + 1];
      std::partial_sum(next.begin(), next.end(), next.begin());
      std::vector<vid_t> order(m);
      for (int64_t r = 0; r < m; ++r) order[r] = static_cast<vid_t>(next[chunk_of[r]]++);
      p = select_rows(chunks, order);
    }
  }
  record.reduce_bytes = bytes_sent(row) - row_bytes_before;
  record.result_nonzeros = p.nnz();
  calls_.push_back(record);
  return p;
}

void GraphProduct::finish() {
  while (exchange_round(nullptr, -1, nullptr, nullptr)) {
  }
}

bool GraphProduct::exchange_round(const RowRequest* request, int operand_id, FetchedRows* fetched,
                                  ProductCall* record) {
  return exchange_ == Exchange::sparsity_aware ? exchange_aware(request, operand_id, fetched, record)
                                               : exchange_oblivious(request, operand_id, fetched, record);
}

std::vector<GraphProduct::Header> GraphProduct::exchange_headers(const std::vector<Header>& mine) {
  constexpr int64_t words = sizeof(Header) / sizeof(int64_t);
  static_assert(sizeof(Header) == words * sizeof(int64_t), "headers travel as int64 words");
  Communicator& col = grid_.col_comm();
  std::vector<Header> theirs(col.size());
  const std::vector<int64_t> counts(col.size(), words);
  col.all_to_allv(mine.data(), counts, theirs.data(), counts, DataType::int64);
  return theirs;
}

bool GraphProduct::exchange_aware(const RowRequest* request, int operand_id, FetchedRows* fetched,
                                  ProductCall* record) {
  Communicator& col = grid_.col_comm();
  const int ranks = col.size(), me = col.rank();
  // Ids per owner (column rank q owns block q), and for a sampling op each id's key
  // (minibatch, row). This rank's own rows are not sent to itself but answered here;
  // they sit at [own_first, own_first + own_count) of request->ids.
  std::vector<int64_t> request_counts(ranks, 0), key_counts(ranks, 0);
  int64_t own_first = 0, own_count = 0;
  std::vector<col_t> ids;
  std::vector<int64_t> key_words, own_key_words;
  const bool sampling = request && request->sampling();
  if (request) {
    const RowBlocks& blocks = operand(operand_id).blocks;
    for (vid_t v : request->ids) ++request_counts[blocks.owner(v)];
    for (int q = 0; q < me; ++q) own_first += request_counts[q];
    own_count = std::exchange(request_counts[me], 0);
    for (size_t i = 0; i < request->ids.size(); ++i) {
      const bool own = static_cast<int64_t>(i) >= own_first && static_cast<int64_t>(i) < own_first + own_count;
      if (!own) ids.push_back(static_cast<col_t>(request->ids[i]));
      if (sampling)
        for (int w = 0; w < 2; ++w) (own ? own_key_words : key_words).push_back(request->key_words[2 * i + w]);
    }
    if (sampling)
      for (int q = 0; q < ranks; ++q) key_counts[q] = 2 * request_counts[q];
  }
  Header header{request != nullptr, operand_id};
  if (sampling) {
    header.op = static_cast<int64_t>(request->op);
    header.s = request->s;
    header.key_seed = static_cast<int64_t>(request->key_base.seed);
    header.key_epoch = request->key_base.epoch;
    header.key_layer = request->key_base.layer;
  }
  std::vector<Header> mine(ranks, header);
  for (int q = 0; q < ranks; ++q) mine[q].count = request_counts[q];
  const std::vector<Header> theirs = exchange_headers(mine);
  if (std::none_of(theirs.begin(), theirs.end(), [](const Header& h) { return h.active; })) return false;

  // Requests: the ids each rank wants from this one, and the keys of sampled ones
  // (every rank sees every rank's op, so all agree whether keys travel).
  std::vector<int64_t> ask_counts(ranks), ask_key_counts(ranks);
  for (int q = 0; q < ranks; ++q) {
    ask_counts[q] = theirs[q].count;
    ask_key_counts[q] = theirs[q].op != 0 ? 2 * theirs[q].count : 0;
  }
  std::vector<col_t> asked(std::accumulate(ask_counts.begin(), ask_counts.end(), int64_t{0}));
  col.all_to_allv(ids.data(), request_counts, asked.data(), ask_counts, DataType::int32);
  std::vector<int64_t> asked_keys(std::accumulate(ask_key_counts.begin(), ask_key_counts.end(), int64_t{0}));
  if (std::any_of(theirs.begin(), theirs.end(), [](const Header& h) { return h.op != 0; }))
    col.all_to_allv(key_words.data(), key_counts, asked_keys.data(), ask_key_counts, DataType::int64);

  // Answers: for each asked id its row length, then the rows' entries.
  RowsOut out;
  std::vector<int64_t> entry_counts(ranks, 0);
  int64_t at = 0, key_at = 0;
  for (int q = 0; q < ranks; at += ask_counts[q], key_at += ask_key_counts[q], ++q)
    if (ask_counts[q] > 0)
      entry_counts[q] = answer(operand(theirs[q].operand), uniform_blocks_[theirs[q].operand], asked.data() + at,
                               ask_counts[q], asked_keys.data() + key_at, theirs[q], q, out);
  std::vector<int64_t> got_lengths(ids.size());
  col.all_to_allv(out.lengths.data(), ask_counts, got_lengths.data(), request_counts, DataType::int64);
  std::vector<int64_t> got_entry_counts(ranks, 0);
  at = 0;
  for (int q = 0; q < ranks; ++q)
    for (int64_t i = 0; i < request_counts[q]; ++i) got_entry_counts[q] += got_lengths[at++];
  const int64_t got_entries = std::accumulate(got_entry_counts.begin(), got_entry_counts.end(), int64_t{0});
  std::vector<col_t> got_colidx(got_entries);
  std::vector<float> got_values(got_entries);
  col.all_to_allv(out.colidx.data(), entry_counts, got_colidx.data(), got_entry_counts, DataType::int32);
  col.all_to_allv(out.values.data(), entry_counts, got_values.data(), got_entry_counts, DataType::float32);
  if (record)
    for (int q = 0; q < ranks; ++q) {
      record->request_bytes += 4 * request_counts[q] + 8 * key_counts[q];
      record->response_bytes += 8 * (request_counts[q] + got_entry_counts[q]);
      record->remote_rows += request_counts[q];
      record->remote_entries += got_entry_counts[q];
    }
  if (!fetched) return true;

  // The rows in the order of request->ids: those of lower blocks, this rank's own, the rest.
  RowsOut own;
  std::vector<col_t> own_ids(request->ids.begin() + own_first, request->ids.begin() + own_first + own_count);
  answer(operand(operand_id), uniform_blocks_[operand_id], own_ids.data(), own_count, own_key_words.data(), theirs[me],
         me, own);
  const int64_t lower_entries = std::accumulate(got_entry_counts.begin(), got_entry_counts.begin() + me, int64_t{0});
  CsrMatrix& rows = fetched->rows;
  rows = CsrMatrix(static_cast<int64_t>(request->ids.size()), operand(operand_id).cols());
  for (int64_t i = 0; i < rows.rows; ++i) {
    const int64_t length = i < own_first               ? got_lengths[i]
                           : i < own_first + own_count ? own.lengths[i - own_first]
                                                       : got_lengths[i - own_count];
    rows.rowptr[i + 1] = rows.rowptr[i] + length;
  }
  auto splice = [&](const auto& received, const auto& local, auto& into) {
    into.reserve(rows.rowptr.back());
    into.assign(received.begin(), received.begin() + lower_entries);
    into.insert(into.end(), local.begin(), local.end());
    into.insert(into.end(), received.begin() + lower_entries, received.end());
  };
  splice(got_colidx, own.colidx, rows.colidx);
  splice(got_values, own.values, rows.values);
  fetched->ids = request->ids;
  return true;
}

bool GraphProduct::exchange_oblivious(const RowRequest* request, int operand_id, FetchedRows* fetched,
                                      ProductCall* record) {
  Communicator& col = grid_.col_comm();
  const std::vector<Header> theirs =
      exchange_headers(std::vector<Header>(col.size(), {request != nullptr, operand_id, 0}));
  int64_t agreed = -1;
  for (const Header& h : theirs) {
    if (!h.active) continue;
    MATSAMP_CHECK(agreed < 0 || agreed == h.operand,
                  "distributed product: the process column multiplies with "
                  "different operands (",
                  agreed, " and ", h.operand, ") in one round");
    agreed = h.operand;
  }
  if (agreed < 0) return false;

  // Each block of this column's chunk goes whole from its owner to the column.
  const DistributedCsr& a = operand(agreed);
  const int per_chunk = blocks_per_chunk();
  std::vector<CsrMatrix> blocks(per_chunk);
  for (int i = 0; i < per_chunk; ++i) {
    const int q = first_block() + i;
    if (col.rank() == q) blocks[i] = a.local;
    broadcast_csr(col, blocks[i], q);
    if (record && col.rank() != q) {  // shape, row pointers, then column + value per entry
      record->response_bytes += 24 + 8 * (blocks[i].rows + 1) + 8 * blocks[i].nnz();
      record->remote_rows += blocks[i].rows;
      record->remote_entries += blocks[i].nnz();
    }
  }
  if (fetched) {
    const auto [lo, hi] = chunk(a.blocks);
    fetched->ids.resize(hi - lo);
    for (vid_t v = lo; v < hi; ++v) fetched->ids[v - lo] = v;
    fetched->rows = stack_rows(blocks, a.cols());
  }
  return true;
}

GraphProduct::RowWork parse_row_work(const std::string& name) {
  if (name == "shared") return GraphProduct::RowWork::shared;
  if (name == "split") return GraphProduct::RowWork::split;
  throw Error("row work '" + name + "': expected shared or split");
}

}  // namespace matsamp
