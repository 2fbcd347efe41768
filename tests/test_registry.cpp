// The sampler registry: names, options with their defaults, Python's sizes, and
// the errors for what it does not know.
#include <gtest/gtest.h>

#include <set>

#include "error_checks.h"
#include "reference.h"
#include "sampling/registry.h"

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
