// Minibatches of disjoint trees (every seed sampled as a block of its own, as
// temporal sampling does) in the layout the models read: per minibatch and layer,
// its trees' vertices hop by hop, each hop tree by tree (PyG's disjoint order),
// so a layer's columns start with its frontier, the previous layer's vertices in
// their order, and its rows follow that order too.
#pragma once
#include "sampling/hetero_sample.h"
#include "sampling/sample.h"

namespace matsamp {

// `trees`: one block per tree (seed); minibatch g (global id first_minibatch + g)
// holds trees [minibatch_trees[g], minibatch_trees[g + 1]). A vertex two trees reach is in
// the minibatch once per tree. The merge runs as ops of the trees' backend
// (runs of positions, a gather, a row and column extraction): nothing leaves it.
Bulk minibatches_of_trees(Backend& backend, Bulk trees, const Offsets& minibatch_trees, int64_t first_minibatch);
// The same per vertex type of a heterogeneous bulk, each relation's rows its
// destination type's (destinations[r]) merged frontier and its columns its source type's list.
HeteroBulk hetero_minibatches_of_trees(Backend& backend, HeteroBulk trees, const std::vector<int>& destinations,
                                       const Offsets& minibatch_trees, int64_t first_minibatch);

}  // namespace matsamp
