// The 1.5D distributed product P_i = Q_i·A = Σ_q Q_iq·A_q (DESIGN.md, "Distribution").
//
// Rank (i, j) of the (p/c) x c grid handles the column blocks q of chunk j (p/c² of
// the p/c blocks), bringing the rows of A_q it needs from their owner in its process
// column: sparsity-aware (send the nonzero column ids of Q_iq, get back those rows
// only) or oblivious (the owner broadcasts all of A_q). The ranks of the process row
// then finish the sum in column order (see partial_product.h), so P is bit-identical
// to the single-process spgemm.
//
// Sampling rows of A (GraphSAGE, LABOR) needs no product: sample_rows has each row
// drawn by its owner, which sends back its s picks instead of the whole row. Those
// rounds run on the ranks' local backends: the requests, the owner's draw of its
// block (registered there) and the rows back stay in backend memory, moved in place
// where the transport takes it (resident_exchange.h). The other rounds run on the host.
//
// Every rank of a process column takes part in every exchange round, whether or not
// it has minibatches left: a rank that is done calls finish(), which keeps serving
// the column until every rank of it has called finish().
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "communicator.h"
#include "distributed_csr.h"
#include "ops/ops.h"
#include "partial_product.h"
#include "process_grid.h"
#include "shared_row.h"

namespace matsamp {

// What one multiply() or sample_rows() moved, seen from the rank that asked (remote
// rows only), and its time. Summed over the ranks of a grid these are the wire bytes.
struct ProductCall {
  int64_t request_bytes = 0;   // ids sent to owners (4 bytes each; 16 more per sampled row's key)
  int64_t response_bytes = 0;  // rows received: 8 per row (length), 8 per entry (column + value)
  int64_t remote_rows = 0;
  int64_t remote_entries = 0;
  int64_t reduce_bytes = 0;  // sent along the process row (running sums and P, or sampled chunks)
  int64_t result_nonzeros = 0;
  // sample_rows: exchange_s includes the owners' sampling, reduce_s the gather of the chunks.
  double exchange_s = 0, compute_s = 0, reduce_s = 0;
  bool shared_row = false;  // an op of a shared row (its draws' searches, its values), not of rows
};

class GraphProduct {
 public:
  enum class Exchange { sparsity_aware, oblivious };
  // How the c ranks of a process row share its work. shared: they pass the row's one Q
  // and each multiplies it by p/c² of the column blocks, then the row reduces; split:
  // each passes its own Q (its share of the row's minibatches) and multiplies it by
  // every block, fetched within its process column (which holds all of A), with no
  // reduction, so that every rank samples and compacts 1/p of the epoch.
  enum class RowWork { shared, split };

  GraphProduct(ProcessGrid& grid, Exchange exchange, RowWork work = RowWork::shared);
  GraphProduct(const GraphProduct&) = delete;
  GraphProduct& operator=(const GraphProduct&) = delete;
  ~GraphProduct();

  // The backend this rank samples on, which holds its blocks (a CPU backend of its
  // own unless given before the first operand); the blocks are dropped by
  // release_local_backend(), before that backend goes.
  void set_local_backend(Backend& local);
  void release_local_backend();
  Backend& local_backend();
  // An operand's block as a graph of the local backend.
  const Matrix& local_block(int operand) const;

  // Registers a distributed right operand; every rank registers the same ones in the
  // same order. Returns its id. The matrix must outlive this object.
  int add_operand(const DistributedCsr& a);

  // Collective over the process grid: P = Q·A for this process row's Q (every rank of
  // a process row passes the same Q, rows with ascending column ids; with split row
  // work each rank its own).
  CsrMatrix multiply(const CsrMatrix& q, int operand);
  // Collective over the process grid: sample_rows (RowDraw::its) or
  // labor_sample_rows of ops.h on A's rows `rows`, bit for bit (every rank of a
  // process row passes the same arguments, or with split row work its own). The
  // ids, the exchange and the result stay in the local backend.
  // Sparsity-aware: each row's owner draws it with the row's key on its local
  // backend (sample_requested_rows) and returns only the picks; oblivious: the
  // chunk's blocks come whole and are drawn here. The process row then gathers the
  // rows of its c chunks. uniform_rows: every block's rows are (the draw of rows
  // fetched whole needs the whole graph's answer).
  Matrix sample_rows(const Ids& rows, int64_t s, const SampleKeys& keys, int operand, RowDraw draw, bool uniform_rows);
  // Registers one row of P that every minibatch shares, held by blocks (shared_row.h);
  // every rank registers the same ones in the same order. Returns its id. The block
  // must outlive this object.
  int add_shared_row(const SharedRowBlock& row);
  // Collective over the process grid: its_sample of ops.h on the shared row, one row of
  // picks per key row, bit for bit (every rank of a process row passes the same keys, or
  // with split row work its own). Sparsity-aware exchange only.
  CsrMatrix sample_shared_row(int row, int64_t s, const SampleKeys& keys);
  // Collective over the process grid: the shared row's values at `vertices`.
  std::vector<float> shared_row_values(int row, const std::vector<vid_t>& vertices);
  // Collective over the process column: serve requests until every rank is done.
  void finish();

  Exchange exchange() const { return exchange_; }
  RowWork row_work() const { return work_; }
  // One record per multiply() and sample_rows() since the last clear_calls().
  const std::vector<ProductCall>& calls() const { return calls_; }
  void clear_calls() { calls_.clear(); }
  ProcessGrid& grid() { return grid_; }

