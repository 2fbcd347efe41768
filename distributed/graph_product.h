// The 1.5D distributed product P_i = Q_i·A = Σ_q Q_iq·A_q (DESIGN.md, "Distribution").
//
// Rank (i, j) of the (p/c) x c grid handles the column blocks q of chunk j (p/c² of
// the p/c blocks), bringing the rows of A_q it needs from their owner in its process
// column: sparsity-aware (send the nonzero column ids of Q_iq, get back those rows
// only) or oblivious (the owner broadcasts all of A_q). The ranks of the process row
// then finish the sum in column order (see partial_product.h), so P is bit-identical
// to the single-process spgemm.
//
// Every rank of a process column takes part in every exchange round, whether or not
// it has minibatches left: a rank that is done calls finish(), which keeps serving
// the column until every rank of it has called finish().
#pragma once
#include <utility>
#include <vector>

#include "distributed_csr.h"
#include "partial_product.h"
#include "process_grid.h"

namespace matsamp {

class GraphProduct {
 public:
  enum class Exchange { sparsity_aware, oblivious };

  GraphProduct(ProcessGrid& grid, Exchange exchange);
  GraphProduct(const GraphProduct&) = delete;
  GraphProduct& operator=(const GraphProduct&) = delete;

  // Registers a distributed right operand; every rank registers the same ones in the
  // same order. Returns its id. The matrix must outlive this object.
  int add_operand(const DistributedCsr& a);

  // Collective over the process grid: P = Q·A for this process row's Q (every rank of
  // a process row passes the same Q, rows with ascending column ids).
  CsrMatrix multiply(const CsrMatrix& q, int operand);
  // Collective over the process column: serve requests until every rank is done.
  void finish();

  Exchange exchange() const { return exchange_; }
  ProcessGrid& grid() { return grid_; }

 private:
  struct Header {
    int64_t active = 0;
    int64_t operand = -1;
    int64_t count = 0;   // ids requested from the receiving rank
  };

  // The vertex range [begin, end) of this rank's chunk of column blocks.
  std::pair<vid_t, vid_t> chunk(const RowBlocks& blocks) const;
  const DistributedCsr& operand(int64_t id) const;
  // One exchange round of the process column. `wanted` (sorted ids in this rank's chunk)
  // is null on a rank that is done. Returns false when every rank of the column is done.
  bool exchange_round(const std::vector<vid_t>* wanted, int operand, FetchedRows* fetched);
  bool exchange_aware(const std::vector<vid_t>* wanted, int operand, FetchedRows* fetched);
  bool exchange_oblivious(const std::vector<vid_t>* wanted, int operand, FetchedRows* fetched);
  std::vector<Header> exchange_headers(const std::vector<Header>& mine);

  ProcessGrid& grid_;
  Exchange exchange_;
  std::vector<const DistributedCsr*> operands_;
};

}  // namespace matsamp
