// How an epoch's minibatches divide among workers: each samples its lanes of every
// bulk, contiguous ranges of global ids, so that it samples with the unchanged
// samplers and the Philox keys (per global minibatch id) give every minibatch the
// same randomness as one process would.
#pragma once
#include <cstdint>
#include <vector>

#include "graph_product.h"
#include "process_grid.h"
#include "sampling/epoch.h"

namespace matsamp {

// Graph replicated: every rank is a worker. Graph partitioned: every process row is
// one (its c ranks sample the same minibatches together), or with split row work
// (GraphProduct::RowWork::split) every rank again.
enum class GraphMode { replicated, partitioned };

// Whether every rank samples minibatches of its own (else the c ranks of a process
// row sample theirs together).
inline bool every_rank_samples(GraphMode mode, GraphProduct::RowWork work) {
  return mode == GraphMode::replicated || work == GraphProduct::RowWork::split;
}

// This rank's share of the epoch: it is worker w of W (a rank, or a process row),
// and samples lanes [w·L/W, (w+1)·L/W) of every bulk (EpochPlan). With locality
// blocks B = W in the partitioned mode, a process row samples the block its ranks hold.
EpochOptions share_of_epoch(EpochOptions options, const ProcessGrid& grid, GraphMode mode,
                            GraphProduct::RowWork work = GraphProduct::RowWork::shared);

}  // namespace matsamp
