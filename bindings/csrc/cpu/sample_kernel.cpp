// CPU kernels of the bulk sampling ops: the samplers of csrc/sampling on the
// OpenMP backend, their results moved (not copied) into tensors.
#include <torch/library.h>

#include "convert.h"
#include "graph.h"

namespace matsamp::bindings {

namespace {

using SampleTensors = std::tuple<std::vector<at::Tensor>, std::vector<at::Tensor>,
                                 std::vector<at::Tensor>, std::vector<at::Tensor>,
                                 std::vector<at::Tensor>, std::vector<at::Tensor>>;

SampleTensors to_tensors(BulkSample&& bulk) {
  SampleTensors out;
  auto& [rowptr, col, value, row_offsets, col_offsets, vertices] = out;
  for (SampledLayer& layer : bulk.layers) {
    rowptr.push_back(vector_to_tensor(std::move(layer.adj.rowptr)));
    col.push_back(vector_to_tensor(std::move(layer.adj.colidx)));
    value.push_back(vector_to_tensor(std::move(layer.adj.values)));
    row_offsets.push_back(vector_to_tensor(std::move(layer.row_offsets)));
    col_offsets.push_back(vector_to_tensor(std::move(layer.col_offsets)));
    vertices.push_back(vector_to_tensor(std::move(layer.vertices)));
  }
  return out;
}

// Checks what every sampler takes, then builds the sampler (GraphHolder::make_sampler,
// cheap: it refers to the graph's prepared matrices) and samples.
SampleTensors sample_bulk(const char* op, const char* sampler_name, const GraphHolder& graph,
                          const at::Tensor& seeds, const at::Tensor& seed_offsets,
                          std::vector<int64_t> sizes, int64_t first_minibatch, int64_t epoch,
                          int64_t seed, bool include_frontier) {
  TORCH_CHECK_VALUE(graph.device().is_cpu(), op, ": CPU tensor given to a CUDA graph (the graph is on ",
                    graph.device(), ")");
  const std::vector<vid_t> seed_ids = to_vertex_ids(seeds, graph.adjacency().rows, op, "seeds");
  check_vector(seed_offsets, at::kLong, op, "seed_offsets");
  const Offsets offsets = to_int64_vector(seed_offsets, op, "seed_offsets");
  TORCH_CHECK_VALUE(offsets.size() >= 2 && offsets.front() == 0 &&
                        offsets.back() == static_cast<int64_t>(seed_ids.size()),
                    op, ": seed_offsets must hold k + 1 >= 2 entries from 0 to the number of seeds (",
                    seed_ids.size(), ")");
  for (size_t g = 1; g < offsets.size(); ++g)
    TORCH_CHECK_VALUE(offsets[g - 1] <= offsets[g], op, ": seed_offsets decrease at ", g);
  TORCH_CHECK_VALUE(first_minibatch >= 0, op, ": first_minibatch must be non-negative, got ",
                    first_minibatch);
  const uint64_t key = to_seed(seed, op);
  const uint32_t epoch_key = to_epoch(epoch, op);
  return translate_errors([&] {
    const std::unique_ptr<Sampler> sampler =
        graph.make_sampler(sampler_name, std::move(sizes), key, include_frontier);
    const std::unique_ptr<Backend> backend = make_cpu_backend();
    return to_tensors(sampler->sample(seed_ids, offsets, first_minibatch, epoch_key, *backend));
  });
}

SampleTensors graphsage_sample_cpu(c10::intrusive_ptr<GraphHolder> graph, const at::Tensor& seeds,
                                   const at::Tensor& seed_offsets, std::vector<int64_t> fanouts,
                                   int64_t first_minibatch, int64_t epoch, int64_t seed) {
  return sample_bulk("matsamp.graphsage_sample", "graphsage", *graph, seeds, seed_offsets,
                     std::move(fanouts), first_minibatch, epoch, seed, /*include_frontier=*/true);
}

template <LayerWiseKind kind>
SampleTensors layerwise_sample_cpu(c10::intrusive_ptr<GraphHolder> graph, const at::Tensor& seeds,
                                   const at::Tensor& seed_offsets, std::vector<int64_t> samples,
                                   int64_t first_minibatch, int64_t epoch, int64_t seed,
                                   bool include_frontier) {
  const bool ladies = kind == LayerWiseKind::ladies;
  return sample_bulk(ladies ? "matsamp.ladies_sample" : "matsamp.fastgcn_sample",
                     ladies ? "ladies" : "fastgcn", *graph, seeds, seed_offsets, std::move(samples),
                     first_minibatch, epoch, seed, include_frontier);
}

}  // namespace

TORCH_LIBRARY_IMPL(matsamp, CPU, m) {
  register_graph_class();   // the kernels' signatures name it
  m.impl("graphsage_sample", TORCH_FN(graphsage_sample_cpu));
  m.impl("ladies_sample", TORCH_FN(layerwise_sample_cpu<LayerWiseKind::ladies>));
  m.impl("fastgcn_sample", TORCH_FN(layerwise_sample_cpu<LayerWiseKind::fastgcn>));
}

}  // namespace matsamp::bindings
