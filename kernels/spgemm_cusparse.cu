// C = A·B through cuSPARSE's generic SpGEMM (32-bit indices, CSR, float).
// Memory: ALG1 when its buffers fit the budget, else ALG2, then ALG3 with
// shrinking chunk fractions; when none fits, the rows are halved. Rows are
// sorted afterwards, since cuSPARSE does not promise sorted column ids.
#include <iterator>
#include <limits>
#include <optional>

#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"
#include "kernels/device_types.h"
#include "kernels/spgemm_chunks.h"

namespace matsamp::gpu {

namespace {

// A rough size of ALG1's buffers per product, to pre-split huge products.
constexpr int64_t kBytesPerProduct = 16;

struct Plan {
  cusparseSpGEMMAlg_t alg;
  float chunk_fraction;  // ALG3 only
  const char* name;
};
constexpr Plan kPlans[] = {{CUSPARSE_SPGEMM_ALG1, 1.0f, "ALG1"},
                           {CUSPARSE_SPGEMM_ALG2, 1.0f, "ALG2"},
                           {CUSPARSE_SPGEMM_ALG3, 0.2f, "ALG3"},
                           {CUSPARSE_SPGEMM_ALG3, 0.05f, "ALG3"},
                           {CUSPARSE_SPGEMM_ALG3, 0.01f, "ALG3"}};

// Owners of cuSPARSE descriptors, so that errors do not leak them.
struct SpMat {
  cusparseSpMatDescr_t descr = nullptr;
  ~SpMat() {
    if (descr) cusparseDestroySpMat(descr);
  }
};
struct SpgemmDescr {
  cusparseSpGEMMDescr_t descr = nullptr;
  SpgemmDescr() { MATSAMP_CUSPARSE_CHECK(cusparseSpGEMM_createDescr(&descr)); }
  ~SpgemmDescr() { cusparseSpGEMM_destroyDescr(descr); }
};

__global__ void narrow_row_pointers(const int64_t* from, int64_t rows, int64_t shift, int32_t* to) {
  for (int64_t r = thread_index(); r <= rows; r += thread_count()) to[r] = static_cast<int32_t>(from[r] - shift);
}

__global__ void widen_row_pointers(const int32_t* from, int64_t rows, int64_t* to) {
  for (int64_t r = thread_index(); r <= rows; r += thread_count()) to[r] = from[r];
}

__global__ void fill_ones(float* values, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) values[i] = 1.0f;
}

DeviceArray<float> ones(DeviceEngine& engine, int64_t n) {
  DeviceArray<float> out(engine, n);
  if (n > 0) {
    fill_ones<<<blocks_for_threads(n), kBlockThreads, 0, stream_of(engine)>>>(out.data(), n);
    MATSAMP_CUDA_LAUNCHED("fill_ones");
  }
  return out;
}

DeviceArray<int32_t> narrow(DeviceEngine& engine, const int64_t* rowptr, int64_t rows, int64_t shift) {
  DeviceArray<int32_t> out(engine, rows + 1);
  narrow_row_pointers<<<blocks_for_threads(rows + 1), kBlockThreads, 0, stream_of(engine)>>>(rowptr, rows, shift,
                                                                                             out.data());
  MATSAMP_CUDA_LAUNCHED("narrow_row_pointers");
  return out;
}

// B as cuSPARSE takes it: 32-bit row pointers and explicit values.
struct Narrow32 {
  DeviceArray<int32_t> rowptr;
  DeviceArray<float> ones;  // when B has no values
  SpMat mat;
};

class CusparseProduct {
 public:
  CusparseProduct(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t budget)
      : engine_(engine), a_(a), b_(b), budget_(budget) {
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    MATSAMP_CHECK(b.nnz <= kMax && b.rows < kMax, "spgemm (cuSPARSE): B (", b.rows, " x ", b.cols, ", ", b.nnz,
                  " nonzeros) needs 32-bit indices");
    if (b.nnz == 0) return;  // every product is empty; cuSPARSE is never called
    b32_.rowptr = narrow(engine, b.rowptr, b.rows, 0);
    if (!b.values) b32_.ones = ones(engine, b.nnz);
    MATSAMP_CUSPARSE_CHECK(
        cusparseCreateCsr(&b32_.mat.descr, b.rows, b.cols, b.nnz, b32_.rowptr.data(), const_cast<col_t*>(b.colidx),
                          b.values ? const_cast<float*>(b.values) : b32_.ones.data(), CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  }

  // Rows [r0, r1) of A·B, whose entries of A are [e0, e1).
  void multiply(int64_t r0, int64_t r1, int64_t e0, int64_t e1, std::vector<DeviceCsr>& pieces) {
    const bool single_row = r1 - r0 == 1;
    if (e1 - e0 <= std::numeric_limits<int32_t>::max()) {
      for (const Plan& plan : kPlans) {
        std::optional<DeviceCsr> c = try_plan(plan, r0, r1, e0, e1, /*over_budget_ok=*/false);
        if (c) {
          pieces.push_back(std::move(*c));
          return;
        }
      }
      if (single_row) {  // nothing smaller to try: the most frugal plan, come what may
        pieces.push_back(std::move(*try_plan(kPlans[std::size(kPlans) - 1], r0, r1, e0, e1, true)));
        return;
      }
    }
    MATSAMP_CHECK(!single_row, "spgemm (cuSPARSE): row ", r0, " of A has more than 2^31 - 1 entries");
    const int64_t mid = r0 + (r1 - r0) / 2;
    const int64_t e_mid = read_one(engine_, a_.rowptr + mid);
    multiply(r0, mid, e0, e_mid, pieces);
    multiply(mid, r1, e_mid, e1, pieces);
  }

 private:
  // The product of the rows with `plan`; nothing when its buffers exceed the budget.
  std::optional<DeviceCsr> try_plan(const Plan& plan, int64_t r0, int64_t r1, int64_t e0, int64_t e1,
                                    bool over_budget_ok) {
    const int64_t rows = r1 - r0, entries = e1 - e0;
    DeviceCsr c;
    c.rows = rows;
    c.cols = b_.cols;
    c.rowptr = DeviceArray<int64_t>(engine_, rows + 1);
    auto no_products = [&] {
      engine_.fill_zero(c.rowptr.data(), c.rowptr.bytes());
      return std::move(c);
    };
    if (entries == 0 || b_.nnz == 0) return no_products();
    cusparseHandle_t handle = static_cast<cusparseHandle_t>(engine_.sparse_handle());
    DeviceArray<int32_t> a_rowptr = narrow(engine_, a_.rowptr + r0, rows, e0);
    DeviceArray<float> a_ones = a_.values ? DeviceArray<float>() : ones(engine_, entries);
    SpMat mat_a, mat_c;
    MATSAMP_CUSPARSE_CHECK(
        cusparseCreateCsr(&mat_a.descr, rows, a_.cols, entries, a_rowptr.data(), const_cast<col_t*>(a_.colidx + e0),
                          a_.values ? const_cast<float*>(a_.values + e0) : a_ones.data(), CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    DeviceArray<int32_t> c_rowptr(engine_, rows + 1);
    MATSAMP_CUSPARSE_CHECK(cusparseCreateCsr(&mat_c.descr, rows, b_.cols, 0, c_rowptr.data(), nullptr, nullptr,
                                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                             CUDA_R_32F));
    const float alpha = 1.0f, beta = 0.0f;
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    // ALG1 may run out of resources on big products (a documented limit of the
    // algorithm): like a budget overrun, that means the next, more frugal plan.
    auto fits = [&](cusparseStatus_t status, const char* call) {
      if (!over_budget_ok &&
          (status == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES || status == CUSPARSE_STATUS_ALLOC_FAILED)) {
        cudaGetLastError();  // cuSPARSE's own failed cudaMalloc must not fail a later launch check
        return false;
      }
      check_cusparse(status, call, __FILE__, __LINE__);
      return true;
    };
    // A work buffer; none (next plan) when the buffers held at once would pass
    // the budget or the device has no room for it.
    auto buffer = [&](size_t bytes, size_t held) -> std::optional<DeviceArray<char>> {
      if (!over_budget_ok && static_cast<int64_t>(bytes + held) > budget_) return std::nullopt;
      try {
        return DeviceArray<char>(engine_, static_cast<int64_t>(bytes));
      } catch (const DeviceOutOfMemory&) {
        if (over_budget_ok) throw;
        return std::nullopt;
      }
    };
    SpgemmDescr spgemm;
    size_t size1 = 0, size2 = 0, size3 = 0;
    if (!fits(cusparseSpGEMM_workEstimation(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta, mat_c.descr,
                                            CUDA_R_32F, plan.alg, spgemm.descr, &size1, nullptr),
              "cusparseSpGEMM_workEstimation (size)"))
      return std::nullopt;
    std::optional<DeviceArray<char>> buffer1 = buffer(size1, 0);
    if (!buffer1 ||
        !fits(cusparseSpGEMM_workEstimation(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta, mat_c.descr,
                                            CUDA_R_32F, plan.alg, spgemm.descr, &size1, buffer1->data()),
              "cusparseSpGEMM_workEstimation"))
      return std::nullopt;
    if (plan.alg == CUSPARSE_SPGEMM_ALG1) {
      if (!fits(cusparseSpGEMM_compute(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta, mat_c.descr,
                                       CUDA_R_32F, plan.alg, spgemm.descr, &size2, nullptr),
                "cusparseSpGEMM_compute (size)"))
        return std::nullopt;
    } else {
      if (!fits(cusparseSpGEMM_estimateMemory(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta, mat_c.descr,
                                              CUDA_R_32F, plan.alg, spgemm.descr, plan.chunk_fraction, &size3, nullptr,
                                              nullptr),
                "cusparseSpGEMM_estimateMemory (size)"))
        return std::nullopt;
      std::optional<DeviceArray<char>> buffer3 = buffer(size3, size1);
      if (!buffer3 || !fits(cusparseSpGEMM_estimateMemory(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta,
                                                          mat_c.descr, CUDA_R_32F, plan.alg, spgemm.descr,
                                                          plan.chunk_fraction, &size3, buffer3->data(), &size2),
                            "cusparseSpGEMM_estimateMemory"))
        return std::nullopt;
    }
    std::optional<DeviceArray<char>> buffer2 = buffer(size2, size1);
    if (!buffer2 ||
        !fits(cusparseSpGEMM_compute(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta, mat_c.descr,
                                     CUDA_R_32F, plan.alg, spgemm.descr, &size2, buffer2->data()),
              "cusparseSpGEMM_compute"))
      return std::nullopt;
    int64_t c_rows = 0, c_cols = 0, c_nnz = 0;
    MATSAMP_CUSPARSE_CHECK(cusparseSpMatGetSize(mat_c.descr, &c_rows, &c_cols, &c_nnz));
    if (c_nnz == 0) return no_products();  // nothing for cuSPARSE to copy
    c.colidx = DeviceArray<col_t>(engine_, c_nnz);
    c.values = DeviceArray<float>(engine_, c_nnz);
    MATSAMP_CUSPARSE_CHECK(cusparseCsrSetPointers(mat_c.descr, c_rowptr.data(), c.colidx.data(), c.values.data()));
    MATSAMP_CUSPARSE_CHECK(cusparseSpGEMM_copy(handle, op, op, &alpha, mat_a.descr, b32_.mat.descr, &beta, mat_c.descr,
                                               CUDA_R_32F, plan.alg, spgemm.descr));
    widen_row_pointers<<<blocks_for_threads(rows + 1), kBlockThreads, 0, stream_of(engine_)>>>(c_rowptr.data(), rows,
                                                                                               c.rowptr.data());
    MATSAMP_CUDA_LAUNCHED("widen_row_pointers");
    sort_rows(engine_, rows, c.rowptr.data(), c.colidx, c.values);
    return c;
  }

  DeviceEngine& engine_;
  CsrView a_, b_;
  int64_t budget_;
  Narrow32 b32_;
};

}  // namespace

DeviceCsr spgemm_cusparse(DeviceEngine& engine, const CsrView& a, const CsrView& b, int64_t budget_bytes) {
  const int64_t max_products =
      std::min<int64_t>(std::max<int64_t>(1, budget_bytes / kBytesPerProduct), std::numeric_limits<int32_t>::max());
  CusparseProduct product(engine, a, b, budget_bytes);
  std::vector<DeviceCsr> pieces;
  for (const RowChunk& chunk : plan_row_chunks(engine, a, b, max_products))
    product.multiply(chunk.first_row, chunk.last_row, chunk.first_entry, chunk.last_entry, pieces);
  return stack_rows(engine, std::move(pieces), a.rows, b.cols);
}

}  // namespace matsamp::gpu
