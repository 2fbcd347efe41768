// The sampler registry: names, options with their defaults, Python's sizes, and
// the errors for what it does not know.
#include <gtest/gtest.h>

#include <set>

#include "error_checks.h"
#include "generate/generators.h"
#include "graph/hetero_graph.h"
#include "ops/column_importance.h"
#include "reference.h"
#include "sampling/estimate_file.h"
#include "sampling/layer_wise.h"
#include "sampling/node_wise.h"
#include "sampling/registry.h"
#include "sampling/subgraph.h"
#include "test_data.h"

namespace matsamp {
namespace {

TEST(SamplerRegistry, EveryRegisteredSamplerBuildsWithItsDefaults) {
  const CsrMatrix ring = testing::ring_graph(40);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, ring);
  std::set<std::string> names;
  for (const SamplerSpec& spec : sampler_registry()) {
    SCOPED_TRACE(spec.name);
    EXPECT_TRUE(names.insert(spec.name).second) << "registered twice";
    EXPECT_FALSE(spec.summary.empty());
    bool sizes_option_is_an_option = false;
    for (const OptionSpec& o : spec.options) sizes_option_is_an_option |= o.name == spec.sizes_option;
    EXPECT_TRUE(sizes_option_is_an_option) << spec.sizes_option;
    const std::unique_ptr<Sampler> sampler = make_sampler(spec.name, graph);
    EXPECT_EQ(sampler->name(), spec.name);
    EXPECT_GT(sampler->bytes_per_minibatch(8), 0);
  }
  EXPECT_EQ(names.size(), sampler_names().size());
  std::set<std::string> options;
  for (const OptionSpec& o : all_sampler_options()) EXPECT_TRUE(options.insert(o.name).second) << o.name;
}

// The table is what every "can this sampler ..." asks, so it must say what each
// sampler is: its program's shape, and a capability flag exactly where the
// sampler implements that capability's interface.
TEST(SamplerRegistry, TheTableSaysWhatEachSamplerIsAndCanDo) {
  const CsrMatrix ring = testing::ring_graph(40);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, ring);
  int implemented[4] = {0, 0, 0, 0};
  for (const SamplerSpec& spec : sampler_registry()) {
    SCOPED_TRACE(spec.name);
    const std::unique_ptr<Sampler> sampler = make_sampler(spec.name, graph);
    const Sampler* s = sampler.get();
    EXPECT_EQ(dynamic_cast<const NodeWiseSampler*>(s) != nullptr, spec.family == SamplerFamily::node_wise);
    EXPECT_EQ(dynamic_cast<const LayerWiseSampler*>(s) != nullptr, spec.family == SamplerFamily::layer_wise);
    EXPECT_EQ(dynamic_cast<const SubgraphSampler*>(s) != nullptr, spec.family == SamplerFamily::subgraph);
    const bool interfaces[4] = {
        find_capability<EdgeSeedSampler>(*s) != nullptr, find_capability<EstimatingSampler>(*s) != nullptr,
        find_capability<ImportanceGuidedSampler>(*s) != nullptr, find_capability<TemporalSampler>(*s) != nullptr};
    EXPECT_EQ(interfaces[0], can(spec, kEdgeSeeds)) << "EdgeSeedSampler";
    EXPECT_EQ(interfaces[1], can(spec, kEstimates)) << "EstimatingSampler";
    EXPECT_EQ(interfaces[2], can(spec, kImportance)) << "ImportanceGuidedSampler";
    EXPECT_EQ(interfaces[3], can(spec, kTemporal)) << "TemporalSampler";
    for (int i = 0; i < 4; ++i) implemented[i] += interfaces[i];
    const std::vector<std::string> traits = sampler_traits(spec);
    EXPECT_EQ(traits.front(), family_name(spec.family));
    EXPECT_EQ(std::count(traits.begin(), traits.end(), "edge_seeds"), can(spec, kEdgeSeeds) ? 1 : 0);
  }
  for (int i = 0; i < 4; ++i) EXPECT_GT(implemented[i], 0) << "interface " << i << " implemented by no sampler";
  EXPECT_EQ(samplers_that(kImportance), "dgs");
  EXPECT_EQ(samplers_that(kTemporal), "graphsage or labor");
  EXPECT_NE(samplers_that(kEdgeSeeds).find(", labor, dgs, ladies or fastgcn"), std::string::npos)
      << samplers_that(kEdgeSeeds);
}

