#include "epoch_share.h"

namespace matsamp {

EpochOptions share_of_epoch(EpochOptions options, const ProcessGrid& grid, GraphMode mode, GraphProduct::RowWork work) {
  const bool every_rank = every_rank_samples(mode, work);
  options.worker = every_rank ? grid.rank() : grid.row();
  options.workers = every_rank ? grid.size() : grid.process_rows();
  return options;
}

}  // namespace matsamp
