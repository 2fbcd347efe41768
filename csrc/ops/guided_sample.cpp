// Guided row sampling (DGS, dgs.txt; Horvitz–Thompson weights): LABOR's Poisson
// draw, with each column's chance scaled by its importance and each kept entry
// weighted by 1 / its chance, so a row's weighted sum estimates P's row without bias.
#include <algorithm>
#include <atomic>
#include <vector>

#include "core/philox_batch.h"
#include "ops/build_rows.h"
#include "ops/column_importance.h"
#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

namespace {

uint64_t next_importance_serial() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

}  // namespace

ColumnImportance::ColumnImportance() : serial_(next_importance_serial()) {}

ColumnImportance::ColumnImportance(std::vector<vid_t> ids, std::vector<float> weights)
    : ids_(std::move(ids)), weights_(std::move(weights)), serial_(next_importance_serial()) {
  MATSAMP_CHECK(ids_.size() == weights_.size(), "column importance: ", ids_.size(), " columns but ", weights_.size(),
                " weights");
  for (size_t i = 0; i < ids_.size(); ++i) {
    MATSAMP_CHECK(i == 0 || ids_[i - 1] < ids_[i], "column importance: columns not ascending and distinct at ", i);
    MATSAMP_CHECK(weights_[i] > 0 && weights_[i] <= 1, "column importance: weight ", weights_[i], " of column ",
                  ids_[i], " is outside (0, 1]");
  }
}

ColumnImportance::ColumnImportance(std::vector<vid_t> ids, std::vector<float> weights, vid_t own_first, vid_t own_end,
                                   float elsewhere)
    : ColumnImportance(std::move(ids), std::move(weights)) {
  MATSAMP_CHECK(own_first <= own_end, "column importance: own columns [", own_first, ", ", own_end, ") reversed");
  MATSAMP_CHECK(elsewhere > 0 && elsewhere <= 1, "column importance: weight ", elsewhere,
                " of the other columns is outside (0, 1]");
  own_first_ = own_first;
  own_end_ = own_end;
  elsewhere_ = elsewhere;
}

float ColumnImportance::of(vid_t column) const {
  const auto at = std::lower_bound(ids_.begin(), ids_.end(), column);
  if (at != ids_.end() && *at == column) return weights_[at - ids_.begin()];
  return own_first_ <= column && column < own_end_ ? 1.0f : elsewhere_;
}

CsrMatrix guided_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                             const ColumnImportance& importance, const SampleKeys& keys) {
  check_sample_rows(static_cast<int64_t>(rows.size()), s, keys, "guided_sample_rows");
  check_row_ids(a, rows, "guided_sample_rows");
  const bool pattern = a.values.empty();
  return build_rows_once(
      static_cast<int64_t>(rows.size()), a.cols, 256, rows_work(a, static_cast<int64_t>(rows.size())), [&] {
        return [&, uniforms = std::vector<double>(), weights = std::vector<double>()](int64_t i, auto&& emit) mutable {
          const int64_t begin = a.rowptr[rows[i]], end = a.rowptr[rows[i] + 1];
          const auto value = [&](int64_t e) { return pattern ? 1.0 : static_cast<double>(a.values[e]); };
          double sum = 0, guided_sum = 0;  // P's row sum, and that of its entries scaled by importance
          weights.resize(end - begin);
          for (int64_t e = begin; e < end; ++e) {
            weights[e - begin] = value(e) * importance.of(a.colidx[e]);
            sum += value(e);
            guided_sum += weights[e - begin];
          }
          if (!(sum > 0) || !(guided_sum > 0)) return;
          uniforms.resize(end - begin);
          uniform01_of_rows(row_key(keys, i), kLaborDraw, a.colidx.data() + begin, end - begin, uniforms.data());
          for (int64_t e = begin; e < end; ++e) {
            const double chance = std::min(1.0, static_cast<double>(s) * weights[e - begin] / guided_sum);
            if (chance > 0 && uniforms[e - begin] < chance)
              emit(a.colidx[e], static_cast<float>(value(e) / sum / chance));
          }
        };
      });
}

}  // namespace matsamp
