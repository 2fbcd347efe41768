// The kernel of pyg_hetero_batches: a heterogeneous bulk sampled and turned into
// PyG's HeteroData fields of each minibatch in one call. Per vertex type: n_id
// (the last layer's vertex lists) and num_sampled_nodes. Per relation: the edges
// of the node-wise hops (a hop keeps only the draws of the previous hop's new
// vertices, as PyG samples) or, for a layer-wise sampler, every edge among the
// sampled vertices (PyG's HGTLoader), each named by the relation's edge id.
#include <torch/library.h>

#include <numeric>

#include "hetero_graph.h"
#include "util/parallel.h"

namespace matsamp::bindings {

namespace {

constexpr const char* kHeteroBatchesOp = "matsamp.pyg_hetero_batches";

// Vertices of type t that minibatch g knows before hop h: its seeds (h = 0), then
// layer h - 1's vertex list (the frontier first, so each is a prefix of the next).
int64_t known_before(const HeteroBulkSample& bulk, size_t t, size_t h, int64_t g) {
  const Offsets& offsets = h == 0 ? bulk.seeds.offsets[t] : bulk.layers[h - 1].vertex_offsets[t];
  return offsets[g + 1] - offsets[g];
}

// Calls fn(l, source, target, edge id) for relation r's edges of minibatch g in
// hop l (node-wise: each hop keeps the draws of the vertices new at the hop
// before), in order; counting only the edges needs the row pointers alone.
template <bool kCountOnly, class Fn>
void for_hop_edges(const HeteroGraphHolder& holder, const HeteroBulkSample& bulk, size_t r, int64_t g, Fn fn) {
  const Relation& relation = holder.graph().relations[r];
  const size_t source = static_cast<size_t>(bulk.relation_sources[r]);
  const size_t target = static_cast<size_t>(holder.graph().type_index(relation.destination));
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    const HeteroSampledLayer& layer = bulk.layers[l];
    if (layer.adj[r].rows == 0) continue;
    const CsrMatrix& s = layer.adj[r];
    const int64_t first_row = layer.row_offsets[r][g], first_col = layer.vertex_offsets[source][g];
    const int64_t old_rows = l > 0 ? known_before(bulk, target, l - 1, g) : 0;  // expanded at hop l - 1
    const int64_t first_kept = first_row + old_rows, end_row = layer.row_offsets[r][g + 1];
    if constexpr (kCountOnly) {
      fn(l, s.rowptr[end_row] - s.rowptr[first_kept]);
    } else {
      const std::vector<vid_t>& positions = layer.positions[r];  // the draws' own (sampled recording them)
      TORCH_INTERNAL_ASSERT(static_cast<int64_t>(positions.size()) == s.nnz(), kHeteroBatchesOp, ": relation ",
                            relation.key(), " of layer ", l, " was sampled without its positions");
      // Each edge's id is a random read of the relation's ids: fetched a few edges ahead.
      constexpr int64_t kAhead = 16;
      const int64_t* ids = holder.edge_ids(r);
      const int64_t end = s.rowptr[end_row];
      for (int64_t i = first_kept; i < end_row; ++i)
        for (int64_t e = s.rowptr[i]; e < s.rowptr[i + 1]; ++e) {
          if (ids && e + kAhead < end && positions[e + kAhead] >= 0) __builtin_prefetch(ids + positions[e + kAhead]);
          fn(l, s.colidx[e] - first_col, i - first_row, holder.edge_id(r, positions[e]));
        }
    }
  }
}

// Calls fn(source, target, edge id) for every edge of relation r among minibatch
// g's sampled vertices (layer-wise), by target in n_id order, then by source id;
// index: a scratch of -1 per source vertex.
template <class Fn>
void for_induced_edges(const HeteroGraphHolder& holder, const HeteroBulkSample& bulk, size_t r, int64_t g,
                       std::vector<int64_t>& index, Fn fn) {
  const Relation& relation = holder.graph().relations[r];
  const size_t source = static_cast<size_t>(bulk.relation_sources[r]);
  const size_t target = static_cast<size_t>(holder.graph().type_index(relation.destination));
  const HeteroSampledLayer& last = bulk.layers.back();
  const vid_t* sources = last.vertices[source].data() + last.vertex_offsets[source][g];
  const vid_t* targets = last.vertices[target].data() + last.vertex_offsets[target][g];
  const int64_t num_sources = known_before(bulk, source, bulk.layers.size(), g);
  const int64_t num_targets = known_before(bulk, target, bulk.layers.size(), g);
  for (int64_t j = 0; j < num_sources; ++j) index[sources[j]] = j;
  const CsrMatrix& a = relation.adj;
  for (int64_t i = 0; i < num_targets; ++i)
    for (int64_t e = a.rowptr[targets[i]]; e < a.rowptr[targets[i] + 1]; ++e)
      if (index[a.colidx[e]] >= 0) fn(index[a.colidx[e]], i, holder.edge_id(r, e));
  for (int64_t j = 0; j < num_sources; ++j) index[sources[j]] = -1;
}

// Relation r's edges of every minibatch, written in place in two passes (their
// counts, then the edges): edge_index (minibatch g's [2, E_g] block at
// 2 edge_offsets[g], sources then targets), e_id, edge_offsets and the per-hop
// counts [k, hops] (node-wise: one per layer; layer-wise: one, the induced edges).
std::vector<at::Tensor> relation_edges(const HeteroGraphHolder& holder, const HeteroBulkSample& bulk, size_t r,
                                       bool node_wise) {
  const int64_t k = bulk.count(), hops = node_wise ? static_cast<int64_t>(bulk.layers.size()) : 1;
  const int64_t sources = node_wise ? 0 : holder.graph().relations[r].adj.cols;  // the induced edges' index
  int64_t work = sources;
  for (const HeteroSampledLayer& layer : bulk.layers) work += layer.adj[r].nnz();
  at::Tensor per_hop = at::zeros({k, hops}, at::kLong), offsets = at::zeros({k + 1}, at::kLong);
  int64_t* counts = per_hop.data_ptr<int64_t>();
  const auto for_each_minibatch = [&](auto&& per_minibatch) {
#pragma omp parallel num_threads(threads_for(work))
    {
      std::vector<int64_t> index(sources, -1);
#pragma omp for schedule(dynamic, 1)
      for (int64_t g = 0; g < k; ++g) per_minibatch(g, index);
    }
  };
  for_each_minibatch([&](int64_t g, std::vector<int64_t>& index) {
    if (node_wise) for_hop_edges<true>(holder, bulk, r, g, [&](size_t l, int64_t n) { counts[g * hops + l] = n; });
    else for_induced_edges(holder, bulk, r, g, index, [&](int64_t, int64_t, int64_t) { ++counts[g]; });
  });
  int64_t* first = offsets.data_ptr<int64_t>();
  for (int64_t g = 0; g < k; ++g)
    first[g + 1] = first[g] + std::accumulate(counts + g * hops, counts + (g + 1) * hops, int64_t{0});
  at::Tensor edge_index = at::empty({2 * first[k]}, at::kLong), e_id = at::empty({first[k]}, at::kLong);
  int64_t* index_out = edge_index.data_ptr<int64_t>();
  int64_t* ids_out = e_id.data_ptr<int64_t>();
  for_each_minibatch([&](int64_t g, std::vector<int64_t>& index) {
    const int64_t edges = first[g + 1] - first[g];
    int64_t* source_out = index_out + 2 * first[g];
    int64_t* target_out = source_out + edges;
    int64_t* id_out = ids_out + first[g];
    int64_t at = 0;
    const auto write = [&](int64_t source, int64_t target, int64_t id) {
      source_out[at] = source;
      target_out[at] = target;
      id_out[at++] = id;
    };
    if (node_wise)
      for_hop_edges<false>(holder, bulk, r, g,
                           [&](size_t, int64_t source, int64_t target, int64_t id) { write(source, target, id); });
    else for_induced_edges(holder, bulk, r, g, index, write);
  });
  return {edge_index, e_id, offsets, per_hop};
}

using HeteroBatches =
    std::tuple<std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>,
               std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>>;

// Per type: n_id, node_offsets, num_sampled_nodes [k, layers + 1]. Per relation:
// edge_index, e_id, edge_offsets, num_sampled_edges [k, hops] (node-wise: one per
// layer; layer-wise: one, the induced edges).
HeteroBatches assemble(const HeteroGraphHolder& holder, const HeteroBulkSample& bulk, bool node_wise) {
  const int64_t k = bulk.count(), layers = static_cast<int64_t>(bulk.layers.size());
  const size_t types = holder.graph().types.size(), relations = holder.graph().relations.size();
  HeteroBatches out;
  auto& [n_id, node_offsets, num_nodes, edge_index, e_id, edge_offsets, num_edges] = out;
  for (size_t t = 0; t < types; ++t) {
    const HeteroSampledLayer& last = bulk.layers.back();
    n_id.push_back(vector_to_tensor(std::vector<int64_t>(last.vertices[t].begin(), last.vertices[t].end())));
    node_offsets.push_back(vector_to_tensor(std::vector<int64_t>(last.vertex_offsets[t])));
    std::vector<int64_t> counts;
    for (int64_t g = 0; g < k; ++g)
      for (int64_t h = 0; h <= layers; ++h)
        counts.push_back(known_before(bulk, t, h, g) - (h > 0 ? known_before(bulk, t, h - 1, g) : 0));
    num_nodes.push_back(vector_to_tensor(std::move(counts)).view({k, layers + 1}));
  }
  for (size_t r = 0; r < relations; ++r) {
    std::vector<at::Tensor> tensors = relation_edges(holder, bulk, r, node_wise);
    edge_index.push_back(tensors[0]);
    e_id.push_back(tensors[1]);
    edge_offsets.push_back(tensors[2]);
    num_edges.push_back(tensors[3]);
  }
  return out;
}

HeteroBatches pyg_hetero_batches(const HeteroPtr& holder, const std::string& seed_type, const at::Tensor& seeds,
                                 const at::Tensor& seed_offsets, const std::string& sampler_name,
                                 std::vector<int64_t> counts, int64_t layers, int64_t first_minibatch, int64_t epoch,
                                 int64_t seed, const c10::optional<at::Tensor>& seed_times,
                                 const std::string& temporal_strategy) {
  const bool node_wise =
      translate_errors([&] { return find_hetero_sampler(sampler_name).family == SamplerFamily::node_wise; });
  // PyG's batches expand each hop's new vertices only.
  const HeteroBulkSample bulk = holder->sample(kHeteroBatchesOp, seed_type, seeds, seed_offsets, sampler_name, counts,
                                               layers, first_minibatch, epoch, seed, node_wise, node_wise, seed_times,
                                               temporal_strategy);
  return translate_errors([&] { return assemble(*holder, bulk, node_wise); });
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(matsamp, m) {
  register_hetero_graph_class();
  // sample_hetero's arguments, and seed_times to sample by time (one per
  // minibatch: with one seed each, PyG's temporal trees); PyG's HeteroData fields of each minibatch: per
  // vertex type (graph.types() order) n_id, node_offsets (k + 1) and
  // num_sampled_nodes [k, layers + 1]; per relation (graph.relations() order)
  // edge_index (minibatch g's [2, E_g] block at 2 edge_offsets[g], local ids,
  // sources then targets), e_id, edge_offsets and num_sampled_edges [k, hops].
  m.def(
      "pyg_hetero_batches(__torch__.torch.classes.matsamp.HeteroGraph graph, str seed_type, Tensor seeds, "
      "Tensor seed_offsets, str sampler, int[] counts, int layers, int first_minibatch, int epoch, int seed, "
      "Tensor? seed_times=None, str temporal_strategy=\"uniform\") -> (Tensor[] n_id, Tensor[] node_offsets, "
      "Tensor[] num_sampled_nodes, Tensor[] edge_index, Tensor[] e_id, Tensor[] edge_offsets, "
      "Tensor[] num_sampled_edges)",
      &pyg_hetero_batches);
}

}  // namespace matsamp::bindings
