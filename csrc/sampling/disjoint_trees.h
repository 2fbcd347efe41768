// Minibatches of disjoint trees (every seed sampled as a block of its own, as
// temporal sampling does) in the layout the models read: per minibatch and layer,
// its trees' vertices hop by hop, each hop tree by tree (PyG's disjoint order),
// so a layer's columns start with its frontier, the previous layer's vertices in
// their order, and its rows follow that order too.
#pragma once
#include "sampling/sample.h"

namespace matsamp {

// `trees`: one block per tree (seed); minibatch g holds trees
// [minibatch_trees[g], minibatch_trees[g + 1]). A vertex two trees reach is in
// the minibatch once per tree.
BulkSample minibatches_of_trees(const BulkSample& trees, const Offsets& minibatch_trees);

}  // namespace matsamp
