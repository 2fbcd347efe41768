// Helpers and structural checks shared by the sampler tests.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sampling/sample.h"
#include "test_sampler.h"

namespace matsamp::testing {

inline bool has_entry(const CsrMatrix& a, vid_t u, vid_t v) {
  const auto first = a.colidx.begin() + a.rowptr[u], last = a.colidx.begin() + a.rowptr[u + 1];
  return std::binary_search(first, last, static_cast<col_t>(v));
}

// k minibatches, each holding the same seeds (independent draws of one batch).
inline BulkSample sample_repeated(const TestSampler& sampler, const std::vector<vid_t>& seeds, int64_t k) {
  std::vector<vid_t> stacked;
  Offsets offsets{0};
  for (int64_t g = 0; g < k; ++g) {
    stacked.insert(stacked.end(), seeds.begin(), seeds.end());
    offsets.push_back(static_cast<int64_t>(stacked.size()));
  }
  return sampler.sample(stacked, offsets, 0, 0);
}

// Every layer: rows are the previous layer's vertex list, columns unique per
// minibatch, every sampled edge is an entry of `adj`; with frontier_first, each
// vertex list starts with its rows.
inline void expect_well_formed(const BulkSample& bulk, const CsrMatrix& adj, bool frontier_first) {
  for (int64_t g = 0; g < bulk.count(); ++g) {
    const Minibatch mb = extract_minibatch(bulk, g);
    std::vector<vid_t> rows = mb.seeds;
    for (size_t l = 0; l < mb.layers.size(); ++l) {
      const MinibatchLayer& layer = mb.layers[l];
      validate(layer.adj, "sampled layer");
      ASSERT_EQ(layer.adj.rows, static_cast<int64_t>(rows.size())) << "layer " << l;
      ASSERT_EQ(layer.adj.cols, static_cast<int64_t>(layer.vertices.size()));
      EXPECT_EQ(std::set<vid_t>(layer.vertices.begin(), layer.vertices.end()).size(), layer.vertices.size())
          << "duplicate vertices in minibatch " << mb.id << " layer " << l;
      if (frontier_first) {
        ASSERT_GE(layer.vertices.size(), rows.size());
        EXPECT_TRUE(std::equal(rows.begin(), rows.end(), layer.vertices.begin()))
            << "frontier is not first in minibatch " << mb.id << " layer " << l;
      }
      for (int64_t r = 0; r < layer.adj.rows; ++r)
        for (int64_t e = layer.adj.rowptr[r]; e < layer.adj.rowptr[r + 1]; ++e)
          ASSERT_TRUE(has_entry(adj, rows[r], layer.vertices[layer.adj.colidx[e]]))
              << "sampled edge (" << rows[r] << ", " << layer.vertices[layer.adj.colidx[e]] << ") is not in the graph";
      rows = layer.vertices;
    }
  }
}

}  // namespace matsamp::testing
