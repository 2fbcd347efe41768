// Software prefetch for ops that visit rows of a CSR matrix by id, at random:
// each such row costs two misses in turn (its row pointer, then its entries),
// which out-of-order execution cannot overlap across rows on its own.
// (always_inline: GCC drops prefetches in helpers it proves side-effect free.)
#pragma once
#include <cstdint>

#include "core/csr.h"

namespace matsamp {

// How far ahead, in rows visited: the row pointer first, the entries later.
constexpr int64_t kRowPointerLookahead = 16;
constexpr int64_t kRowEntriesLookahead = 4;

// Rows ids[0..n) of A are visited in order and row ids[i] is next: fetches the
// row pointer of a row further on (for ops that read only the row's extent and
// a few picked entries).
template <class Id>
[[gnu::always_inline]] inline void prefetch_row_pointer_ahead(const CsrMatrix& a, const Id* ids, int64_t n, int64_t i) {
  if (i + kRowPointerLookahead < n) __builtin_prefetch(a.rowptr.data() + ids[i + kRowPointerLookahead]);
}

// The same, and the first column ids and values of a nearer row (for ops that
// read whole rows).
template <class Id>
[[gnu::always_inline]] inline void prefetch_rows_ahead(const CsrMatrix& a, const Id* ids, int64_t n, int64_t i) {
  prefetch_row_pointer_ahead(a, ids, n, i);
  if (i + kRowEntriesLookahead < n) {
    const int64_t at = a.rowptr[ids[i + kRowEntriesLookahead]];
    __builtin_prefetch(a.colidx.data() + at);
    if (!a.values.empty()) __builtin_prefetch(a.values.data() + at);
  }
}

}  // namespace matsamp
