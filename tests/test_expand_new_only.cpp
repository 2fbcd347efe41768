// The node-wise samplers with expand_new_only (PyG's expansion): a layer after
// the first draws only for the vertices the layer before added, every other row
// stays empty, and the layers keep their shape (rows: the previous layer's
// vertices, which its columns start with).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "graph/transform.h"
#include "io/graph_io.h"
#include "sampling/fingerprint.h"
#include "sampling_checks.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

const std::vector<int64_t> kFanouts{6, 4, 3};

std::unique_ptr<testing::TestSampler> expanding(const std::string& name, const CsrMatrix& adj, bool new_only) {
  return testing::make_test_sampler(
      name, adj, SamplerParams().set("fanouts", kFanouts).set("expand_new_only", int64_t{new_only}), 5);
}

std::vector<vid_t> every_vertex(const CsrMatrix& adj) {
  std::vector<vid_t> all(adj.rows);
  std::iota(all.begin(), all.end(), 0);
  return all;
}

// Minibatch by minibatch: layer l > 0 has rows only for the vertices layer l - 1
// added (GraphSAGE: min(fanout, degree) of them), so no vertex draws twice, and
// every vertex a layer adds is the column of one of its entries.
void expect_expands_new_vertices_only(const testing::TestSampler& sampler, const CsrMatrix& adj, bool exact_counts) {
  const std::vector<Minibatch> minibatches = testing::collect_minibatches(
      sampler, sampler.cpu(), every_vertex(adj), {.batch_size = 200, .bulk_size = 4, .seed = 5});
  int64_t empty_rows = 0;
  for (const Minibatch& mb : minibatches) {
    std::vector<vid_t> rows = mb.seeds;
    int64_t expanded = 0;  // rows drawn by earlier layers: the first ones of this layer
    std::set<vid_t> drawn;
    for (size_t l = 0; l < mb.layers.size(); ++l) {
      const MinibatchLayer& layer = mb.layers[l];
      ASSERT_EQ(layer.adj.rows, static_cast<int64_t>(rows.size()));
      for (int64_t r = 0; r < layer.adj.rows; ++r) {
        if (r < expanded) {
          EXPECT_EQ(layer.adj.row_nnz(r), 0) << "layer " << l << " drew again for vertex " << rows[r];
          empty_rows += 1;
          continue;
        }
        EXPECT_TRUE(drawn.insert(rows[r]).second) << "vertex " << rows[r] << " drawn twice";
        if (exact_counts) EXPECT_EQ(layer.adj.row_nnz(r), std::min(kFanouts[l], adj.row_nnz(rows[r])));
      }
      std::vector<bool> reached(layer.vertices.size(), false);
      for (const col_t c : layer.adj.colidx) reached[c] = true;
      for (size_t j = rows.size(); j < layer.vertices.size(); ++j)
        EXPECT_TRUE(reached[j]) << "vertex " << layer.vertices[j] << " added by no entry of layer " << l;
      expanded = static_cast<int64_t>(rows.size());
      rows = layer.vertices;
    }
  }
  EXPECT_GT(empty_rows, 0);  // the graph's cycles bring vertices back
}

class ExpandNewOnly : public ::testing::TestWithParam<const char*> {
 protected:
  CsrMatrix adj = symmetrize(read_npz_graph(testing::data_file("cora.npz")).adj);
};

TEST_P(ExpandNewOnly, DrawsOnlyForTheVerticesThePreviousLayerAdded) {
  const auto sampler = expanding(GetParam(), adj, true);
  expect_expands_new_vertices_only(*sampler, adj, std::string(GetParam()) == "graphsage");
  // The layers are well formed and their edges the graph's, as without the option.
  const BulkSample bulk = sampler->sample(every_vertex(adj), {0, 300, 301, 2708}, 0, 0);
  testing::expect_well_formed(bulk, adj, /*frontier_first=*/true);
}

// The first layer is the default's; later layers hold fewer vertices; and the
// minibatches do not depend on the bulk size.
TEST_P(ExpandNewOnly, FirstLayerAsDefaultFewerVerticesAnyBulkSize) {
  const auto pyg = expanding(GetParam(), adj, true), every = expanding(GetParam(), adj, false);
  const std::vector<vid_t> seeds = every_vertex(adj);
  const Offsets offsets{0, 500, 1000, 2708};
  const BulkSample a = pyg->sample(seeds, offsets, 0, 0), b = every->sample(seeds, offsets, 0, 0);
  EXPECT_EQ(a.layers[0].adj, b.layers[0].adj);
  EXPECT_EQ(a.layers[0].vertices, b.layers[0].vertices);
  EXPECT_LT(a.layers.back().vertices.size(), b.layers.back().vertices.size());
  EXPECT_LT(a.sampled_edges(), b.sampled_edges());
  Fingerprint one, all;
  for (const int64_t bulk_size : {1, 7}) {
    Fingerprint& f = bulk_size == 1 ? one : all;
    for (const Minibatch& mb :
         testing::collect_minibatches(*pyg, pyg->cpu(), seeds, {.batch_size = 128, .bulk_size = bulk_size, .seed = 3}))
      f.add(mb);
  }
  EXPECT_EQ(one.value(), all.value());
}

INSTANTIATE_TEST_SUITE_P(NodeWise, ExpandNewOnly, ::testing::Values("graphsage", "labor", "dgs"));

}  // namespace
}  // namespace matsamp
