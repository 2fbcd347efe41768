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

// levels[0] blocks the seeds per tree, levels[j] layer j - 1's vertex list per
// tree (each list starting with the one before it). Tree t's list in layer
// `layer` is hops 0 … layer + 1: hop h holds its items [size(h - 1, t),
// size(h, t)), size(h, t) being levels[h]'s block t and size(-1, t) = 0. Per
// minibatch: hop by hop, each hop tree by tree.
Runs hop_major_runs(const std::vector<const Offsets*>& levels, int layer, const Offsets& minibatch_trees) {
  const Offsets& offsets = *levels[layer + 1];
  const auto size = [&](int hop, int64_t t) -> int64_t {
    return hop < 0 ? 0 : (*levels[hop])[t + 1] - (*levels[hop])[t];
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

// A layer's items in their minibatches' hop-major order, and their blocks.
struct Merged {
  Ids items;
  Offsets offsets;
};
Merged merged_items(Backend& backend, const std::vector<const Offsets*>& levels, int layer,
                    const Offsets& minibatch_trees) {
  const Runs runs = hop_major_runs(levels, layer, minibatch_trees);
  return {backend.sequence_runs(runs.starts, runs.offsets), joined(*levels[layer + 1], minibatch_trees)};
}

}  // namespace

Bulk minibatches_of_trees(Backend& backend, Bulk trees, const Offsets& minibatch_trees, int64_t first_minibatch) {
  std::vector<const Offsets*> levels{&trees.seed_offsets};
  for (const Layer& layer : trees.layers) levels.push_back(&layer.vertices.offsets);
  // Each layer's rows are the previous layer's items, taken in its new order; layer 0's, the seeds, are in it already.
  Merged rows{backend.sequence_ids(static_cast<int64_t>(trees.seeds.size())),
              joined(trees.seed_offsets, minibatch_trees)};
  Bulk out{first_minibatch, std::move(trees.seeds), rows.offsets, {}};
  for (size_t l = 0; l < trees.layers.size(); ++l) {
    const Layer& in = trees.layers[l];
    Merged cols = merged_items(backend, levels, static_cast<int>(l), minibatch_trees);
    Matrix adj =
        backend.select_rows_cols_blocked(in.adj, {rows.items, rows.offsets}, {cols.items, cols.offsets}, Values{});
    Ids vertices = backend.gather_ids(in.vertices.ids, cols.items);
    out.layers.push_back({std::move(adj), rows.offsets, {std::move(vertices), cols.offsets}, Ids{}});
    rows = std::move(cols);
  }
  return out;
}

HeteroBulk hetero_minibatches_of_trees(Backend& backend, HeteroBulk trees, const std::vector<int>& destinations,
                                       const Offsets& minibatch_trees, int64_t first_minibatch) {
  const size_t types = trees.seeds.ids.size(), relations = trees.relation_sources.size();
  std::vector<std::vector<const Offsets*>> levels(types);  // per vertex type, as the homogeneous merge's
  std::vector<Merged> rows(types);
  HeteroBulk out{first_minibatch, {trees.seeds.ids, {}}, trees.relation_sources, {}};
  for (size_t t = 0; t < types; ++t) {
    levels[t].push_back(&trees.seeds.offsets[t]);
    for (const HeteroLayer& layer : trees.layers) levels[t].push_back(&layer.vertices[t].offsets);
    rows[t] = {backend.sequence_ids(static_cast<int64_t>(trees.seeds.ids[t].size())),
               joined(trees.seeds.offsets[t], minibatch_trees)};
    out.seeds.offsets.push_back(rows[t].offsets);
  }
  for (size_t l = 0; l < trees.layers.size(); ++l) {
    const HeteroLayer& in = trees.layers[l];
    std::vector<Merged> cols(types);
    HeteroLayer layer;
    for (size_t t = 0; t < types; ++t) {
      cols[t] = merged_items(backend, levels[t], static_cast<int>(l), minibatch_trees);
      layer.vertices.push_back({backend.gather_ids(in.vertices[t].ids, cols[t].items), cols[t].offsets});
    }
    layer.adj.resize(relations);
    layer.row_offsets.resize(relations);
    layer.positions.resize(relations);
    for (size_t r = 0; r < relations; ++r) {
      if (!in.adj[r].defined()) continue;
      // Relation r's rows are its destination type's frontier, its columns its source type's list.
      const Merged &from = rows[destinations[r]], &to = cols[trees.relation_sources[r]];
      layer.adj[r] =
          backend.select_rows_cols_blocked(in.adj[r], {from.items, from.offsets}, {to.items, to.offsets}, Values{});
      layer.row_offsets[r] = from.offsets;
    }
    rows = std::move(cols);
    out.layers.push_back(std::move(layer));
  }
  return out;
}

}  // namespace matsamp
