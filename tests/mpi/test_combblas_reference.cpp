// CombBLAS as a reference: our 1.5D P = Q·A (sparsity-aware and oblivious, every valid c)
// equals CombBLAS's 2D SUMMA product (Mult_AnXBn_Synch, PlusTimesSRing) on the same
// matrices: same structure, values equal up to float rounding (CombBLAS adds in double).
#include <gtest/gtest.h>

#include "combblas_bridge.h"
#include "distributed/csr_transfer.h"
#include "distributed/graph_product.h"
#include "mpi_test_env.h"
#include "reference.h"

namespace matsamp {
namespace {

using testing::world;

TEST(CombBlasReference, OurProductEqualsTheTwoDimensionalOne) {
  if (!combblas_bridge::square_grid(world().size())) GTEST_SKIP() << "CombBLAS needs a square number of ranks";
  auto cgrid = std::make_shared<combblas::CommGrid>(MPI_COMM_WORLD, 0, 0);
  const int64_t n = 300;
  const CsrMatrix a = testing::random_csr(n, n, 0.03, 21);
  for (int c : testing::valid_replications())
    for (auto exchange : {GraphProduct::Exchange::sparsity_aware, GraphProduct::Exchange::oblivious}) {
      ProcessGrid grid(world(), c);
      const DistributedCsr block = block_row_of(a, grid);
      GraphProduct product(grid, exchange);
      const int operand = product.add_operand(block);
      // Process row i multiplies its own Q_i (5 + i rows); P stacks the P_i.
      auto q_of_row = [&](int i) { return testing::random_csr(5 + i, n, 0.05, 100 + i); };
      const CsrMatrix p = product.multiply(q_of_row(grid.row()), operand);
      product.finish();
      const CsrMatrix ours = all_gather_rows(world(), grid.col() == 0 ? p : CsrMatrix(0, n));

      std::vector<CsrMatrix> q_rows;
      for (int i = 0; i < grid.process_rows(); ++i) q_rows.push_back(q_of_row(i));
      auto cq = combblas_bridge::from_whole(cgrid, stack_rows(q_rows, n));
      auto ca = combblas_bridge::from_whole(cgrid, a);
      auto cp = combblas::Mult_AnXBn_Synch<combblas::PlusTimesSRing<double, double>, double,
                                           combblas::SpDCCols<int64_t, double>>(cq, ca);
      const CsrMatrix theirs = combblas_bridge::gather(cp, world());

      const std::string where = "c = " + std::to_string(c);
      ASSERT_EQ(ours.rows, theirs.rows) << where;
      EXPECT_EQ(ours.rowptr, theirs.rowptr) << where;
      EXPECT_EQ(ours.colidx, theirs.colidx) << where;
      for (int64_t e = 0; e < std::min(ours.nnz(), theirs.nnz()); ++e)
        ASSERT_NEAR(ours.values[e], theirs.values[e], 1e-5 * theirs.values[e]) << where << ", entry " << e;
    }
}

}  // namespace
}  // namespace matsamp