// A capability's interface works where the table has the flag, and asking a
// sampler without it for the interface names the samplers that have it.
TEST(SamplerRegistry, CapabilitiesAreCallableWhereFlaggedAndClearErrorsElsewhere) {
  const CsrMatrix ring = testing::ring_graph(40);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, ring);
  const std::string dir = testing::scratch_dir("registry_capabilities");
  // saint_norm on where taken: estimates are pre-sampled for GraphSAINT's normalization.
  const std::unique_ptr<Sampler> saint = make_sampler("saint", graph, SamplerParams().set("saint_norm", 1));
  EXPECT_NO_THROW(require_capability<EstimatingSampler>(*saint).keep_estimates(estimate_file(dir + "/saint.msg"), "k"));
  const std::unique_ptr<Sampler> dgs = make_sampler("dgs", graph);
  EXPECT_NO_THROW(require_capability<ImportanceGuidedSampler>(*dgs).set_column_importance(
      std::make_shared<const ColumnImportance>()));
  testing::expect_error([&] { require_capability<EdgeSeedSampler>(*saint); },
                        "the saint sampler cannot take seed edges out of its layers (graphsage, labor, dgs, ladies "
                        "or fastgcn can)");
  testing::expect_error([&] { require_capability<ImportanceGuidedSampler>(*saint); },
                        "the saint sampler cannot draw by a column importance (dgs can)");
  testing::expect_error([&] { require_capability<EstimatingSampler>(*dgs); },
                        "the dgs sampler cannot keep pre-sampled estimates (saint, saint_node, saint_edge or "
                        "frontier can)");
}

// The heterogeneous samplers are entries too: each builds from its kind of counts.
TEST(SamplerRegistry, HeterogeneousSamplersBuildFromTheirCounts) {
  HeteroMagOptions mag;
  mag.papers = 100;
  const HeteroGraph g = generate_hetero_mag(mag);
  auto backend = make_cpu_backend();
  std::set<SamplerFamily> families;
  for (const HeteroSamplerSpec& spec : hetero_sampler_registry()) {
    SCOPED_TRACE(spec.name);
    const size_t parts = spec.counts == HeteroCounts::per_type ? g.types.size() : g.relations.size();
    const std::unique_ptr<HeteroSampler> sampler =
        spec.make(*backend, g, std::vector<std::vector<int64_t>>(parts, {4, 2}), false);
    EXPECT_EQ(sampler->name(), spec.name);
    EXPECT_EQ(sampler->num_layers(), 2);
    EXPECT_EQ(&hetero_sampler_counting(spec.counts), &spec) << "one sampler per kind of counts";
    families.insert(spec.family);
  }
  EXPECT_EQ(families, (std::set<SamplerFamily>{SamplerFamily::node_wise, SamplerFamily::layer_wise}));
  testing::expect_error([] { find_hetero_sampler("ladies"); },
                        "unknown heterogeneous sampler 'ladies'; the heterogeneous samplers are graphsage, hgt");
}

TEST(SamplerRegistry, SizesSetTheListOrTheValuePerLayer) {
  const SamplerParams sage = params_from_sizes(find_sampler("graphsage"), {15, 10}, true);
  EXPECT_EQ(sage.list("fanouts"), (std::vector<int64_t>{15, 10}));
  const SamplerParams ladies = params_from_sizes(find_sampler("ladies"), {64}, false);
  EXPECT_EQ(ladies.list("samples"), (std::vector<int64_t>{64}));
  EXPECT_TRUE(ladies.flag("exclude_frontier"));
  const SamplerParams walks = params_from_sizes(find_sampler("saint"), {3, 3, 3}, true, true);
  EXPECT_EQ(walks.integer("walk_length"), 3);
  EXPECT_EQ(walks.integer("layers"), 3);
  EXPECT_TRUE(walks.flag("saint_norm"));  // the samplers that take it get it
  EXPECT_FALSE(sage.has("saint_norm"));   // the others do not
  testing::expect_error(
      [] {
        params_from_sizes(find_sampler("saint_node"), {5, 6}, true);
      },
      "saint_node: sizes are the budget once per layer and must be equal, got 6 after 5");
  testing::expect_error([] { params_from_sizes(find_sampler("saint"), {}, true); },
                        "saint: sizes need at least one layer");
}

TEST(SamplerRegistry, UnknownNamesAndBadOptionsAreClearErrors) {
  testing::expect_error([] { find_sampler("cluster"); },
                        "unknown sampler 'cluster'; the samplers are graphsage, labor, dgs, ladies, fastgcn, saint, "
                        "saint_node, saint_edge, frontier");
  SamplerParams params;
  params.set("layers", std::vector<int64_t>{2, 3});
  testing::expect_error([&] { params.integer("layers"); }, "sampler option 'layers' takes one number, got 2");
  testing::expect_error([&] { params.list("fanouts"); }, "sampler option 'fanouts' is not set");
  const CsrMatrix ring = testing::ring_graph(10);
  auto backend = make_cpu_backend();
  LocalGraph graph(*backend, ring);
  testing::expect_error(
      [&] {
        make_sampler("saint", graph, SamplerParams().set("layers", std::vector<int64_t>{1, 2}));
      },
      "sampler option 'layers' takes one number, got 2");
}

}  // namespace
}  // namespace matsamp
