// CSR matrices in device memory: an owning DeviceCsr and the non-owning view the
// kernels take. Same layout as CsrMatrix (int64 row pointers, int32 column ids,
// float values); a view without values stands for all ones.
#pragma once
#include <cstdint>

#include "core/csr.h"
#include "kernels/device_engine.h"

namespace matsamp::gpu {

struct CsrView {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  const int64_t* rowptr = nullptr;  // rows + 1
  const col_t* colidx = nullptr;    // nnz
  const float* values = nullptr;    // nnz, or null: every value is 1
};

struct DeviceCsr {
  int64_t rows = 0;
  int64_t cols = 0;
  DeviceArray<int64_t> rowptr;
  DeviceArray<col_t> colidx;
  DeviceArray<float> values;  // empty for a pattern matrix

  DeviceCsr() = default;
  // Row pointers allocated (not set); column ids and values of nnz entries.
  DeviceCsr(DeviceEngine& engine, int64_t rows_, int64_t cols_, int64_t nnz, bool with_values = true)
      : rows(rows_),
        cols(cols_),
        rowptr(engine, rows_ + 1),
        colidx(engine, nnz),
        values(engine, with_values ? nnz : 0) {}

  int64_t nnz() const { return colidx.size(); }
  int64_t bytes() const { return rowptr.bytes() + colidx.bytes() + values.bytes(); }
  CsrView view() const {
    return {rows, cols, nnz(), rowptr.data(), colidx.data(), values.size() ? values.data() : nullptr};
  }
};

// Host <-> device. upload keeps a pattern matrix without values.
DeviceCsr upload(DeviceEngine& engine, const CsrMatrix& m);
// download writes values of ones when the device matrix has none.
CsrMatrix download(DeviceEngine& engine, const DeviceCsr& m);

}  // namespace matsamp::gpu
