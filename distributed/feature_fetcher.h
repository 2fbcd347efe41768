// Feature rows for minibatches from X (n x f) in the 1.5D layout (DESIGN.md, "Features"):
// block row i of X lives on the c ranks of process row i, so a process column holds
// all of X once. fetch() is one all-to-allv inside the process column: ids bucketed by
// owning block row -> counts -> ids -> feature rows back -> scattered into the order
// asked for. Its bytes go to the grid's counters (column communicator, "all_to_allv").
#pragma once
#include <vector>

#include "core/row_blocks.h"
#include "process_grid.h"

namespace matsamp {

class FeatureFetcher {
 public:
  // block: rows [begin, end) of this rank's block row of X, row-major (rows x feature_dim),
  // with the blocks of RowBlocks{n, grid.process_rows()}, `floats` values long. Borrowed,
  // not copied (a rank's rows are its largest array): the caller keeps them alive.
  FeatureFetcher(ProcessGrid& grid, int64_t n, int64_t feature_dim, const float* block, size_t floats);

  // Collective over the process column: each of its ranks calls fetch() as often as the
  // others (with no ids when it has nothing to fetch). Returns ids.size() x feature_dim
  // floats, row i being X[ids[i]]. Repeated ids are fetched once.
  // remote_dims (ascending feature indices, the same on every rank of the column;
  // checked by one small all-reduce): rows held by other ranks come with only these
  // dimensions, the others 0, and cost 4 bytes per dimension sent (DGS's top
  // features of remote vertices); this rank's own rows come whole. Empty: all.
  std::vector<float> fetch(const std::vector<vid_t>& ids, const std::vector<int64_t>& remote_dims = {});

  int64_t feature_dim() const { return feature_dim_; }
  const RowBlocks& blocks() const { return blocks_; }
  const float* block() const { return block_; }  // this rank's rows, as given

 private:
  const float* own_row(vid_t v) const;  // checked to be this rank's
  std::vector<float> fetch_dims(const std::vector<vid_t>& ids, const std::vector<vid_t>& wanted,
                                const std::vector<int64_t>& dims);

  ProcessGrid& grid_;
  RowBlocks blocks_;
  int64_t feature_dim_;
  const float* block_;
};

// Where this rank's block row starts in a whole row-major X (n x feature_dim), for FeatureFetcher.
const float* feature_block_of(const std::vector<float>& features, int64_t feature_dim, const ProcessGrid& grid);

}  // namespace matsamp
