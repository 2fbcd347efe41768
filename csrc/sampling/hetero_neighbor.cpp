#include "sampling/hetero_neighbor.h"

#include <sstream>

#include "core/error.h"

namespace matsamp {

namespace {

// Relation r draws under its own Philox key: the seed mixed with r (r = 0
// keeps the seed, so that one relation gives GraphSAGE's draws).
uint64_t relation_seed(uint64_t seed, size_t r) {
  if (r == 0) return seed;
  uint64_t z = static_cast<uint64_t>(r) * 0x9E3779B97F4A7C15ull;  // splitmix64's finalizer
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return seed ^ z ^ (z >> 31);
}

std::vector<int64_t> parse_counts(const std::string& text, const std::string& what) {
  std::vector<int64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t used = 0;
    int64_t value = -1;
    try {
      value = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    MATSAMP_CHECK(used == item.size() && !item.empty() && value >= 0, what, ": '", item,
                  "' is not a non-negative count (expected e.g. 15,10)");
    out.push_back(value);
  }
  MATSAMP_CHECK(!out.empty(), what, ": no counts in '", text, "'");
  return out;
}

}  // namespace

HeteroNeighborSampler::HeteroNeighborSampler(Backend& backend, const HeteroGraph& graph,
                                             std::vector<std::vector<int64_t>> fanouts)
    : backend_(backend), graph_(graph), fanouts_(std::move(fanouts)) {
  validate(graph, "heterogeneous sampling");
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
    relations_.push_back(backend.register_graph(graph.relations[r].adj));
    source_.push_back(graph.type_index(graph.relations[r].source));
    destination_.push_back(graph.type_index(graph.relations[r].destination));
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

HeteroBulk HeteroNeighborSampler::sample(Context& ctx, int seed_type, const std::vector<vid_t>& seeds,
                                         const Offsets& seed_offsets, int64_t first_minibatch, uint32_t epoch) const {
  Backend& backend = ctx.backend;
  MATSAMP_CHECK(&backend == &backend_, "heterogeneous sampling: the context's backend is not the sampler's");
  const int types = static_cast<int>(graph_.types.size());
  MATSAMP_CHECK(seed_type >= 0 && seed_type < types, "heterogeneous sampling: seed type ", seed_type, " outside [0, ",
                types, ")");
  MATSAMP_CHECK(seed_offsets.size() >= 2 && seed_offsets.front() == 0 &&
                    seed_offsets.back() == static_cast<int64_t>(seeds.size()),
                "heterogeneous sampling: seed offsets must run from 0 to the ", seeds.size(), " seeds");
  const int64_t count = graph_.types[seed_type].count;
  for (vid_t v : seeds)
    MATSAMP_CHECK(v >= 0 && v < count, "heterogeneous sampling: seed ", v, " is not a ", graph_.types[seed_type].name,
                  " vertex (there are ", count, ")");
  const int64_t k = static_cast<int64_t>(seed_offsets.size()) - 1;

  HeteroBulk bulk{first_minibatch, seed_type, seeds, seed_offsets, source_, {}};
  std::vector<BlockedIds> frontier(types);
  for (int t = 0; t < types; ++t)
    frontier[t] = t == seed_type ? BlockedIds{backend.upload_ids(seeds), seed_offsets}
                                 : BlockedIds{backend.upload_ids({}), Offsets(k + 1, 0)};
  const size_t relations = relations_.size();
  for (int l = 0; l < num_layers_; ++l) {
    HeteroLayer layer;
    layer.adj.resize(relations);
    layer.row_offsets.resize(relations);
    // Per source type: the sampled relations into it, to share its vertex list.
    std::vector<std::vector<Matrix>> parts(types);
    std::vector<std::vector<Offsets>> part_offsets(types);
    std::vector<std::vector<size_t>> part_relations(types);
    for (size_t r = 0; r < relations; ++r) {
      const BlockedIds& rows = frontier[destination_[r]];
      const int64_t fanout = fanouts_[r][l];
      if (fanout == 0 || rows.offsets.back() == 0) continue;
      const SampleKeys keys{relation_seed(ctx.seed, r), epoch, static_cast<uint32_t>(l), first_minibatch, rows.offsets};
      Matrix s =
          ctx.timed(&StepStats::sampling, [&] { return backend.sample_rows(relations_[r], rows.ids, fanout, keys); });
      parts[source_[r]].push_back(backend.normalize_rows(std::move(s), RowScale::mean));
      part_offsets[source_[r]].push_back(rows.offsets);
      part_relations[source_[r]].push_back(r);
      layer.row_offsets[r] = rows.offsets;
    }
    layer.vertices.resize(types);
    for (int t = 0; t < types; ++t) {
      if (parts[t].empty()) {
        layer.vertices[t] = frontier[t];
        continue;
      }
      SharedCompacted c = ctx.timed(&StepStats::extraction, [&] {
        return backend.compact_columns_shared(std::move(parts[t]), part_offsets[t], frontier[t]);
      });
      for (size_t i = 0; i < part_relations[t].size(); ++i) layer.adj[part_relations[t][i]] = std::move(c.adj[i]);
      layer.vertices[t] = std::move(c.vertices);
    }
    frontier = layer.vertices;
    bulk.layers.push_back(std::move(layer));
  }
  return bulk;
}

HeteroBulkSample to_host(Backend& backend, HeteroBulk bulk) {
  HeteroBulkSample out{bulk.first_minibatch,
                       bulk.seed_type,
                       std::move(bulk.seeds),
                       std::move(bulk.seed_offsets),
                       std::move(bulk.relation_sources),
                       {}};
  for (HeteroLayer& layer : bulk.layers) {
    HeteroSampledLayer host;
    for (size_t r = 0; r < layer.adj.size(); ++r)
      host.adj.push_back(layer.adj[r].defined() ? backend.to_host(std::move(layer.adj[r])) : CsrMatrix{});
    host.row_offsets = std::move(layer.row_offsets);
    for (BlockedIds& v : layer.vertices) {
      host.vertices.push_back(backend.ids_to_host(std::move(v.ids)));
      host.vertex_offsets.push_back(std::move(v.offsets));
    }
    out.layers.push_back(std::move(host));
  }
  return out;
}

HeteroMinibatch extract_minibatch(const HeteroBulkSample& bulk, int64_t g) {
  MATSAMP_CHECK(g >= 0 && g < bulk.count(), "extract_minibatch: minibatch ", g, " not in bulk of ", bulk.count());
  HeteroMinibatch mb;
  mb.id = bulk.first_minibatch + g;
  mb.seeds.assign(bulk.seeds.begin() + bulk.seed_offsets[g], bulk.seeds.begin() + bulk.seed_offsets[g + 1]);
  for (const HeteroSampledLayer& layer : bulk.layers) {
    HeteroMinibatchLayer out;
    for (size_t t = 0; t < layer.vertices.size(); ++t)
      out.vertices.emplace_back(layer.vertices[t].begin() + layer.vertex_offsets[t][g],
                                layer.vertices[t].begin() + layer.vertex_offsets[t][g + 1]);
    for (size_t r = 0; r < layer.adj.size(); ++r) {
      const CsrMatrix& a = layer.adj[r];
      if (a.rows == 0) {
        out.adj.emplace_back();
        continue;
      }
      const std::vector<int64_t>& cols = layer.vertex_offsets[bulk.relation_sources[r]];
      out.adj.push_back(minibatch_block(a, layer.row_offsets[r][g], layer.row_offsets[r][g + 1], cols[g], cols[g + 1]));
    }
    mb.layers.push_back(std::move(out));
  }
  return mb;
}

std::vector<std::vector<int64_t>> parse_relation_fanouts(const HeteroGraph& graph, const std::string& text) {
  const size_t relations = graph.relations.size();
  if (text.find('=') == std::string::npos)
    return std::vector<std::vector<int64_t>>(relations, parse_counts(text, "fanouts"));
  std::vector<std::vector<int64_t>> out(relations);
  std::stringstream in(text);
  std::string entry;
  size_t layers = 0;
  while (std::getline(in, entry, ';')) {
    const size_t eq = entry.find('=');
    MATSAMP_CHECK(eq != std::string::npos, "fanouts: '", entry, "' is not RELATION=COUNTS (e.g. writes=15,10)");
    const int r = graph.relation_index(entry.substr(0, eq));
    MATSAMP_CHECK(out[r].empty(), "fanouts: relation ", graph.relations[r].key(), " is given twice");
    out[r] = parse_counts(entry.substr(eq + 1), "fanouts of " + graph.relations[r].key());
    MATSAMP_CHECK(layers == 0 || out[r].size() == layers, "fanouts: relation ", graph.relations[r].key(), " has ",
                  out[r].size(), " layers, the others ", layers);
    layers = out[r].size();
  }
  for (std::vector<int64_t>& f : out)
    if (f.empty()) f.assign(layers, 0);  // not sampled
  return out;
}

}  // namespace matsamp
