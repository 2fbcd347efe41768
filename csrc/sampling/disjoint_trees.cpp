#include "sampling/disjoint_trees.h"

#include <algorithm>
#include <utility>

#include "core/error.h"

namespace matsamp {

namespace {

// For each item of a layer's vertex list (stacked tree by tree), its place in the
// hop-major list of its minibatch. Tree t's list is hops 0 … l + 1; hop h of it
// holds sizes[h][t] - sizes[h - 1][t] items (sizes[-1] = 0, sizes[0] = 1: the seed).
std::vector<int64_t> hop_major_places(const std::vector<Offsets>& tree_offsets, int layer,
                                      const Offsets& minibatch_trees) {
  const Offsets& offsets = tree_offsets[layer];
  std::vector<int64_t> place(offsets.back());
  const auto size = [&](int hop, int64_t t) -> int64_t {  // tree t's items in hops 0 … hop
    if (hop < 0) return 0;
    if (hop == 0) return 1;
    return tree_offsets[hop - 1][t + 1] - tree_offsets[hop - 1][t];
  };
  const int64_t minibatches = static_cast<int64_t>(minibatch_trees.size()) - 1;
  bool framed = true;  // every tree's list starts with its frontier (checked after: no throw in a parallel loop)
#pragma omp parallel for schedule(dynamic, 1) reduction(&& : framed)
  for (int64_t g = 0; g < minibatches; ++g) {
    const int64_t t0 = minibatch_trees[g], t1 = minibatch_trees[g + 1];
    int64_t at = offsets[t0];  // the minibatch's block starts where its first tree did
    for (int hop = 0; hop <= layer + 1; ++hop)
      for (int64_t t = t0; t < t1; ++t)
        for (int64_t i = size(hop - 1, t); i < size(hop, t) && at < offsets[t1]; ++i) place[offsets[t] + i] = at++;
    framed = framed && at == offsets[t1];
  }
  MATSAMP_CHECK(framed, "disjoint trees: layer ", layer, " of a tree does not start with its frontier");
  return place;
}

// The offsets at the given indices: blocks [at[g], at[g + 1]) joined into block g.
Offsets joined(const Offsets& offsets, const Offsets& at) {
  Offsets out(at.size());
  for (size_t g = 0; g < at.size(); ++g) out[g] = offsets[at[g]];
  return out;
}

}  // namespace

BulkSample minibatches_of_trees(const BulkSample& trees, const Offsets& minibatch_trees) {
  const int layers = static_cast<int>(trees.layers.size());
  std::vector<Offsets> tree_offsets;
  for (const SampledLayer& layer : trees.layers) tree_offsets.push_back(layer.col_offsets);
  BulkSample out{trees.first_minibatch, trees.seeds, joined(trees.seed_offsets, minibatch_trees), {}};
  std::vector<int64_t> row_place(trees.seeds.size());  // layer 0's rows: the seeds, in tree order already
  for (size_t i = 0; i < row_place.size(); ++i) row_place[i] = static_cast<int64_t>(i);
  for (int l = 0; l < layers; ++l) {
    const SampledLayer& in = trees.layers[l];
    const std::vector<int64_t> col_place = hop_major_places(tree_offsets, l, minibatch_trees);
    SampledLayer layer{CsrMatrix(in.adj.rows, in.adj.cols), joined(in.row_offsets, minibatch_trees),
                       joined(in.col_offsets, minibatch_trees), std::vector<vid_t>(in.vertices.size())};
    const int64_t vertices = static_cast<int64_t>(in.vertices.size());
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < vertices; ++j) layer.vertices[col_place[j]] = in.vertices[j];
    // Rows move to their place in the previous layer's list, columns to theirs, each row sorted again.
    std::vector<int64_t> source_row(in.adj.rows);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < in.adj.rows; ++r) source_row[row_place[r]] = r;
    CsrMatrix& adj = layer.adj;
    for (int64_t r = 0; r < adj.rows; ++r) adj.rowptr[r + 1] = adj.rowptr[r] + in.adj.row_nnz(source_row[r]);
    adj.colidx.resize(in.adj.nnz());
    adj.values.resize(in.adj.values.size());
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t r = 0; r < adj.rows; ++r) {
      thread_local std::vector<std::pair<col_t, float>> row;
      row.clear();
      for (int64_t e = in.adj.rowptr[source_row[r]]; e < in.adj.rowptr[source_row[r] + 1]; ++e)
        row.emplace_back(static_cast<col_t>(col_place[in.adj.colidx[e]]),
                         in.adj.values.empty() ? 1.0f : in.adj.values[e]);
      std::sort(row.begin(), row.end());
      for (size_t t = 0; t < row.size(); ++t) {
        adj.colidx[adj.rowptr[r] + t] = row[t].first;
        if (!adj.values.empty()) adj.values[adj.rowptr[r] + t] = row[t].second;
      }
    }
    out.layers.push_back(std::move(layer));
    row_place = col_place;
  }
  return out;
}

}  // namespace matsamp
