#include "graph.h"

#include <algorithm>
#include <functional>
#include <limits>

#include "convert.h"
#include "graph/transform.h"
#include "kernels/cuda_backend.h"
#include "io/graph_io.h"
#include "sampling/epoch.h"

namespace matsamp::bindings {

namespace {

constexpr const char* kOp = "matsamp.Graph";

// Column ids are checked against n before narrowing to 32 bits, so a large
// int64 id is an error rather than a wrapped-around, valid-looking one.
std::vector<col_t> to_column_ids(const at::Tensor& col, int64_t n) {
  const std::vector<int64_t> wide = to_int64_vector(col, kOp, "col");
  check_ids_in_range(wide.data(), static_cast<int64_t>(wide.size()), n, kOp, "col");
  return std::vector<col_t>(wide.begin(), wide.end());
}

std::vector<float> to_values(const at::Tensor& value, int64_t nnz) {
  check_vector(value, at::kFloat, kOp, "value");
  if (value.numel() == 0) return std::vector<float>(nnz, 1.0f);
  TORCH_CHECK_VALUE(value.numel() == nnz, kOp, ": ", value.numel(), " values for ", nnz,
                    " column ids");
  const at::Tensor dense = value.contiguous();
  return std::vector<float>(dense.data_ptr<float>(), dense.data_ptr<float>() + nnz);
}

using GraphPtr = c10::intrusive_ptr<GraphHolder>;

// The CLI's --train-fraction choice of training vertices.
at::Tensor training_vertices_of(const GraphPtr& graph, double fraction, int64_t seed) {
  const uint64_t key = to_seed(seed, "matsamp.Graph.training_vertices");
  return vector_to_tensor(translate_errors(
      [&] { return training_vertices(graph->adjacency().rows, fraction, key); }));
}

void define_graph_class() {
  torch::class_<GraphHolder>("matsamp", "Graph")
      .def(torch::init<at::Tensor, at::Tensor, at::Tensor>())
      .def_static("load", &GraphHolder::load)
      .def("num_vertices", [](const GraphPtr& g) { return g->adjacency().rows; })
      .def("num_edges", [](const GraphPtr& g) { return g->adjacency().nnz(); })
      .def("device", [](const GraphPtr& g) { return g->device().str(); })
      .def("place_on_cuda", [](const GraphPtr& g, int64_t index) { g->place_on_cuda(index); })
      // Views of the graph's own arrays; they keep the graph alive.
      .def("rowptr", [](const GraphPtr& g) { return vector_view(g->adjacency().rowptr, g); })
      .def("col", [](const GraphPtr& g) { return vector_view(g->adjacency().colidx, g); })
      .def("value", [](const GraphPtr& g) { return vector_view(g->adjacency().values, g); })
      .def("features", [](const GraphPtr& g) { return g->features(); })
      .def("labels", [](const GraphPtr& g) { return g->labels(); })
      .def("training_vertices", [](const GraphPtr& g, double fraction, int64_t seed) {
        return training_vertices_of(g, fraction, seed);
      });
}

}  // namespace

GraphHolder::GraphHolder(const at::Tensor& rowptr, const at::Tensor& col, const at::Tensor& value) {
  check_vector(rowptr, at::kLong, kOp, "rowptr");
  TORCH_CHECK_VALUE(rowptr.numel() >= 1, kOp, ": rowptr needs n + 1 >= 1 entries");
  const int64_t n = rowptr.numel() - 1;
  adj_ = CsrMatrix(n, n);
  adj_.rowptr = to_int64_vector(rowptr, kOp, "rowptr");
  adj_.colidx = to_column_ids(col, n);
  adj_.values = to_values(value, adj_.nnz());
  translate_errors([&] { validate(adj_, kOp); });
  uniform_rows_ = has_uniform_rows(adj_);
  features_ = at::empty({0}, at::kFloat);
  labels_ = at::empty({0}, at::kLong);
}

GraphHolder::GraphHolder(Graph graph) : adj_(std::move(graph.adj)), uniform_rows_(has_uniform_rows(adj_)) {
  const int64_t n = adj_.rows;
  features_ = graph.has_features()
                  ? vector_to_tensor(std::move(graph.features)).view({n, graph.feature_dim})
                  : at::empty({0}, at::kFloat);
  labels_ = graph.has_labels() ? vector_to_tensor(std::move(graph.labels)) : at::empty({0}, at::kLong);
}

c10::intrusive_ptr<GraphHolder> GraphHolder::load(const std::string& path,
                                                  const std::string& labels_path, bool symmetrize,
                                                  bool drop_self_loops, bool largest_component) {
  Graph g;
  try {
    g = read_graph(path);
    if (!labels_path.empty()) read_vertex_labels(labels_path, g);
    g = cleanup(std::move(g), CleanupOptions{symmetrize, drop_self_loops, largest_component});
  } catch (const Error& e) {
    TORCH_CHECK(false, e.what());   // a file problem, not an argument: RuntimeError
  }
  return c10::make_intrusive<GraphHolder>(std::move(g));
}

void GraphHolder::place_on_cuda(int64_t index) {
  TORCH_CHECK_VALUE(index >= 0 && index <= std::numeric_limits<int>::max(), kOp,
                    ": CUDA device index must be non-negative, got ", index);
  CudaOptions options;
  options.device = static_cast<int>(index);
  std::unique_ptr<Backend> backend;
  try {
    backend = make_cuda_backend(options);
  } catch (const Error& e) {
    TORCH_CHECK(false, kOp, ": cannot place the graph on cuda:", index, ": ", e.what());
  }
  std::lock_guard<std::mutex> lock(backend_mutex_);
  cuda_backend_ = std::move(backend);
  device_ = c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(index));
}

