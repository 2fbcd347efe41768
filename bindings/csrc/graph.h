// The graph object Python holds (torch.classes.matsamp.Graph): the adjacency in
// the engine's CSR, converted once, and the matrices the samplers derive from it,
// prepared once. Every sampling op takes one, so no call converts the graph again.
#pragma once
#include <ATen/ATen.h>
#include <torch/custom_class.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sampling/backend.h"
#include "sampling/sampler.h"

namespace matsamp::bindings {

class GraphHolder : public torch::CustomClassHolder {
 public:
  // From CSR tensors: rowptr int64 [n + 1], col int32 or int64 [nnz], value
  // float32 [nnz] or empty (all ones). Copies once; ValueError on a bad CSR.
  GraphHolder(const at::Tensor& rowptr, const at::Tensor& col, const at::Tensor& value);
  explicit GraphHolder(Graph graph);   // features and labels become tensors, not copied

  // Through the C++ readers (read_graph picks by extension), then the same
  // cleanup steps as the CLI's --symmetrize, --drop-self-loops, --largest-component.
  static c10::intrusive_ptr<GraphHolder> load(const std::string& path, const std::string& labels_path,
                                              bool symmetrize, bool drop_self_loops,
                                              bool largest_component);

  const CsrMatrix& adjacency() const { return adj_; }
  const at::Tensor& features() const { return features_; }   // float32 [n, f], or [0]
  const at::Tensor& labels() const { return labels_; }       // int64 [n], or [0]
  // Where the graph lives and its samplers run: the CPU, or the CUDA device of
  // place_on_cuda().
  c10::Device device() const { return device_; }
  // Moves the graph's sampling to CUDA device `index`: the CUDA backend uploads
  // the adjacency (and the layer-wise matrices) on first use and keeps them there.
  // RuntimeError with the backend's reason when the device cannot be used.
  void place_on_cuda(int64_t index);
  // Runs fn(backend) on the graph's device: a fresh CPU backend, or the graph's
  // CUDA backend, one call at a time (it owns one stream and its caches).
  template <class Fn>
  auto with_backend(Fn&& fn) const -> decltype(fn(std::declval<Backend&>())) {
    if (!cuda_backend_) return fn(*make_cpu_backend());
    std::lock_guard<std::mutex> lock(backend_mutex_);
    return fn(*cuda_backend_);
  }
  // Â, Â∘Â and FastGCN's column norms, prepared on the first layer-wise call.
  std::shared_ptr<const LayerWiseMatrices> layerwise_matrices() const;
  // GraphSAINT's edge distribution, prepared on the first saint_edge call.
  std::shared_ptr<const CsrMatrix> saint_edges() const;
  // The engine's sampler over this graph, built the one way every op that
  // samples or sizes a bulk builds it: `sampler` is "graphsage" (sizes: fanouts),
  // "ladies" / "fastgcn" (sizes: vertices per layer; include_frontier as the
  // ops take it), "saint" (sizes: the walk length once per layer), "saint_node" or
  // "saint_edge" (sizes: the vertices or edges drawn per minibatch, once per
  // layer). Cheap (no pass over the graph): it refers to the graph's prepared
  // matrices, so the graph must outlive it. A matsamp::Error for an unknown name
  // or bad sizes.
  std::unique_ptr<Sampler> make_sampler(const std::string& sampler, std::vector<int64_t> sizes,
                                        uint64_t seed, bool include_frontier) const;

 private:
  CsrMatrix adj_;
  bool uniform_rows_ = false;   // has_uniform_rows(adj_), read once instead of per sampling call
  at::Tensor features_;
  at::Tensor labels_;
  c10::Device device_{c10::kCPU};
  std::unique_ptr<Backend> cuda_backend_;
  mutable std::mutex backend_mutex_;
  mutable std::mutex layerwise_mutex_;
  mutable std::shared_ptr<const LayerWiseMatrices> layerwise_;
  mutable std::mutex saint_edges_mutex_;
  mutable std::shared_ptr<const CsrMatrix> saint_edges_;
};

// Registers the class as torch.classes.matsamp.Graph, once. Every file whose
// registrations name the class calls it first: schemas that mention the class
// need it registered, and static initializers of different files run in no
// fixed order.
void register_graph_class();

}  // namespace matsamp::bindings
