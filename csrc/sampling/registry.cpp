#include "sampling/registry.h"

#include <algorithm>
#include <set>

namespace matsamp {

#define MATSAMP_SAMPLER(name) SamplerSpec name##_sampler();
#define MATSAMP_HETERO_SAMPLER(name) HeteroSamplerSpec name##_hetero_sampler();
#include "sampling/samplers.def"
#undef MATSAMP_HETERO_SAMPLER
#undef MATSAMP_SAMPLER

namespace option {
OptionSpec fanouts() {
  return {"fanouts",
          OptionSpec::Kind::list,
          {15, 10, 5},
          "neighbours per frontier vertex in each layer, batch layer first (LABOR: expected)"};
}
OptionSpec samples() {
  return {"samples", OptionSpec::Kind::list, {512}, "vertices per minibatch in each layer (LADIES, FastGCN)"};
}
OptionSpec exclude_frontier() {
  return {"exclude_frontier",
          OptionSpec::Kind::flag,
          {0},
          "layer-wise: the next layer is the sampled set only (by default the frontier is kept, first)"};
}
OptionSpec walk_length() {
  return {"walk_length", OptionSpec::Kind::integer, {2}, "GraphSAINT: random-walk steps from each batch vertex"};
}
OptionSpec budget() {
  return {"budget",
          OptionSpec::Kind::integer,
          {1024},
          "saint_node: vertices drawn per minibatch (p(v) ∝ ‖Â[:,v]‖²); saint_edge: edges drawn per minibatch "
          "(p(u,v) ∝ 1/deg(u) + 1/deg(v)), both endpoints added; frontier: steps, each popping a frontier vertex"};
}
OptionSpec layers() {
  return {"layers",
          OptionSpec::Kind::integer,
          {2},
          "GraphSAINT: layers, each the minibatch's subgraph (the batch layer's rows are its roots)"};
}
OptionSpec saint_norm() {
  return {"saint_norm",
          OptionSpec::Kind::flag,
          {0},
          "GraphSAINT: scale each layer entry Â_vu by 1/α_uv, α_uv = P(u sampled | v sampled) estimated by "
          "pre-sampling: an unbiased aggregation (without it rows are normalized; train turns it on)"};
}
OptionSpec replace() {
  return {"replace",
          OptionSpec::Kind::flag,
          {0},
          "draw each layer's neighbours independently, repeats kept (PyG's replace=True): fanouts[l] per vertex "
          "with any neighbour"};
}
OptionSpec expand_new_only() {
  return {"expand_new_only",
          OptionSpec::Kind::flag,
          {0},
          "node-wise: each layer draws only for the vertices its previous layer added, as PyG's loaders expand "
          "(the other frontier vertices keep empty rows); by default every frontier vertex draws"};
}
}  // namespace option

const char* family_name(SamplerFamily family) {
  switch (family) {
    case SamplerFamily::node_wise: return "node_wise";
    case SamplerFamily::layer_wise: return "layer_wise";
    case SamplerFamily::subgraph: return "subgraph";
  }
  return "unknown";
}

SamplerParams& SamplerParams::set(const std::string& name, std::vector<int64_t> value) {
  values_[name] = std::move(value);
  return *this;
}

const std::vector<int64_t>& SamplerParams::list(const std::string& name) const {
  const auto it = values_.find(name);
  MATSAMP_CHECK(it != values_.end(), "sampler option '", name, "' is not set");
  return it->second;
}

int64_t SamplerParams::integer(const std::string& name) const {
  const std::vector<int64_t>& value = list(name);
  MATSAMP_CHECK(value.size() == 1, "sampler option '", name, "' takes one number, got ", value.size());
  return value.front();
}

const std::vector<SamplerSpec>& sampler_registry() {
  static const std::vector<SamplerSpec> registry = {
#define MATSAMP_SAMPLER(name) name##_sampler(),
#define MATSAMP_HETERO_SAMPLER(name)
#include "sampling/samplers.def"
#undef MATSAMP_HETERO_SAMPLER
#undef MATSAMP_SAMPLER
  };
  return registry;
}

const std::vector<HeteroSamplerSpec>& hetero_sampler_registry() {
  static const std::vector<HeteroSamplerSpec> registry = {
#define MATSAMP_SAMPLER(name)
#define MATSAMP_HETERO_SAMPLER(name) name##_hetero_sampler(),
#include "sampling/samplers.def"
#undef MATSAMP_HETERO_SAMPLER
#undef MATSAMP_SAMPLER
  };
  return registry;
}

namespace {

template <class Spec>
std::vector<std::string> names_of(const std::vector<Spec>& registry) {
  std::vector<std::string> names;
  for (const Spec& spec : registry) names.push_back(spec.name);
  return names;
}

template <class Spec>
const Spec& find_in(const std::vector<Spec>& registry, const std::string& name, const char* what) {
  for (const Spec& spec : registry)
    if (spec.name == name) return spec;
  std::string known;
  for (const std::string& n : names_of(registry)) known += (known.empty() ? "" : ", ") + n;
  throw Error("unknown " + std::string(what) + " '" + name + "'; the " + what + "s are " + known);
}

}  // namespace

std::vector<std::string> sampler_names() { return names_of(sampler_registry()); }

const SamplerSpec& find_sampler(const std::string& name) {
  const auto named = [&](const auto& spec) { return spec.name == name; };
  const bool homogeneous = std::any_of(sampler_registry().begin(), sampler_registry().end(), named);
  const bool heterogeneous = std::any_of(hetero_sampler_registry().begin(), hetero_sampler_registry().end(), named);
  MATSAMP_CHECK(homogeneous || !heterogeneous, "the ", name,
                " sampler samples heterogeneous graphs (an OGB heterogeneous folder, a "
                "heterogeneous .msg or mag:PAPERS)");
  return find_in(sampler_registry(), name, "sampler");
}

std::vector<std::string> sampler_traits(const SamplerSpec& spec) {
  std::vector<std::string> traits{family_name(spec.family)};
  const std::pair<Capability, const char*> words[] = {{kEdgeSeeds, "edge_seeds"},
                                                      {kPartitioned, "partitioned"},
                                                      {kEstimates, "estimates"},
                                                      {kImportance, "importance"},
                                                      {kTemporal, "temporal"}};
  for (const auto& [capability, word] : words)
    if (can(spec, capability)) traits.push_back(word);
  for (const OptionSpec& o : spec.options)
    if (o.name == "replace") traits.push_back("replace");  // draws with replacement
  return traits;
}

std::string samplers_that(Capability capability) {
  std::vector<std::string> names;
  for (const SamplerSpec& spec : sampler_registry())
    if (can(spec, capability)) names.push_back(spec.name);
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return list;
}

std::vector<std::string> hetero_sampler_names() { return names_of(hetero_sampler_registry()); }

const HeteroSamplerSpec& find_hetero_sampler(const std::string& name) {
  return find_in(hetero_sampler_registry(), name, "heterogeneous sampler");
}

const HeteroSamplerSpec& hetero_sampler_counting(HeteroCounts counts) {
  for (const HeteroSamplerSpec& spec : hetero_sampler_registry())
    if (spec.counts == counts) return spec;
  fail("no heterogeneous sampler counts per ", counts == HeteroCounts::per_type ? "vertex type" : "relation");
}

std::vector<OptionSpec> all_sampler_options() {
  std::vector<OptionSpec> options;
  std::set<std::string> seen;
  for (const SamplerSpec& spec : sampler_registry())
    for (const OptionSpec& o : spec.options)
      if (seen.insert(o.name).second) options.push_back(o);
  return options;
}

SamplerParams params_from_sizes(const SamplerSpec& spec, const std::vector<int64_t>& sizes, bool include_frontier,
                                bool saint_norm, bool replace, bool expand_new_only) {
  if (replace) {
    std::string takers;
    bool takes = false;
    for (const SamplerSpec& other : sampler_registry())
      for (const OptionSpec& o : other.options)
        if (o.name == "replace") {
          takers += (takers.empty() ? "" : ", ") + other.name;
          takes |= other.name == spec.name;
        }
    MATSAMP_CHECK(takes, "the ", spec.name, " sampler does not draw with replacement (", takers, " does)");
  }
  SamplerParams params;
  for (const OptionSpec& o : spec.options) {
    if (o.name == "exclude_frontier") params.set(o.name, int64_t{!include_frontier});
    if (o.name == "saint_norm") params.set(o.name, int64_t{saint_norm});
    if (o.name == "replace") params.set(o.name, int64_t{replace});
    if (o.name == "expand_new_only") params.set(o.name, int64_t{expand_new_only});
    if (o.name != spec.sizes_option) continue;
    if (o.kind == OptionSpec::Kind::list) {
      params.set(o.name, sizes);
      continue;
    }
    MATSAMP_CHECK(!sizes.empty(), spec.name, ": sizes need at least one layer");
    std::string words = o.name;  // "walk length"
    std::replace(words.begin(), words.end(), '_', ' ');
    for (int64_t size : sizes)
      MATSAMP_CHECK(size == sizes.front(), spec.name, ": sizes are the ", words,
                    " once per layer and must be equal, got ", size, " after ", sizes.front());
    params.set(o.name, sizes.front()).set("layers", static_cast<int64_t>(sizes.size()));
  }
  return params;
}

std::unique_ptr<Sampler> make_sampler(const std::string& name, SamplingGraph& graph, const SamplerParams& params) {
  const SamplerSpec& spec = find_sampler(name);
  MATSAMP_CHECK(!graph.partitioned() || can(spec, kPartitioned), name,
                " samples a replicated graph only (it reads the whole graph on every rank): run it with the graph "
                "replicated");
  SamplerParams complete;
  for (const OptionSpec& o : spec.options)
    complete.set(o.name, params.has(o.name) ? params.list(o.name) : o.default_value);
  return spec.make(graph, complete);
}

}  // namespace matsamp
