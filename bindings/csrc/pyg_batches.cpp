// The kernel of pyg_batches: PyG's edge fields of every minibatch of a sampled
// bulk at once, from the stacked layers and their entries' positions in the
// graph. Tensor ops only, so it runs where the layers are (CPU or CUDA) with no
// loop over minibatches.
#include <torch/library.h>

#include "convert.h"

namespace matsamp::bindings {

namespace {

constexpr const char* kOp = "matsamp.pyg_batches";

// The exclusive prefix sum of a 1-D int64 tensor.
at::Tensor starts_of(const at::Tensor& counts) { return at::cumsum(counts, 0) - counts; }

// Entry i of a block-diagonal layer belongs to row rows[i] and minibatch blocks[i].
struct EntryBlocks {
  at::Tensor rows, blocks;
};

EntryBlocks entry_blocks(const at::Tensor& rowptr, const at::Tensor& row_offsets) {
  const auto options = rowptr.options();
  const int64_t k = row_offsets.numel() - 1, r = rowptr.numel() - 1;
  const at::Tensor rows = at::repeat_interleave(at::arange(r, options), rowptr.diff());
  const at::Tensor row_blocks = at::repeat_interleave(at::arange(k, options), row_offsets.diff());
  return {rows, row_blocks.index_select(0, rows)};
}

using Batches = std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor>;

// Per layer l (sampling order; hop l + 1): an entry (row, column) of minibatch g
// is the edge column -> row in g's local ids (its row and column minus g's
// first), kept when the graph has it (position >= 0) and, with
// new_targets_only, for l > 0 only when its row is new at hop l (not one of
// layer l - 1's rows). Minibatch g's edges are ordered by hop, then as in the
// layer, and its edge_index is one contiguous [2, E_g] block, so a batch's is a
// view.
Batches pyg_batches(const std::vector<at::Tensor>& rowptr, const std::vector<at::Tensor>& col,
                    const std::vector<at::Tensor>& row_offsets, const std::vector<at::Tensor>& col_offsets,
                    const std::vector<at::Tensor>& positions, const at::Tensor& edge_ids, bool new_targets_only) {
  const size_t layers = rowptr.size();
  TORCH_CHECK_VALUE(layers > 0 && col.size() == layers && row_offsets.size() == layers &&
                        col_offsets.size() == layers && positions.size() == layers,
                    kOp, ": every per-layer list needs one tensor per layer (", layers, " row pointer tensors)");
  const int64_t k = row_offsets[0].numel() - 1;
  const auto options = rowptr[0].options();
  std::vector<at::Tensor> sources, targets, ids, blocks, counts;
  for (size_t l = 0; l < layers; ++l) {
    TORCH_CHECK_VALUE(positions[l].numel() == col[l].numel(), kOp, ": layer ", l, " has ", col[l].numel(),
                      " entries but ", positions[l].numel(), " positions (sample with edge_positions=True)");
    const auto [rows, g] = entry_blocks(rowptr[l], row_offsets[l]);
    at::Tensor target = rows - row_offsets[l].index_select(0, g);
    at::Tensor source = col[l].to(at::kLong) - col_offsets[l].index_select(0, g);
    at::Tensor keep = positions[l].ge(0);
    if (new_targets_only && l > 0) keep = keep.logical_and(target.ge(row_offsets[l - 1].diff().index_select(0, g)));
    const at::Tensor kept = keep.nonzero().view(-1);
    const at::Tensor block = g.index_select(0, kept);
    sources.push_back(source.index_select(0, kept));
    targets.push_back(target.index_select(0, kept));
    ids.push_back(edge_ids.index_select(0, positions[l].index_select(0, kept)));
    blocks.push_back(block);
    counts.push_back(at::bincount(block, {}, k));
  }
  const at::Tensor per_hop = at::stack(counts, 1);  // [k, layers]
  const at::Tensor per_minibatch = per_hop.sum(1);
  const at::Tensor edge_offsets = at::cat({at::zeros({1}, options), at::cumsum(per_minibatch, 0)});
  // Minibatch g's hop l starts at hop_starts[g, l] among g's own edges.
  const at::Tensor hop_starts = at::cumsum(per_hop, 1) - per_hop;
  const int64_t total = edge_offsets[k].item<int64_t>();
  // Minibatch g's [2, E_g] block (its sources, then its targets) at 2 · edge_offsets[g].
  at::Tensor edge_index = at::empty({2 * total}, options), e_id = at::empty({total}, options);
  for (size_t l = 0; l < layers; ++l) {  // within a hop, the layer's order
    const at::Tensor& g = blocks[l];
    const at::Tensor rank = at::arange(g.numel(), options) - starts_of(counts[l]).index_select(0, g);
    const at::Tensor within = hop_starts.select(1, static_cast<int64_t>(l)).index_select(0, g) + rank;
    const at::Tensor first = edge_offsets.index_select(0, g);
    e_id.index_copy_(0, first + within, ids[l]);
    const at::Tensor source_slot = 2 * first + within;
    edge_index.index_copy_(0, source_slot, sources[l]);
    edge_index.index_copy_(0, source_slot + per_minibatch.index_select(0, g), targets[l]);
  }
  // Vertices after each hop: the seeds (layer 0's rows), then each layer's columns.
  std::vector<at::Tensor> reached{row_offsets[0].diff()};
  for (const at::Tensor& offsets : col_offsets) reached.push_back(offsets.diff());
  const at::Tensor so_far = at::stack(reached, 1);  // [k, layers + 1]
  const at::Tensor num_nodes = so_far.diff(1, 1, at::zeros({k, 1}, options));
  return {edge_index, e_id, edge_offsets, num_nodes, per_hop};
}

}  // namespace

TORCH_LIBRARY_IMPL(matsamp, CompositeImplicitAutograd, m) { m.impl("pyg_batches", TORCH_FN(pyg_batches)); }

}  // namespace matsamp::bindings
