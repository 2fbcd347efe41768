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

// The n x n CSR of the entries (row[i], col[i]) with weight[i] (undefined: none),
// as csr_from_triples builds it: a counting sort by row, columns sorted within
// rows, repeated entries merged with their weights summed. Ids are checked by
// the caller (Graph.from_edge_index).
std::tuple<at::Tensor, at::Tensor, c10::optional<at::Tensor>> coalesce_edges_op(
    int64_t num_nodes, const at::Tensor& row, const at::Tensor& col, const c10::optional<at::Tensor>& weight) {
  constexpr const char* op = "matsamp.coalesce_edges";
  std::vector<int64_t> rows = to_int64_vector(row, op, "row"), cols = to_int64_vector(col, op, "col");
  const bool weighted = weight && weight->defined();
  std::vector<float> weights;
  if (weighted) {
    check_vector(*weight, at::kFloat, op, "weight");
    const at::Tensor w = weight->contiguous();
    weights.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
  }
  return translate_errors([&] {
    CsrMatrix m = csr_from_triples(num_nodes, num_nodes, std::move(rows), std::move(cols), std::move(weights));
    std::vector<int64_t> colidx(m.colidx.begin(), m.colidx.end());
    c10::optional<at::Tensor> values;
    if (weighted) values = vector_to_tensor(std::move(m.values));
    return std::make_tuple(vector_to_tensor(std::move(m.rowptr)), vector_to_tensor(std::move(colidx)), values);
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
// [offsets[g], offsets[g + 1])) and vertices (int64, the global id of each column).
#define MATSAMP_SAMPLE_RETURNS                                                 \
  " -> (Tensor[] rowptr, Tensor[] col, Tensor[] value, Tensor[] row_offsets, " \
  "Tensor[] col_offsets, Tensor[] vertices)"

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
  m.def(
      "sample(__torch__.torch.classes.matsamp.Graph graph, str sampler, Tensor seeds, Tensor seed_offsets, "
      "int[] sizes, int first_minibatch, int epoch, int seed, bool include_frontier=True, bool saint_norm=False)" MATSAMP_SAMPLE_RETURNS);
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
      "bool include_frontier=True) -> (Tensor seeds, Tensor seed_offsets, Tensor source_index, "
      "Tensor destination_index, Tensor negatives, Tensor negative_index, Tensor[] rowptr, Tensor[] col, "
      "Tensor[] value, Tensor[] row_offsets, Tensor[] col_offsets, Tensor[] vertices)");
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
  // features[index] along dim 0, with a ValueError naming an index out of range.
  m.def("gather_rows(Tensor features, Tensor index) -> Tensor");
  m.def("shuffle_vertices(Tensor vertices, int seed, int epoch, int stream=0) -> Tensor", &shuffle_vertices_op);
  m.def("coalesce_edges(int num_nodes, Tensor row, Tensor col, Tensor? weight) -> (Tensor, Tensor, Tensor?)",
        &coalesce_edges_op);
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
