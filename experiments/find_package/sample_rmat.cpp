// Samples one epoch of GraphSAGE minibatches on a generated R-MAT graph with an
// installed matsamp, and prints what it sampled as one JSON line.
#include <cstdio>

#include "backend/backend_registry.h"
#include "generate/generators.h"
#include "sampling/epoch.h"
#include "sampling/registry.h"
#include "sampling/sampling_graph.h"

int main(int argc, char** argv) {
  using namespace matsamp;
  try {
    RmatOptions rmat;
    rmat.scale = 12;
    const Graph g = generate_rmat(rmat);
    auto backend = make_backend(parse_device(argc > 1 ? argv[1] : "cpu"));
    LocalGraph graph(*backend, g.adj);
    SamplerParams params;
    params.set("fanouts", std::vector<int64_t>{10, 5});
    const auto sampler = make_sampler("graphsage", graph, params);
    EpochOptions options;
    options.batch_size = 256;
    EpochIterator epoch(*sampler, Context{*backend, options.seed}, training_vertices(g.num_vertices(), 1.0, 1),
                        options);
    int64_t minibatches = 0, edges = 0;
    for (BulkSample bulk; epoch.next(&bulk);) {
      minibatches += bulk.count();
      edges += bulk.sampled_edges();
    }
    std::printf("{\"vertices\":%lld,\"minibatches\":%lld,\"sampled_edges\":%lld}\n",
                static_cast<long long>(g.num_vertices()), static_cast<long long>(minibatches),
                static_cast<long long>(edges));
  } catch (const Error& e) {
    std::fprintf(stderr, "sample_rmat: %s\n", e.what());
    return 1;
  }
}
