// A generated stand-in for ogbn-mag: its four vertex types and four relations
// in its proportions, with planted classes that the labels of papers follow.
#include <cmath>

#include "core/philox.h"
#include "generate/edge_builder.h"
#include "generate/generators.h"
#include "graph/hetero_graph.h"

namespace matsamp {

namespace {

// Edge e of relation `tag`: a uniform source, and a destination of the source's
// class with probability homophily, else uniform.
void planted_edges(const RandomKey& base, int64_t m, int64_t sources, int64_t destinations, int classes,
                   double homophily, std::vector<int64_t>& src, std::vector<int64_t>& dst) {
  src.resize(m);
  dst.resize(m);
  const int64_t k = std::min<int64_t>(classes, destinations);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    RandomKey key = base;
    key.row = static_cast<uint64_t>(e);
    const int64_t u = static_cast<int64_t>(scale_to(random_bits(key, 0), sources));
    int64_t v = static_cast<int64_t>(scale_to(random_bits(key, 2), destinations));
    if (uniform01(random_bits(key, 1)) < homophily) {
      const int64_t c = u % k, members = (destinations - c + k - 1) / k;  // class c: c, c + k, ...
      v = c + k * static_cast<int64_t>(scale_to(random_bits(key, 3), members));
    }
    src[e] = u;
    dst[e] = v;
  }
}

}  // namespace

HeteroGraph generate_hetero_mag(const HeteroMagOptions& o) {
  MATSAMP_CHECK(o.papers >= 100 && o.papers < (int64_t{1} << 30), "generate_hetero_mag: ", o.papers,
                " papers out of range [100, 2^30)");
  MATSAMP_CHECK(o.classes >= 1 && o.homophily >= 0 && o.homophily <= 1 && o.feature_dim >= 0,
                "generate_hetero_mag: classes must be positive, homophily in [0, 1], feature_dim non-negative");
  const int64_t p = o.papers;
  HeteroGraph g;
  g.types = {{"author", std::llround(1.54 * p)},
             {"field_of_study", std::max<int64_t>(o.classes, std::llround(0.081 * p))},
             {"institution", std::max<int64_t>(o.classes, std::llround(0.012 * p))},
             {"paper", p}};
  struct Spec {
    const char *source, *name, *destination;
    double per_source;
  };
  const Spec specs[] = {{"author", "affiliated_with", "institution", 0.92},
                        {"author", "writes", "paper", 9.7 / 1.54},
                        {"paper", "cites", "paper", 7.3},
                        {"paper", "has_topic", "field_of_study", 10.2}};
  for (uint32_t r = 0; r < 4; ++r) {
    const Spec& s = specs[r];
    const int64_t sources = g.types[g.type_index(s.source)].count;
    const int64_t destinations = g.types[g.type_index(s.destination)].count;
    std::vector<int64_t> src, dst;
    planted_edges({o.seed, 0, kHeteroEdgeTag + r, 0, 0}, std::llround(s.per_source * sources), sources, destinations,
                  o.classes, o.homophily, src, dst);
    add_relation(g, s.source, s.name, s.destination, src, dst);
  }
  // Papers: labels, split, features.
  VertexType& paper = g.types[g.type_index("paper")];
  paper.labels.resize(p);
  for (int64_t v = 0; v < p; ++v) {
    paper.labels[v] = v % o.classes;
    const uint64_t h = random_bits({o.seed, 0, kPlantedNoiseTag, 1, static_cast<uint64_t>(v)}, 0) % 10;
    paper.splits[h < 6 ? "train" : h < 8 ? "valid" : "test"].push_back(v);
  }
  const int64_t f = o.feature_dim;
  paper.feature_dim = f;
  paper.features.resize(p * f);
  constexpr double kTwoPi = 6.283185307179586;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < p; ++v) {
    const RandomKey key{o.seed, 0, kPlantedNoiseTag, 2, static_cast<uint64_t>(v)};
    const RandomKey mean_key{o.seed, 0, kPlantedMeanTag, 1, static_cast<uint64_t>(v % o.classes)};
    for (int64_t d = 0; d < f; ++d) {
      const uint64_t bits = random_bits(key, static_cast<uint32_t>(d));
      const double u1 = static_cast<double>((bits >> 32) + 1) * 0x1.0p-32, u2 = (bits & 0xFFFFFFFFu) * 0x1.0p-32;
      const bool positive = (random_bits(mean_key, static_cast<uint32_t>(d / 64)) >> (d % 64)) & 1;
      paper.features[v * f + d] = static_cast<float>((positive ? o.feature_signal : -o.feature_signal) +
                                                     std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2));
    }
  }
  validate(g, "generate_hetero_mag");
  return g;
}

}  // namespace matsamp