  // The op the owner applies to the rows asked of it: send them whole, or draw
  // them with each row's key on its local backend (sample_requested_rows, in a
  // round of its own: every rank of the column draws, or none). The shared
  // row's ops: search its prefix for a target (one entry and the prefix before it
  // back), its values at the vertices asked, all of a block's positive entries (asked
  // by the block's first vertex).
  enum class RowOp : int64_t {
    whole_rows = 0,
    sample_rows = 1,
    labor_sample_rows = 2,
    search_prefix = 3,
    shared_values = 4,
    positive_entries = 5
  };

  // What a rank tells each rank of its process column at the start of a round: the
  // op and its arguments, nothing of the sampler that called it.
  struct Header {
    int64_t active = 0;
    int64_t operand = -1;
    int64_t count = 0;                                   // ids (rows to draw) requested of the receiving rank
    int64_t op = 0;                                      // RowOp
    int64_t s = 0;                                       // the sampling ops' sample count
    int64_t key_seed = 0, key_epoch = 0, key_layer = 0;  // the common part of the rows' keys
  };

 private:
  // What one rank asks of its process column in a round: rows whole, or the shared
  // row's ops (a search's target in words[i], its id the owner block's first vertex).
  struct RowRequest {
    std::vector<vid_t> ids;  // grouped by owner, in column-rank order
    RowOp op = RowOp::whole_rows;
    std::vector<int64_t> words;  // words_per_id(op) per id
  };
  // Rows to draw at their owners (in the local backend): requests per column rank.
  struct DrawRequest {
    const RequestedRows* requested = nullptr;
    RowOp op = RowOp::sample_rows;
    int64_t s = 0;
    RandomKey key_base;  // seed, epoch and layer of every key
  };

  // Column blocks per chunk: p/c² of the p/c block rows (all of them with split row work).
  int blocks_per_chunk() const {
    return work_ == RowWork::split ? grid_.process_rows() : grid_.process_rows() / grid_.replication();
  }
  int first_block() const { return work_ == RowWork::split ? 0 : grid_.col() * blocks_per_chunk(); }
  // Whether the ranks of the process row finish each result together.
  bool row_reduces() const { return work_ == RowWork::shared && grid_.replication() > 1; }
  // The vertex range [begin, end) of this rank's chunk of column blocks.
  std::pair<vid_t, vid_t> chunk(const RowBlocks& blocks) const;
  // The process row's chunks (shared row work): chunk j is [bounds[j], bounds[j + 1]).
  std::vector<vid_t> chunk_bounds(const RowBlocks& blocks) const;
  const DistributedCsr& operand(int64_t id) const;
  const SharedRowBlock& shared_row(int64_t id) const;
  const RowBlocks& blocks_of(RowOp op, int64_t id) const;
  // One exchange round of the process column. `request` (ids in this rank's chunk) is
  // null on a rank that is done, which passes null for all four. Returns false when
  // every rank of the column is done. The oblivious exchange brings the chunk's rows
  // whole, whatever the request's op.
  bool exchange_round(const RowRequest* request, int operand, FetchedRows* fetched, ProductCall* record);
  // sample_rows with the oblivious exchange: the chunk's rows whole, drawn here.
  CsrMatrix draw_fetched_chunk(const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys, int operand,
                               RowDraw draw, bool uniform_rows, const char* op, ProductCall* record);
  // A round of draws at the owners; `request` null on a rank that only serves.
  void draw_at_owners(const std::vector<Header>& theirs, const DrawRequest* request, Matrix* fetched,
                      ProductCall* record);
  // The process row's chunks of sampled rows (each in the order of `rows`, as the
  // oblivious exchange draws them) stacked back in the order of `rows`, on the host.
  CsrMatrix gather_chunks(const CsrMatrix& piece, const std::vector<vid_t>& rows, const RowBlocks& blocks,
                          ProductCall* record);
  // sample_shared_row's cases for `rows` / rows [r0, r1) of the keys: every row takes
  // every positive entry (s at least their count), or each row's draws search the
  // blocks' prefixes round by round (the process row agreeing on every round).
  CsrMatrix every_positive_entry(int row, int64_t rows, ProductCall* record);
  CsrMatrix draw_from_shared_row(int row, int64_t s, const SampleKeys& keys, int64_t r0, int64_t r1,
                                 ProductCall* record);
  // One search round: the hit of each target, asked of the owner of its block.
  std::vector<PrefixHit> search_prefixes(int row, const std::vector<uint64_t>& targets, ProductCall* record);
  // A sparsity-aware round: `request` for rows whole or the shared row's ops,
  // `draws` for rows drawn at their owners (into *drawn); both null to serve.
  bool exchange_aware(const RowRequest* request, const DrawRequest* draws, int operand, FetchedRows* fetched,
                      Matrix* drawn, ProductCall* record);
  bool exchange_oblivious(const RowRequest* request, int operand, FetchedRows* fetched, ProductCall* record);
  std::vector<Header> exchange_headers(const std::vector<Header>& mine);

  ProcessGrid& grid_;
  Exchange exchange_;
  RowWork work_;
  std::unique_ptr<Backend> own_local_;  // when none was given
  Backend* local_ = nullptr;
  std::vector<const DistributedCsr*> operands_;
  std::vector<Matrix> local_blocks_;  // each operand's block on local_
  std::vector<const SharedRowBlock*> shared_rows_;
  std::vector<ProductCall> calls_;
};

// "shared" or "split" (the CLI's --row-work) as the product's RowWork.
GraphProduct::RowWork parse_row_work(const std::string& name);

}  // namespace matsamp
