// pyg_batches (library.cpp has its schema): PyG's edge fields of every minibatch
// of a sampled bulk. Two implementations, the same results: a host kernel (two
// passes, minibatches in parallel) and one of torch's tensor ops, which runs on
// the device the layers are on, so a bulk sampled on a GPU stays there.
#pragma once
#include <ATen/ATen.h>

#include <tuple>
#include <vector>

namespace matsamp::bindings {

// The op's name in its errors (both implementations).
inline constexpr const char* kPygBatchesOp = "matsamp.pyg_batches";

// edge_index, e_id, edge_offsets, num_sampled_nodes, num_sampled_edges.
using PygBatches = std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor>;

// The per-layer lists as a whole: one tensor per layer in each, of the right dtype
// and shape, k + 1 offsets in every layer, a position per entry; all on one device.
// Returns k, the minibatches.
int64_t check_pyg_layers(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                         const std::vector<at::Tensor>& row_offsets, const std::vector<at::Tensor>& col_offsets,
                         const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids);

// The tensor-op implementation, on the layers' device.
PygBatches pyg_batches_by_tensor_ops(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                                     const std::vector<at::Tensor>& row_offsets,
                                     const std::vector<at::Tensor>& col_offsets,
                                     const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids,
                                     bool new_targets_only);

}  // namespace matsamp::bindings
