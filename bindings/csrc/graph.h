// The graph object Python holds (torch.classes.matsamp.Graph): the adjacency in
// the engine's CSR, converted once, and the matrices the samplers derive from it,
// prepared once. Every sampling op takes one, so no call converts the graph again.
#pragma once
#include <ATen/ATen.h>
#include <torch/custom_class.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sampling/registry.h"
#include "sampling/sampling_graph.h"

namespace matsamp::bindings {

class GraphHolder : public torch::CustomClassHolder {
 public:
  // From CSR tensors: rowptr int64 [n + 1], col int32 or int64 [nnz], value
  // float32 [nnz] or empty (all ones). Copies once; ValueError on a bad CSR.
  GraphHolder(const at::Tensor& rowptr, const at::Tensor& col, const at::Tensor& value);
  explicit GraphHolder(Graph graph);  // features and labels become tensors, not copied

  // Through the C++ readers (read_graph picks by extension), then the same
  // cleanup steps as the CLI's --symmetrize, --drop-self-loops, --largest-component.
  // With map_features, the features of a .msg file are a view of its mapping
  // (io/mapped_features.h) that keeps it alive; ValueError for any other file,
  // float16 features, or largest_component (which renumbers, so copies, them).
  static c10::intrusive_ptr<GraphHolder> load(const std::string& path, const std::string& labels_path, bool symmetrize,
                                              bool drop_self_loops, bool largest_component, bool map_features);

  const CsrMatrix& adjacency() const { return adj_; }
  const at::Tensor& features() const { return features_; }  // float32 [n, f], or [0]
  const at::Tensor& labels() const { return labels_; }      // int64 [n], or [0]
  // float32 [nnz, d]: row e belongs to the adjacency's entry e (col()[e]); or [0].
  const at::Tensor& edge_features() const { return edge_features_; }
  const at::Tensor& vertex_times() const { return vertex_times_; }  // int64 [n] (the graph's own), or [0]
  // The dataset's named vertex sets ("train", "valid", "test"), int64 ascending.
  const c10::Dict<std::string, at::Tensor>& splits() const { return splits_; }
  // Writes .msg: this adjacency and its edge features with the given features
  // ([n, f] float32, or empty; both stored as float16 with half_features),
  // labels ([n] int64, or empty), splits and vertex times ([n] int64, or empty); atomic, ValueError on a
  // mismatch, RuntimeError when the file cannot be written (or a feature is beyond float16's range).
  void save(const std::string& path, const at::Tensor& features, const at::Tensor& labels,
            const c10::Dict<std::string, at::Tensor>& splits, bool half_features, const at::Tensor& vertex_times) const;
  // Where the graph lives and its samplers run: the CPU, or the CUDA device of
  // place_on_cuda().
  c10::Device device() const { return device_; }
  // Moves the graph's sampling to CUDA device `index`: the adjacency is uploaded
  // to a CUDA backend now, the derived matrices as samplers first ask for them,
  // and they stay there. RuntimeError with the backend's reason when the device cannot be used.
  void place_on_cuda(int64_t index);
  // Runs fn(backend, graph) on the graph's device, its matrices registered
  // there, one call at a time (a CUDA backend owns one stream; place_on_cuda
  // replaces both).
  template <class Fn>
  auto with_backend(Fn&& fn) const -> decltype(fn(std::declval<Backend&>(), std::declval<LocalGraph&>())) {
    std::lock_guard<std::mutex> lock(backend_mutex_);
    return fn(*backend_, *graph_);
  }
  // Inside with_backend: the backend, for results that outlive the call (to_tensors).
  const std::shared_ptr<Backend>& shared_backend() const { return backend_; }
  // The engine's sampler of that name from the registry over this graph, its
  // options from per-layer `sizes` (params_from_sizes) and saint_norm (the
  // samplers that take it). Kept per parameters, so what a sampler prepares once
  // (GraphSAINT's normalization) is prepared once per graph; it refers to the
  // graph's registered matrices. A matsamp::Error for an unknown name or bad sizes.
  std::shared_ptr<const Sampler> sampler(const std::string& name, const std::vector<int64_t>& sizes,
                                         bool include_frontier, bool saint_norm, bool replace = false,
                                         bool expand_new_only = false) const;
  // DGS's column importance for every dgs sampler of this graph, kept and later made.
  void set_column_importance(std::shared_ptr<const ColumnImportance> importance);
  // Temporal sampling: each adjacency entry's time (nnz of them), kept as the
  // rows' time order (ops.h: TimeOrder) in the graph's backend (moved along by
  // place_on_cuda). ValueError on a wrong count.
  void set_entry_times(const std::vector<vid_t>& times);
  // Inside with_backend: the time order's two arrays, or null when no times were set.
  const std::pair<Ids, Ids>* time_order() const { return time_order_.first.defined() ? &time_order_ : nullptr; }

 private:
  CsrMatrix adj_;
  at::Tensor features_;
  at::Tensor labels_;
  at::Tensor edge_features_;
  at::Tensor vertex_times_;
  c10::Dict<std::string, at::Tensor> splits_;
  c10::Device device_{c10::kCPU};
  std::shared_ptr<Backend> backend_;   // shared with the tensors that hold its device arrays
  std::unique_ptr<LocalGraph> graph_;  // adj_ registered in backend_
  std::pair<Ids, Ids> time_order_;     // order and sorted times in backend_; undefined without times
  mutable std::mutex backend_mutex_;
  mutable std::map<std::string, std::shared_ptr<const Sampler>> samplers_;  // built over graph_
  std::shared_ptr<const ColumnImportance> importance_;                      // null: every column 1
  mutable std::mutex samplers_mutex_;
};

// Registers the class as torch.classes.matsamp.Graph, once. Every file whose
// registrations name the class calls it first: schemas that mention the class
// need it registered, and static initializers of different files run in no
// fixed order.
void register_graph_class();

}  // namespace matsamp::bindings
