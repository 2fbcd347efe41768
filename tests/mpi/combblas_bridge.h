// Our row blocks into CombBLAS's 2D layout and back, for the reference test and the
// comparison experiment (CombBLAS is used in tests and experiments only).
#pragma once
#include <memory>
#include <vector>

#include "core/csr.h"  // ours first: CombBLAS's SequenceHeaps/util.h defines a macro Error
#include "distributed/communicator.h"

#include "CombBLAS/CombBLAS.h"
#undef Error

namespace matsamp::combblas_bridge {

using Matrix = combblas::SpParMat<int64_t, double, combblas::SpDCCols<int64_t, double>>;

// CombBLAS 1.6 runs on a square process grid only.
inline bool square_grid(int p) {
  int side = 1;
  while (side * side < p) ++side;
  return side * side == p;
}

// A FullyDistVec holding `all` (the same on every rank): each rank keeps its share.
// (CombBLAS 1.6.2's FullyDistVec(vector, grid), which would take a part per rank, sends
// from an empty buffer when the parts differ in size, and does not compile for double.)
template <class T>
combblas::FullyDistVec<int64_t, T> distributed_copy(const std::vector<T>& all,
                                                    const std::shared_ptr<combblas::CommGrid>& grid) {
  combblas::FullyDistVec<int64_t, T> out(grid, static_cast<int64_t>(all.size()), T{});
  const int64_t first = out.LengthUntil();
  for (int64_t i = 0; i < out.MyLocLength(); ++i) out.SetLocalElement(i, all[first + i]);
  return out;
}

// m (the same on every rank) in CombBLAS's 2D layout, built from its triples: the
// constructor that copes with empty local blocks (TOOLCHAIN.md).
inline Matrix from_whole(const std::shared_ptr<combblas::CommGrid>& grid, const CsrMatrix& m) {
  std::vector<int64_t> r, c;
  std::vector<double> v;
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t e = m.rowptr[i]; e < m.rowptr[i + 1]; ++e) {
      r.push_back(i);
      c.push_back(m.colidx[e]);
      v.push_back(m.values.empty() ? 1.0 : m.values[e]);
    }
  return Matrix(m.rows, m.cols, distributed_copy(r, grid), distributed_copy(c, grid), distributed_copy(v, grid), false);
}

// All of m on every rank (collective; values rounded to float).
inline CsrMatrix gather(Matrix& m, Communicator& world) {
  const int64_t rows = m.getnrow(), cols = m.getncol();  // collectives: every rank calls them
  combblas::FullyDistVec<int64_t, int64_t> r(m.getcommgrid()), c(m.getcommgrid());
  combblas::FullyDistVec<int64_t, double> v(m.getcommgrid());
  m.Find(r, c, v);
  auto local = [](const auto& vec) {
    using T = std::decay_t<decltype(*vec.GetLocArr())>;
    return std::vector<T>(vec.GetLocArr(), vec.GetLocArr() + vec.LocArrSize());
  };
  const std::vector<double> values = world.all_gatherv(local(v));
  return csr_from_triples(rows, cols, world.all_gatherv(local(r)), world.all_gatherv(local(c)),
                          std::vector<float>(values.begin(), values.end()));
}

}  // namespace matsamp::combblas_bridge
