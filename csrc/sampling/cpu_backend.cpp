#include "sampling/backend.h"

#include <utility>

namespace matsamp {

namespace {

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) override { return matsamp::spgemm(a, b); }
  CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) override {
    return matsamp::select_rows(a, rows);
  }
  CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets,
                                const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                const std::vector<float>& weights) override {
    return matsamp::select_cols_blocked(a, row_offsets, cols, col_offsets, weights);
  }
  CsrMatrix select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows,
                                     const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                     const Offsets& col_offsets, const std::vector<float>& weights) override {
    return matsamp::select_rows_cols_blocked(a, rows, row_offsets, cols, col_offsets, weights);
  }
  void normalize_rows(CsrMatrix& p, bool square_first) override {
    matsamp::normalize_rows(p, square_first);
  }
  CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) override {
    return matsamp::its_sample(p, s, keys);
  }
  CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                        const SampleKeys& keys, bool uniform_rows) override {
    return matsamp::sample_rows(a, rows, s, keys, uniform_rows);
  }
  CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                const Offsets& leading_offsets) override {
    return matsamp::compact_columns(std::move(s), row_offsets, leading, leading_offsets);
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace matsamp
