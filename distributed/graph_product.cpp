#include "graph_product.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "csr_transfer.h"
#include "util/timer.h"

namespace matsamp {

namespace {

constexpr int kChainTag = 4101;   // the running sum passed along a process row

}  // namespace

GraphProduct::GraphProduct(ProcessGrid& grid, Exchange exchange) : grid_(grid), exchange_(exchange) {}

int GraphProduct::add_operand(const DistributedCsr& a) {
  MATSAMP_CHECK(a.blocks.count == grid_.process_rows() && a.block == grid_.row(),
                "GraphProduct: operand has ", a.blocks.count, " block rows (block ", a.block, " here) but the grid has ",
                grid_.process_rows(), " process rows (this is row ", grid_.row(), ")");
  operands_.push_back(&a);
  return static_cast<int>(operands_.size()) - 1;
}

const DistributedCsr& GraphProduct::operand(int64_t id) const {
  MATSAMP_CHECK(id >= 0 && id < static_cast<int64_t>(operands_.size()), "GraphProduct: unknown operand ", id);
  return *operands_[id];
}

std::pair<vid_t, vid_t> GraphProduct::chunk(const RowBlocks& blocks) const {
  const int per_chunk = grid_.process_rows() / grid_.replication();   // p/c² blocks
  const int first = grid_.col() * per_chunk;
  return {blocks.begin(first), blocks.end(first + per_chunk - 1)};
}

CsrMatrix GraphProduct::multiply(const CsrMatrix& q, int operand_id) {
  const DistributedCsr& a = operand(operand_id);
  MATSAMP_CHECK(q.cols == a.rows(), "distributed product: Q is ", q.shape(), " but A has ", a.rows(), " rows");
  const auto [lo, hi] = chunk(a.blocks);

  // The nonzero columns of Q in this rank's chunk: the rows of A it needs.
  std::vector<char> needed(hi - lo, 0);
  for (col_t k : q.colidx)
    if (k >= lo && k < hi) needed[k - lo] = 1;
  std::vector<vid_t> wanted;
  for (vid_t v = lo; v < hi; ++v)
    if (needed[v - lo]) wanted.push_back(v);
  FetchedRows fetched;
  ProductCall record;
  {
    ScopedTimer timer(&record.exchange_s);
    exchange_round(&wanted, operand_id, &fetched, &record);
  }

  // Finish the sum along the process row in column order.
  Communicator& row = grid_.row_comm();
  const int j = row.rank(), c = row.size();
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

void GraphProduct::finish() {
  while (exchange_round(nullptr, -1, nullptr, nullptr)) {
  }
}

bool GraphProduct::exchange_round(const std::vector<vid_t>* wanted, int operand_id, FetchedRows* fetched,
                                  ProductCall* record) {
  return exchange_ == Exchange::sparsity_aware ? exchange_aware(wanted, operand_id, fetched, record)
                                               : exchange_oblivious(wanted, operand_id, fetched, record);
}

std::vector<GraphProduct::Header> GraphProduct::exchange_headers(const std::vector<Header>& mine) {
  static_assert(sizeof(Header) == 3 * sizeof(int64_t), "headers travel as three int64");
  Communicator& col = grid_.col_comm();
  std::vector<Header> theirs(col.size());
  const std::vector<int64_t> three(col.size(), 3);
  col.all_to_allv(mine.data(), three, theirs.data(), three, DataType::int64);
  return theirs;
}

namespace {

// Rows `ids` of this rank's block of `a`, appended: their lengths, column ids and values.
struct RowsOut {
  std::vector<int64_t> lengths;
  std::vector<col_t> colidx;
  std::vector<float> values;
};
int64_t append_rows(const DistributedCsr& a, const col_t* ids, int64_t count, int asker, RowsOut& out) {
  const vid_t first = a.first_row(), end = a.blocks.end(a.block);
  int64_t entries = 0;
  for (int64_t i = 0; i < count; ++i) {
    MATSAMP_CHECK(ids[i] >= first && ids[i] < end, "distributed product: rank ", asker,
                  " of the process column asked for row ", ids[i], ", outside this rank's block [", first, ", ", end,
                  ")");
    entries += a.local.row_nnz(ids[i] - first);
  }
  out.colidx.reserve(out.colidx.size() + entries);
  out.values.reserve(out.values.size() + entries);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t b = a.local.rowptr[ids[i] - first], e = a.local.rowptr[ids[i] - first + 1];
    out.lengths.push_back(e - b);
    out.colidx.insert(out.colidx.end(), a.local.colidx.begin() + b, a.local.colidx.begin() + e);
    out.values.insert(out.values.end(), a.local.values.begin() + b, a.local.values.begin() + e);
  }
  return entries;
}

}  // namespace

bool GraphProduct::exchange_aware(const std::vector<vid_t>* wanted, int operand_id, FetchedRows* fetched,
                                  ProductCall* record) {
  Communicator& col = grid_.col_comm();
  const int ranks = col.size(), me = col.rank();
  // Ids per owner (column rank q owns block q). This rank's own rows are not sent to
  // itself but copied; they sit at [own_first, own_first + own_count) of *wanted.
  std::vector<int64_t> request_counts(ranks, 0);
  int64_t own_first = 0, own_count = 0;
  std::vector<col_t> ids;
  if (wanted) {
    const RowBlocks& blocks = operand(operand_id).blocks;
    for (vid_t v : *wanted) ++request_counts[blocks.owner(v)];
    for (int q = 0; q < me; ++q) own_first += request_counts[q];
    own_count = std::exchange(request_counts[me], 0);
    for (size_t i = 0; i < wanted->size(); ++i)
      if (static_cast<int64_t>(i) < own_first || static_cast<int64_t>(i) >= own_first + own_count)
        ids.push_back(static_cast<col_t>((*wanted)[i]));
  }
  std::vector<Header> mine(ranks);
  for (int q = 0; q < ranks; ++q) mine[q] = {wanted != nullptr, operand_id, request_counts[q]};
  const std::vector<Header> theirs = exchange_headers(mine);
  if (std::none_of(theirs.begin(), theirs.end(), [](const Header& h) { return h.active; })) return false;

  // Requests: the ids each rank wants from this one.
  std::vector<int64_t> ask_counts(ranks);
  for (int q = 0; q < ranks; ++q) ask_counts[q] = theirs[q].count;
  std::vector<col_t> asked(std::accumulate(ask_counts.begin(), ask_counts.end(), int64_t{0}));
  col.all_to_allv(ids.data(), request_counts, asked.data(), ask_counts, DataType::int32);

  // Answers: for each asked id its row length, then the rows' entries.
  RowsOut out;
  std::vector<int64_t> entry_counts(ranks, 0);
  int64_t at = 0;
  for (int q = 0; q < ranks; at += ask_counts[q++])
    if (ask_counts[q] > 0)
      entry_counts[q] = append_rows(operand(theirs[q].operand), asked.data() + at, ask_counts[q], q, out);
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
      record->request_bytes += 4 * request_counts[q];
      record->response_bytes += 8 * (request_counts[q] + got_entry_counts[q]);
      record->remote_rows += request_counts[q];
      record->remote_entries += got_entry_counts[q];
    }
  if (!fetched) return true;

