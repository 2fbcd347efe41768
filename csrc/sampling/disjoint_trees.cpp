#include "sampling/disjoint_trees.h"

#include <utility>

#include "core/error.h"

namespace matsamp {

namespace {

// A layer's items in hop-major order, as runs of positions in its tree-major
// list: starts[i] begins run i, whose length is offsets[i + 1] - offsets[i].
struct Runs {
  std::vector<int64_t> starts;
  Offsets offsets{0};
};

// Tree t's list in layer `layer` is hops 0 … layer + 1; hop h of it holds
// size(h, t) - size(h - 1, t) items (size(-1) = 0, size(0) = 1: the seed), where
// size(h, t) is tree t's item count in layer h - 1. Per minibatch: hop by hop,
// each hop tree by tree.
Runs hop_major_runs(const std::vector<const Offsets*>& tree_offsets, int layer, const Offsets& minibatch_trees) {
  const Offsets& offsets = *tree_offsets[layer];
  const auto size = [&](int hop, int64_t t) -> int64_t {
    if (hop < 0) return 0;
    if (hop == 0) return 1;
    return (*tree_offsets[hop - 1])[t + 1] - (*tree_offsets[hop - 1])[t];
  };
  Runs runs;
  for (size_t g = 0; g + 1 < minibatch_trees.size(); ++g)
    for (int hop = 0; hop <= layer + 1; ++hop)
      for (int64_t t = minibatch_trees[g]; t < minibatch_trees[g + 1]; ++t) {
        const int64_t from = size(hop - 1, t), to = size(hop, t);
        MATSAMP_CHECK(from <= to && to <= offsets[t + 1] - offsets[t], "disjoint trees: layer ", layer, " of tree ", t,
                      " does not start with its frontier");
        if (from == to) continue;
        runs.starts.push_back(offsets[t] + from);
        runs.offsets.push_back(runs.offsets.back() + to - from);
      }
  return runs;  // each tree's hops end at size(layer + 1, t), its whole list
}

// The offsets at the given indices: blocks [at[g], at[g + 1]) joined into block g.
Offsets joined(const Offsets& offsets, const Offsets& at) {
  Offsets out(at.size());
  for (size_t g = 0; g < at.size(); ++g) out[g] = offsets[at[g]];
  return out;
}

}  // namespace

Bulk minibatches_of_trees(Backend& backend, Bulk trees, const Offsets& minibatch_trees, int64_t first_minibatch) {
  std::vector<const Offsets*> tree_offsets;
  for (const Layer& layer : trees.layers) tree_offsets.push_back(&layer.vertices.offsets);
  // Each layer's rows are the previous layer's items, taken in its new order; layer 0's, the seeds, are in it already.
  Ids rows = backend.sequence_ids(static_cast<int64_t>(trees.seeds.size()));
  Bulk out{first_minibatch, std::move(trees.seeds), joined(trees.seed_offsets, minibatch_trees), {}};
  for (size_t l = 0; l < trees.layers.size(); ++l) {
    const Layer& in = trees.layers[l];
    const Runs runs = hop_major_runs(tree_offsets, static_cast<int>(l), minibatch_trees);
    Ids items = backend.sequence_runs(runs.starts, runs.offsets);
    const Offsets row_offsets = joined(in.row_offsets, minibatch_trees);
    const Offsets col_offsets = joined(in.vertices.offsets, minibatch_trees);
    Matrix adj = backend.select_rows_cols_blocked(in.adj, {rows, row_offsets}, {items, col_offsets}, Values{});
    Ids vertices = backend.gather_ids(in.vertices.ids, items);
    out.layers.push_back({std::move(adj), row_offsets, {std::move(vertices), col_offsets}, Ids{}});
    rows = std::move(items);
  }
  return out;
}

}  // namespace matsamp
