// The host kernel of pyg_batches: PyG's edge fields of every minibatch of a
// sampled bulk at once, from the stacked layers and their entries' positions in
// the graph. Two passes over the entries, minibatches in parallel: count what
// each hop keeps, then write it. Layers on a GPU take the tensor-op path
// (pyg_batches_tensor_ops.cpp) and stay there.
#include "pyg_batches.h"

#include <torch/library.h>

#include <numeric>

#include "convert.h"
#include "util/parallel.h"

namespace matsamp::bindings {

namespace {

// One layer's arrays, read on the host.
struct LayerView {
  const int64_t* rowptr;
  const int32_t* col;
  const int64_t* row_offsets;
  const int64_t* col_offsets;
  const int64_t* positions;
};

// The host tensors the layer views point into (the layers checked already).
std::vector<at::Tensor> host_layers(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                                    const std::vector<at::Tensor>& row_offsets,
                                    const std::vector<at::Tensor>& col_offsets,
                                    const std::vector<at::Tensor>& positions, std::vector<LayerView>& views) {
  std::vector<at::Tensor> held;
  for (size_t l = 0; l < rowptr.size(); ++l) {
    const at::Tensor r = rowptr[l].contiguous(), c = col[l].contiguous(), ro = row_offsets[l].contiguous(),
                     co = col_offsets[l].contiguous(), p = positions[l].contiguous();
    views.push_back({r.data_ptr<int64_t>(), c.data_ptr<int32_t>(), ro.data_ptr<int64_t>(), co.data_ptr<int64_t>(),
                     p.data_ptr<int64_t>()});
    held.insert(held.end(), {r, c, ro, co, p});
  }
  return held;
}

// Calls fn(source, target, position) for each edge hop l + 1 of minibatch g keeps,
// in the layer's order: entry (row, column) is the edge column -> row in g's
// local ids; kept when the graph has it (position >= 0) and, with
// new_targets_only, for l > 0 only when its row is new at hop l (past layer l - 1's rows).
// With read_by_position (what fn reads at a position, at random), that line is
// fetched sixteen edges ahead.
template <class Fn>
void for_kept_edges(const std::vector<LayerView>& layers, size_t l, int64_t g, bool new_targets_only, Fn&& fn,
                    const int64_t* read_by_position = nullptr) {
  constexpr int64_t kAhead = 16;
  const LayerView& v = layers[l];
  const int64_t first_row = v.row_offsets[g], first_col = v.col_offsets[g];
  const int64_t old_rows = new_targets_only && l > 0 ? layers[l - 1].row_offsets[g + 1] - layers[l - 1].row_offsets[g]
                                                     : 0;
  const int64_t end = v.rowptr[v.row_offsets[g + 1]];
  for (int64_t r = first_row + old_rows; r < v.row_offsets[g + 1]; ++r)
    for (int64_t e = v.rowptr[r]; e < v.rowptr[r + 1]; ++e) {
      if (read_by_position && e + kAhead < end && v.positions[e + kAhead] >= 0)
        __builtin_prefetch(read_by_position + v.positions[e + kAhead]);
      if (v.positions[e] >= 0) fn(v.col[e] - first_col, r - first_row, v.positions[e]);
    }
}

// Minibatch g's edges are ordered by hop, then as in the layer; its edge_index is
// one contiguous [2, E_g] block (sources, then targets), so a batch's is a view.
PygBatches pyg_batches_on_host(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                               const std::vector<at::Tensor>& row_offsets, const std::vector<at::Tensor>& col_offsets,
                               const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids,
                               bool new_targets_only) {
  const int64_t k = check_pyg_layers(rowptr, col, row_offsets, col_offsets, positions, edge_ids);
  std::vector<LayerView> layers;
  const std::vector<at::Tensor> held = host_layers(rowptr, col, row_offsets, col_offsets, positions, layers);
  const at::Tensor ids = edge_ids.contiguous();
  const int64_t* edge_id = ids.data_ptr<int64_t>();
  const int64_t num_ids = ids.numel();
  const int64_t hops = static_cast<int64_t>(layers.size());
  std::vector<int64_t> per_hop(k * hops, 0);  // [k, hops]
  int64_t bad_position = -1, entries = 0;
  for (const at::Tensor& c : col) entries += c.numel();
#pragma omp parallel for schedule(dynamic, 1) reduction(max : bad_position) num_threads(threads_for(entries))
  for (int64_t g = 0; g < k; ++g)
    for (int64_t l = 0; l < hops; ++l)
      for_kept_edges(layers, l, g, new_targets_only, [&](int64_t, int64_t, int64_t position) {
        ++per_hop[g * hops + l];
        if (position >= num_ids) bad_position = std::max(bad_position, position);
      });
  TORCH_CHECK_VALUE(bad_position < 0, kPygBatchesOp, ": position ", bad_position, " is past the ", num_ids,
                    " edge ids (layers sampled from another graph?)");
  std::vector<int64_t> edge_offsets(k + 1, 0);
  for (int64_t g = 0; g < k; ++g)
    edge_offsets[g + 1] = edge_offsets[g] +
                          std::accumulate(per_hop.begin() + g * hops, per_hop.begin() + (g + 1) * hops, int64_t{0});
  const int64_t total = edge_offsets[k];
  // Written once each, so left uninitialized (zeroing them would cost a pass).
  at::Tensor edge_index_tensor = at::empty({2 * total}, at::kLong), e_id_tensor = at::empty({total}, at::kLong);
  int64_t* edge_index = edge_index_tensor.data_ptr<int64_t>();
  int64_t* e_id = e_id_tensor.data_ptr<int64_t>();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_for(total))
  for (int64_t g = 0; g < k; ++g) {
    const int64_t count = edge_offsets[g + 1] - edge_offsets[g];
    int64_t* sources = edge_index + 2 * edge_offsets[g];
    int64_t* targets = sources + count;
    int64_t* named = e_id + edge_offsets[g];
    int64_t at = 0;
    for (int64_t l = 0; l < hops; ++l)
      for_kept_edges(
          layers, l, g, new_targets_only,
          [&](int64_t source, int64_t target, int64_t position) {
            sources[at] = source;
            targets[at] = target;
            named[at++] = edge_id[position];
          },
          edge_id);
  }
  // Vertices after each hop: the seeds (layer 0's rows), then each layer's columns.
  std::vector<int64_t> num_nodes(k * (hops + 1));
  for (int64_t g = 0; g < k; ++g) {
    int64_t before = 0;
    for (int64_t h = 0; h <= hops; ++h) {
      const int64_t* offsets = h == 0 ? layers[0].row_offsets : layers[h - 1].col_offsets;
      const int64_t reached = offsets[g + 1] - offsets[g];
      num_nodes[g * (hops + 1) + h] = reached - before;
      before = reached;
    }
  }
  return {edge_index_tensor, e_id_tensor, vector_to_tensor(std::move(edge_offsets)),
          vector_to_tensor(std::move(num_nodes)).view({k, hops + 1}),
          vector_to_tensor(std::move(per_hop)).view({k, hops})};
}

PygBatches pyg_batches(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                       const std::vector<at::Tensor>& row_offsets, const std::vector<at::Tensor>& col_offsets,
                       const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids, bool new_targets_only) {
  const bool on_host = !rowptr.empty() && rowptr[0].defined() && rowptr[0].device().is_cpu();
  return (on_host ? pyg_batches_on_host : pyg_batches_by_tensor_ops)(rowptr, col, row_offsets, col_offsets, positions,
                                                                     edge_ids, new_targets_only);
}

}  // namespace

