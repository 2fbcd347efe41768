// Â, Â∘Â and FastGCN's column norms prepared from block rows equal, bit for bit, the
// same rows of the single-process preparation.
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
    EXPECT_TRUE(m.column_norms == whole->column_norms) << "c = " << c;
  }
}

}  // namespace
}  // namespace matsamp
