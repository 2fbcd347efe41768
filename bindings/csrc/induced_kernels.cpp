// The kernel of the induced-subgraph op: per minibatch, the graph's entries
// among its vertices, A[V_g, V_g] (PyG's subgraph_type="induced"), as one
// stacked layer selected by the backend (select_rows_cols_blocked), with each
// entry's position in the graph.
#include <torch/library.h>

#include "bulk_tensors.h"
#include "convert.h"
#include "graph.h"

namespace matsamp::bindings {

namespace {

SampleTensors induced_subgraphs(c10::intrusive_ptr<GraphHolder> graph_holder, const at::Tensor& vertices,
                                const at::Tensor& offsets) {
  const GraphHolder& graph = *graph_holder;
  const char* op = "matsamp.induced_subgraphs";
  std::vector<vid_t> ids = to_vertex_ids(on_host(vertices), graph.adjacency().rows, op, "vertices");
  Offsets blocks = to_block_offsets(on_host(offsets), static_cast<int64_t>(ids.size()), op, "offsets");
  return translate_errors([&] {
    SampleTensors tensors;
    graph.with_backend([&](Backend& backend, LocalGraph& local) {
      const BlockedIds v{backend.upload_ids(ids), blocks};
      Layer layer{backend.select_rows_cols_blocked(local.adjacency(), v, v, Values{}), blocks, v, Ids{}};
      tensors = to_tensors(graph.shared_backend(), Bulk{0, std::move(ids), blocks, {std::move(layer)}}, graph.device(),
                           &local.adjacency());
      backend.release_cached_memory();  // torch's allocator shares the GPU
    });
    return tensors;
  });
}

void impl_induced_kernels(torch::Library& m) {
  register_graph_class();
  m.impl("induced_subgraphs", TORCH_FN(induced_subgraphs));
}

}  // namespace

TORCH_LIBRARY_IMPL(matsamp, CPU, m) { impl_induced_kernels(m); }
#ifdef MATSAMP_WITH_CUDA_BACKEND
TORCH_LIBRARY_IMPL(matsamp, CUDA, m) { impl_induced_kernels(m); }
#endif

}  // namespace matsamp::bindings
