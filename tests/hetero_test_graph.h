// A small heterogeneous graph for the tests, and the typed edges a sampled layer holds.
#pragma once
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

#include "graph/hetero_graph.h"
#include "sampling/hetero_sample.h"

namespace matsamp::testing {

// Papers cite papers, authors write papers, papers have one of a few topics;
// with the reverses added: 3 types, 4 relations (cites made symmetric).
inline HeteroGraph small_hetero_graph(uint64_t seed = 3) {
  HeteroGraph g;
  g.types = {{"paper", 300}, {"author", 120}, {"topic", 8}};
  std::mt19937_64 rng(seed);
  const auto edges = [&](int64_t m, int64_t n_src, int64_t n_dst) {
    std::vector<int64_t> src(m), dst(m);
    for (int64_t e = 0; e < m; ++e)
      src[e] = static_cast<int64_t>(rng() % n_src), dst[e] = static_cast<int64_t>(rng() % n_dst);
    return std::make_pair(src, dst);
  };
  auto [cs, cd] = edges(1200, 300, 300);
  add_relation(g, "paper", "cites", "paper", cs, cd);
  auto [ws, wd] = edges(700, 120, 300);
  add_relation(g, "author", "writes", "paper", ws, wd);
  std::vector<int64_t> papers(300), topics(300);
  for (int64_t p = 0; p < 300; ++p) papers[p] = p, topics[p] = static_cast<int64_t>(rng() % 8);
  add_relation(g, "paper", "has_topic", "topic", papers, topics);
  add_reverse_relations(g);
  return g;
}

// The (destination, source) global pairs of relation r in minibatch g of a layer.
inline std::set<std::pair<vid_t, vid_t>> relation_edges(const HeteroBulkSample& bulk, const HeteroGraph& graph,
                                                        size_t l, size_t r, int64_t g, const std::vector<vid_t>& rows) {
  std::set<std::pair<vid_t, vid_t>> out;
  const HeteroSampledLayer& layer = bulk.layers[l];
  if (layer.adj[r].rows == 0) return out;
  const int s = graph.type_index(graph.relations[r].source);
  const CsrMatrix& a = layer.adj[r];
  for (int64_t i = layer.row_offsets[r][g]; i < layer.row_offsets[r][g + 1]; ++i)
    for (int64_t e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      EXPECT_GE(a.colidx[e], layer.vertex_offsets[s][g]) << "a column outside its minibatch";
      EXPECT_LT(a.colidx[e], layer.vertex_offsets[s][g + 1]) << "a column outside its minibatch";
      out.insert({rows[i], layer.vertices[s][a.colidx[e]]});
    }
  return out;
}

// Four minibatches of six papers sampled in one bulk, each equal to the same
// minibatch sampled alone (its id, so its random keys, kept).
inline void expect_minibatches_independent_of_bulk(const HeteroSampler& sampler, Backend& backend) {
  const int paper = sampler.graph().type_index("paper");
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < 24; ++v) seeds.push_back((v * 37) % 300);
  Context ctx{backend, 9};
  const HeteroBulkSample bulk = to_host(backend, sampler.sample(ctx, paper, seeds, {0, 6, 12, 18, 24}, 10, 1));
  const size_t relations = sampler.graph().relations.size();
  for (int64_t mb = 0; mb < 4; ++mb) {
    const std::vector<vid_t> own(seeds.begin() + 6 * mb, seeds.begin() + 6 * mb + 6);
    const HeteroMinibatch alone =
        extract_minibatch(to_host(backend, sampler.sample(ctx, paper, own, {0, 6}, 10 + mb, 1)), 0);
    const HeteroMinibatch in_bulk = extract_minibatch(bulk, mb);
    ASSERT_EQ(in_bulk.layers.size(), alone.layers.size());
    EXPECT_EQ(in_bulk.seeds, alone.seeds);
    for (size_t l = 0; l < alone.layers.size(); ++l) {
      EXPECT_EQ(in_bulk.layers[l].vertices, alone.layers[l].vertices)
          << sampler.name() << ": minibatch " << mb << " layer " << l;
      for (size_t r = 0; r < relations; ++r)
        EXPECT_EQ(in_bulk.layers[l].adj[r], alone.layers[l].adj[r])
            << sampler.name() << ": minibatch " << mb << " layer " << l << " relation " << r;
    }
  }
}

}  // namespace matsamp::testing