  // The rows in the order of *wanted: those of lower blocks, this rank's own, the rest.
  RowsOut own;
  std::vector<col_t> own_ids(wanted->begin() + own_first, wanted->begin() + own_first + own_count);
  append_rows(operand(operand_id), own_ids.data(), own_count, me, own);
  const int64_t lower_entries = std::accumulate(got_entry_counts.begin(), got_entry_counts.begin() + me, int64_t{0});
  CsrMatrix& rows = fetched->rows;
  rows = CsrMatrix(static_cast<int64_t>(wanted->size()), operand(operand_id).cols());
  for (int64_t i = 0; i < rows.rows; ++i) {
    const int64_t length = i < own_first ? got_lengths[i]
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
  fetched->ids = *wanted;
  return true;
}

bool GraphProduct::exchange_oblivious(const std::vector<vid_t>* wanted, int operand_id, FetchedRows* fetched,
                                      ProductCall* record) {
  Communicator& col = grid_.col_comm();
  const std::vector<Header> theirs = exchange_headers(std::vector<Header>(col.size(), {wanted != nullptr, operand_id, 0}));
  int64_t agreed = -1;
  for (const Header& h : theirs) {
    if (!h.active) continue;
    MATSAMP_CHECK(agreed < 0 || agreed == h.operand, "distributed product: the process column multiplies with "
                  "different operands (", agreed, " and ", h.operand, ") in one round");
    agreed = h.operand;
  }
  if (agreed < 0) return false;

  // Each block of this column's chunk goes whole from its owner to the column.
  const DistributedCsr& a = operand(agreed);
  const int per_chunk = grid_.process_rows() / grid_.replication();
  const int first_block = grid_.col() * per_chunk;
  std::vector<CsrMatrix> blocks(per_chunk);
  for (int i = 0; i < per_chunk; ++i) {
    const int q = first_block + i;
    if (col.rank() == q) blocks[i] = a.local;
    broadcast_csr(col, blocks[i], q);
    if (record && col.rank() != q) {   // shape, row pointers, then column + value per entry
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

}  // namespace matsamp
