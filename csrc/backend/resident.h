// Handles to data that lives in a backend: a sparse matrix, an id list, a value
// list. The storage belongs to the backend that made it (host arrays for the CPU,
// device memory for CUDA, a block row and its grid when distributed); only that
// backend looks inside. A handle is a cheap, shared, read-only view: ops never
// change their operands in place, they return new handles (and may reuse the
// storage of an operand passed by value that no other handle shares).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/csr.h"

namespace matsamp {

class Backend;

// What a backend keeps for one handle.
struct Resident {
  virtual ~Resident() = default;
};

// A CSR matrix in a backend.
class Matrix {
 public:
  Matrix() = default;
  Matrix(const Backend* owner, std::shared_ptr<Resident> storage, int64_t rows, int64_t cols, int64_t nnz)
      : owner_(owner), storage_(std::move(storage)), rows_(rows), cols_(cols), nnz_(nnz) {}

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int64_t nnz() const { return nnz_; }
  std::string shape() const;  // "rows x cols (nnz nonzeros)", as CsrMatrix::shape
  bool defined() const { return storage_ != nullptr; }

  // Every row's stored values are equal and positive (an unweighted graph):
  // sample_rows may then draw a row in O(s). Set by register_graph.
  bool uniform_rows() const { return uniform_rows_; }
  Matrix& set_uniform_rows(bool uniform) {
    uniform_rows_ = uniform;
    return *this;
  }

  const Backend* owner() const { return owner_; }
  Resident* storage() const { return storage_.get(); }
  // Whether this handle is the storage's only one (an op may then reuse it).
  bool sole_owner() const { return storage_.use_count() == 1; }

 private:
  const Backend* owner_ = nullptr;
  std::shared_ptr<Resident> storage_;
  int64_t rows_ = 0, cols_ = 0, nnz_ = 0;
  bool uniform_rows_ = false;
};

// A list of int64 ids (vertices) or float values in a backend.
template <class T>
class Array {
 public:
  Array() = default;
  Array(const Backend* owner, std::shared_ptr<Resident> storage, int64_t size)
      : owner_(owner), storage_(std::move(storage)), size_(size) {}

  int64_t size() const { return size_; }
  bool defined() const { return storage_ != nullptr; }
  const Backend* owner() const { return owner_; }
  Resident* storage() const { return storage_.get(); }
  bool sole_owner() const { return storage_.use_count() == 1; }

  // Ids only: every id is known to lie in [0, bound) (-1: not known). A backend
  // whose data is far from the host checks ids against it instead of reading them.
  int64_t bound() const { return bound_; }
  Array& set_bound(int64_t bound) {
    bound_ = bound;
    return *this;
  }

 private:
  const Backend* owner_ = nullptr;
  std::shared_ptr<Resident> storage_;
  int64_t size_ = 0;
  int64_t bound_ = -1;
};
using Ids = Array<vid_t>;
using Values = Array<float>;    // undefined: "all ones" where an op takes weights
using Counts = Array<int64_t>;  // tallies (the type of Ids); undefined: all zeros where an op adds to them

// Ids of k stacked minibatches: block g is ids[offsets[g], offsets[g + 1]).
struct BlockedIds {
  Ids ids;
  Offsets offsets;
  int64_t blocks() const { return static_cast<int64_t>(offsets.size()) - 1; }
};

}  // namespace matsamp
