// torch.classes.matsamp.HeteroGraph and torch.ops.matsamp.sample_hetero: a
// heterogeneous graph held by the engine (types, relations as |dst| x |src|
// matrices) and its node-wise (a fanout per relation) or layer-wise (a budget
// per vertex type, HGT's) sampling, on the CPU.
#include <torch/custom_class.h>
#include <torch/library.h>

#include <map>
#include <mutex>

#include "backend/backend.h"
#include "convert.h"
#include "generate/generators.h"
#include "graph/hetero_graph.h"
#include "io/hetero_io.h"
#include "sampling/registry.h"

namespace matsamp::bindings {

namespace {

class HeteroGraphHolder : public torch::CustomClassHolder {
 public:
  HeteroGraphHolder(std::vector<std::string> names, std::vector<int64_t> counts) {
    TORCH_CHECK_VALUE(names.size() == counts.size(), "matsamp.HeteroGraph: ", names.size(), " type names but ",
                      counts.size(), " counts");
    for (size_t t = 0; t < names.size(); ++t) graph_.types.push_back({names[t], counts[t]});
    translate_errors([&] { validate(graph_, "matsamp.HeteroGraph"); });
  }
  explicit HeteroGraphHolder(HeteroGraph g) : graph_(std::move(g)) {}

  const HeteroGraph& graph() const { return graph_; }
  void add_relation(const std::string& source, const std::string& name, const std::string& destination,
                    const at::Tensor& source_ids, const at::Tensor& destination_ids) {
    check_unfrozen();
    const std::vector<int64_t> s = to_int64_vector(source_ids, "matsamp.HeteroGraph.add_relation", "source ids");
    const std::vector<int64_t> d =
        to_int64_vector(destination_ids, "matsamp.HeteroGraph.add_relation", "destination ids");
    translate_errors([&] { matsamp::add_relation(graph_, source, name, destination, s, d); });
  }
  void add_reverse_relations() {
    check_unfrozen();
    matsamp::add_reverse_relations(graph_);
  }
  // The heterogeneous sampler `name` of these counts, kept: a count per relation
  // (relation-major: counts[r * layers + l]) or per vertex type (type-major:
  // counts[t * layers + l]), as its spec says.
  std::shared_ptr<const HeteroSampler> sampler(const std::string& name, const std::vector<int64_t>& flat,
                                               int64_t layers) const {
    const char* op = "matsamp.sample_hetero";
    const HeteroSamplerSpec& spec =
        translate_errors([&]() -> const HeteroSamplerSpec& { return find_hetero_sampler(name); });
    const bool by_type = spec.counts == HeteroCounts::per_type;
    const size_t parts = by_type ? graph_.types.size() : graph_.relations.size();
    TORCH_CHECK_VALUE(layers > 0 && flat.size() == parts * static_cast<size_t>(layers), op, ": ", flat.size(), " ",
                      by_type ? "budgets" : "fanouts", " for ", parts, by_type ? " vertex types" : " relations", " x ",
                      layers, " layers");
    std::string key = name + ":" + std::to_string(layers) + ":";
    for (int64_t f : flat) key += std::to_string(f) + ",";
    std::lock_guard<std::mutex> lock(mutex_);
    frozen_ = true;  // samplers refer to the relations
    std::shared_ptr<const HeteroSampler>& kept = samplers_[key];
    if (!kept) {
      std::vector<std::vector<int64_t>> counts(parts);
      for (size_t i = 0; i < parts; ++i) counts[i].assign(flat.begin() + i * layers, flat.begin() + (i + 1) * layers);
      kept = translate_errors(
          [&]() -> std::shared_ptr<const HeteroSampler> { return spec.make(*backend_, graph_, std::move(counts)); });
    }
    return kept;
  }
  Backend& backend() const { return *backend_; }
  std::mutex& sampling_mutex() const { return sampling_mutex_; }

