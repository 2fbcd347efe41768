// A backend's arrays as memory a transport reads and writes in place: the host's
// on the CPU, a device's on CUDA (NCCL moves them without a copy through the
// host). The distributed product's exchange sends sampled rows from them and
// receives into arrays allocated here (distributed/resident_exchange.h).
#pragma once
#include <cstdint>

#include "backend/resident.h"

namespace matsamp {

struct WritableCsrArrays {
  int64_t* rowptr = nullptr;  // rows + 1
  col_t* colidx = nullptr;    // nnz
  float* values = nullptr;    // nnz
};

class ResidentArrays {
 public:
  enum class Memory { host, device };
  virtual ~ResidentArrays() = default;
  virtual Memory memory() const = 0;

  // Arrays for a transport to fill: n ids; a matrix of `rows` rows and nnz entries
  // whose row pointers hold, at [1, rows], each row's length until rows_from_lengths
  // turns them into offsets (rowptr[0] is 0).
  virtual Ids allocate_ids(int64_t n) = 0;
  virtual Matrix allocate_rows(int64_t rows, int64_t cols, int64_t nnz) = 0;
  virtual Matrix rows_from_lengths(Matrix m) = 0;
  // Each row's length: what a transport sends of a matrix's row pointers.
  virtual Ids row_lengths(const Matrix& m) = 0;

  // The arrays behind a handle of this backend, the work queued on them finished,
  // valid while the handle lives. Only arrays from allocate_* may be written.
  virtual WritableCsrArrays arrays(const Matrix& m) = 0;
  virtual vid_t* arrays(const Ids& ids) = 0;
};

}  // namespace matsamp
