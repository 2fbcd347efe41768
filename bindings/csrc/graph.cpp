#include "graph.h"

#include <algorithm>
#include <limits>

#include "backend/backend_registry.h"
#include "convert.h"
#include "graph/transform.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/mapped_features.h"
#include "io/msg_container.h"
#include "ops/column_importance.h"
#include "sampling/epoch.h"
#include "torch_cuda_memory.h"

namespace matsamp::bindings {

namespace {

constexpr const char* kGraphClass = "matsamp.Graph";

// Column ids are checked against n before narrowing to 32 bits, so a large
// int64 id is an error rather than a wrapped-around, valid-looking one.
std::vector<col_t> to_column_ids(const at::Tensor& col, int64_t n) {
  const std::vector<int64_t> wide = to_int64_vector(col, kGraphClass, "col");
  check_ids_in_range(wide.data(), static_cast<int64_t>(wide.size()), n, kGraphClass, "col");
  return std::vector<col_t>(wide.begin(), wide.end());
}

std::vector<float> to_values(const at::Tensor& value, int64_t nnz) {
  check_vector(value, at::kFloat, kGraphClass, "value");
  if (value.numel() == 0) return std::vector<float>(nnz, 1.0f);
  TORCH_CHECK_VALUE(value.numel() == nnz, kGraphClass, ": ", value.numel(), " values for ", nnz, " column ids");
  const at::Tensor dense = value.contiguous();
  return std::vector<float>(dense.data_ptr<float>(), dense.data_ptr<float>() + nnz);
}

using GraphPtr = c10::intrusive_ptr<GraphHolder>;

// The CLI's --train-fraction choice of training vertices.
at::Tensor training_vertices_of(const GraphPtr& graph, double fraction, int64_t seed) {
  const uint64_t key = to_seed(seed, "matsamp.Graph.training_vertices");
  return vector_to_tensor(translate_errors([&] { return training_vertices(graph->adjacency().rows, fraction, key); }));
}

// DGS's importance: listed vertices (ascending) their weight, [own_first, own_end)
// 1, the others `elsewhere`; every weight in (0, 1].
void set_column_importance_of(const GraphPtr& graph, const at::Tensor& ids, const at::Tensor& weights,
                              int64_t own_first, int64_t own_end, double elsewhere) {
  constexpr const char* op = "matsamp.Graph.set_column_importance";
  const int64_t n = graph->adjacency().rows;
  std::vector<vid_t> columns = to_int64_vector(ids, op, "nodes");
  check_ids_in_range(columns.data(), static_cast<int64_t>(columns.size()), n, op, "nodes");
  check_vector(weights, at::kFloat, op, "weights");
  const at::Tensor w = weights.contiguous();
  TORCH_CHECK_VALUE(0 <= own_first && own_first <= own_end && own_end <= n, op, ": own nodes [", own_first, ", ",
                    own_end, ") are not a range of [0, ", n, ")");
  translate_errors([&] {
    graph->set_column_importance(std::make_shared<const ColumnImportance>(
        std::move(columns), std::vector<float>(w.data_ptr<float>(), w.data_ptr<float>() + w.numel()), own_first,
        own_end, static_cast<float>(elsewhere)));
  });
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
      .def("edge_features", [](const GraphPtr& g) { return g->edge_features(); })
      .def("vertex_times", [](const GraphPtr& g) { return g->vertex_times(); })
      .def("splits", [](const GraphPtr& g) { return g->splits(); })
      .def("save",
           [](const GraphPtr& g, const std::string& path, const at::Tensor& features, const at::Tensor& labels,
              const c10::Dict<std::string, at::Tensor>& splits, bool half_features,
              const at::Tensor& vertex_times) { g->save(path, features, labels, splits, half_features, vertex_times); })
      .def("training_vertices",
           [](const GraphPtr& g, double fraction, int64_t seed) { return training_vertices_of(g, fraction, seed); })
      .def("set_entry_times",
           [](const GraphPtr& g, const at::Tensor& times) {
             g->set_entry_times(to_int64_vector(times, "matsamp.Graph.set_entry_times", "times"));
           })
      .def("set_column_importance",
           [](const GraphPtr& g, const at::Tensor& ids, const at::Tensor& weights, int64_t own_first, int64_t own_end,
              double elsewhere) { set_column_importance_of(g, ids, weights, own_first, own_end, elsewhere); });
}

}  // namespace

GraphHolder::GraphHolder(const at::Tensor& rowptr, const at::Tensor& col, const at::Tensor& value) {
  check_vector(rowptr, at::kLong, kGraphClass, "rowptr");
  TORCH_CHECK_VALUE(rowptr.numel() >= 1, kGraphClass, ": rowptr needs n + 1 >= 1 entries");
  const int64_t n = rowptr.numel() - 1;
  adj_ = CsrMatrix(n, n);
  adj_.rowptr = to_int64_vector(rowptr, kGraphClass, "rowptr");
  adj_.colidx = to_column_ids(col, n);
  adj_.values = to_values(value, adj_.nnz());
  translate_errors([&] { validate(adj_, kGraphClass); });
  backend_ = make_cpu_backend();
  graph_ = std::make_unique<LocalGraph>(*backend_, adj_);
  features_ = at::empty({0}, at::kFloat);
  labels_ = at::empty({0}, at::kLong);
  edge_features_ = at::empty({0}, at::kFloat);
  vertex_times_ = at::empty({0}, at::kLong);
}

GraphHolder::GraphHolder(Graph graph)
    : adj_(std::move(graph.adj)), backend_(make_cpu_backend()), graph_(std::make_unique<LocalGraph>(*backend_, adj_)) {
  const int64_t n = adj_.rows;
  features_ = graph.has_features() ? vector_to_tensor(std::move(graph.features)).view({n, graph.feature_dim})
                                   : at::empty({0}, at::kFloat);
  labels_ = graph.has_labels() ? vector_to_tensor(std::move(graph.labels)) : at::empty({0}, at::kLong);
  edge_features_ = graph.has_edge_features()
                       ? vector_to_tensor(std::move(graph.edge_features)).view({adj_.nnz(), graph.edge_feature_dim})
                       : at::empty({0}, at::kFloat);
  for (auto& [name, ids] : graph.splits) splits_.insert(name, vector_to_tensor(std::move(ids)));
  vertex_times_ = at::empty({0}, at::kLong);
  if (graph.has_vertex_times()) {  // a neighbour is as late as its vertex (PyG's node-level time)
    set_entry_times(column_times(adj_, graph.vertex_times));
    vertex_times_ = vector_to_tensor(std::move(graph.vertex_times));
  }
}

void GraphHolder::save(const std::string& path, const at::Tensor& features, const at::Tensor& labels,
                       const c10::Dict<std::string, at::Tensor>& splits, bool half_features,
                       const at::Tensor& vertex_times) const {
  constexpr const char* op = "matsamp.Graph.save";
  Graph g;
  g.adj = adj_;
  const int64_t n = adj_.rows;
  if (features.defined() && features.numel() > 0) {
    TORCH_CHECK_TYPE(features.scalar_type() == at::kFloat, op, ": features must be float32, got ",
                     features.scalar_type());
    TORCH_CHECK_VALUE(features.dim() == 2 && features.size(0) == n, op, ": features must have shape [", n, ", f], got ",
                      features.sizes());
    const at::Tensor dense = features.contiguous().cpu();
    g.feature_dim = features.size(1);
    g.features.assign(dense.data_ptr<float>(), dense.data_ptr<float>() + dense.numel());
  }
  if (edge_features_.dim() == 2) {  // aligned with adj_ since the graph was made
    g.edge_feature_dim = edge_features_.size(1);
    g.edge_features.assign(edge_features_.data_ptr<float>(), edge_features_.data_ptr<float>() + edge_features_.numel());
  }
  if (labels.defined() && labels.numel() > 0) g.labels = to_int64_vector(labels.cpu(), op, "labels");
  if (vertex_times.defined() && vertex_times.numel() > 0)
    g.vertex_times = to_int64_vector(vertex_times.cpu(), op, "vertex_times");
  for (const auto& entry : splits) {
    std::vector<int64_t> ids = to_int64_vector(entry.value().cpu(), op, "splits");
    std::sort(ids.begin(), ids.end());
    g.splits[entry.key()] = std::move(ids);
  }
  try {
    validate(g, path);
  } catch (const Error& e) {
    TORCH_CHECK_VALUE(false, op, ": ", valid_utf8(e.what()));
  }
  try {
    write_binary_csr(path, g, half_features ? FeatureType::float16 : FeatureType::float32);
  } catch (const Error& e) {
    TORCH_CHECK(false, op, ": ", valid_utf8(e.what()));
  }
}

c10::intrusive_ptr<GraphHolder> GraphHolder::load(const std::string& path, const std::string& labels_path,
                                                  bool symmetrize, bool drop_self_loops, bool largest_component,
                                                  bool map_features) {
  constexpr const char* op = "matsamp.Graph.load";
  if (map_features) {
    TORCH_CHECK_VALUE(msg::peek_version(path) == msg::kGraphVersion, op, ": mmap maps the features of a .msg file; ",
                      valid_utf8(path), " is not one (convert it with 'matsamp convert')");
    TORCH_CHECK_VALUE(!largest_component, op, ": mmap keeps the file's vertices; largest_component renumbers them");
  }
  Graph g;
  std::shared_ptr<MappedFeatures> mapped;
  try {
    if (map_features) mapped = std::make_shared<MappedFeatures>(path);  // first: refusals before the long read
    g = map_features ? read_binary_csr(path, BinaryReadOptions{false}) : read_graph(path);
    if (!labels_path.empty()) read_vertex_labels(labels_path, g);
    g = cleanup(std::move(g), CleanupOptions{symmetrize, drop_self_loops, largest_component});
  } catch (const std::exception& e) {
    TORCH_CHECK(false, valid_utf8(e.what()));  // a file problem, not an argument: RuntimeError
  }
  auto holder = c10::make_intrusive<GraphHolder>(std::move(g));
  if (mapped && mapped->rows() > 0)  // the tensor keeps the mapping alive
    holder->features_ = at::from_blob(
        mapped->data(), {mapped->rows(), mapped->dim()}, [mapped](void*) mutable { mapped.reset(); },
        at::TensorOptions().dtype(at::kFloat));
  return holder;
}

void GraphHolder::place_on_cuda(int64_t index) {
  TORCH_CHECK_VALUE(index >= 0 && index <= std::numeric_limits<int>::max(), kGraphClass,
                    ": CUDA device index must be non-negative, got ", index);
  std::shared_ptr<Backend> backend;
  try {
    // On torch's current stream, in its caching allocator's memory, where torch has CUDA.
    backend = make_backend(DeviceName{"cuda", static_cast<int>(index), true},
                           torch_has_cuda_memory() ? torch_cuda_memory(static_cast<int>(index)) : nullptr);
  } catch (const Error& e) {
    TORCH_CHECK(false, kGraphClass, ": cannot place the graph on ", valid_utf8(e.what()));
  }
  std::lock_guard<std::mutex> kept(samplers_mutex_);
  samplers_.clear();  // built over the old graph
  std::lock_guard<std::mutex> lock(backend_mutex_);
  graph_.reset();  // its handles belong to the old backend
  if (time_order_.first.defined())
    time_order_ = {backend->upload_ids(backend_->ids_to_host(std::move(time_order_.first))),
                   backend->upload_ids(backend_->ids_to_host(std::move(time_order_.second)))};
  backend_ = std::move(backend);
  graph_ = std::make_unique<LocalGraph>(*backend_, adj_);
  device_ = c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(index));
}

