// The kernel of the bulk sampling op, for CPU and CUDA graphs alike: any sampler
// of the registry on the graph's backend (OpenMP, or the graph's CUDA backend).
// Seeds and offsets are read on the host (they are small). On the CPU the results
// are host arrays moved (not copied) into tensors; on a CUDA graph the layers,
// sampled on torch's current stream into its caching allocator's memory, become
// the tensors' storage (bulk_tensors.h), and the block offsets, which are on the
// host, are copied up.
#include <torch/cuda.h>
#include <torch/library.h>

#include "bulk_tensors.h"
#include "convert.h"
#include "graph.h"
#include "sampling/capabilities.h"

namespace matsamp::bindings {

namespace {

// matsamp.sample: checks what every sampler takes, then takes the registry's
// sampler over the graph (built on first use, then kept by the graph) and
// samples on the graph's backend.
SampleTensors sample_bulk(c10::intrusive_ptr<GraphHolder> graph_holder, const std::string& sampler_name,
                          const at::Tensor& seeds, const at::Tensor& seed_offsets, std::vector<int64_t> sizes,
                          int64_t first_minibatch, int64_t epoch, int64_t seed, bool include_frontier, bool saint_norm,
                          bool edge_positions, const c10::optional<at::Tensor>& seed_times,
                          const std::string& temporal_strategy, bool replace, bool expand_new_only) {
  const GraphHolder& graph = *graph_holder;
  const std::string op_name = "matsamp.sample(" + sampler_name + ")";
  const char* op = op_name.c_str();
  TORCH_CHECK_VALUE(!seeds.defined() || seeds.device().type() == graph.device().type(), op, ": seeds are on ",
                    seeds.device(), " but the graph is on ", graph.device());
  const std::vector<vid_t> seed_ids = to_vertex_ids(on_host(seeds), graph.adjacency().rows, op, "seeds");
  const Offsets offsets =
      to_block_offsets(on_host(seed_offsets), static_cast<int64_t>(seed_ids.size()), op, "seed_offsets");
  TORCH_CHECK_VALUE(first_minibatch >= 0, op, ": first_minibatch must be non-negative, got ", first_minibatch);
  const uint64_t key = to_seed(seed, op);
  const uint32_t epoch_key = to_epoch(epoch, op);
  const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
  std::vector<int64_t> times;
  if (seed_times.has_value()) {
    times = to_int64_vector(on_host(*seed_times), op, "seed_times");
    TORCH_CHECK_VALUE(static_cast<int64_t>(times.size()) == k, op, ": ", times.size(), " seed times for ", k,
                      " minibatches (one each)");
  }
  return translate_errors([&] {
    const auto sampler = graph.sampler(sampler_name, sizes, include_frontier, saint_norm, replace, expand_new_only);
    const TemporalSampler* temporal = seed_times.has_value() ? &require_capability<TemporalSampler>(*sampler) : nullptr;
    const TemporalStrategy strategy = parse_temporal_strategy(temporal_strategy);
    SampleTensors tensors;
    try {
      graph.with_backend([&](Backend& backend, LocalGraph& local) {
        Context ctx{backend, key};
        ctx.record_positions = edge_positions;
        const auto draw = [&] {
          if (!temporal) return sampler->sample(ctx, seed_ids, offsets, first_minibatch, epoch_key);
          const std::pair<Ids, Ids>* time_order = graph.time_order();
          MATSAMP_CHECK(time_order,
                        "the graph has no times to sample by: build it with "
                        "Graph.from_edge_index(..., edge_time=..., node_time=...)");
          return temporal->sample_before(ctx, upload_seeds(backend, seed_ids, offsets), first_minibatch, epoch_key,
                                         {time_order->first, time_order->second, times, strategy});
        };
        tensors =
            to_tensors(graph.shared_backend(), draw(), graph.device(), edge_positions ? &local.adjacency() : nullptr);
        backend.release_cached_memory();  // torch's allocator shares the GPU
      });
    } catch (const DeviceOutOfMemory& e) {  // not a bad argument: RuntimeError, with the k that fits
      TORCH_CHECK(false, op, ": ", valid_utf8(explain_out_of_memory(e, k).what()));
    }
    return tensors;
  });
}

void impl_sampling_kernels(torch::Library& m) {
  register_graph_class();  // the kernels' signatures name it
  m.impl("sample", TORCH_FN(sample_bulk));
}

}  // namespace

// The dispatcher picks the kernel by the seeds' device; both run on the graph's backend.
TORCH_LIBRARY_IMPL(matsamp, CPU, m) { impl_sampling_kernels(m); }
#ifdef MATSAMP_WITH_CUDA_BACKEND
TORCH_LIBRARY_IMPL(matsamp, CUDA, m) { impl_sampling_kernels(m); }
#endif

}  // namespace matsamp::bindings
