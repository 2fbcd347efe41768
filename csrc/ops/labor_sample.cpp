// LABOR-0 row sampling (Balın & Çatalyürek, "Layer-Neighbor Sampling", 2023):
// Poisson sampling of each row of P = normalize_rows(R·A) in which every
// minibatch draws one uniform number per column, shared by all its rows, so rows
// with common neighbours pick them together and a layer has fewer vertices.
#include <vector>

#include "core/philox_batch.h"
#include "ops/build_rows.h"
#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

namespace {

// The number of `column` in the minibatch a row key names (its row is not used).
double column_uniform(const RandomKey& row_key, vid_t column) {
  RandomKey key = row_key;
  key.row = static_cast<uint64_t>(column);
  return uniform01(random_bits(key, kLaborDraw));
}

// labor_sample_rows with row i's minibatch named by key_of(i); the callers check the arguments.
template <class KeyOf>
CsrMatrix labor_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, KeyOf key_of, bool uniform_rows,
                     std::vector<vid_t>* positions = nullptr) {
  check_row_ids(a, rows, "labor_sample_rows");
  const bool pattern = a.values.empty();
  return build_rows_once(
      static_cast<int64_t>(rows.size()), a.cols, 256, rows_work(a, static_cast<int64_t>(rows.size())),
      [&] {
        return [&, uniforms = std::vector<double>()](int64_t i, auto&& emit) mutable {
          const int64_t begin = a.rowptr[rows[i]], end = a.rowptr[rows[i] + 1];
          const auto value = [&](int64_t e) { return pattern ? 1.0 : static_cast<double>(a.values[e]); };
          double sum = 0;  // normalize_rows' arithmetic: a double sum in row order, then float(v / sum)
          bool equal_values = true;
          if (uniform_rows && end - begin < (int64_t{1} << 29)) {
            // Equal values v: each partial sum k·v is exact in double below 2^29
            // entries, so the sum is len·v without reading the row.
            if (end > begin) sum = static_cast<double>(end - begin) * value(begin);
          } else {
            for (int64_t e = begin; e < end; ++e) {
              sum += value(e);
              equal_values &= value(e) == value(begin);
            }
          }
          if (!(sum > 0)) return;
          const auto p_of = [&](int64_t e) { return static_cast<float>(value(e) / sum); };
          const auto threshold_of = [&](float p) { return static_cast<double>(s) * p; };  // u < 1 <= it needs no draw
          // Rows of equal values (unweighted graphs) share one p: kept whole, or
          // decided by one comparison per entry without a division.
          if (equal_values && threshold_of(p_of(begin)) >= 1) {
            for (int64_t e = begin; e < end; ++e) emit(a.colidx[e], p_of(begin), e);
            return;
          }
          uniforms.resize(end - begin);
          uniform01_of_rows(key_of(i), kLaborDraw, a.colidx.data() + begin, end - begin, uniforms.data());
          if (equal_values) {
            const float p = p_of(begin);
            const double threshold = threshold_of(p);
            for (int64_t e = begin; e < end; ++e)
              if (uniforms[e - begin] < threshold) emit(a.colidx[e], p, e);
            return;
          }
          for (int64_t e = begin; e < end; ++e) {
            const float p = p_of(e);
            if (threshold_of(p) >= 1 || uniforms[e - begin] < threshold_of(p)) emit(a.colidx[e], p, e);
          }
        };
      },
      positions);
}

}  // namespace

double labor_uniform(const SampleKeys& keys, int64_t minibatch, vid_t column) {
  return column_uniform({keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.first_minibatch + minibatch)},
                        column);
}

CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                            std::vector<vid_t>* positions, bool uniform_rows) {
  check_sample_rows(static_cast<int64_t>(rows.size()), s, keys, "labor_sample_rows");
  return labor_rows(
      a, rows, s, [&](int64_t i) { return row_key(keys, i); }, uniform_rows, positions);
}

CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                            const std::vector<RandomKey>& keys, bool uniform_rows) {
  MATSAMP_CHECK(s > 0, "labor_sample_rows: sample count must be positive, got ", s);
  MATSAMP_CHECK(rows.size() == keys.size(), "labor_sample_rows: ", rows.size(), " rows selected but ", keys.size(),
                " keys given");
  return labor_rows(
      a, rows, s, [&](int64_t i) { return keys[i]; }, uniform_rows);
}

}  // namespace matsamp
