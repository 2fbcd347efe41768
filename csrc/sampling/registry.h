// The sampler registry: every sampler's name, its options and its factory. The
// CLI (sample, bench, train, distributed runs), the trainer and the Python
// bindings enumerate and build samplers only through it. Adding a sampler: its
// file (a SamplerSpec NAME_sampler() beside the program), one line in
// samplers.def, its tests.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sampling/capabilities.h"
#include "sampling/hetero_sample.h"
#include "sampling/sampler.h"
#include "sampling/sampling_graph.h"

namespace matsamp {

// One option of a sampler. Options of the same name mean the same thing in
// every sampler that takes them (the CLI has one --name for all).
struct OptionSpec {
  enum class Kind { list, integer, flag };
  std::string name;  // snake_case; the CLI spells it --kebab-case
  Kind kind = Kind::integer;
  std::vector<int64_t> default_value;  // flag: {0}
  std::string help;
};

// The shared options.
namespace option {
OptionSpec fanouts();           // list: neighbours per frontier vertex per layer, batch layer first
OptionSpec samples();           // list: vertices per minibatch per layer (layer-wise)
OptionSpec exclude_frontier();  // flag: the next layer is the sampled set only (layer-wise)
OptionSpec walk_length();       // integer: GraphSAINT random-walk steps
OptionSpec budget();            // integer: GraphSAINT vertices or edges drawn per minibatch
OptionSpec layers();            // integer: GraphSAINT layers
OptionSpec saint_norm();        // flag: GraphSAINT's aggregator normalization
OptionSpec replace();           // flag: GraphSAGE draws with replacement (PyG's replace=True)
OptionSpec expand_new_only();   // flag: node-wise hops expand only the previous hop's new vertices (PyG's rule)
}  // namespace option

// Option values by name.
class SamplerParams {
 public:
  SamplerParams() = default;
  SamplerParams& set(const std::string& name, std::vector<int64_t> value);
  SamplerParams& set(const std::string& name, int64_t value) { return set(name, std::vector<int64_t>{value}); }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  const std::vector<int64_t>& list(const std::string& name) const;
  int64_t integer(const std::string& name) const;
  bool flag(const std::string& name) const { return integer(name) != 0; }
  const std::map<std::string, std::vector<int64_t>>& values() const { return values_; }

 private:
  std::map<std::string, std::vector<int64_t>> values_;
};

// The graph matrices a sampler reads (what a GPU keeps resident for it).
enum class GraphMatrix { adjacency, normalized, squared, column_norms, edge_probabilities, edge_endpoints };

// The shape of a sampler's program (DESIGN.md): a frontier's neighbours row by
// row, a set of vertices per minibatch and layer, or one subgraph per minibatch.
enum class SamplerFamily { node_wise, layer_wise, subgraph };
const char* family_name(SamplerFamily family);  // "node_wise", "layer_wise", "subgraph"

// How the first product of a bulk reads the graph: what a partitioned run
// moves for it (the distributed bench's traffic model).
enum class FirstProduct {
  sampled_rows,    // rows of A sampled where they live (GraphSAGE, LABOR)
  walk_steps,      // one entry of each row of A (GraphSAINT's random walks)
  whole_rows,      // whole rows of Â, a row of Q per seed
  minibatch_rows,  // whole rows of Â summed per minibatch, a row of Q per minibatch (LADIES)
};

struct SamplerSpec {
  std::string name;
  std::string summary;  // one line, for --help and Python's docs
  SamplerFamily family;
  FirstProduct first_product;
  unsigned capabilities;  // Capability bits (sampling/capabilities.h)
  std::vector<OptionSpec> options;
  // The option a list of per-layer sizes sets (Python's `sizes`): a list option
  // takes the list; an integer option takes its one value repeated once per
  // layer, and "layers" the count.
  std::string sizes_option;
  std::vector<GraphMatrix> reads;
  // Builds the sampler over `graph` (which must outlive it) from params holding
  // every option of the spec.
  std::function<std::unique_ptr<Sampler>(SamplingGraph& graph, const SamplerParams& params)> make;
};

inline bool can(const SamplerSpec& spec, Capability capability) { return (spec.capabilities & capability) != 0; }

// The spec in words: its family, then "edge_seeds", "partitioned", "estimates"
// and "importance" where it has that capability.
std::vector<std::string> sampler_traits(const SamplerSpec& spec);

// The names of the samplers that can, as a list for messages ("graphsage, labor or dgs").
std::string samplers_that(Capability capability);

// Every sampler, in registration order.
const std::vector<SamplerSpec>& sampler_registry();
std::vector<std::string> sampler_names();
// The spec of that name; an error listing the names when there is none.
const SamplerSpec& find_sampler(const std::string& name);
// Every option of any sampler, once (first registration's spec).
std::vector<OptionSpec> all_sampler_options();

// A sampler's options from per-layer sizes (SamplerSpec::sizes_option) and,
// for the samplers that take them, whether the frontier is kept
// (exclude_frontier), GraphSAINT's normalization (saint_norm), draws with
// replacement (replace) and PyG's expansion (expand_new_only): Python's arguments.
SamplerParams params_from_sizes(const SamplerSpec& spec, const std::vector<int64_t>& sizes, bool include_frontier,
                                bool saint_norm = false, bool replace = false, bool expand_new_only = false);

// A sampler of heterogeneous graphs: its counts are per relation (node-wise:
// fanouts) or per vertex type (layer-wise: budgets), each a list over layers.
enum class HeteroCounts { per_relation, per_type };
struct HeteroSamplerSpec {
  std::string name;
  std::string summary;
  SamplerFamily family;
  HeteroCounts counts;
  // Builds the sampler over `graph` (registered in `backend`; both must outlive it);
  // expand_new_only: the node-wise sampler's PyG expansion (an error for others).
  std::function<std::unique_ptr<HeteroSampler>(Backend& backend, const HeteroGraph& graph,
                                               std::vector<std::vector<int64_t>> counts, bool expand_new_only)>
      make;
};
const std::vector<HeteroSamplerSpec>& hetero_sampler_registry();
std::vector<std::string> hetero_sampler_names();
// The spec of that name; an error listing the names when there is none.
const HeteroSamplerSpec& find_hetero_sampler(const std::string& name);
// The one heterogeneous sampler whose counts are `counts` (what the options given name).
const HeteroSamplerSpec& hetero_sampler_counting(HeteroCounts counts);

// Builds sampler `name`: params may hold any registered option (those the
// sampler does not take are ignored); missing ones take their defaults.
std::unique_ptr<Sampler> make_sampler(const std::string& name, SamplingGraph& graph, const SamplerParams& params = {});

}  // namespace matsamp
