// Builds a CSR matrix in one parallel pass over its rows, for rows too costly to
// generate twice (a sparse product's accumulation, a filtered selection): each
// chunk of rows goes to a buffer of its own, and the buffers are then copied into
// place, so the entries are held twice for a moment.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/csr.h"
#include "util/parallel.h"

namespace matsamp {

// make_row() is called once per thread (it owns the thread's scratch space) and
// returns row(r, emit), which calls emit(column, value) for the entries of row r
// in ascending column order; emit(column, value, position) also names where an
// entry came from, kept in `positions` when it is given. `work` sizes the team
// (threads_for).
template <class MakeRow>
CsrMatrix build_rows_once(int64_t rows, int64_t cols, int64_t max_chunk, int64_t work, MakeRow&& make_row,
                          std::vector<vid_t>* positions = nullptr) {
  struct Buffer {
    std::vector<col_t> colidx;
    std::vector<float> values;
    std::vector<vid_t> positions;
  };
  CsrMatrix out(rows, cols);
  const int64_t chunk = row_chunk(rows, max_chunk);
  const int64_t chunks = (rows + chunk - 1) / chunk;
  std::vector<Buffer> buffers(chunks);
#pragma omp parallel num_threads(threads_for(work))
  {
    auto row = make_row();
#pragma omp for schedule(dynamic, 1)
    for (int64_t c = 0; c < chunks; ++c) {
      Buffer& buffer = buffers[c];
      const auto emit = [&buffer, positions](col_t j, float value, vid_t position = -1) {
        buffer.colidx.push_back(j);
        buffer.values.push_back(value);
        if (positions) buffer.positions.push_back(position);
      };
      for (int64_t r = c * chunk; r < std::min(rows, (c + 1) * chunk); ++r) {
        const size_t before = buffer.colidx.size();
        row(r, emit);
        out.rowptr[r + 1] = static_cast<int64_t>(buffer.colidx.size() - before);
      }
    }
  }
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  if (positions) positions->resize(out.rowptr.back());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_for(out.nnz()))
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t at = out.rowptr[c * chunk];
    std::copy(buffers[c].colidx.begin(), buffers[c].colidx.end(), out.colidx.begin() + at);
    std::copy(buffers[c].values.begin(), buffers[c].values.end(), out.values.begin() + at);
    if (positions) std::copy(buffers[c].positions.begin(), buffers[c].positions.end(), positions->begin() + at);
    buffers[c] = {};
  }
  return out;
}

}  // namespace matsamp
