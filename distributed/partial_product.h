// The local step of the distributed product, in the exact order of the local spgemm.
//
// Floating-point addition is not associative, so summing partial products that
// ranks computed independently would change the last bits of P (and so, through
// ITS, the samples). Instead the ranks of a process row pass the running sum along
// in column order: each continues the fold where the previous rank stopped, which
// replays spgemm's additions one for one (bit-identical for any p and c).
#pragma once
#include <vector>

#include "core/csr.h"

namespace matsamp {

// Rows of a distributed matrix brought to this rank: rows.row(i) is row ids[i]
// (ids ascending, global column ids); words, the answers' words where an op has them.
struct FetchedRows {
  std::vector<vid_t> ids;
  CsrMatrix rows;
  std::vector<int64_t> words;
};

// Continues C = Q·A over the entries of Q with columns in [lo, hi), whose rows of A
// are in `fetched`, after `running` (q.rows x A's columns, the sum over the columns
// below lo; no entries when lo is where Q starts). Rows of Q must list their columns
// in ascending order, as CSR does.
CsrMatrix continue_product(const CsrMatrix& q, const FetchedRows& fetched, vid_t lo, vid_t hi,
                           const CsrMatrix& running);

}  // namespace matsamp
