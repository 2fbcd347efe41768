// labor_sample_rows on the device, decision for decision the CPU op's
// (csrc/ops/labor_sample.cpp): a thread per row sums the row in order (a double,
// as normalize_rows does), then keeps entry (i, t) when s·p_it >= 1 or the
// minibatch's number for column t is below s·p_it (poisson_rows.cuh).
#include "kernels/poisson_rows.cuh"

namespace matsamp::gpu {

namespace {

struct LaborRows : PickedRows {
  int64_t s;
  DeviceKeys keys;

  __device__ double sums(int64_t i) const {
    double total = 0;
    for (int64_t e = begin(i); e < end(i); ++e) total += value(e);
    return total;
  }
  __device__ bool drawn(double total) const { return total > 0; }
  // Entry e of row i (whose sum is `total`) is kept: its p, or a negative number.
  __device__ float kept(int64_t i, int64_t e, double total) const {
    const float p = static_cast<float>(value(e) / total);
    const double threshold = static_cast<double>(s) * p;
    if (threshold >= 1) return p;
    return minibatch_column_uniform(keys, i, a.colidx[e]) < threshold ? p : -1.0f;
  }
};

}  // namespace

DeviceCsr labor_sample_rows(DeviceEngine& engine, const CsrView& a, const vid_t* rows, int64_t s,
                            const DeviceKeys& keys) {
  return poisson_sample_rows(engine, LaborRows{{a, rows}, s, keys}, keys.rows.total, a.cols);
}

}  // namespace matsamp::gpu
