// Planted-partition (stochastic block model style) graphs with Gaussian class features:
// a small labelled benchmark whose difficulty is set by homophily and feature signal.
#include <cmath>

#include "core/philox.h"
#include "generate/edge_builder.h"
#include "generate/generators.h"

namespace matsamp {

Graph generate_planted_partition(const PlantedPartitionOptions& o) {
  const int64_t n = o.vertices, k = o.classes;
  MATSAMP_CHECK(n >= 1 && n < std::numeric_limits<col_t>::max(), "generate_planted_partition: ", n,
                " vertices out of range [1, 2^31 - 1)");
  MATSAMP_CHECK(k >= 1 && k <= n, "generate_planted_partition: ", k, " classes for ", n, " vertices");
  MATSAMP_CHECK(o.average_degree >= 0 && o.average_degree <= n - 1, "generate_planted_partition: average degree ",
                o.average_degree, " out of range [0, vertices - 1]");
  MATSAMP_CHECK(o.homophily >= 0 && o.homophily <= 1, "generate_planted_partition: homophily ", o.homophily,
                " out of range [0, 1]");
  MATSAMP_CHECK(o.feature_dim >= 0, "generate_planted_partition: negative feature_dim");

  // Vertex v is in class v % k; class c holds the vertices c, c + k, c + 2k, ...
  auto class_size = [n, k](int64_t c) { return (n - c + k - 1) / k; };
  const int64_t m = std::llround(0.5 * o.average_degree * n);  // undirected edges drawn
  std::vector<uint64_t> edges(m);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    const RandomKey key{o.seed, 0, kPlantedEdgeTag, 0, static_cast<uint64_t>(e)};
    const int64_t u = static_cast<int64_t>(scale_to(random_bits(key, 0), n)), cu = u % k;
    const bool intra = k == 1 || uniform01(random_bits(key, 1)) < o.homophily;
    int64_t v = u;  // stays a self loop (dropped) when u's class has no other member
    if (intra && class_size(cu) > 1) {
      // Uniform over the other members of u's class: skip u's own slot.
      int64_t slot = static_cast<int64_t>(scale_to(random_bits(key, 2), class_size(cu) - 1));
      if (slot >= u / k) ++slot;
      v = cu + k * slot;
    } else if (!intra) {
      const int64_t cv = (cu + 1 + static_cast<int64_t>(scale_to(random_bits(key, 2), k - 1))) % k;
      v = cv + k * static_cast<int64_t>(scale_to(random_bits(key, 3), class_size(cv)));
    }
    edges[e] = pack_edge(u, v);
  }
  Graph g;
  g.adj = symmetric_pattern_from_edges(n, std::move(edges));

  g.labels.resize(n);
  for (int64_t v = 0; v < n; ++v) g.labels[v] = v % k;

  // Features: class mean (+-signal per dimension, a random sign pattern per class)
  // plus standard normal noise from Box-Muller on Philox bits.
  const int64_t f = o.feature_dim;
  g.feature_dim = f;
  std::vector<float> means(k * f);
  for (int64_t c = 0; c < k; ++c)
    for (int64_t d = 0; d < f; ++d) {
      const RandomKey key{o.seed, 0, kPlantedMeanTag, 0, static_cast<uint64_t>(c)};
      const bool positive = (random_bits(key, static_cast<uint32_t>(d / 64)) >> (d % 64)) & 1;
      means[c * f + d] = static_cast<float>(positive ? o.feature_signal : -o.feature_signal);
    }
  g.features.resize(n * f);
  constexpr double kTwoPi = 6.283185307179586;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    const RandomKey key{o.seed, 0, kPlantedNoiseTag, 0, static_cast<uint64_t>(v)};
    for (int64_t d = 0; d < f; d += 2) {
      const uint64_t bits = random_bits(key, static_cast<uint32_t>(d / 2));
      const double u1 = static_cast<double>((bits >> 32) + 1) * 0x1.0p-32;  // (0, 1]: log is finite
      const double u2 = static_cast<double>(bits & 0xFFFFFFFFu) * 0x1.0p-32;
      const double radius = std::sqrt(-2.0 * std::log(u1));
      const float* mean = &means[(v % k) * f];
      g.features[v * f + d] = mean[d] + static_cast<float>(radius * std::cos(kTwoPi * u2));
      if (d + 1 < f) g.features[v * f + d + 1] = mean[d + 1] + static_cast<float>(radius * std::sin(kTwoPi * u2));
    }
  }
  return g;
}

}  // namespace matsamp