void register_graph_class() {
  static const bool registered = (define_graph_class(), true);
  (void)registered;
}

std::shared_ptr<const LayerWiseMatrices> GraphHolder::layerwise_matrices() const {
  std::lock_guard<std::mutex> lock(layerwise_mutex_);
  if (!layerwise_) layerwise_ = translate_errors([&] { return prepare_layerwise_matrices(adj_); });
  return layerwise_;
}

std::shared_ptr<const CsrMatrix> GraphHolder::saint_edges() const {
  std::lock_guard<std::mutex> lock(saint_edges_mutex_);
  if (!saint_edges_)
    saint_edges_ = translate_errors([&] { return std::make_shared<CsrMatrix>(saint_edge_probabilities(adj_)); });
  return saint_edges_;
}

std::unique_ptr<Sampler> GraphHolder::make_sampler(const std::string& sampler,
                                                   std::vector<int64_t> sizes, uint64_t seed,
                                                   bool include_frontier) const {
  if (sampler == "graphsage") return make_graphsage_sampler(adj_, std::move(sizes), seed, uniform_rows_);
  if (sampler == "labor") return make_labor_sampler(adj_, std::move(sizes), seed);
  if (const std::optional<SaintKind> kind = saint_kind_of(sampler)) {
    const bool walks = *kind == SaintKind::random_walk;
    check_layer_sizes(sizes, walks ? "GraphSAINT walk lengths" : "GraphSAINT budgets");
    MATSAMP_CHECK(std::adjacent_find(sizes.begin(), sizes.end(), std::not_equal_to<int64_t>()) == sizes.end(),
                  "GraphSAINT: sizes are the ", walks ? "walk length" : "budget", " once per layer and must be equal");
    const SaintOptions options = SaintOptions::of(*kind, sizes.front(), static_cast<int64_t>(sizes.size()));
    return make_saint_sampler(adj_, layerwise_matrices(), options, seed, uniform_rows_,
                              *kind == SaintKind::edge ? saint_edges() : nullptr);
  }
  MATSAMP_CHECK(sampler == "ladies" || sampler == "fastgcn",
                "sampler must be one of graphsage, labor, ladies, fastgcn, saint, saint_node, saint_edge; got '",
                sampler, "'");
  const LayerWiseKind kind = sampler == "ladies" ? LayerWiseKind::ladies : LayerWiseKind::fastgcn;
  return make_layerwise_sampler(kind, layerwise_matrices(), std::move(sizes), seed, include_frontier);
}

}  // namespace matsamp::bindings
