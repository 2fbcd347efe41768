// The options of a command on a heterogeneous graph (bench, train): which
// relations to sample with which fanouts (or which types with which budgets),
// the seeds' vertex type, reverses.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cli/graph_source.h"
#include "cli/sampler_options.h"
#include "graph/hetero_graph.h"
#include "sampling/hetero_sample.h"
#include "sampling/registry.h"

namespace matsamp::cli {

struct HeteroOptions {
  std::string relation_fanouts;  // "rel=15,10;rel2=5,5" (empty: --fanouts for every relation)
  std::string type_budgets;      // "paper=512,256;author=256,128" or "512,256": the layer-wise sampler
  std::string seed_type;         // empty: the type with a training split, else the first labelled one
  bool add_reverse = true;       // false (--keep-relations): the relations as given
};

void add_hetero_options(CLI::App& command, HeteroOptions& options);

// The graph (reverses added unless kept as given), the seeds' type, the
// fanouts per relation and layer (node-wise) or the budgets per vertex type and
// layer (layer-wise, when --type-budgets is given), and the backend that samples
// them (sized for the largest relation), as the options say.
struct HeteroSetup {
  const HeteroSamplerSpec* sampler = nullptr;  // of hetero_sampler_registry()
  HeteroGraph graph;
  int seed_type = 0;
  std::vector<std::vector<int64_t>> fanouts;  // empty for the layer-wise sampler
  std::vector<std::vector<int64_t>> budgets;  // empty for the node-wise sampler
  std::unique_ptr<Backend> backend;
};
HeteroSetup prepare_hetero(const GraphSource& source, SamplerOptions& sampler, const HeteroOptions& options);
// The same for a graph at hand with at least one relation (reverses already
// added as the options say; only its schema, where the relations lie in blocks
// elsewhere), the backend sized for `sized_by` (null: the relation of most entries).
HeteroSetup hetero_setup(HeteroGraph graph, SamplerOptions& sampler, const HeteroOptions& options,
                         const CsrMatrix* sized_by);

// The sampler the setup names, over setup.graph in `backend`.
std::unique_ptr<HeteroSampler> make_hetero_sampler(Backend& backend, const HeteroSetup& setup);

}  // namespace matsamp::cli
