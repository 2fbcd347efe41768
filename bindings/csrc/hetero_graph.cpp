// torch.classes.matsamp.HeteroGraph and torch.ops.matsamp.sample_hetero: a
// heterogeneous graph held by the engine (types, relations as |dst| x |src|
// matrices) and its node-wise (a fanout per relation) or layer-wise (a budget
// per vertex type, HGT's) sampling, on the CPU.
#include "hetero_graph.h"

#include <torch/library.h>

#include <algorithm>
#include <limits>

#include "generate/generators.h"
#include "io/hetero_io.h"

namespace matsamp::bindings {

namespace {

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
      .def("set_times", &HeteroGraphHolder::set_times)
      .def("times",
           [](const HeteroPtr& h, const std::string& type) {
             return copy_to_tensor(
                 h->graph().types[translate_errors([&] { return h->graph().type_index(type); })].times);
           })
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
  HeteroBulkSample bulk = holder->sample("matsamp.sample_hetero", seed_type, seeds, seed_offsets, sampler_name, counts,
                                         layers, first_minibatch, epoch, seed);
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

void HeteroGraphHolder::add_relation(const std::string& source, const std::string& name, const std::string& destination,
                                     const at::Tensor& source_ids, const at::Tensor& destination_ids,
                                     const c10::optional<at::Tensor>& times) {
  check_unfrozen();
  const char* op = "matsamp.HeteroGraph.add_relation";
  const std::vector<int64_t> s = to_int64_vector(source_ids, op, "source ids");
  const std::vector<int64_t> d = to_int64_vector(destination_ids, op, "destination ids");
  std::vector<int64_t> edge_times;
  if (times.has_value()) {
    edge_times = to_int64_vector(*times, op, "times");
    TORCH_CHECK_VALUE(edge_times.size() == s.size(), op, ": ", edge_times.size(), " edge times for ", s.size(),
                      " edges of ", source, ",", name, ",", destination);
  }
  std::vector<int64_t> origin;
  translate_errors([&] { matsamp::add_relation(graph_, source, name, destination, s, d, &origin); });
  edge_ids_.resize(graph_.relations.size());
  edge_ids_.back() = std::move(origin);
  entry_times_.resize(graph_.relations.size());
  if (edge_times.empty()) return;
  // Each edge's entry: its source in its destination's row (rows hold their columns sorted);
  // an entry of repeated edges is the earliest of them, and its edge id that edge's.
  const CsrMatrix& a = graph_.relations.back().adj;
  std::vector<int64_t>& entry = entry_times_.back();
  std::vector<int64_t>& ids = edge_ids_.back();
  entry.assign(a.nnz(), std::numeric_limits<int64_t>::max());
  for (size_t e = 0; e < s.size(); ++e) {
    const auto first = a.colidx.begin() + a.rowptr[d[e]], last = a.colidx.begin() + a.rowptr[d[e] + 1];
    const int64_t at = std::lower_bound(first, last, static_cast<col_t>(s[e])) - a.colidx.begin();
    if (edge_times[e] < entry[at]) entry[at] = edge_times[e], ids[at] = static_cast<int64_t>(e);
  }
}

void HeteroGraphHolder::set_times(const std::string& type, const at::Tensor& times) {
  check_unfrozen();
  const char* op = "matsamp.HeteroGraph.set_times";
  VertexType& t = graph_.types[translate_errors([&] { return graph_.type_index(type); })];
  std::vector<int64_t> values = to_int64_vector(times, op, "times");
  TORCH_CHECK_VALUE(static_cast<int64_t>(values.size()) == t.count, op, ": ", values.size(), " times for the ", t.count,
                    " vertices of type ", type);
  t.times = std::move(values);
}

const HeteroTemporalEpoch& HeteroGraphHolder::time_orders(const char* op) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!time_orders_) {
    bool timed = false;
    for (const VertexType& t : graph_.types) timed = timed || !t.times.empty();
    for (const std::vector<int64_t>& times : entry_times_) timed = timed || !times.empty();
    TORCH_CHECK_VALUE(timed, op,
                      ": the graph has no times to sample by: give HeteroGraph.from_edge_index_dict "
                      "node_time_dict={type: times} or edge_time_dict={edge type: times}");
    frozen_ = true;  // the orders are the relations' by these times
    std::vector<std::vector<int64_t>> entry_times = entry_times_;
    entry_times.resize(graph_.relations.size());  // relations not added here (reverses, a file's): their sources'
    time_orders_ = translate_errors([&] {
      return hetero_epoch_times(*backend_, graph_, vertex_times_of(graph_), TemporalStrategy::uniform, entry_times);
    });
  }
  return *time_orders_;
}

HeteroBulkSample HeteroGraphHolder::sample(const char* op, const std::string& seed_type, const at::Tensor& seeds,
                                           const at::Tensor& seed_offsets, const std::string& sampler_name,
                                           const std::vector<int64_t>& counts, int64_t layers, int64_t first_minibatch,
                                           int64_t epoch, int64_t seed, bool expand_new_only, bool record_positions,
                                           const c10::optional<at::Tensor>& seed_times,
                                           const std::string& temporal_strategy) const {
  const int type = translate_errors([&] { return graph_.type_index(seed_type); });
  std::vector<vid_t> ids = to_vertex_ids(seeds, graph_.types[type].count, op, "seeds");
  Offsets offsets = to_block_offsets(seed_offsets, static_cast<int64_t>(ids.size()), op, "seed_offsets");
  TORCH_CHECK_VALUE(first_minibatch >= 0, op, ": first_minibatch must be non-negative, got ", first_minibatch);
  const auto hetero_sampler = sampler(sampler_name, counts, layers, expand_new_only);
  std::optional<HeteroTemporalBounds> bounds;
  if (seed_times.has_value()) {
    std::vector<int64_t> times = to_int64_vector(*seed_times, op, "seed_times");
    TORCH_CHECK_VALUE(times.size() + 1 == offsets.size(), op, ": ", times.size(), " seed times for ",
                      offsets.size() - 1, " minibatches (one each)");
    const HeteroTemporalEpoch& orders = time_orders(op);
    bounds = HeteroTemporalBounds{orders.order, orders.sorted_times, std::move(times),
                                  translate_errors([&] { return parse_temporal_strategy(temporal_strategy); })};
  }
  std::lock_guard<std::mutex> lock(sampling_mutex_);
  return translate_errors([&] {
    Context ctx{*backend_, to_seed(seed, op)};
    ctx.record_positions = record_positions;
    const uint32_t epoch_key = to_epoch(epoch, op);
    HeteroSeeds batch = HeteroSeeds::of_type(graph_.types.size(), type, std::move(ids), std::move(offsets));
    if (!bounds) return to_host(*backend_, hetero_sampler->sample(ctx, batch, first_minibatch, epoch_key));
    return to_host(*backend_, hetero_sampler->sample_before(ctx, upload_hetero_seeds(*backend_, std::move(batch)),
                                                            first_minibatch, epoch_key, *bounds));
  });
}

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
