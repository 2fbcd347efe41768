// The schemas of torch.ops.matsamp.* (their CPU and CUDA kernels are in
// sample_kernels.cpp and gather_kernels.cpp) and the device-independent epoch
// helpers (shuffle, bulk sizing).
#include <torch/library.h>

#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "convert.h"
#include "graph.h"
#include "sampling/epoch_plan.h"

namespace matsamp::bindings {

namespace {

// The vertices in the order of epoch `epoch` for `seed` (EpochIterator's shuffle;
// stream j: the shuffle of locality block j).
at::Tensor shuffle_vertices_op(const at::Tensor& vertices, int64_t seed, int64_t epoch, int64_t stream) {
  constexpr const char* op = "matsamp.shuffle_vertices";
  std::vector<vid_t> ids = to_int64_vector(vertices, op, "vertices");
  return vector_to_tensor(
      shuffle_vertices(ids, to_seed(seed, op), to_epoch(epoch, op), to_epoch(stream, op, "stream")));
}

// The epoch's seed order, where each minibatch starts in it and the minibatch
// ids in the order steps train on them (EpochPlan, the one place an epoch is
// cut): vertices shuffled for (seed, epoch) or kept in order, each lane of a
// step filled from its locality block of [0, num_vertices) when locality_blocks > 0.
std::tuple<at::Tensor, at::Tensor, at::Tensor> epoch_order_op(const at::Tensor& vertices, int64_t num_vertices,
                                                              int64_t batch_size, int64_t seed, int64_t epoch,
                                                              int64_t locality_blocks, bool shuffle,
                                                              int64_t minibatches_per_step, int64_t bulk_steps) {
  constexpr const char* op = "matsamp.epoch_order";
  const std::vector<vid_t> ids = to_int64_vector(vertices, op, "vertices");
  TORCH_CHECK_VALUE(locality_blocks >= 0 && locality_blocks <= std::numeric_limits<int>::max(), op,
                    ": locality_blocks must be non-negative, got ", locality_blocks);
  TORCH_CHECK_VALUE(minibatches_per_step >= 0, op, ": minibatches_per_step must be non-negative, got ",
                    minibatches_per_step);
  TORCH_CHECK_VALUE(batch_size > 0, op, ": batch_size must be positive, got ", batch_size);
  const uint64_t key = to_seed(seed, op);
  const uint32_t epoch_key = to_epoch(epoch, op);
  if (ids.empty())
    return std::make_tuple(vector_to_tensor(std::vector<vid_t>{}), vector_to_tensor(std::vector<int64_t>{0}),
                           vector_to_tensor(std::vector<int64_t>{}));
  return translate_errors([&] {
    const BatchLocality locality{static_cast<int>(locality_blocks), num_vertices};
    const int64_t lanes = step_lanes(minibatches_per_step, locality_blocks, 1);
    const EpochPlan plan(static_cast<int64_t>(ids.size()), {batch_size, lanes, bulk_steps, locality});
    const EpochOrder order = plan.order(ids, key, epoch_key, shuffle);
    return std::make_tuple(vector_to_tensor(std::vector<vid_t>(order.order())),
                           vector_to_tensor(std::vector<int64_t>(order.starts())),
                           vector_to_tensor(plan.training_sequence()));
  });
}

// The graph of the n x n entries (row[i], col[i]) with weight[i] (none: each
// weighs 1), built by csr_from_edges from the arrays as given (int32 or int64,
// read on the host: not copied when they are there): columns sorted within
// rows, repeated entries merged with their weights summed (without weights a
// merged entry weighs 1). edge_ids[e]: the position i of entry e's first
// occurrence (PyG's e_id of a sampled edge). Ids are checked by the caller
// (Graph.from_edge_index) and again here.
std::tuple<c10::intrusive_ptr<GraphHolder>, at::Tensor> graph_from_edge_index_op(
    int64_t num_nodes, const at::Tensor& row, const at::Tensor& col, const c10::optional<at::Tensor>& weight) {
  constexpr const char* op = "matsamp.graph_from_edge_index";
  TORCH_CHECK_VALUE(num_nodes >= 0, op, ": num_nodes must be non-negative, got ", num_nodes);
  TORCH_CHECK_VALUE(row.dim() == 1 && col.dim() == 1 && row.numel() == col.numel(), op,
                    ": row and col must be 1-D with one id per entry, got ", row.sizes(), " and ", col.sizes());
  TORCH_CHECK_TYPE(
      row.scalar_type() == col.scalar_type() && (row.scalar_type() == at::kInt || row.scalar_type() == at::kLong), op,
      ": row and col must both be int32 or both int64, got ", row.scalar_type(), " and ", col.scalar_type());
  const at::Tensor rows = row.cpu().contiguous(), cols = col.cpu().contiguous();
  const int64_t m = rows.numel();
  at::Tensor weights;
  if (weight && weight->defined()) {
    check_vector(*weight, at::kFloat, op, "weight");
    TORCH_CHECK_VALUE(weight->numel() == m, op, ": ", weight->numel(), " weights for ", m, " entries");
    weights = weight->cpu().contiguous();
  }
  return translate_errors([&] {
    Graph graph;
    std::vector<int64_t> origin;
    const float* w = weights.defined() ? weights.data_ptr<float>() : nullptr;
    graph.adj = rows.scalar_type() == at::kInt ? csr_from_edges(num_nodes, num_nodes, rows.data_ptr<int32_t>(),
                                                                cols.data_ptr<int32_t>(), m, w, w != nullptr, &origin)
                                               : csr_from_edges(num_nodes, num_nodes, rows.data_ptr<int64_t>(),
                                                                cols.data_ptr<int64_t>(), m, w, w != nullptr, &origin);
    if (!w) graph.adj.values.assign(graph.adj.nnz(), 1.0f);
    return std::make_tuple(c10::make_intrusive<GraphHolder>(std::move(graph)), vector_to_tensor(std::move(origin)));
  });
}

// The bulk size k the C++ EpochIterator picks when none is given: the largest
// in [1, minibatches] whose estimated memory fits budget_bytes, for the sampler
// the sampling op of that name builds over this graph (the seed does not enter
// the estimate). ValueError when not even one minibatch fits.
int64_t bulk_size_for_budget_op(const c10::intrusive_ptr<GraphHolder>& graph, const std::string& sampler,
                                std::vector<int64_t> sizes, bool include_frontier, int64_t batch_size,
                                int64_t minibatches, int64_t budget_bytes) {
  constexpr const char* op = "matsamp.bulk_size_for_budget";
  TORCH_CHECK_VALUE(batch_size > 0, op, ": batch_size must be positive, got ", batch_size);
  TORCH_CHECK_VALUE(minibatches > 0, op, ": minibatches must be positive, got ", minibatches);
  TORCH_CHECK_VALUE(budget_bytes > 0, op, ": budget_bytes must be positive, got ", budget_bytes);
  return translate_errors([&] {
    const auto built = graph->sampler(sampler, sizes, include_frontier, false);
    return bulk_size_for_budget(*built, batch_size, minibatches, budget_bytes);
  });
}

// The per-layer results of a bulk sampling op, each a list over layers in
// sampling order (index 0 has the batch vertices as rows). Per layer: the
// stacked CSR (rowptr int64, col int32 with stacked column ids, value float32),
// row_offsets and col_offsets (k + 1 each: minibatch g owns rows and columns
// [offsets[g], offsets[g + 1])), vertices (int64, the global id of each column)
// and, with edge_positions, positions (int64 per entry: its position in the
// graph's CSR, -1 for a self-loop of Â the graph lacks; else empty).
#define MATSAMP_SAMPLE_RETURNS                                                 \
  " -> (Tensor[] rowptr, Tensor[] col, Tensor[] value, Tensor[] row_offsets, " \
  "Tensor[] col_offsets, Tensor[] vertices, Tensor[] positions)"

}  // namespace

TORCH_LIBRARY(matsamp, m) {
  register_graph_class();  // the schemas below name it

  // Bulk sampling of k minibatches by the registry's sampler of that name
  // (samplers() lists them): seeds stacked, seed_offsets (k + 1) cut them into
  // minibatches first_minibatch … first_minibatch + k - 1 of epoch `epoch`.
  // sizes: per layer, batch layer first, the sampler's sizes option (fanouts,
  // vertices per layer, or GraphSAINT's walk length or budget once per layer);
  // include_frontier: for the samplers that can exclude it (LADIES, FastGCN);
  // saint_norm: GraphSAINT's aggregator normalization (the subgraph samplers).
  // seed_times (int64, one per minibatch; the samplers with the temporal trait, on
  // a graph with entry times): no sampled edge later than its minibatch's time,
  // the strategy "uniform" or "last" (ops.h: sample_rows_before). replace: draws
  // with replacement (the samplers with a replace option: ops.h's sample_rows_with_replacement).
  // expand_new_only: node-wise layers draw only for the vertices the previous layer
  // added (PyG's expansion; the samplers with an expand_new_only option).
  m.def(
      "sample(__torch__.torch.classes.matsamp.Graph graph, str sampler, Tensor seeds, Tensor seed_offsets, "
      "int[] sizes, int first_minibatch, int epoch, int seed, bool include_frontier=True, bool saint_norm=False, "
      "bool edge_positions=False, Tensor? seed_times=None, str temporal_strategy=\"uniform\", bool replace=False, "
      "bool expand_new_only=False)" MATSAMP_SAMPLE_RETURNS);
  // Link prediction: minibatches of seed edges (sources, destinations cut by
  // edge_offsets), each with `negatives` negative destinations per positive
  // (uniform or degree^0.75, on the engine's keys; known edges redrawn when
  // asked), its seeds the distinct endpoints and negatives, its layers sampled
  // with its positives (and, with exclude_reverse, their reverses) masked out.
  // Returns the seeds, seed_offsets, each edge's source / destination /
  // negatives' positions in its minibatch's seeds, the negatives, then the layers.
  m.def(
      "sample_edges(__torch__.torch.classes.matsamp.Graph graph, str sampler, Tensor sources, Tensor destinations, "
      "Tensor edge_offsets, int[] sizes, int first_minibatch, int epoch, int seed, int negatives, "
      "str negative_distribution, bool reject_known_edges, bool exclude, bool exclude_reverse, "
      "bool include_frontier=True, bool edge_positions=False, bool replace=False, bool expand_new_only=False) -> "
      "(Tensor seeds, "
      "Tensor seed_offsets, "
      "Tensor source_index, Tensor destination_index, Tensor negatives, Tensor negative_index, Tensor[] rowptr, "
      "Tensor[] col, Tensor[] value, Tensor[] row_offsets, Tensor[] col_offsets, Tensor[] vertices, "
      "Tensor[] positions)");
  // Per block g of vertices (offsets, k + 1), the graph's entries among its
  // vertices, A[V_g, V_g] (PyG's induced subgraphs): one layer as sample returns
  // it (rows and columns the blocks' vertices, entries located in the graph).
  m.def(
      "induced_subgraphs(__torch__.torch.classes.matsamp.Graph graph, Tensor vertices, Tensor offsets)" MATSAMP_SAMPLE_RETURNS);
  // The negatives sample_edges would draw for these minibatches (same keys), alone;
  // with each edge's time and the node times, none later than its edge (redrawn
  // up to 64 times, as known edges are).
  m.def(
      "link_negatives(__torch__.torch.classes.matsamp.Graph graph, Tensor sources, Tensor edge_offsets, "
      "int first_minibatch, int epoch, int seed, int negatives, str negative_distribution, "
      "bool reject_known_edges, Tensor? edge_times=None, Tensor? node_time=None) -> Tensor");
  // The registered samplers' names, and each one's summary and sizes option.
  m.def("samplers() -> str[]", [] { return sampler_names(); });
  m.def("sampler_summary(str sampler) -> str",
        [](const std::string& name) { return translate_errors([&] { return find_sampler(name).summary; }); });
  m.def("sampler_sizes_option(str sampler) -> str",
        [](const std::string& name) { return translate_errors([&] { return find_sampler(name).sizes_option; }); });
  // What a sampler is and can do: its family, then each capability it has.
  m.def("sampler_traits(str sampler) -> str[]",
        [](const std::string& name) { return translate_errors([&] { return sampler_traits(find_sampler(name)); }); });
  // The samplers of heterogeneous graphs, and each one's family.
  m.def("hetero_samplers() -> str[]", [] { return hetero_sampler_names(); });
  m.def("hetero_sampler_family(str sampler) -> str", [](const std::string& name) {
    return translate_errors([&] { return std::string(family_name(find_hetero_sampler(name).family)); });
  });
  // PyG's edge fields of every minibatch of a bulk sampled with edge_positions
  // (pyg_batches.cpp): edge_offsets [k + 1] (minibatch g's edges are
  // [edge_offsets[g], edge_offsets[g + 1])), edge_index [2 E] (minibatch g's
  // [2, E_g] block, local ids, sources then targets, at 2 edge_offsets[g]), e_id
  // [E] (edge_ids at each edge's position), num_sampled_nodes [k, layers + 1]
  // and num_sampled_edges [k, layers].
  // new_targets_only: a hop keeps only the edges into the previous hop's new
  // vertices (PyG's node-wise sampling).
  m.def(
      "pyg_batches(Tensor[] rowptr, Tensor[] col, Tensor[] row_offsets, Tensor[] col_offsets, Tensor[] positions, "
      "Tensor edge_ids, bool new_targets_only) -> (Tensor edge_index, Tensor e_id, Tensor edge_offsets, "
      "Tensor num_sampled_nodes, Tensor num_sampled_edges)");
  // The same by torch's tensor ops on any device (what pyg_batches runs for layers on a
  // GPU), callable on the CPU so that tests compare it with the host kernel.
  m.def(
      "_pyg_batches_by_tensor_ops(Tensor[] rowptr, Tensor[] col, Tensor[] row_offsets, Tensor[] col_offsets, "
      "Tensor[] positions, Tensor edge_ids, bool new_targets_only) -> (Tensor edge_index, Tensor e_id, "
      "Tensor edge_offsets, Tensor num_sampled_nodes, Tensor num_sampled_edges)");
  // features[index] along dim 0, with a ValueError naming an index out of range.
  m.def("gather_rows(Tensor features, Tensor index) -> Tensor");
  m.def("shuffle_vertices(Tensor vertices, int seed, int epoch, int stream=0) -> Tensor", &shuffle_vertices_op);
  m.def(
      "graph_from_edge_index(int num_nodes, Tensor row, Tensor col, Tensor? weight) -> "
      "(__torch__.torch.classes.matsamp.Graph graph, Tensor edge_ids)",
      &graph_from_edge_index_op);
  m.def(
      "epoch_order(Tensor vertices, int num_vertices, int batch_size, int seed, int epoch, int locality_blocks, "
      "bool shuffle, int minibatches_per_step=0, int bulk_steps=1) -> (Tensor order, Tensor starts, Tensor sequence)",
      &epoch_order_op);
  // The bulk size for a memory budget in bytes (EpochIterator's k when bulk_size is 0).
  m.def(
      "bulk_size_for_budget(__torch__.torch.classes.matsamp.Graph graph, str sampler, int[] sizes, "
      "bool include_frontier, int batch_size, int minibatches, int budget_bytes) -> int",
      &bulk_size_for_budget_op);
}

}  // namespace matsamp::bindings
