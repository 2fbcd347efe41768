// What makes p ranks train as one process: the same starting parameters, the
// gradients of a step summed over ranks, and dropout masks keyed by the
// minibatch rather than by the rank or the order of work.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "distributed/communicator.h"

namespace matsamp {

// Sums the gradients over all ranks (undefined ones, of a rank without a
// minibatch in the step, count as zeros). With the loss divided by the step's
// global count, the sum is the gradient of the step's global mean loss.
void all_reduce_gradients(const std::vector<torch::Tensor>& parameters, Communicator& comm);

// Makes every rank start from rank 0's parameters.
void broadcast_parameters(const std::vector<torch::Tensor>& parameters, Communicator& comm);

// Seeds torch's generator for the dropout of one minibatch of an epoch.
void seed_minibatch_dropout(uint64_t seed, uint32_t epoch_key, int64_t minibatch);

}  // namespace matsamp