 private:
  void check_unfrozen() const {
    std::lock_guard<std::mutex> lock(mutex_);
    TORCH_CHECK(!frozen_, "matsamp.HeteroGraph: relations cannot change after sampling has started");
  }
  HeteroGraph graph_;
  std::unique_ptr<Backend> backend_ = make_cpu_backend();
  mutable std::mutex mutex_, sampling_mutex_;
  mutable bool frozen_ = false;
  mutable std::map<std::string, std::shared_ptr<const HeteroSampler>> samplers_;
};

using HeteroPtr = c10::intrusive_ptr<HeteroGraphHolder>;

template <class T>
at::Tensor copy_to_tensor(const std::vector<T>& values) {
  return vector_to_tensor(std::vector<T>(values));
}

void define_hetero_graph_class() {
  torch::class_<HeteroGraphHolder>("matsamp", "HeteroGraph")
      .def(torch::init<std::vector<std::string>, std::vector<int64_t>>())
      .def_static("load",
                  [](const std::string& path) {
                    return c10::make_intrusive<HeteroGraphHolder>(
                        translate_errors([&] { return read_hetero_graph(path); }));
                  })
      .def_static("generate_mag",
                  [](int64_t papers, int64_t classes, int64_t seed) {
                    HeteroMagOptions options;
                    options.papers = papers;
                    options.classes = static_cast<int>(classes);
                    options.seed = to_seed(seed, "matsamp.HeteroGraph.generate_mag");
                    return c10::make_intrusive<HeteroGraphHolder>(
                        translate_errors([&] { return generate_hetero_mag(options); }));
                  })
      .def("add_relation", &HeteroGraphHolder::add_relation)
      .def("add_reverse_relations", &HeteroGraphHolder::add_reverse_relations)
      .def("types",
           [](const HeteroPtr& h) {
             std::vector<std::string> out;
             for (const VertexType& t : h->graph().types) out.push_back(t.name);
             return out;
           })
      .def("counts",
           [](const HeteroPtr& h) {
             std::vector<int64_t> out;
             for (const VertexType& t : h->graph().types) out.push_back(t.count);
             return out;
           })
      .def("relations",
           [](const HeteroPtr& h) {
             std::vector<std::string> out;
             for (const Relation& r : h->graph().relations) out.push_back(r.key());
             return out;
           })
      // Relation r's matrix (rows: destinations, columns: sources) as CSR copies.
      .def("relation_csr",
           [](const HeteroPtr& h, int64_t r) {
             TORCH_CHECK_INDEX(r >= 0 && r < static_cast<int64_t>(h->graph().relations.size()),
                               "matsamp.HeteroGraph: relation ", r, " out of range");
             const CsrMatrix& a = h->graph().relations[r].adj;
             return std::make_tuple(copy_to_tensor(a.rowptr), copy_to_tensor(a.colidx));
           })
      .def("features",
           [](const HeteroPtr& h, const std::string& type) {
             const VertexType& t = h->graph().types[translate_errors([&] { return h->graph().type_index(type); })];
             return copy_to_tensor(t.features).view({t.count, t.feature_dim});
           })
      .def("labels",
           [](const HeteroPtr& h, const std::string& type) {
             const VertexType& t = h->graph().types[translate_errors([&] { return h->graph().type_index(type); })];
             return copy_to_tensor(t.labels);
           })
      .def("split", [](const HeteroPtr& h, const std::string& type, const std::string& name) {
        const VertexType& t = h->graph().types[translate_errors([&] { return h->graph().type_index(type); })];
        const auto found = t.splits.find(name);
        return found == t.splits.end()
                   ? at::empty({0}, at::kLong)
                   : vector_to_tensor(std::vector<int64_t>(found->second.begin(), found->second.end()));
      });
}

// Per layer and relation (layer-major): the stacked CSR of the relation's rows
// (empty where not sampled) and its row offsets; per layer and type: the
// vertex list and its offsets.
std::tuple<std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>,
           std::vector<at::Tensor>, std::vector<at::Tensor>>
sample_hetero(const HeteroPtr& holder, const std::string& seed_type, const at::Tensor& seeds,
              const at::Tensor& seed_offsets, const std::string& sampler_name, std::vector<int64_t> counts,
              int64_t layers, int64_t first_minibatch, int64_t epoch, int64_t seed) {
  const char* op = "matsamp.sample_hetero";
  const HeteroGraph& g = holder->graph();
  const int type = translate_errors([&] { return g.type_index(seed_type); });
  const std::vector<vid_t> ids = to_vertex_ids(seeds, g.types[type].count, op, "seeds");
  const Offsets offsets = to_block_offsets(seed_offsets, static_cast<int64_t>(ids.size()), op, "seed_offsets");
  TORCH_CHECK_VALUE(first_minibatch >= 0, op, ": first_minibatch must be non-negative, got ", first_minibatch);
  const auto sampler = holder->sampler(sampler_name, counts, layers);
  std::lock_guard<std::mutex> lock(holder->sampling_mutex());
  HeteroBulkSample bulk = translate_errors([&] {
    Context ctx{holder->backend(), to_seed(seed, op)};
    return to_host(holder->backend(), sampler->sample(ctx, type, ids, offsets, first_minibatch, to_epoch(epoch, op)));
  });
  std::vector<at::Tensor> rowptr, col, value, row_offsets, vertices, vertex_offsets;
  for (HeteroSampledLayer& layer : bulk.layers) {
    for (size_t r = 0; r < layer.adj.size(); ++r) {
      rowptr.push_back(vector_to_tensor(std::move(layer.adj[r].rowptr)));
      col.push_back(vector_to_tensor(std::move(layer.adj[r].colidx)));
      value.push_back(vector_to_tensor(std::move(layer.adj[r].values)));
      row_offsets.push_back(vector_to_tensor(std::move(layer.row_offsets[r])));
    }
    for (size_t t = 0; t < layer.vertices.size(); ++t) {
      vertices.push_back(vector_to_tensor(std::vector<int64_t>(layer.vertices[t].begin(), layer.vertices[t].end())));
      vertex_offsets.push_back(vector_to_tensor(std::move(layer.vertex_offsets[t])));
    }
  }
  return {rowptr, col, value, row_offsets, vertices, vertex_offsets};
}

}  // namespace

void register_hetero_graph_class() {
  static const bool registered = (define_hetero_graph_class(), true);
  (void)registered;
}

TORCH_LIBRARY_FRAGMENT(matsamp, m) {
  register_hetero_graph_class();
  // Heterogeneous sampling of seeds of seed_type: "graphsage" with fanouts
  // relation-major (counts[r * layers + l], relations in graph.relations()
  // order) or "hgt" with budgets type-major (counts[t * layers + l]).
  m.def(
      "sample_hetero(__torch__.torch.classes.matsamp.HeteroGraph graph, str seed_type, Tensor seeds, "
      "Tensor seed_offsets, str sampler, int[] counts, int layers, int first_minibatch, int epoch, int seed) -> (Tensor[] rowptr, "
      "Tensor[] col, Tensor[] value, Tensor[] row_offsets, Tensor[] vertices, Tensor[] vertex_offsets)",
      &sample_hetero);
}

}  // namespace matsamp::bindings
