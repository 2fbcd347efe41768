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

}  // namespace matsamp::testing
