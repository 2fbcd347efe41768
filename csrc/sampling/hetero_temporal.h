// Heterogeneous sampling by time (PyG's temporal sampling of HeteroData, what
// relational deep learning trains with): every seed a tree of its own, keyed by
// its place in the epoch, every relation's draw kept to the seed's time in every
// layer, and a minibatch its seeds' trees merged hop by hop per vertex type
// (disjoint_trees.h).
#pragma once
#include <cstdint>
#include <vector>

#include "sampling/epoch.h"
#include "sampling/hetero_sample.h"

namespace matsamp {

struct HeteroTemporalEpoch {
  std::vector<Ids> order, sorted_times;            // per relation: A_r's TimeOrder (ops.h), in the sampling backend
  std::vector<std::vector<int64_t>> vertex_times;  // per vertex type: each vertex's time (empty: the type has none)
  TemporalStrategy strategy = TemporalStrategy::uniform;
};

// PyG's node-level times: an entry of A_r is as late as its source vertex, and
// a source type without times (empty) is never too late, as in PyG; or, for a
// relation r with entry_times[r] given, PyG's edge-level times: an entry as late
// as its own time. Throws unless vertex_times has one list per type, each empty
// or one time per vertex, and entry_times (when given) one list per relation,
// each empty or one time per entry.
HeteroTemporalEpoch hetero_epoch_times(Backend& backend, const HeteroGraph& graph,
                                       std::vector<std::vector<int64_t>> vertex_times, TemporalStrategy strategy,
                                       const std::vector<std::vector<int64_t>>& entry_times = {});
// Each type's own times (VertexType::times).
std::vector<std::vector<int64_t>> vertex_times_of(const HeteroGraph& graph);

// Trees of seeds of type seed_type (tree i at seed_times[i], keyed as tree
// first_tree + i) merged into minibatches first_minibatch … (minibatch g holds
// trees [minibatch_trees[g], minibatch_trees[g + 1])).
HeteroBulk sample_hetero_trees_by_time(const HeteroSampler& sampler, Context& ctx, int seed_type,
                                       std::vector<vid_t> seeds, std::vector<int64_t> seed_times,
                                       const Offsets& minibatch_trees, int64_t first_minibatch, int64_t first_tree,
                                       uint32_t epoch, const HeteroTemporalEpoch& times);
// Minibatches [first, end) of an epoch's order of seeds of type seed_type, each
// seed a tree at its vertex's time: the same trees at any bulk size.
HeteroBulk sample_hetero_minibatches_by_time(const HeteroSampler& sampler, Context& ctx, int seed_type,
                                             const EpochOrder& order, int64_t first, int64_t end, uint32_t epoch,
                                             const HeteroTemporalEpoch& times);

}  // namespace matsamp
