// guided_sample_rows on the device, decision for decision the CPU op's
// (csrc/ops/guided_sample.cpp): a thread per row sums the row and its entries
// scaled by their columns' importance (doubles, in row order), then keeps entry
// (i, t) when the minibatch's number for column t is below
// π_it = min(1, s·a_it·w_t / Σ a_i·w), weighted p_it / π_it (poisson_rows.cuh).
#include "kernels/poisson_rows.cuh"

namespace matsamp::gpu {

namespace {

struct RowSums {
  double sum;     // P's row sum
  double guided;  // that of its entries scaled by importance
};

struct GuidedRows : PickedRows {
  int64_t s;
  DeviceImportance importance;
  DeviceKeys keys;

  // ColumnImportance::of: listed, else 1 in the own range, else `elsewhere`.
  __device__ float importance_of(col_t t) const {
    int64_t low = 0, high = importance.count;  // the first listed id >= t
    while (low < high) {
      const int64_t middle = low + (high - low) / 2;
      if (importance.ids[middle] < t) low = middle + 1;
      else high = middle;
    }
    if (low < importance.count && importance.ids[low] == t) return importance.weights[low];
    return importance.own_first <= t && t < importance.own_end ? 1.0f : importance.elsewhere;
  }
  __device__ double weight(int64_t e) const { return value(e) * importance_of(a.colidx[e]); }
  __device__ RowSums sums(int64_t i) const {
    RowSums sums{0, 0};
    for (int64_t e = begin(i); e < end(i); ++e) {
      sums.sum += value(e);
      sums.guided += weight(e);
    }
    return sums;
  }
  __device__ bool drawn(const RowSums& sums) const { return sums.sum > 0 && sums.guided > 0; }
  __device__ float kept(int64_t i, int64_t e, const RowSums& sums) const {
    const double chance = fmin(1.0, static_cast<double>(s) * weight(e) / sums.guided);
    if (!(chance > 0) || !(minibatch_column_uniform(keys, i, a.colidx[e]) < chance)) return -1.0f;
    return static_cast<float>(value(e) / sums.sum / chance);
  }
};

}  // namespace

DeviceCsr guided_sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                             const DeviceImportance& importance, const DeviceKeys& keys) {
  return poisson_sample_rows(engine, GuidedRows{{a, rows}, s, importance, keys}, keys.rows.total, a.cols);
}

}  // namespace matsamp::gpu
