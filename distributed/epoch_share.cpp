#include "epoch_share.h"

namespace matsamp {

EpochOptions share_of_epoch(EpochOptions options, int64_t num_train_vertices, const ProcessGrid& grid,
                            GraphMode mode) {
  const bool replicated = mode == GraphMode::replicated;
  const int64_t worker = replicated ? grid.rank() : grid.row();
  const int64_t workers = replicated ? grid.size() : grid.process_rows();
  const int64_t minibatches = minibatch_count(num_train_vertices, options.batch_size);
  options.first_minibatch = worker * minibatches / workers;
  options.end_minibatch = (worker + 1) * minibatches / workers;
  return options;
}

}  // namespace matsamp
