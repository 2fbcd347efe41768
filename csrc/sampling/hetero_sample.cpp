#include "sampling/hetero_sample.h"

#include <algorithm>
#include <sstream>

#include "core/error.h"

namespace matsamp {

namespace {

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

HeteroRelations::HeteroRelations(const HeteroGraph& g, std::vector<Matrix> handles)
    : graph(g), adj(std::move(handles)) {
  validate_schema(graph, "heterogeneous sampling");  // the handles hold the entries
  MATSAMP_CHECK(adj.size() == graph.relations.size(), "heterogeneous sampling: ", adj.size(),
                " relation matrices for a graph of ", graph.relations.size(), " relations");
  for (size_t r = 0; r < adj.size(); ++r) {
    const Relation& relation = graph.relations[r];
    MATSAMP_CHECK(adj[r].rows() == relation.adj.rows && adj[r].cols() == relation.adj.cols,
                  "heterogeneous sampling: the matrix of relation ", relation.key(), " is ", adj[r].rows(), " x ",
                  adj[r].cols(), ", the graph's ", relation.adj.rows, " x ", relation.adj.cols);
    source.push_back(graph.type_index(relation.source));
    destination.push_back(graph.type_index(relation.destination));
  }
}

HeteroRelations HeteroRelations::registered(Backend& backend, const HeteroGraph& graph) {
  validate(graph, "heterogeneous sampling");
  std::vector<Matrix> handles;
  for (const Relation& r : graph.relations) handles.push_back(backend.register_graph(r.adj));
  return HeteroRelations(graph, std::move(handles));
}

void check_held_by(const std::vector<Matrix>& matrices, const Context& ctx) {
  for (const Matrix& a : matrices)
    MATSAMP_CHECK(!a.defined() || a.owner() == &ctx.backend, "heterogeneous sampling: the context's backend (",
                  ctx.backend.name(), ") does not hold the sampler's matrices");
}

HeteroSeeds HeteroSeeds::of_type(size_t types, int type, std::vector<vid_t> ids, Offsets offsets) {
  MATSAMP_CHECK(type >= 0 && static_cast<size_t>(type) < types, "heterogeneous sampling: seed type ", type,
                " outside [0, ", types, ")");
  HeteroSeeds out{std::vector<std::vector<vid_t>>(types), std::vector<Offsets>(types, Offsets(offsets.size(), 0))};
  out.ids[type] = std::move(ids);
  out.offsets[type] = std::move(offsets);
  return out;
}

HeteroSeedBatch upload_hetero_seeds(Backend& backend, HeteroSeeds seeds) {
  std::vector<BlockedIds> resident;
  for (size_t t = 0; t < seeds.ids.size(); ++t)
    resident.push_back({backend.upload_ids(seeds.ids[t]), t < seeds.offsets.size() ? seeds.offsets[t] : Offsets{0}});
  return {std::move(seeds), std::move(resident)};
}

HeteroBulk HeteroSampler::sample_before(Context&, const HeteroSeedBatch&, int64_t, uint32_t,
                                        const HeteroTemporalBounds&) const {
  throw Error("heterogeneous sampler " + name() + " cannot sample by time (graphsage can)");
}

HeteroBulk HeteroSampler::sample(Context& ctx, const HeteroSeeds& seeds, int64_t first_minibatch,
                                 uint32_t epoch) const {
  return sample(ctx, upload_hetero_seeds(ctx.backend, seeds), first_minibatch, epoch);
}

HeteroBulk HeteroSampler::sample(Context& ctx, int seed_type, const std::vector<vid_t>& seeds,
                                 const Offsets& seed_offsets, int64_t first_minibatch, uint32_t epoch) const {
  return sample(ctx, HeteroSeeds::of_type(graph().types.size(), seed_type, seeds, seed_offsets), first_minibatch,
                epoch);
}

void check_hetero_seeds(const HeteroGraph& graph, const HeteroSeeds& seeds) {
  const std::vector<VertexType>& types = graph.types;
  MATSAMP_CHECK(seeds.ids.size() == types.size() && seeds.offsets.size() == types.size(),
                "heterogeneous sampling: seed lists for ", seeds.ids.size(), " vertex types, the graph has ",
                types.size());
  const int64_t k = seeds.count();
  MATSAMP_CHECK(k >= 1, "heterogeneous sampling: no minibatch (seed offsets need k + 1 >= 2 entries)");
  for (size_t t = 0; t < types.size(); ++t) {
    const std::vector<vid_t>& ids = seeds.ids[t];
    const Offsets& offsets = seeds.offsets[t];
    MATSAMP_CHECK(static_cast<int64_t>(offsets.size()) == k + 1 && offsets.front() == 0 &&
                      offsets.back() == static_cast<int64_t>(ids.size()) &&
                      std::is_sorted(offsets.begin(), offsets.end()),
                  "heterogeneous sampling: the ", types[t].name, " seed offsets must run from 0 to its ", ids.size(),
                  " seeds in ", k, " minibatches");
    for (vid_t v : ids)
      MATSAMP_CHECK(v >= 0 && v < types[t].count, "heterogeneous sampling: seed ", v, " is not a ", types[t].name,
                    " vertex (there are ", types[t].count, ")");
  }
}

uint64_t part_seed(uint64_t seed, size_t i) {
  if (i == 0) return seed;
  uint64_t z = static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull;  // splitmix64's finalizer
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return seed ^ z ^ (z >> 31);
}

std::vector<std::vector<int64_t>> parse_named_counts(const std::string& text, const std::vector<std::string>& names,
                                                     const std::function<int(const std::string&)>& index_of,
                                                     const std::string& what) {
  if (text.find('=') == std::string::npos)
    return std::vector<std::vector<int64_t>>(names.size(), parse_counts(text, what));
  std::vector<std::vector<int64_t>> out(names.size());
  std::stringstream in(text);
  std::string entry;
  size_t layers = 0;
  while (std::getline(in, entry, ';')) {
    const size_t eq = entry.find('=');
    MATSAMP_CHECK(eq != std::string::npos, what, ": '", entry, "' is not NAME=COUNTS (e.g. cites=15,10)");
    const int i = index_of(entry.substr(0, eq));
    MATSAMP_CHECK(out[i].empty(), what, ": ", names[i], " is given twice");
    out[i] = parse_counts(entry.substr(eq + 1), what + " of " + names[i]);
    MATSAMP_CHECK(layers == 0 || out[i].size() == layers, what, ": ", names[i], " has ", out[i].size(),
                  " layers, the others ", layers);
    layers = out[i].size();
  }
  for (std::vector<int64_t>& counts : out)
    if (counts.empty()) counts.assign(layers, 0);  // not sampled
  return out;
}

HeteroBulkSample to_host(Backend& backend, HeteroBulk bulk) {
  HeteroBulkSample out{bulk.first_minibatch, std::move(bulk.seeds), std::move(bulk.relation_sources), {}};
  for (HeteroLayer& layer : bulk.layers) {
    HeteroSampledLayer host;
    for (size_t r = 0; r < layer.adj.size(); ++r)
      host.adj.push_back(layer.adj[r].defined() ? backend.to_host(std::move(layer.adj[r])) : CsrMatrix{});
    host.row_offsets = std::move(layer.row_offsets);
    host.positions.resize(layer.adj.size());
    for (size_t r = 0; r < layer.positions.size(); ++r)
      if (layer.positions[r].defined()) host.positions[r] = backend.ids_to_host(std::move(layer.positions[r]));
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
  for (size_t t = 0; t < bulk.seeds.ids.size(); ++t) {
    const std::vector<vid_t>& ids = bulk.seeds.ids[t];
    mb.seeds.emplace_back(ids.begin() + bulk.seeds.offsets[t][g], ids.begin() + bulk.seeds.offsets[t][g + 1]);
  }
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

}  // namespace matsamp
