// The frontier sampler's Dashboard against Algorithm 2 as written (an O(m)
// inverse transform over the frontier's degrees per pop), on the same roots, in
// the same run: one minibatch at a time on one thread (the serial sampler),
// the Dashboard on one thread, the Dashboard over all threads (minibatches in
// parallel) and, where a GPU is, the CUDA walk (a thread block per minibatch;
// its pops, kept on the device, checked against the CPU's). Prints one JSON line.
// Usage: frontier_bench [GRAPH] [FRONTIER m] [BUDGET steps] [MINIBATCHES]
//        (default rmat:18 with 1000 / 8000 / 32: the paper's m and n - m)
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "generate/generators.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "kernels/cuda_backend.h"
#include "ops/frontier.h"
#include "util/json.h"

using namespace matsamp;

namespace {

template <class Fn>
double seconds(Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string graph = argc > 1 ? argv[1] : "rmat:18";
    const int64_t m = argc > 2 ? std::stoll(argv[2]) : 1000, steps = argc > 3 ? std::stoll(argv[3]) : 8000,
                  k = argc > 4 ? std::stoll(argv[4]) : 32;
    CsrMatrix adj;
    if (graph.rfind("rmat:", 0) == 0) {
      RmatOptions o;
      o.scale = std::stoi(graph.substr(5));
      adj = generate_rmat(o).adj;
    } else {
      adj = symmetrize(read_graph(graph).adj);
    }
    std::vector<vid_t> roots;
    Offsets offsets{0};
    for (int64_t g = 0; g < k; ++g) {
      for (int64_t i = 0; i < m; ++i) roots.push_back(static_cast<vid_t>((g * 7919 + i * 104729) % adj.rows));
      offsets.push_back(static_cast<int64_t>(roots.size()));
    }
    const FrontierKeys keys{1, 0, 0};
    const int threads = omp_get_max_threads();
    int64_t pops = 0;
    const double serial_s = seconds([&] {
      for (int64_t g = 0; g < k; ++g) {
        const std::vector<vid_t> own(roots.begin() + offsets[g], roots.begin() + offsets[g + 1]);
        pops += static_cast<int64_t>(frontier_sample_serial(adj, own, steps, keys, g).size());
      }
    });
    omp_set_num_threads(1);
    const double dashboard_one_s = seconds([&] { frontier_sample(adj, roots, offsets, steps, keys); });
    omp_set_num_threads(threads);
    std::vector<std::vector<vid_t>> dashboard;
    const double dashboard_s = seconds([&] { dashboard = frontier_sample(adj, roots, offsets, steps, keys); });
    JsonObject json;
    json.add("benchmark", "frontier_sampler")
        .add("graph", graph)
        .add("vertices", adj.rows)
        .add("nonzeros", adj.nnz())
        .add("frontier", m)
        .add("steps", steps)
        .add("minibatches", k)
        .add("pops", pops)
        .add("threads", static_cast<int64_t>(threads))
        .add("serial_s", serial_s)
        .add("dashboard_one_thread_s", dashboard_one_s)
        .add("dashboard_s", dashboard_s)
        .add("speedup_one_thread", serial_s / dashboard_one_s)
        .add("speedup", serial_s / dashboard_s)
        .add("pops_per_s", static_cast<double>(pops) / dashboard_s);
    std::string why;
    if (cuda_available(&why)) {
      const std::unique_ptr<Backend> cuda = make_cuda_backend();
      const Matrix device_adj = cuda->register_graph(adj);
      const BlockedIds device_roots{cuda->upload_ids(roots), offsets};
      auto walk = [&] {
        Matrix popped = cuda->frontier_walk(device_adj, device_roots, steps, keys, kFrontierEnlargement);
        cuda->synchronize();
        return popped;
      };
      // The first call also warms the device up.
      const bool matches = cuda->to_host(walk()) == popped_sets(dashboard, adj.cols);
      json.add("cuda_s", seconds(walk))
          .add("cuda_matches_cpu", matches)
          .add("cuda_speedup_over_dashboard", dashboard_s / seconds(walk));
    } else {
      json.add("cuda", "not run: " + why);
    }
    std::printf("%s\n", json.str().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "frontier_bench: %s\n", e.what());
    return 1;
  }
}
