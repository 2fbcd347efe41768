// Kernels of the bulk sampling ops, for CPU and CUDA graphs alike: the samplers
// of csrc/sampling on the graph's backend (OpenMP, or the graph's CUDA backend).
// Seeds and offsets are read on the host (they are small). On the CPU the results
// are host arrays moved (not copied) into tensors; on a CUDA graph the layers the
// backend held on the device are copied device to device into torch's tensors, and
// the block offsets, which are on the host, are copied up.
#include <torch/cuda.h>
#include <torch/library.h>

#include "convert.h"
#include "graph.h"
#include "kernels/cuda_backend.h"

namespace matsamp::bindings {

namespace {

using SampleTensors = std::tuple<std::vector<at::Tensor>, std::vector<at::Tensor>,
                                 std::vector<at::Tensor>, std::vector<at::Tensor>,
                                 std::vector<at::Tensor>, std::vector<at::Tensor>>;

// A copy, by torch on its own stream, of n elements in the backend's device memory.
at::Tensor device_copy(const void* data, int64_t n, at::ScalarType type, c10::Device device) {
  const auto options = at::TensorOptions().dtype(type).device(device);
  if (n == 0) return at::empty({0}, options);
  return at::from_blob(const_cast<void*>(data), {n}, options).clone();
}

// The bulk as tensors on `device`. Held layers are copied before this returns
// (synchronized), so the caller may give their memory back.
SampleTensors to_tensors(BulkSample&& bulk, c10::Device device) {
  SampleTensors out;
  auto& [rowptr, col, value, row_offsets, col_offsets, vertices] = out;
  auto on_device = [&](auto&& values) { return vector_to_tensor(std::move(values)).to(device); };
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    SampledLayer& layer = bulk.layers[l];
    if (bulk.held) {
      const HeldLayerArrays held = bulk.held->layer(l);
      rowptr.push_back(device_copy(held.rowptr, layer.adj.rows + 1, at::kLong, device));
      col.push_back(device_copy(held.colidx, held.nnz, at::kInt, device));
      value.push_back(device_copy(held.values, held.nnz, at::kFloat, device));
      vertices.push_back(device_copy(held.vertices, layer.adj.cols, at::kLong, device));
    } else {
      rowptr.push_back(on_device(layer.adj.rowptr));
      col.push_back(on_device(layer.adj.colidx));
      value.push_back(on_device(layer.adj.values));
      vertices.push_back(on_device(layer.vertices));
    }
    row_offsets.push_back(on_device(layer.row_offsets));
    col_offsets.push_back(on_device(layer.col_offsets));
  }
  if (bulk.held) torch::cuda::synchronize(device.index());
  return out;
}

// The tensor on the host, for reading (no copy when it is there already).
at::Tensor on_host(const at::Tensor& t) { return t.defined() ? t.cpu() : t; }

// Checks what every sampler takes, then builds the sampler (GraphHolder::make_sampler,
// cheap: it refers to the graph's prepared matrices) and samples.
SampleTensors sample_bulk(const char* op, const char* sampler_name, const GraphHolder& graph,
                          const at::Tensor& seeds, const at::Tensor& seed_offsets,
                          std::vector<int64_t> sizes, int64_t first_minibatch, int64_t epoch,
                          int64_t seed, bool include_frontier) {
  TORCH_CHECK_VALUE(!seeds.defined() || seeds.device().type() == graph.device().type(), op, ": seeds are on ",
                    seeds.device(), " but the graph is on ", graph.device());
  const std::vector<vid_t> seed_ids = to_vertex_ids(on_host(seeds), graph.adjacency().rows, op, "seeds");
  check_vector(on_host(seed_offsets), at::kLong, op, "seed_offsets");
  const Offsets offsets = to_int64_vector(on_host(seed_offsets), op, "seed_offsets");
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
  const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
  return translate_errors([&] {
    const std::unique_ptr<Sampler> sampler =
        graph.make_sampler(sampler_name, std::move(sizes), key, include_frontier);
    SampleTensors tensors;
    try {
      graph.with_backend([&](Backend& backend) {
        backend.hold_results_on_device(graph.device().is_cuda());   // the CPU backend never holds
        tensors = to_tensors(sampler->sample(seed_ids, offsets, first_minibatch, epoch_key, backend), graph.device());
        release_cached_gpu_memory(backend);   // torch's allocator shares the GPU
      });
    } catch (const GpuOutOfMemory& e) {   // not a bad argument: RuntimeError, with the k that fits
      TORCH_CHECK(false, op, ": ", explain_out_of_memory(e, k).what());
    }
    return tensors;
  });
}

// GraphSAGE and LABOR (node-wise: fanouts per layer).
template <bool labor>
SampleTensors node_wise_sample(c10::intrusive_ptr<GraphHolder> graph, const at::Tensor& seeds,
                               const at::Tensor& seed_offsets, std::vector<int64_t> fanouts,
                               int64_t first_minibatch, int64_t epoch, int64_t seed) {
  return sample_bulk(labor ? "matsamp.labor_sample" : "matsamp.graphsage_sample", labor ? "labor" : "graphsage",
                     *graph, seeds, seed_offsets, std::move(fanouts), first_minibatch, epoch, seed,
                     /*include_frontier=*/true);
}

template <SaintKind kind>
SampleTensors saint_sample(c10::intrusive_ptr<GraphHolder> graph, const at::Tensor& seeds,
                           const at::Tensor& seed_offsets, std::vector<int64_t> sizes, int64_t first_minibatch,
                           int64_t epoch, int64_t seed) {
  const std::string name = SaintOptions{kind}.sampler_name(), op = "matsamp." + name + "_sample";
  return sample_bulk(op.c_str(), name.c_str(), *graph, seeds, seed_offsets, std::move(sizes), first_minibatch, epoch,
                     seed, /*include_frontier=*/true);
}

template <LayerWiseKind kind>
SampleTensors layerwise_sample(c10::intrusive_ptr<GraphHolder> graph, const at::Tensor& seeds,
                               const at::Tensor& seed_offsets, std::vector<int64_t> samples,
                               int64_t first_minibatch, int64_t epoch, int64_t seed,
                               bool include_frontier) {
  const bool ladies = kind == LayerWiseKind::ladies;
  return sample_bulk(ladies ? "matsamp.ladies_sample" : "matsamp.fastgcn_sample",
                     ladies ? "ladies" : "fastgcn", *graph, seeds, seed_offsets, std::move(samples),
                     first_minibatch, epoch, seed, include_frontier);
}

void impl_sampling_kernels(torch::Library& m) {
  register_graph_class();   // the kernels' signatures name it
  m.impl("graphsage_sample", TORCH_FN(node_wise_sample<false>));
  m.impl("labor_sample", TORCH_FN(node_wise_sample<true>));
  m.impl("saint_sample", TORCH_FN(saint_sample<SaintKind::random_walk>));
  m.impl("saint_node_sample", TORCH_FN(saint_sample<SaintKind::node>));
  m.impl("saint_edge_sample", TORCH_FN(saint_sample<SaintKind::edge>));
  m.impl("ladies_sample", TORCH_FN(layerwise_sample<LayerWiseKind::ladies>));
  m.impl("fastgcn_sample", TORCH_FN(layerwise_sample<LayerWiseKind::fastgcn>));
}

}  // namespace

// The dispatcher picks the kernel by the seeds' device; both run on the graph's backend.
TORCH_LIBRARY_IMPL(matsamp, CPU, m) { impl_sampling_kernels(m); }
#ifdef MATSAMP_WITH_CUDA_BACKEND
TORCH_LIBRARY_IMPL(matsamp, CUDA, m) { impl_sampling_kernels(m); }
#endif

}  // namespace matsamp::bindings
