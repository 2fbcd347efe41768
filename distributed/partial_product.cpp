#include "partial_product.h"

#include <algorithm>
#include <memory>
#include <numeric>

namespace matsamp {

namespace {

// Dense per-thread accumulator over the output columns, reused across rows (as in spgemm).
struct Accumulator {
  explicit Accumulator(int64_t cols) : mark(cols, -1), sum(cols, 0.0f) {}
  std::vector<int64_t> mark;   // row that last touched the column
  std::vector<float> sum;
  std::vector<col_t> touched;
};

}  // namespace

CsrMatrix continue_product(const CsrMatrix& q, const FetchedRows& fetched, vid_t lo, vid_t hi,
                           const CsrMatrix& running) {
  const int64_t cols = fetched.rows.cols;
  MATSAMP_CHECK(running.rows == q.rows && running.cols == cols, "continue_product: running sum is ",
                running.shape(), " but Q is ", q.shape(), " and A has ", cols, " columns");
  MATSAMP_CHECK(static_cast<int64_t>(fetched.ids.size()) == fetched.rows.rows,
                "continue_product: ", fetched.ids.size(), " ids for ", fetched.rows.shape());
  // Where each vertex of [lo, hi) sits among the fetched rows.
  std::vector<int64_t> slot(hi - lo, -1);
  for (size_t i = 0; i < fetched.ids.size(); ++i) slot[fetched.ids[i] - lo] = static_cast<int64_t>(i);
  const float* qval = q.values.empty() ? nullptr : q.values.data();
  const CsrMatrix& b = fetched.rows;

  // Calls term(column, product) for each term of row r in spgemm's order.
  auto for_each_term = [&](int64_t r, auto&& term) {
    const auto first = std::lower_bound(q.colidx.begin() + q.rowptr[r], q.colidx.begin() + q.rowptr[r + 1],
                                        static_cast<col_t>(lo));
    for (auto it = first; it != q.colidx.begin() + q.rowptr[r + 1] && *it < hi; ++it) {
      const int64_t e = it - q.colidx.begin();
      const int64_t k = slot[*it - lo];
      MATSAMP_CHECK(k >= 0, "continue_product: row ", *it, " of A was not fetched");
      const float av = qval ? qval[e] : 1.0f;
      for (int64_t f = b.rowptr[k]; f < b.rowptr[k + 1]; ++f) term(b.colidx[f], av * b.values[f]);
    }
  };

  // A row with no running sum and a single term (selectors: GraphSAGE, row extraction) is
  // that row of A times the entry of Q: spgemm's first-touch assignments, already sorted.
  auto single_term = [&](int64_t r) -> int64_t {   // the fetched row, or -1
    if (running.row_nnz(r) != 0) return -1;
    const auto first = std::lower_bound(q.colidx.begin() + q.rowptr[r], q.colidx.begin() + q.rowptr[r + 1],
                                        static_cast<col_t>(lo));
    const auto last = q.colidx.begin() + q.rowptr[r + 1];
    if (first == last || *first >= hi || (first + 1 != last && first[1] < hi)) return -1;
    const int64_t k = slot[*first - lo];
    MATSAMP_CHECK(k >= 0, "continue_product: row ", *first, " of A was not fetched");
    return k;
  };

  CsrMatrix c(q.rows, cols);
  std::vector<int64_t> single(q.rows);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < q.rows; ++r) single[r] = single_term(r);
#pragma omp parallel
  {
    std::unique_ptr<Accumulator> acc_owner;   // O(cols): made only when a row needs it
#pragma omp for schedule(dynamic, 256)
    for (int64_t r = 0; r < q.rows; ++r) {
      if (single[r] >= 0) {
        c.rowptr[r + 1] = b.row_nnz(single[r]);
        continue;
      }
      if (!acc_owner) acc_owner = std::make_unique<Accumulator>(cols);
      Accumulator& acc = *acc_owner;
      int64_t count = 0;
      auto touch = [&](col_t j) {
        if (acc.mark[j] != r) {
          acc.mark[j] = r;
          ++count;
        }
      };
      for (int64_t e = running.rowptr[r]; e < running.rowptr[r + 1]; ++e) touch(running.colidx[e]);
      for_each_term(r, [&](col_t j, float) { touch(j); });
      c.rowptr[r + 1] = count;
    }
  }
  std::partial_sum(c.rowptr.begin(), c.rowptr.end(), c.rowptr.begin());
  c.colidx.resize(c.rowptr.back());
  c.values.resize(c.rowptr.back());

#pragma omp parallel
  {
    std::unique_ptr<Accumulator> acc_owner;
#pragma omp for schedule(dynamic, 256)
    for (int64_t r = 0; r < q.rows; ++r) {
      if (single[r] >= 0) {
        const int64_t e = std::lower_bound(q.colidx.begin() + q.rowptr[r], q.colidx.begin() + q.rowptr[r + 1],
                                           static_cast<col_t>(lo)) - q.colidx.begin();
        const float av = qval ? qval[e] : 1.0f;
        int64_t out = c.rowptr[r];
        for (int64_t f = b.rowptr[single[r]]; f < b.rowptr[single[r] + 1]; ++f, ++out) {
          c.colidx[out] = b.colidx[f];
          c.values[out] = av * b.values[f];
        }
        continue;
      }
      if (!acc_owner) acc_owner = std::make_unique<Accumulator>(cols);
      Accumulator& acc = *acc_owner;
      acc.touched.clear();
      auto add = [&](col_t j, float value) {
        if (acc.mark[j] != r) {   // first term: spgemm assigns, it does not add to 0
          acc.mark[j] = r;
          acc.sum[j] = value;
          acc.touched.push_back(j);
        } else {
          acc.sum[j] += value;
        }
      };
      for (int64_t e = running.rowptr[r]; e < running.rowptr[r + 1]; ++e) add(running.colidx[e], running.values[e]);
      for_each_term(r, add);
      std::sort(acc.touched.begin(), acc.touched.end());
      int64_t out = c.rowptr[r];
      for (col_t j : acc.touched) {
        c.colidx[out] = j;
        c.values[out++] = acc.sum[j];
      }
    }
  }
  return c;
}

}  // namespace matsamp
