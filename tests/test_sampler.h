// The samplers as the tests build them: by name from the registry over one host
// graph, sampled on a CPU backend of their own or on any backend given (the
// graph is then registered there for the call).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sampling/epoch.h"
#include "sampling/registry.h"

namespace matsamp::testing {

// A sampler bound to one backend: its graph registered there, and the context.
struct BoundSampler {
  std::unique_ptr<LocalGraph> graph;
  std::unique_ptr<Sampler> sampler;
  Context context;
};

class TestSampler {
 public:
  // Builds the sampler once on the CPU, so bad options fail here.
  TestSampler(std::string name, const CsrMatrix& adj, SamplerParams params, uint64_t seed)
      : name_(std::move(name)),
        adj_(adj),
        params_(std::move(params)),
        seed_(seed),
        cpu_(make_cpu_backend()),
        on_cpu_(bind(*cpu_)) {}

  std::string name() const { return on_cpu_.sampler->name(); }
  int num_layers() const { return on_cpu_.sampler->num_layers(); }
  int64_t bytes_per_minibatch(int64_t batch_size) const { return on_cpu_.sampler->bytes_per_minibatch(batch_size); }
  // The sampler bound to its own CPU backend, and that backend.
  const Sampler& on_cpu() const { return *on_cpu_.sampler; }
  Backend& cpu() const { return *cpu_; }
  uint64_t seed() const { return seed_; }

  BoundSampler bind(Backend& backend) const {
    auto graph = std::make_unique<LocalGraph>(backend, adj_);
    auto sampler = make_sampler(name_, *graph, params_);
    return {std::move(graph), std::move(sampler), Context{backend, seed_}};
  }

  // On the sampler's own CPU backend, or on `backend`; layers brought to the host.
  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& offsets, int64_t first, uint32_t epoch) const {
    Context ctx{*cpu_, seed_};
    return to_host(*cpu_, on_cpu_.sampler->sample(ctx, seeds, offsets, first, epoch));
  }
  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& offsets, int64_t first, uint32_t epoch,
                    Backend& backend, StepStats* stats = nullptr) const {
    BoundSampler bound = bind(backend);
    bound.context.stats = stats;
    return to_host(backend, bound.sampler->sample(bound.context, seeds, offsets, first, epoch));
  }

 private:
  std::string name_;
  const CsrMatrix& adj_;
  SamplerParams params_;
  uint64_t seed_;
  std::unique_ptr<Backend> cpu_;
  BoundSampler on_cpu_;
};

inline std::unique_ptr<TestSampler> make_test_sampler(const std::string& name, const CsrMatrix& adj,
                                                      SamplerParams params, uint64_t seed) {
  return std::make_unique<TestSampler>(name, adj, std::move(params), seed);
}
inline std::unique_ptr<TestSampler> graphsage(const CsrMatrix& adj, std::vector<int64_t> fanouts, uint64_t seed) {
  return make_test_sampler("graphsage", adj, SamplerParams().set("fanouts", std::move(fanouts)), seed);
}
inline std::unique_ptr<TestSampler> labor(const CsrMatrix& adj, std::vector<int64_t> fanouts, uint64_t seed) {
  return make_test_sampler("labor", adj, SamplerParams().set("fanouts", std::move(fanouts)), seed);
}
// "ladies" or "fastgcn".
inline std::unique_ptr<TestSampler> layer_wise(const std::string& name, const CsrMatrix& adj,
                                               std::vector<int64_t> samples, uint64_t seed,
                                               bool include_frontier = true) {
  return make_test_sampler(
      name, adj, SamplerParams().set("samples", std::move(samples)).set("exclude_frontier", int64_t{!include_frontier}),
      seed);
}
// "saint" (size: walk length), "saint_node", "saint_edge" or "frontier" (size: budget).
inline std::unique_ptr<TestSampler> saint(const std::string& name, const CsrMatrix& adj, int64_t size, int64_t layers,
                                          uint64_t seed) {
  const std::string option = name == "saint" ? "walk_length" : "budget";
  return make_test_sampler(name, adj, SamplerParams().set(option, size).set("layers", layers), seed);
}

// Every minibatch of an epoch over `vertices`, sampled on `backend`, in order.
inline std::vector<Minibatch> collect_minibatches(const TestSampler& sampler, Backend& backend,
                                                  const std::vector<vid_t>& vertices, const EpochOptions& options) {
  BoundSampler bound = sampler.bind(backend);
  EpochIterator epoch(*bound.sampler, bound.context, vertices, options);
  std::vector<Minibatch> out;
  BulkSample bulk;
  while (epoch.next(&bulk))
    for (int64_t g = 0; g < bulk.count(); ++g) out.push_back(extract_minibatch(bulk, g));
  return out;
}

}  // namespace matsamp::testing
