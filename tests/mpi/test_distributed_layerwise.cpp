// Â, Â∘Â and FastGCN's column norms prepared from block rows equal, bit for bit, the
// same rows (the column norms: the same vertices) of the single-process preparation;
// each block learns only the degrees of the columns it touches.
#include <gtest/gtest.h>

#include "distributed/distributed_layerwise.h"
#include "io/graph_io.h"
#include "mpi_test_env.h"
#include "test_data.h"

namespace matsamp {
namespace {

TEST(DistributedLayerWise, BlockRowsEqualTheWholeGraphPreparation) {
  const Graph g = read_npz_graph(testing::data_file("cora.npz"));
  const auto whole = prepare_layerwise_matrices(g.adj);
  for (int c : testing::valid_replications()) {
    ProcessGrid grid(testing::world(), c);
    const DistributedCsr adj = block_row_of(g.adj, grid);
    const DistributedLayerWise m = prepare_distributed_layerwise(adj, grid);
    const int64_t r0 = adj.first_row(), r1 = adj.blocks.end(adj.block);
    EXPECT_TRUE(m.normalized.local == row_slice(whole->normalized, r0, r1)) << "c = " << c;
    EXPECT_TRUE(m.squared.local == row_slice(whole->squared, r0, r1)) << "c = " << c;
    std::vector<float> dense(g.num_vertices(), 0.0f);  // the whole row at every vertex
    for (int64_t e = 0; e < whole->column_norms.nnz(); ++e)
      dense[whole->column_norms.colidx[e]] = whole->column_norms.values[e];
    EXPECT_EQ(distributed_column_norms(m, grid), std::vector<float>(dense.begin() + r0, dense.begin() + r1))
        << "c = " << c;
  }
}

TEST(DistributedLayerWise, DegreeExchangeIsSizedByTheBlockNotByN) {
  // A path over 2^16 vertices: each block touches two columns outside its rows, so the
  // preparation sends a few hundred bytes, where gathering every degree sends 8n.
  const int64_t n = int64_t{1} << 16;
  CsrMatrix path(n, n);
  for (int64_t v = 0; v < n; ++v) {
    if (v > 0) path.colidx.push_back(static_cast<col_t>(v - 1));
    if (v + 1 < n) path.colidx.push_back(static_cast<col_t>(v + 1));
    path.rowptr[v + 1] = path.nnz();
  }
  path.values.assign(path.nnz(), 1.0f);
  const auto whole = prepare_layerwise_matrices(path);
  ProcessGrid grid(testing::world(), 1);
  const DistributedCsr adj = block_row_of(path, grid);
  grid.col_comm().reset_counters();
  const DistributedLayerWise m = prepare_distributed_layerwise(adj, grid);
  EXPECT_TRUE(m.normalized.local == row_slice(whole->normalized, adj.first_row(), adj.blocks.end(adj.block)));
  EXPECT_LE(bytes_sent(grid.col_comm()), 1024);
}

}  // namespace
}  // namespace matsamp
