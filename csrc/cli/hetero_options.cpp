#include "cli/hetero_options.h"

#include <algorithm>

#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"

namespace matsamp::cli {

namespace {

int default_seed_type(const HeteroGraph& g) {
  for (size_t t = 0; t < g.types.size(); ++t)
    if (g.types[t].splits.count("train")) return static_cast<int>(t);
  for (size_t t = 0; t < g.types.size(); ++t)
    if (!g.types[t].labels.empty()) return static_cast<int>(t);
  return 0;
}

}  // namespace

void add_hetero_options(CLI::App& command, HeteroOptions& options) {
  const char* group = "Heterogeneous graphs (OGB heterogeneous folders, their .msg, mag:PAPERS)";
  command
      .add_option("--relation-fanouts", options.relation_fanouts,
                  "fanouts per relation and layer, 'writes=15,10;cites=10,5' (a relation by name or as "
                  "src,name,dst; relations left out are not sampled); default: --fanouts for every relation")
      ->group(group);
  command
      .add_option("--type-budgets", options.type_budgets,
                  "sample layer-wise as HGT does: vertices drawn per minibatch, per vertex type and layer, "
                  "'paper=512,256;author=256,128' (types left out are not drawn) or one list for every type; "
                  "p ∝ the squared normalised degree within each type")
      ->group(group);
  command
      .add_option("--seed-type", options.seed_type,
                  "vertex type of the seeds (default: the type with a training split, else the first labelled one)")
      ->group(group);
  command
      .add_flag("--add-reverse,!--keep-relations", options.add_reverse,
                "add each relation's reverse ('rev_' + name) and make relations within one type symmetric, as "
                "PyG's ToUndirected does (the default); --keep-relations samples the relations as given")
      ->group(group);
}

namespace {

// The sampler the counts given name (--sampler may name it too; the default names none).
const HeteroSamplerSpec& chosen_sampler(const SamplerOptions& sampler, const HeteroOptions& options) {
  MATSAMP_CHECK(options.type_budgets.empty() || options.relation_fanouts.empty(),
                "--relation-fanouts (node-wise) and --type-budgets (layer-wise) name two different samplers: give one");
  const HeteroSamplerSpec& chosen =
      hetero_sampler_counting(options.type_budgets.empty() ? HeteroCounts::per_relation : HeteroCounts::per_type);
  std::string choices;
  for (const HeteroSamplerSpec& spec : hetero_sampler_registry())
    choices += (choices.empty() ? "" : "; ") + spec.name +
               (spec.counts == HeteroCounts::per_type ? ": --type-budgets" : ": --fanouts or --relation-fanouts");
  MATSAMP_CHECK(sampler.sampler == sampler_registry().front().name || sampler.sampler == chosen.name,
                "heterogeneous graphs are sampled by ", chosen.name, " with the counts given (", choices, "), not by ",
                sampler.sampler);
  return chosen;
}

}  // namespace

HeteroSetup prepare_hetero(const GraphSource& source, SamplerOptions& sampler, const HeteroOptions& options) {
  chosen_sampler(sampler, options);  // before a long load
  HeteroGraph g = load_hetero_graph(source.spec, source.seed);
  if (options.add_reverse) add_reverse_relations(g);
  MATSAMP_CHECK(!g.relations.empty(), source.spec, " has no relations to sample");
  return hetero_setup(std::move(g), sampler, options, nullptr);
}

HeteroSetup hetero_setup(HeteroGraph graph, SamplerOptions& sampler, const HeteroOptions& options,
                         const CsrMatrix* sized_by) {
  HeteroSetup setup;
  setup.sampler = &chosen_sampler(sampler, options);
  setup.graph = std::move(graph);
  HeteroGraph& g = setup.graph;
  setup.seed_type = options.seed_type.empty() ? default_seed_type(g) : g.type_index(options.seed_type);
  if (!options.type_budgets.empty()) setup.budgets = parse_type_budgets(g, options.type_budgets);
  else
    setup.fanouts = options.relation_fanouts.empty()
                        ? std::vector<std::vector<int64_t>>(g.relations.size(), sampler.list("fanouts"))
                        : parse_relation_fanouts(g, options.relation_fanouts);
  if (!sized_by)
    sized_by = &std::max_element(g.relations.begin(), g.relations.end(), [](const Relation& a, const Relation& b) {
                  return a.adj.nnz() < b.adj.nnz();
                })->adj;
  setup.backend = make_backend(sampler, *sized_by);  // may set the memory budget (cuda)
  return setup;
}

std::unique_ptr<HeteroSampler> make_hetero_sampler(Backend& backend, const HeteroSetup& setup) {
  return setup.sampler->make(backend, setup.graph,
                             setup.sampler->counts == HeteroCounts::per_type ? setup.budgets : setup.fanouts, false);
}

}  // namespace matsamp::cli
