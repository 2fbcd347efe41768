#include "epoch_share.h"

namespace matsamp {

EpochOptions share_of_epoch(EpochOptions options, const std::vector<vid_t>& train_vertices, const ProcessGrid& grid,
                            GraphMode mode, GraphProduct::RowWork work) {
  const bool every_rank = every_rank_samples(mode, work);
  const int64_t worker = every_rank ? grid.rank() : grid.row();
  const int64_t workers = every_rank ? grid.size() : grid.process_rows();
  const std::vector<int64_t> per_block = minibatches_per_block(train_vertices, options.batch_size, options.locality);
  if (options.locality.blocks == 0) {
    options.first_minibatch = worker * per_block[0] / workers;
    options.end_minibatch = (worker + 1) * per_block[0] / workers;
    return options;
  }
  const int64_t blocks = options.locality.blocks;
  MATSAMP_CHECK(blocks >= workers, "--locality-blocks ", blocks, " is below the ", workers, " ",
                every_rank ? "ranks" : "process rows", " that sample; use a multiple of ", workers);
  std::vector<int64_t> first(blocks + 1, 0);  // first minibatch id of each block
  for (int64_t j = 0; j < blocks; ++j) first[j + 1] = first[j] + per_block[j];
  options.first_minibatch = first[worker * blocks / workers];
  options.end_minibatch = first[(worker + 1) * blocks / workers];
  return options;
}

}  // namespace matsamp