int64_t check_pyg_layers(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                         const std::vector<at::Tensor>& row_offsets, const std::vector<at::Tensor>& col_offsets,
                         const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids) {
  const size_t layers = rowptr.size();
  TORCH_CHECK_VALUE(layers > 0 && col.size() == layers && row_offsets.size() == layers &&
                        col_offsets.size() == layers && positions.size() == layers,
                    kPygBatchesOp, ": every per-layer list needs one tensor per layer (", layers,
                    " row pointer tensors)");
  check_vector_shape(edge_ids, at::kLong, kPygBatchesOp, "edge_ids");
  const c10::Device device = edge_ids.device();
  const int64_t k = row_offsets[0].defined() ? row_offsets[0].numel() - 1 : 0;
  for (size_t l = 0; l < layers; ++l) {
    check_vector_shape(rowptr[l], at::kLong, kPygBatchesOp, "rowptr");
    check_vector_shape(col[l], at::kInt, kPygBatchesOp, "col");
    check_vector_shape(row_offsets[l], at::kLong, kPygBatchesOp, "row_offsets");
    check_vector_shape(col_offsets[l], at::kLong, kPygBatchesOp, "col_offsets");
    check_vector_shape(positions[l], at::kLong, kPygBatchesOp, "positions");
    for (const at::Tensor* t : {&rowptr[l], &col[l], &row_offsets[l], &col_offsets[l], &positions[l]})
      TORCH_CHECK_VALUE(t->device() == device, kPygBatchesOp, ": layer ", l, " has a tensor on ", t->device(),
                        " but edge_ids are on ", device, " (every tensor on one device)");
    TORCH_CHECK_VALUE(row_offsets[l].numel() == k + 1 && col_offsets[l].numel() == k + 1, kPygBatchesOp, ": layer ", l,
                      " has ", row_offsets[l].numel() - 1, " minibatches, layer 0 has ", k);
    TORCH_CHECK_VALUE(rowptr[l].numel() >= 1, kPygBatchesOp, ": layer ", l,
                      "'s rowptr is empty (it has rows + 1 entries)");
    TORCH_CHECK_VALUE(positions[l].numel() == col[l].numel(), kPygBatchesOp, ": layer ", l, " has ", col[l].numel(),
                      " entries but ", positions[l].numel(), " positions (sample with edge_positions=True)");
  }
  return k;
}

TORCH_LIBRARY_IMPL(matsamp, CompositeImplicitAutograd, m) {
  m.impl("pyg_batches", TORCH_FN(pyg_batches));
  m.impl("_pyg_batches_by_tensor_ops", TORCH_FN(pyg_batches_by_tensor_ops));
}

}  // namespace matsamp::bindings
