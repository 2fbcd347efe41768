#include "graph_product.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "csr_transfer.h"
#include "on_host.h"
#include "ops/op_checks.h"
#include "resident_exchange.h"
#include "util/timer.h"

namespace matsamp {

namespace {

constexpr int kChainTag = 4101;  // the running sum passed along a process row

using RowOp = GraphProduct::RowOp;

// Words sent with each id asked: a search's target (rows drawn at owners go in rounds of their own).
int64_t words_per_id(RowOp op) { return op == RowOp::search_prefix ? 1 : 0; }
bool is_draw_op(RowOp op) { return op == RowOp::sample_rows || op == RowOp::labor_sample_rows; }
// Words answered per id: a search's prefix before the entry found.
int64_t answer_words_per_id(RowOp op) { return op == RowOp::search_prefix ? 1 : 0; }
bool is_shared_row_op(RowOp op) {
  return op == RowOp::search_prefix || op == RowOp::shared_values || op == RowOp::positive_entries;
}

// Rows of a matrix, appended: their lengths, column ids and values (and the
// answers' words).
struct RowsOut {
  std::vector<int64_t> lengths;
  std::vector<col_t> colidx;
  std::vector<float> values;
  std::vector<int64_t> words;

  void append(const CsrMatrix& m, const std::vector<vid_t>& rows) {
    for (vid_t r : rows) {
      const int64_t b = m.rowptr[r], e = m.rowptr[r + 1];
      lengths.push_back(e - b);
      colidx.insert(colidx.end(), m.colidx.begin() + b, m.colidx.begin() + e);
      values.insert(values.end(), m.values.begin() + b, m.values.begin() + e);
    }
  }
};

// The answer to rank `asker`'s request for rows ids[0, count) of this rank's block
// of `a`: the rows whole. Returns the entries appended.
int64_t answer_rows(const DistributedCsr& a, const col_t* ids, int64_t count, int asker, RowsOut& out) {
  const vid_t first = a.first_row(), end = a.blocks.end(a.block);
  std::vector<vid_t> local(count);
  for (int64_t i = 0; i < count; ++i) {
    MATSAMP_CHECK(ids[i] >= first && ids[i] < end, "distributed product: rank ", asker,
                  " of the process column asked for row ", ids[i], ", outside this rank's block [", first, ", ", end,
                  ")");
    local[i] = ids[i] - first;
  }
  const int64_t entries_before = static_cast<int64_t>(out.colidx.size());
  out.append(a.local, local);
  return static_cast<int64_t>(out.colidx.size()) - entries_before;
}

// The answer to rank `asker`'s shared-row op for ids[0, count) of this block: per id
// one search hit (with the prefix before it as a word), one value, or the block's
// positive entries. Returns the entries appended.
int64_t answer_shared_row(const SharedRowBlock& row, RowOp op, const col_t* ids, int64_t count, const int64_t* words,
                          int asker, RowsOut& out) {
  const int64_t entries_before = static_cast<int64_t>(out.colidx.size());
  for (int64_t i = 0; i < count; ++i) {
    MATSAMP_CHECK(row.holds(ids[i]), "distributed product: rank ", asker, " asked the shared row for vertex ", ids[i],
                  ", outside this rank's block [", row.first(), ", ", row.end(), ")");
    const int64_t before = static_cast<int64_t>(out.colidx.size());
    if (op == RowOp::search_prefix) {
      const PrefixHit hit = row.search(static_cast<uint64_t>(words[i]));
      out.colidx.push_back(hit.vertex);
      out.values.push_back(hit.value);
      out.words.push_back(static_cast<int64_t>(hit.before));
    } else if (op == RowOp::shared_values) {
      out.colidx.push_back(ids[i]);
      out.values.push_back(row.value(ids[i]));
    } else {
      row.append_positive(&out.colidx, &out.values);
    }
    out.lengths.push_back(static_cast<int64_t>(out.colidx.size()) - before);
  }
  return static_cast<int64_t>(out.colidx.size()) - entries_before;
}

}  // namespace

GraphProduct::GraphProduct(ProcessGrid& grid, Exchange exchange, RowWork work)
    : grid_(grid), exchange_(exchange), work_(work) {}

GraphProduct::~GraphProduct() { release_local_backend(); }

void GraphProduct::set_local_backend(Backend& local) {
  MATSAMP_CHECK(operands_.empty(), "GraphProduct: the local backend is set before the first operand");
  local_ = &local;
}

void GraphProduct::release_local_backend() { local_blocks_.clear(); }

Backend& GraphProduct::local_backend() {
  if (!local_) {
    own_local_ = make_cpu_backend();
    local_ = own_local_.get();
  }
  return *local_;
}

const Matrix& GraphProduct::local_block(int id) const {
  MATSAMP_CHECK(id >= 0 && id < static_cast<int>(local_blocks_.size()), "GraphProduct: unknown operand ", id);
  return local_blocks_[id];
}

int GraphProduct::add_operand(const DistributedCsr& a) {
  MATSAMP_CHECK(a.blocks.count == grid_.process_rows() && a.block == grid_.row(), "GraphProduct: operand has ",
                a.blocks.count, " block rows (block ", a.block, " here) but the grid has ", grid_.process_rows(),
                " process rows (this is row ", grid_.row(), ")");
  operands_.push_back(&a);
  local_blocks_.push_back(local_backend().register_graph(a.local));  // the owner draws its rows there
  return static_cast<int>(operands_.size()) - 1;
}

const DistributedCsr& GraphProduct::operand(int64_t id) const {
  MATSAMP_CHECK(id >= 0 && id < static_cast<int64_t>(operands_.size()), "GraphProduct: unknown operand ", id);
  return *operands_[id];
}

int GraphProduct::add_shared_row(const SharedRowBlock& row) {
  MATSAMP_CHECK(row.blocks().count == grid_.process_rows() && row.first() == row.blocks().begin(grid_.row()),
                "GraphProduct: the shared row has ", row.blocks().count, " blocks but the grid has ",
                grid_.process_rows(), " process rows");
  shared_rows_.push_back(&row);
  return static_cast<int>(shared_rows_.size()) - 1;
}

const SharedRowBlock& GraphProduct::shared_row(int64_t id) const {
  MATSAMP_CHECK(id >= 0 && id < static_cast<int64_t>(shared_rows_.size()), "GraphProduct: unknown shared row ", id);
  return *shared_rows_[id];
}

const RowBlocks& GraphProduct::blocks_of(RowOp op, int64_t id) const {
  return is_shared_row_op(op) ? shared_row(id).blocks() : operand(id).blocks;
}

std::pair<vid_t, vid_t> GraphProduct::chunk(const RowBlocks& blocks) const {
  const int first = first_block();
  return {blocks.begin(first), blocks.end(first + blocks_per_chunk() - 1)};
}

std::vector<vid_t> GraphProduct::chunk_bounds(const RowBlocks& blocks) const {
  const int c = grid_.row_comm().size(), per_chunk = blocks_per_chunk();
  std::vector<vid_t> bounds(c + 1);
  for (int j = 0; j < c; ++j) bounds[j] = blocks.begin(j * per_chunk);
  bounds[c] = blocks.end(c * per_chunk - 1);
  return bounds;
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

Matrix GraphProduct::sample_rows(const Ids& rows, int64_t s, const SampleKeys& keys, int operand_id, RowDraw draw,
                                 bool uniform_rows) {
  const DistributedCsr& a = operand(operand_id);
  const char* op = draw == RowDraw::labor ? "distributed labor_sample_rows" : "distributed sample_rows";
  check_sample_keys(keys, s, op);
  MATSAMP_CHECK(rows.size() == keys.row_offsets.back(), op, ": ", rows.size(), " rows selected but the keys name ",
                keys.row_offsets.back());
  Backend& local = local_backend();
  ProductCall record;
  if (exchange_ == Exchange::oblivious) {
    std::vector<vid_t> scratch;
    const std::vector<vid_t>& ids = on_host(local, rows, &scratch);
    CsrMatrix p = draw_fetched_chunk(ids, s, keys, operand_id, draw, uniform_rows, op, &record);
    if (row_reduces()) p = gather_chunks(p, ids, a.blocks, &record);
    record.result_nonzeros = p.nnz();
    calls_.push_back(record);
    return local.upload(std::move(p));
  }

  // The rows of this rank's chunk, asked of their owners (column rank q owns block q).
  const auto [lo, hi] = chunk(a.blocks);
  const int ranks = grid_.col_comm().size();
  std::vector<vid_t> bounds(ranks + 1);
  for (int q = 0; q <= ranks; ++q) bounds[q] = std::clamp<vid_t>(q < ranks ? a.blocks.begin(q) : hi, lo, hi);
  Matrix fetched, piece;
  RequestedRows requested;
  {
    ScopedTimer timer(&record.exchange_s);
    requested = local.request_rows(rows, a.rows(), keys, bounds);
    const DrawRequest request{&requested,
                              draw == RowDraw::labor ? RowOp::labor_sample_rows : RowOp::sample_rows,
                              s,
                              {keys.seed, keys.epoch, keys.layer}};
    exchange_aware(nullptr, &request, operand_id, nullptr, &fetched, &record);
  }
  {
    ScopedTimer compute(&record.compute_s);
    piece = local.select_rows(fetched, requested.back);  // back in row order
  }
  if (row_reduces()) {  // the process row's chunks stacked, then each row put back in its place
    ScopedTimer timer(&record.reduce_s);
    Communicator& row = grid_.row_comm();
    const int64_t bytes_before = bytes_sent(row);
    const Matrix chunks = ResidentExchange(row, local).gathered_rows(piece, a.cols());
    piece = local.select_rows(chunks, local.range_positions(rows, chunk_bounds(a.blocks)));
    record.reduce_bytes += bytes_sent(row) - bytes_before;
  }
  record.result_nonzeros = piece.nnz();
  calls_.push_back(record);
  return piece;
}

CsrMatrix GraphProduct::draw_fetched_chunk(const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                                           int operand_id, RowDraw draw, bool uniform_rows, const char* op,
                                           ProductCall* record) {
  const DistributedCsr& a = operand(operand_id);
  const int64_t m = static_cast<int64_t>(rows.size());
  for (vid_t v : rows)
    MATSAMP_CHECK(v >= 0 && v < a.rows(), op, ": row id ", v, " out of range for ", a.rows(), " rows");
  const auto [lo, hi] = chunk(a.blocks);
  std::vector<vid_t> local;  // this chunk's rows in row order, as rows of the fetched chunk
  std::vector<RandomKey> row_keys;
  for (int64_t r = 0; r < m; ++r)
    if (rows[r] >= lo && rows[r] < hi) {
      local.push_back(rows[r] - lo);
      row_keys.push_back(row_key(keys, r));
    }
  RowRequest request;  // the oblivious exchange brings the chunk whole
  FetchedRows fetched;
  {
    ScopedTimer timer(&record->exchange_s);
    exchange_round(&request, operand_id, &fetched, record);
  }
  ScopedTimer timer(&record->compute_s);
  return draw == RowDraw::labor ? matsamp::labor_sample_rows(fetched.rows, local, s, row_keys, uniform_rows)
                                : matsamp::sample_rows(fetched.rows, local, s, row_keys, uniform_rows);
}

CsrMatrix GraphProduct::gather_chunks(const CsrMatrix& piece, const std::vector<vid_t>& rows, const RowBlocks& blocks,
                                      ProductCall* record) {
  // Row r comes from the chunk holding rows[r].
  Communicator& row = grid_.row_comm();
  const int64_t bytes_before = bytes_sent(row);
  ScopedTimer timer(&record->reduce_s);
  const CsrMatrix chunks = all_gather_rows(row, piece);
  record->reduce_bytes += bytes_sent(row) - bytes_before;
  return select_rows(chunks, range_positions(rows, chunk_bounds(blocks)));
}

CsrMatrix GraphProduct::sample_shared_row(int row_id, int64_t s, const SampleKeys& keys) {
  const SharedRowShape& shape = shared_row(row_id).shape();
  const char* op = "distributed its_sample of a shared row";
  MATSAMP_CHECK(exchange_ == Exchange::sparsity_aware, op, ": needs the sparsity-aware exchange");
  check_sample_keys(keys, s, op);
  // The ranks of a process row take contiguous shares of the rows and gather them
  // back. They agree on every round, so that each enters its column's rounds where the
  // others of its row do (a rank waiting on its row while a column partner waits on
  // it would deadlock).
  Communicator& row_comm = grid_.row_comm();
  const int j = row_reduces() ? row_comm.rank() : 0, c = row_reduces() ? row_comm.size() : 1;
  const int64_t rows = keys.row_offsets.back(), r0 = j * rows / c, r1 = (j + 1) * rows / c;
  ProductCall record;
  record.shared_row = true;
  CsrMatrix piece;
  {
    ScopedTimer timer(&record.exchange_s);
    piece = shape.positive <= s ? every_positive_entry(row_id, r1 - r0, &record)
                                : draw_from_shared_row(row_id, s, keys, r0, r1, &record);
  }
  const int64_t row_bytes_before = bytes_sent(row_comm);
  CsrMatrix picks;
  {
    ScopedTimer timer(&record.reduce_s);
    picks = c > 1 ? all_gather_rows(row_comm, piece) : std::move(piece);
  }
  record.reduce_bytes = bytes_sent(row_comm) - row_bytes_before;
  record.result_nonzeros = picks.nnz();
  calls_.push_back(record);
  return picks;
}

CsrMatrix GraphProduct::every_positive_entry(int row_id, int64_t rows, ProductCall* record) {
  const SharedRowBlock& row = shared_row(row_id);
  const RowBlocks& blocks = row.blocks();
  RowRequest request;
  request.op = RowOp::positive_entries;
  for (int q = 0; q < blocks.count; ++q)
    if (row.shape().block_positive[q] > 0) request.ids.push_back(static_cast<vid_t>(blocks.begin(q)));
  FetchedRows all;
  exchange_round(&request, row_id, &all, record);
  CsrMatrix piece(rows, blocks.n);
  for (int64_t r = 0; r < piece.rows; ++r) {
    piece.colidx.insert(piece.colidx.end(), all.rows.colidx.begin(), all.rows.colidx.end());
    piece.values.insert(piece.values.end(), all.rows.values.begin(), all.rows.values.end());
    piece.rowptr[r + 1] = piece.nnz();
  }
  return piece;
}

CsrMatrix GraphProduct::draw_from_shared_row(int row_id, int64_t s, const SampleKeys& keys, int64_t r0, int64_t r1,
                                             ProductCall* record) {
  const SharedRowShape& shape = shared_row(row_id).shape();
  Communicator& row_comm = grid_.row_comm();
  const bool row_shares = row_reduces() && row_comm.size() > 1;
  std::vector<SharedRowDraws> draws;
  for (int64_t r = r0; r < r1; ++r) draws.emplace_back(s, shape, row_key(keys, r));
  for (;;) {
    std::vector<uint64_t> targets;
    std::vector<size_t> first_target(draws.size() + 1, 0);
    for (size_t i = 0; i < draws.size(); ++i) {
      if (!draws[i].done()) draws[i].targets(&targets);
      first_target[i + 1] = targets.size();
    }
    std::vector<int64_t> pending{static_cast<int64_t>(targets.size())};
    if (row_shares) row_comm.all_reduce_sum(pending);
    if (pending[0] == 0) break;
    const std::vector<PrefixHit> hits = search_prefixes(row_id, targets, record);
    for (size_t i = 0; i < draws.size(); ++i)
      draws[i].take(hits.data() + first_target[i], static_cast<int64_t>(first_target[i + 1] - first_target[i]));
  }
  CsrMatrix piece(r1 - r0, shared_row(row_id).blocks().n);
  for (size_t i = 0; i < draws.size(); ++i) {
    for (const PrefixHit& hit : draws[i].picked()) {
      piece.colidx.push_back(hit.vertex);
      piece.values.push_back(hit.value);
    }
    piece.rowptr[i + 1] = piece.nnz();
  }
  return piece;
}

std::vector<PrefixHit> GraphProduct::search_prefixes(int row_id, const std::vector<uint64_t>& targets,
                                                     ProductCall* record) {
  const SharedRowBlock& row = shared_row(row_id);
  // Asked grouped by the block holding each target.
  std::vector<int> owner(targets.size());
  for (size_t t = 0; t < targets.size(); ++t) owner[t] = row.shape().owner(targets[t]);
  std::vector<size_t> order(targets.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return owner[x] < owner[y]; });
  RowRequest request;
  request.op = RowOp::search_prefix;
  for (size_t t : order) {
    request.ids.push_back(static_cast<vid_t>(row.blocks().begin(owner[t])));
    request.words.push_back(static_cast<int64_t>(targets[t]));
  }
  FetchedRows found;
  exchange_round(&request, row_id, &found, record);
  std::vector<PrefixHit> hits(targets.size());
  for (size_t i = 0; i < order.size(); ++i)
    hits[order[i]] = {found.rows.colidx[i], found.rows.values[i], static_cast<uint64_t>(found.words[i])};
  return hits;
}

std::vector<float> GraphProduct::shared_row_values(int row_id, const std::vector<vid_t>& vertices) {
  const SharedRowBlock& row = shared_row(row_id);
  MATSAMP_CHECK(exchange_ == Exchange::sparsity_aware, "shared row values: need the sparsity-aware exchange");
  for (vid_t v : vertices)
    MATSAMP_CHECK(v >= 0 && v < row.blocks().n, "shared row values: vertex ", v, " out of range for ", row.blocks().n,
                  " vertices");
  RowRequest request;
  request.op = RowOp::shared_values;
  request.ids = vertices;
  std::sort(request.ids.begin(), request.ids.end());
  request.ids.erase(std::unique(request.ids.begin(), request.ids.end()), request.ids.end());
  FetchedRows found;
  ProductCall record;
  record.shared_row = true;
  {
    ScopedTimer timer(&record.exchange_s);
    exchange_round(&request, row_id, &found, &record);
  }
  calls_.push_back(record);
  std::vector<float> out(vertices.size());
  for (size_t i = 0; i < vertices.size(); ++i) {
    const auto at = std::lower_bound(found.ids.begin(), found.ids.end(), vertices[i]) - found.ids.begin();
    out[i] = found.rows.values[at];
  }
  return out;
}

void GraphProduct::finish() {
  while (exchange_round(nullptr, -1, nullptr, nullptr)) {
  }
}

bool GraphProduct::exchange_round(const RowRequest* request, int operand_id, FetchedRows* fetched,
                                  ProductCall* record) {
  return exchange_ == Exchange::sparsity_aware ? exchange_aware(request, nullptr, operand_id, fetched, nullptr, record)
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

namespace {

// A request's ids split by owner (column rank q owns block q), with their words
// (a sampled row's key, a search's target). This rank's own ids are not sent to
// itself but answered here; they sit at [own_first, own_first + own_count) of the ids.
struct OwnerSplit {
  std::vector<int64_t> counts, word_counts;  // sent to each column rank (none to this one)
  int64_t own_first = 0, own_count = 0;
  std::vector<col_t> ids;
  std::vector<int64_t> words, own_words;
  explicit OwnerSplit(int ranks) : counts(ranks, 0), word_counts(ranks, 0) {}
};

OwnerSplit split_by_owner(const std::vector<vid_t>& ids, const std::vector<int64_t>& words, int64_t width,
                          const RowBlocks& blocks, int ranks, int me) {
  OwnerSplit out(ranks);
  for (vid_t v : ids) ++out.counts[blocks.owner(v)];
  for (int q = 0; q < me; ++q) out.own_first += out.counts[q];
  out.own_count = std::exchange(out.counts[me], 0);
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto at = static_cast<int64_t>(i);
    const bool own = at >= out.own_first && at < out.own_first + out.own_count;
    if (!own) out.ids.push_back(static_cast<col_t>(ids[i]));
    for (int64_t w = 0; w < width; ++w) (own ? out.own_words : out.words).push_back(words[width * i + w]);
  }
  for (int q = 0; q < ranks; ++q) out.word_counts[q] = width * out.counts[q];
  return out;
}

// What the column asks of this rank: the ids each rank wants from it, and their words.
struct Asked {
  std::vector<int64_t> counts, word_counts;  // per column rank
  std::vector<col_t> ids;
  std::vector<int64_t> words;
};

Asked receive_requests(Communicator& col, const std::vector<GraphProduct::Header>& theirs, const OwnerSplit& sent,
                       bool any_words) {
  const int ranks = col.size();
  Asked asked{std::vector<int64_t>(ranks), std::vector<int64_t>(ranks), {}, {}};
  for (int q = 0; q < ranks; ++q) {
    asked.counts[q] = theirs[q].count;
    asked.word_counts[q] = words_per_id(static_cast<RowOp>(theirs[q].op)) * theirs[q].count;
  }
  asked.ids.resize(std::accumulate(asked.counts.begin(), asked.counts.end(), int64_t{0}));
  col.all_to_allv(sent.ids.data(), sent.counts, asked.ids.data(), asked.counts, DataType::int32);
  asked.words.resize(std::accumulate(asked.word_counts.begin(), asked.word_counts.end(), int64_t{0}));
  if (any_words)
    col.all_to_allv(sent.words.data(), sent.word_counts, asked.words.data(), asked.word_counts, DataType::int64);
  return asked;
}

// What the column answers this rank: per id sent its row length, then the rows'
// entries (entry_counts of them from each rank) and answer words.
struct Received {
  std::vector<int64_t> lengths, entry_counts;
  std::vector<col_t> colidx;
  std::vector<float> values;
  std::vector<int64_t> words;
};

// Sends `out` (entry_counts[q] entries answering rank q) and receives this rank's answers.
Received exchange_answers(Communicator& col, const std::vector<GraphProduct::Header>& theirs, const RowsOut& out,
                          const std::vector<int64_t>& entry_counts, const Asked& asked, const OwnerSplit& sent,
                          int64_t answer_width, bool any_answer_words) {
  const int ranks = col.size();
  Received got{std::vector<int64_t>(sent.ids.size()), std::vector<int64_t>(ranks, 0), {}, {}, {}};
  col.all_to_allv(out.lengths.data(), asked.counts, got.lengths.data(), sent.counts, DataType::int64);
  int64_t at = 0;
  for (int q = 0; q < ranks; ++q)
    for (int64_t i = 0; i < sent.counts[q]; ++i) got.entry_counts[q] += got.lengths[at++];
  const int64_t entries = std::accumulate(got.entry_counts.begin(), got.entry_counts.end(), int64_t{0});
  got.colidx.resize(entries);
  got.values.resize(entries);
  col.all_to_allv(out.colidx.data(), entry_counts, got.colidx.data(), got.entry_counts, DataType::int32);
  col.all_to_allv(out.values.data(), entry_counts, got.values.data(), got.entry_counts, DataType::float32);
  got.words.resize(answer_width * sent.ids.size());
  if (any_answer_words) {
    std::vector<int64_t> words_out(ranks), words_in(ranks);
    for (int q = 0; q < ranks; ++q) {
      words_out[q] = answer_words_per_id(static_cast<RowOp>(theirs[q].op)) * asked.counts[q];
      words_in[q] = answer_width * sent.counts[q];
    }
    col.all_to_allv(out.words.data(), words_out, got.words.data(), words_in, DataType::int64);
  }
  return got;
}

void count_round(const OwnerSplit& sent, const Received& got, int64_t answer_width, ProductCall& record) {
  for (size_t q = 0; q < sent.counts.size(); ++q) {
    record.request_bytes += 4 * sent.counts[q] + 8 * sent.word_counts[q];
    record.response_bytes += 8 * (sent.counts[q] + got.entry_counts[q] + answer_width * sent.counts[q]);
    record.remote_rows += sent.counts[q];
    record.remote_entries += got.entry_counts[q];
  }
}

// The rows of `ids` in their order: those of lower blocks (received), this rank's own, the rest.
void splice_rows(const std::vector<vid_t>& ids, int64_t cols, const OwnerSplit& sent, const Received& got,
                 const RowsOut& own, int64_t answer_width, int me, FetchedRows& fetched) {
  const int64_t own_first = sent.own_first, own_count = sent.own_count;
  const int64_t lower_entries = std::accumulate(got.entry_counts.begin(), got.entry_counts.begin() + me, int64_t{0});
  CsrMatrix& rows = fetched.rows;
  rows = CsrMatrix(static_cast<int64_t>(ids.size()), cols);
  for (int64_t i = 0; i < rows.rows; ++i) {
    const int64_t length = i < own_first               ? got.lengths[i]
                           : i < own_first + own_count ? own.lengths[i - own_first]
                                                       : got.lengths[i - own_count];
    rows.rowptr[i + 1] = rows.rowptr[i] + length;
  }
  auto splice = [](const auto& received, const auto& local, int64_t lower, auto& into) {
    into.reserve(received.size() + local.size());
    into.assign(received.begin(), received.begin() + lower);
    into.insert(into.end(), local.begin(), local.end());
    into.insert(into.end(), received.begin() + lower, received.end());
  };
  splice(got.colidx, own.colidx, lower_entries, rows.colidx);
  splice(got.values, own.values, lower_entries, rows.values);
  splice(got.words, own.words, answer_width * own_first, fetched.words);
  fetched.ids = ids;
}

}  // namespace

bool GraphProduct::exchange_aware(const RowRequest* request, const DrawRequest* draws, int operand_id,
                                  FetchedRows* fetched, Matrix* drawn, ProductCall* record) {
  Communicator& col = grid_.col_comm();
  const int ranks = col.size(), me = col.rank();
  const RowOp my_op = draws ? draws->op : request ? request->op : RowOp::whole_rows;
  const int64_t answer_width = answer_words_per_id(my_op);
  const OwnerSplit sent = request ? split_by_owner(request->ids, request->words, words_per_id(my_op),
                                                   blocks_of(my_op, operand_id), ranks, me)
                                  : OwnerSplit(ranks);
  Header header{request != nullptr || draws != nullptr, operand_id};
  header.op = static_cast<int64_t>(my_op);
  if (draws) {
    header.s = draws->s;
    header.key_seed = static_cast<int64_t>(draws->key_base.seed);
    header.key_epoch = draws->key_base.epoch;
    header.key_layer = draws->key_base.layer;
  }
  std::vector<Header> mine(ranks, header);
  for (int q = 0; q < ranks; ++q) mine[q].count = draws ? draws->requested->counts[q] : sent.counts[q];
  const std::vector<Header> theirs = exchange_headers(mine);
  if (std::none_of(theirs.begin(), theirs.end(), [](const Header& h) { return h.active; })) return false;
  for (int q = 0; q < ranks; ++q)
    MATSAMP_CHECK(theirs[q].op >= 0 && theirs[q].op <= static_cast<int64_t>(RowOp::positive_entries),
                  "distributed product: rank ", q, " asked for unknown row op ", theirs[q].op);
  if (std::any_of(theirs.begin(), theirs.end(),
                  [](const Header& h) { return h.active && is_draw_op(static_cast<RowOp>(h.op)); })) {
    MATSAMP_CHECK(!request, "distributed product: the process column draws rows while this rank asks for others");
    draw_at_owners(theirs, draws, drawn, record);
    return true;
  }
  MATSAMP_CHECK(!draws, "distributed product: this rank draws rows while the process column asks for others");
  // Every rank sees every rank's op, so all agree on which word streams travel.
  const auto any_op = [&](auto&& test) {
    return std::any_of(theirs.begin(), theirs.end(), [&](const Header& h) { return test(static_cast<RowOp>(h.op)); });
  };
  const Asked asked = receive_requests(col, theirs, sent, any_op([](RowOp op) { return words_per_id(op) > 0; }));

  // Answers: for each asked id its row length, then the rows' entries (and words).
  const auto respond = [&](const Header& h, const col_t* at, int64_t count, const int64_t* with, int asker,
                           RowsOut& out) {
    const auto op = static_cast<RowOp>(h.op);
    return is_shared_row_op(op) ? answer_shared_row(shared_row(h.operand), op, at, count, with, asker, out)
                                : answer_rows(operand(h.operand), at, count, asker, out);
  };
  RowsOut out;
  std::vector<int64_t> entry_counts(ranks, 0);
  int64_t at = 0, word_at = 0;
  for (int q = 0; q < ranks; at += asked.counts[q], word_at += asked.word_counts[q], ++q)
    if (asked.counts[q] > 0)
      entry_counts[q] =
          respond(theirs[q], asked.ids.data() + at, asked.counts[q], asked.words.data() + word_at, q, out);
  const Received got = exchange_answers(col, theirs, out, entry_counts, asked, sent, answer_width,
                                        any_op([](RowOp op) { return answer_words_per_id(op) > 0; }));
  if (record) count_round(sent, got, answer_width, *record);
  if (!fetched) return true;

  RowsOut own;
  std::vector<col_t> own_ids(request->ids.begin() + sent.own_first,
                             request->ids.begin() + sent.own_first + sent.own_count);
  respond(theirs[me], own_ids.data(), sent.own_count, sent.own_words.data(), me, own);
  const int64_t cols = is_shared_row_op(my_op) ? shared_row(operand_id).blocks().n : operand(operand_id).cols();
  splice_rows(request->ids, cols, sent, got, own, answer_width, me, *fetched);
  return true;
}

void GraphProduct::draw_at_owners(const std::vector<Header>& theirs, const DrawRequest* request, Matrix* fetched,
                                  ProductCall* record) {
  Communicator& col = grid_.col_comm();
  const int ranks = col.size(), me = col.rank();
  // Every asker draws with one op, fanout, key base and operand in a round (the
  // column runs one program): the owner draws all of its requests at once.
  const Header* first = nullptr;
  for (const Header& h : theirs) {
    if (!h.active) continue;
    if (!first) first = &h;
    MATSAMP_CHECK(h.op == first->op && h.s == first->s && h.operand == first->operand &&
                      h.key_seed == first->key_seed && h.key_epoch == first->key_epoch &&
                      h.key_layer == first->key_layer,
                  "distributed product: the process column draws rows of different kinds in one round");
  }
  std::vector<int64_t> asked(ranks, 0), sent(ranks, 0);  // requests from / to each column rank
  for (int q = 0; q < ranks; ++q) {
    asked[q] = theirs[q].active ? theirs[q].count : 0;
    if (request) sent[q] = request->requested->counts[q];
  }
  const auto twice = [](std::vector<int64_t> counts) {
    for (int64_t& c : counts) c *= 2;
    return counts;
  };
  Backend& local = local_backend();
  ResidentExchange exchange(col, local);
  const Ids words = exchange.ids(request ? request->requested->words : Ids{}, twice(sent), twice(asked));
  const DistributedCsr& a = operand(first->operand);
  const RandomKey base{static_cast<uint64_t>(first->key_seed), static_cast<uint32_t>(first->key_epoch),
                       static_cast<uint32_t>(first->key_layer)};
  const RowDraw draw = static_cast<RowOp>(first->op) == RowOp::labor_sample_rows ? RowDraw::labor : RowDraw::its;
  const AnsweredRows answer =
      local.sample_requested_rows(local_block(first->operand), words, asked, a.first_row(), first->s, base, draw);
  std::vector<int64_t> received(ranks, 0);  // entries of the rows each owner answers
  const std::vector<int64_t> ones(ranks, 1);
  col.all_to_allv(answer.entries.data(), ones, received.data(), ones, DataType::int64);
  Matrix rows = exchange.rows(answer.rows, a.cols(), asked, answer.entries, sent, received);
  if (record)  // the wire: two request words per row out, its length and entries back
    for (int q = 0; q < ranks; ++q)
      if (q != me) {
        record->request_bytes += 16 * sent[q];
        record->response_bytes += 8 * (sent[q] + received[q]);
        record->remote_rows += sent[q];
        record->remote_entries += received[q];
      }
  if (fetched) *fetched = std::move(rows);
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
