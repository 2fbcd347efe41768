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
// row pointer of a row further on and the first column ids and values of a
// nearer one.
template <class Id>
[[gnu::always_inline]] inline void prefetch_rows_ahead(const CsrMatrix& a, const Id* ids, int64_t n, int64_t i) {
  if (i + kRowPointerLookahead < n) __builtin_prefetch(a.rowptr.data() + ids[i + kRowPointerLookahead]);
  if (i + kRowEntriesLookahead < n) {
    const int64_t at = a.rowptr[ids[i + kRowEntriesLookahead]];
    __builtin_prefetch(a.colidx.data() + at);
    if (!a.values.empty()) __builtin_prefetch(a.values.data() + at);
  }
}

}  // namespace matsamp