void GraphHolder::set_entry_times(const std::vector<vid_t>& times) {
  TORCH_CHECK_VALUE(static_cast<int64_t>(times.size()) == adj_.nnz(), kGraphClass, ": ", times.size(),
                    " entry times for the graph's ", adj_.nnz(), " entries");
  TimeOrder sorted = matsamp::time_order(adj_, times);
  std::lock_guard<std::mutex> lock(backend_mutex_);
  time_order_ = {backend_->upload_ids(std::move(sorted.order)), backend_->upload_ids(std::move(sorted.sorted_times))};
}

void register_graph_class() {
  static const bool registered = (define_graph_class(), true);
  (void)registered;
}

std::shared_ptr<const Sampler> GraphHolder::sampler(const std::string& name, const std::vector<int64_t>& sizes,
                                                    bool include_frontier, bool saint_norm, bool replace,
                                                    bool expand_new_only) const {
  const SamplerSpec& spec = find_sampler(name);
  const SamplerParams params = params_from_sizes(spec, sizes, include_frontier, saint_norm, replace, expand_new_only);
  std::string key = name + (include_frontier ? "/f" : "/-") + (saint_norm ? "/n" : "/-") + (replace ? "/r" : "/-") +
                    (expand_new_only ? "/e" : "/-");
  for (int64_t size : sizes) key += "/" + std::to_string(size);
  std::lock_guard<std::mutex> lock(samplers_mutex_);
  std::shared_ptr<const Sampler>& kept = samplers_[key];
  if (!kept) {
    kept = with_backend([&](Backend&, LocalGraph& graph) { return matsamp::make_sampler(name, graph, params); });
    const auto* guided = find_capability<ImportanceGuidedSampler>(*kept);
    if (importance_ && guided) guided->set_column_importance(importance_);
  }
  return kept;
}

void GraphHolder::set_column_importance(std::shared_ptr<const ColumnImportance> importance) {
  std::lock_guard<std::mutex> lock(samplers_mutex_);
  importance_ = std::move(importance);
  for (auto& [key, sampler] : samplers_)
    if (const auto* guided = find_capability<ImportanceGuidedSampler>(*sampler))
      guided->set_column_importance(importance_);
}

}  // namespace matsamp::bindings
