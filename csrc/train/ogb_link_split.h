// The split an OGB link-property dataset ships: split/<scheme>/{train,valid,test}.pt,
// dictionaries of tensors written by torch.save, read by io/torch_save.h (not torch's unpickler).
// Two layouts exist:
//   'edge' [E, 2] positives, and for valid/test 'edge_neg' [N, 2]: one pool of
//   negative pairs every positive is ranked against (ogbl-collab, -ddi, -ppa, -vessel);
//   'source_node', 'target_node' [E], and for valid/test 'target_node_neg' [E, K]:
//   K negative destinations per source (ogbl-citation2).
// The dataset's graph (raw/edge.csv.gz) holds the training edges only: it is the
// training graph. Other keys ('weight', 'year') are left out.
#pragma once
#include <string>

#include "train/edge_split.h"

namespace matsamp {

// `train_pt` is split/<scheme>/train.pt (io/ogb_dataset.h: ogb_pickled_split);
// valid.pt and test.pt lie beside it. Throws a one-line error naming the file for
// a missing one, a pickle of torch's legacy format (before torch 1.6, with the
// command that re-saves it), another layout, or vertex ids outside [0, n).
EdgeSplit read_ogb_link_split(const std::string& train_pt, const CsrMatrix& graph);

}  // namespace matsamp
