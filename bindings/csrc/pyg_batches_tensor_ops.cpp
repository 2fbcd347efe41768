// pyg_batches by torch's tensor ops, on the device of the layers: every kept entry
// tagged with its minibatch, a stable sort by minibatch (entries of a layer are in
// minibatch order already, so each minibatch's stay ordered by hop, then as in the
// layer), and each entry's place in its minibatch's [2, E_g] block from the
// minibatches' edge offsets. One host read: the check of the positions.
#include <ATen/ATen.h>

#include "pyg_batches.h"

namespace matsamp::bindings {

namespace {

// What one layer keeps: each kept entry's minibatch, local source and target, and position.
struct KeptEntries {
  at::Tensor minibatch, source, target, position;
};

KeptEntries kept_entries(const at::Tensor& rowptr, const at::Tensor& col, const at::Tensor& row_offsets,
                         const at::Tensor& col_offsets, const at::Tensor& positions, const at::Tensor* previous_rows) {
  const auto options = rowptr.options();
  const int64_t rows = rowptr.numel() - 1;
  const at::Tensor row = at::repeat_interleave(rowptr.diff());  // each entry's row
  // A row's minibatch: the last offset at or below it.
  const at::Tensor row_minibatch = at::searchsorted(row_offsets, at::arange(rows, options), false, true) - 1;
  const at::Tensor minibatch = row_minibatch.index_select(0, row);
  const at::Tensor target = row - row_offsets.index_select(0, minibatch);
  const at::Tensor source = col.to(at::kLong) - col_offsets.index_select(0, minibatch);
  at::Tensor keep = positions.ge(0);
  if (previous_rows) keep.logical_and_(target.ge(previous_rows->diff().index_select(0, minibatch)));
  const at::Tensor at = keep.nonzero().view(-1);
  return {minibatch.index_select(0, at), source.index_select(0, at), target.index_select(0, at),
          positions.index_select(0, at)};
}

}  // namespace

PygBatches pyg_batches_by_tensor_ops(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                                     const std::vector<at::Tensor>& row_offsets,
                                     const std::vector<at::Tensor>& col_offsets,
                                     const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids,
                                     bool new_targets_only) {
  const int64_t k = check_pyg_layers(rowptr, col, row_offsets, col_offsets, positions, edge_ids);
  const int64_t hops = static_cast<int64_t>(rowptr.size());
  std::vector<at::Tensor> minibatch, source, target, position, hop_key;
  for (int64_t l = 0; l < hops; ++l) {
    const at::Tensor* previous = new_targets_only && l > 0 ? &row_offsets[l - 1] : nullptr;
    KeptEntries e = kept_entries(rowptr[l].contiguous(), col[l].contiguous(), row_offsets[l], col_offsets[l],
                                 positions[l].contiguous(), previous);
    hop_key.push_back(e.minibatch * hops + l);
    minibatch.push_back(std::move(e.minibatch));
    source.push_back(std::move(e.source));
    target.push_back(std::move(e.target));
    position.push_back(std::move(e.position));
  }
  const auto options = rowptr[0].options().dtype(at::kLong);
  const at::Tensor all_positions = at::cat(position);
  const int64_t num_ids = edge_ids.numel();
  if (all_positions.numel() > 0) {
    const int64_t largest = all_positions.max().item<int64_t>();
    TORCH_CHECK_VALUE(largest < num_ids, kPygBatchesOp, ": position ", largest, " is past the ", num_ids,
                      " edge ids (layers sampled from another graph?)");
  }
  const at::Tensor num_edges = at::bincount(at::cat(hop_key), {}, k * hops).view({k, hops});
  const at::Tensor per_minibatch = num_edges.sum(1);
  const at::Tensor edge_offsets = at::cat({at::zeros({1}, options), per_minibatch.cumsum(0)});
  const at::Tensor order = std::get<1>(at::sort(at::cat(minibatch), /*stable=*/true, 0, false));
  const at::Tensor sorted_minibatch = at::cat(minibatch).index_select(0, order);
  const int64_t total = order.numel();
  // Entry i of the sorted list is edge i - offset[g] of minibatch g: its source at
  // 2 offset[g] + (i - offset[g]) and its target E_g further.
  const at::Tensor source_at = at::arange(total, options) + edge_offsets.index_select(0, sorted_minibatch);
  const at::Tensor target_at = source_at + per_minibatch.index_select(0, sorted_minibatch);
  at::Tensor edge_index = at::empty({2 * total}, options);
  edge_index.index_put_({source_at}, at::cat(source).index_select(0, order));
  edge_index.index_put_({target_at}, at::cat(target).index_select(0, order));
  const at::Tensor e_id = edge_ids.index_select(0, all_positions.index_select(0, order));
  // Vertices after each hop: the seeds (layer 0's rows), then each layer's columns.
  std::vector<at::Tensor> reached{row_offsets[0].diff()};
  for (int64_t l = 0; l < hops; ++l) reached.push_back(col_offsets[l].diff());
  const at::Tensor cumulative = at::stack(reached, 1);  // [k, hops + 1]
  const at::Tensor num_nodes = at::cat({cumulative.narrow(1, 0, 1), cumulative.diff(1, 1)}, 1);
  return {edge_index, e_id, edge_offsets, num_nodes, num_edges};
}

}  // namespace matsamp::bindings
