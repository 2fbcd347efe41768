// The kernel of the edge-seeded sampling op (link prediction): the edge bulk of
// sampling/edge_seeds.h (seeds, index maps, negatives on the engine's keys) and
// its layers, sampled with each minibatch's positives masked out.
#include <torch/library.h>

#include <optional>

#include "bulk_tensors.h"
#include "convert.h"
#include "graph.h"
#include "sampling/edge_seeds.h"

namespace matsamp::bindings {

namespace {

using EdgeTensors =
    std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor, std::vector<at::Tensor>,
               std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>,
               std::vector<at::Tensor>, std::vector<at::Tensor>>;

EdgeTensors sample_edges(c10::intrusive_ptr<GraphHolder> graph_holder, const std::string& sampler_name,
                         const at::Tensor& sources, const at::Tensor& destinations, const at::Tensor& edge_offsets,
                         std::vector<int64_t> sizes, int64_t first_minibatch, int64_t epoch, int64_t seed,
                         int64_t negatives, const std::string& negative_distribution, bool reject_known_edges,
                         bool exclude, bool exclude_reverse, bool include_frontier, bool edge_positions, bool replace,
                         bool expand_new_only) {
  const GraphHolder& graph = *graph_holder;
  const std::string op_name = "matsamp.sample_edges(" + sampler_name + ")";
  const char* op = op_name.c_str();
  const int64_t n = graph.adjacency().rows;
  std::vector<vid_t> src = to_vertex_ids(on_host(sources), n, op, "sources");
  std::vector<vid_t> dst = to_vertex_ids(on_host(destinations), n, op, "destinations");
  TORCH_CHECK_VALUE(src.size() == dst.size(), op, ": ", src.size(), " sources but ", dst.size(), " destinations");
  Offsets offsets = to_block_offsets(on_host(edge_offsets), static_cast<int64_t>(src.size()), op, "edge_offsets");
  TORCH_CHECK_VALUE(first_minibatch >= 0, op, ": first_minibatch must be non-negative, got ", first_minibatch);
  TORCH_CHECK_VALUE(negatives >= 0, op, ": negatives must be non-negative, got ", negatives);
  const uint64_t key = to_seed(seed, op);
  const uint32_t epoch_key = to_epoch(epoch, op);
  return translate_errors([&] {
    const auto sampler = graph.sampler(sampler_name, sizes, include_frontier, false, replace, expand_new_only);
    std::optional<NegativeSampler> negative_sampler;
    if (negatives > 0)
      negative_sampler.emplace(
          graph.adjacency(),
          NegativeOptions{negatives, parse_negative_distribution(negative_distribution), reject_known_edges});
    EdgeBulk b = make_edge_bulk(std::move(src), std::move(dst), std::move(offsets), first_minibatch,
                                negative_sampler ? &*negative_sampler : nullptr,
                                {key, epoch_key, exclude, exclude_reverse});
    SampleTensors layers;
    graph.with_backend([&](Backend& backend, LocalGraph& local) {
      Context ctx{backend, key};
      ctx.record_positions = edge_positions;
      layers = to_tensors(graph.shared_backend(), sample_edge_bulk(*sampler, ctx, b, epoch_key), graph.device(),
                          edge_positions ? &local.adjacency() : nullptr);
      backend.release_cached_memory();  // torch's allocator shares the GPU
    });
    const auto on_device = [&](auto&& values) { return vector_to_tensor(std::move(values)).to(graph.device()); };
    auto& [rowptr, col, value, row_offsets, col_offsets, vertices, positions] = layers;
    return EdgeTensors{on_device(std::move(b.seeds)),
                       on_device(std::move(b.seed_offsets)),
                       on_device(std::move(b.source_index)),
                       on_device(std::move(b.destination_index)),
                       on_device(std::move(b.negatives)),
                       on_device(std::move(b.negative_index)),
                       std::move(rowptr),
                       std::move(col),
                       std::move(value),
                       std::move(row_offsets),
                       std::move(col_offsets),
                       std::move(vertices),
                       std::move(positions)};
  });
}

// The negatives sample_edges draws for these minibatches, without sampling
// their layers (temporal link prediction samples each endpoint's tree itself).
at::Tensor link_negatives(c10::intrusive_ptr<GraphHolder> graph_holder, const at::Tensor& sources,
                          const at::Tensor& edge_offsets, int64_t first_minibatch, int64_t epoch, int64_t seed,
                          int64_t negatives, const std::string& negative_distribution, bool reject_known_edges,
                          const c10::optional<at::Tensor>& edge_times, const c10::optional<at::Tensor>& node_time) {
  const GraphHolder& graph = *graph_holder;
  const char* op = "matsamp.link_negatives";
  std::vector<vid_t> src = to_vertex_ids(on_host(sources), graph.adjacency().rows, op, "sources");
  Offsets offsets = to_block_offsets(on_host(edge_offsets), static_cast<int64_t>(src.size()), op, "edge_offsets");
  TORCH_CHECK_VALUE(first_minibatch >= 0, op, ": first_minibatch must be non-negative, got ", first_minibatch);
  TORCH_CHECK_VALUE(negatives > 0, op, ": negatives must be positive, got ", negatives);
  const uint64_t key = to_seed(seed, op);
  const uint32_t epoch_key = to_epoch(epoch, op);
  TORCH_CHECK_VALUE(edge_times.has_value() == node_time.has_value(), op,
                    ": edge_times and node_time come together (negatives no later than their edge)");
  std::vector<int64_t> times, vertex_times;
  if (edge_times.has_value()) {
    times = to_int64_vector(on_host(*edge_times), op, "edge_times");
    vertex_times = to_int64_vector(on_host(*node_time), op, "node_time");
    TORCH_CHECK_VALUE(times.size() == src.size(), op, ": ", times.size(), " edge times for ", src.size(), " edges");
    TORCH_CHECK_VALUE(static_cast<int64_t>(vertex_times.size()) == graph.adjacency().rows, op, ": ",
                      vertex_times.size(), " node times for ", graph.adjacency().rows, " vertices");
  }
  return translate_errors([&] {
    const NegativeSampler sampler(
        graph.adjacency(),
        NegativeOptions{negatives, parse_negative_distribution(negative_distribution), reject_known_edges});
    std::vector<vid_t> destinations = src;  // unused: the negatives depend on the sources only
    EdgeBulkOptions options{key, epoch_key, false, false};
    if (edge_times.has_value()) options.edge_times = &times, options.vertex_times = &vertex_times;
    EdgeBulk b =
        make_edge_bulk(std::move(src), std::move(destinations), std::move(offsets), first_minibatch, &sampler, options);
    return vector_to_tensor(std::move(b.negatives)).to(graph.device());
  });
}

void impl_edge_kernels(torch::Library& m) {
  register_graph_class();
  m.impl("sample_edges", TORCH_FN(sample_edges));
  m.impl("link_negatives", TORCH_FN(link_negatives));
}

}  // namespace

TORCH_LIBRARY_IMPL(matsamp, CPU, m) { impl_edge_kernels(m); }
#ifdef MATSAMP_WITH_CUDA_BACKEND
TORCH_LIBRARY_IMPL(matsamp, CUDA, m) { impl_edge_kernels(m); }
#endif

}  // namespace matsamp::bindings
