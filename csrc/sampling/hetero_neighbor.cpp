#include "sampling/hetero_neighbor.h"

#include "sampling/registry.h"

#include "core/error.h"

namespace matsamp {

HeteroNeighborSampler::HeteroNeighborSampler(HeteroRelations relations, std::vector<std::vector<int64_t>> fanouts,
                                             bool expand_new_only)
    : relations_(std::move(relations)), fanouts_(std::move(fanouts)), expand_new_only_(expand_new_only) {
  const HeteroGraph& graph = relations_.graph;
  MATSAMP_CHECK(fanouts_.size() == graph.relations.size(), "heterogeneous sampling: fanouts for ", fanouts_.size(),
                " relations, the graph has ", graph.relations.size());
  num_layers_ = fanouts_.empty() ? 0 : static_cast<int>(fanouts_[0].size());
  MATSAMP_CHECK(num_layers_ > 0, "heterogeneous sampling: at least one layer is needed");
  for (size_t r = 0; r < fanouts_.size(); ++r) {
    const std::string& key = graph.relations[r].key();
    MATSAMP_CHECK(static_cast<int>(fanouts_[r].size()) == num_layers_, "heterogeneous sampling: relation ", key,
                  " has ", fanouts_[r].size(), " fanouts, the first one ", num_layers_);
    for (int64_t f : fanouts_[r])
      MATSAMP_CHECK(f >= 0, "heterogeneous sampling: relation ", key, " has a negative fanout ", f);
  }
}

int64_t HeteroNeighborSampler::bytes_per_minibatch(int64_t batch_size) const {
  constexpr int64_t kBytesPerEntry = 24, kBytesPerVertex = 16;  // entry: column, value, row share, relabel
  int64_t frontier = batch_size, bytes = 0;
  for (int l = 0; l < num_layers_; ++l) {
    int64_t entries = 0;
    for (const std::vector<int64_t>& f : fanouts_) entries += frontier * f[l];
    bytes += entries * kBytesPerEntry + (frontier + entries) * kBytesPerVertex;
    frontier += entries;
  }
  return bytes;
}

HeteroBulk HeteroNeighborSampler::sample(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch,
                                         uint32_t epoch) const {
  return sample_program(ctx, seeds, first_minibatch, epoch, nullptr);
}

HeteroBulk HeteroNeighborSampler::sample_before(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch,
                                                uint32_t epoch, const HeteroTemporalBounds& bounds) const {
  MATSAMP_CHECK(static_cast<int64_t>(bounds.seed_times.size()) == seeds.host.count(),
                "temporal sampling: ", bounds.seed_times.size(), " seed times for ", seeds.host.count(),
                " minibatches");
  MATSAMP_CHECK(bounds.order.size() == relations_.adj.size() && bounds.sorted_times.size() == relations_.adj.size(),
                "temporal sampling: time orders of ", bounds.order.size(), " relations for the graph's ",
                relations_.adj.size());
  for (size_t r = 0; r < relations_.adj.size(); ++r)
    MATSAMP_CHECK(bounds.order[r].size() == relations_.adj[r].nnz() &&
                      bounds.sorted_times[r].size() == relations_.adj[r].nnz(),
                  "temporal sampling: a time order of ", bounds.order[r].size(), " entries for relation ",
                  relations_.graph.relations[r].key(), "'s ", relations_.adj[r].nnz());
  return sample_program(ctx, seeds, first_minibatch, epoch, &bounds);
}

HeteroBulk HeteroNeighborSampler::sample_program(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch,
                                                 uint32_t epoch, const HeteroTemporalBounds* temporal) const {
  check_held_by(relations_.adj, ctx);
  check_hetero_seeds(relations_.graph, seeds.host);
  Backend& backend = ctx.backend;
  const int types = static_cast<int>(relations_.graph.types.size());
  const std::vector<int>& source = relations_.source;

  HeteroBulk bulk{first_minibatch, seeds.host, source, {}};
  std::vector<BlockedIds> frontier = seeds.resident;
  std::vector<Offsets> expanded(types);  // per type, the blocks the layer before drew for (expand_new_only)
  const size_t relations = relations_.adj.size();
  for (int l = 0; l < num_layers_; ++l) {
    const bool some_rows = expand_new_only_ && l > 0;
    std::vector<BlockedIds> drawing(types);  // per destination type, the vertices that draw
    for (int t = 0; t < types; ++t)
      drawing[t] = some_rows ? added_vertices(backend, frontier[t], expanded[t]) : frontier[t];
    HeteroLayer layer;
    layer.adj.resize(relations);
    layer.row_offsets.resize(relations);
    layer.positions.resize(relations);
    // Per source type: the sampled relations into it, to share its vertex list.
    std::vector<std::vector<Matrix>> parts(types);
    std::vector<std::vector<Offsets>> part_offsets(types);
    std::vector<std::vector<size_t>> part_relations(types);
    std::vector<std::vector<Ids>> part_positions(types);
    for (size_t r = 0; r < relations; ++r) {
      const BlockedIds& rows = frontier[relations_.destination[r]];
      const BlockedIds& drawn = drawing[relations_.destination[r]];
      const int64_t fanout = fanouts_[r][l];
      if (fanout == 0 || drawn.offsets.back() == 0) continue;
      const SampleKeys keys{part_seed(ctx.seed, r), epoch, static_cast<uint32_t>(l), first_minibatch, drawn.offsets};
      Ids positions;  // where each pick is in A_r, when asked for
      Matrix s = ctx.timed(&StepStats::sampling, [&] {
        Ids* wanted = ctx.record_positions ? &positions : nullptr;
        Matrix picks = temporal ? backend.sample_rows_before(relations_.adj[r], drawn.ids, fanout, keys,
                                                             temporal->order[r], temporal->sorted_times[r],
                                                             temporal->seed_times, temporal->strategy, wanted)
                                : backend.sample_rows(relations_.adj[r], drawn.ids, fanout, keys, wanted);
        // The drawn rows back in their frontier places, the earlier vertices' rows empty.
        return some_rows ? backend.pad_row_blocks(std::move(picks), drawn.offsets, rows.offsets) : picks;
      });
      parts[source[r]].push_back(backend.normalize_rows(std::move(s), RowScale::mean));
      part_offsets[source[r]].push_back(rows.offsets);
      part_relations[source[r]].push_back(r);
      part_positions[source[r]].push_back(std::move(positions));
      layer.row_offsets[r] = rows.offsets;
    }
    layer.vertices.resize(types);
    for (int t = 0; t < types; ++t) {
      if (parts[t].empty()) {
        layer.vertices[t] = frontier[t];
        continue;
      }
      SharedCompacted c = ctx.timed(&StepStats::extraction, [&] {
        return backend.compact_columns_shared(std::move(parts[t]), part_offsets[t], frontier[t],
                                              ctx.record_positions ? &part_positions[t] : nullptr);
      });
      for (size_t i = 0; i < part_relations[t].size(); ++i) {
        layer.adj[part_relations[t][i]] = std::move(c.adj[i]);
        layer.positions[part_relations[t][i]] = std::move(part_positions[t][i]);
      }
      layer.vertices[t] = std::move(c.vertices);
    }
    for (int t = 0; t < types; ++t) expanded[t] = frontier[t].offsets;
    frontier = layer.vertices;
    bulk.layers.push_back(std::move(layer));
  }
  return bulk;
}

std::vector<std::vector<int64_t>> parse_relation_fanouts(const HeteroGraph& graph, const std::string& text) {
  std::vector<std::string> names;
  for (const Relation& r : graph.relations) names.push_back("relation " + r.key());
  return parse_named_counts(
      text, names, [&](const std::string& name) { return graph.relation_index(name); }, "fanouts");
}

HeteroSamplerSpec graphsage_hetero_sampler() {
  return {
      "graphsage", "node-wise: fanouts[r][l] distinct neighbours per frontier vertex of relation r's destination type",
      SamplerFamily::node_wise, HeteroCounts::per_relation,
      [](Backend& backend, const HeteroGraph& graph, std::vector<std::vector<int64_t>> fanouts, bool expand_new_only) {
        return std::make_unique<HeteroNeighborSampler>(backend, graph, std::move(fanouts), expand_new_only);
      }};
}

}  // namespace matsamp
