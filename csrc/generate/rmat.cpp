// R-MAT / Kronecker graphs as in the Graph500 reference generator.
#include <algorithm>
#include <numeric>

#include "core/philox.h"
#include "generate/edge_builder.h"
#include "generate/generators.h"

namespace matsamp {
namespace {

// A seeded random relabelling, so high-degree vertices are not clustered at low ids.
std::vector<uint64_t> scramble_permutation(int64_t n, uint64_t seed) {
  std::vector<std::pair<uint64_t, int64_t>> keyed(n);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    const RandomKey key{seed, 0, kRmatScrambleTag, 0, static_cast<uint64_t>(v)};
    keyed[v] = {random_bits(key, 0), v};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<uint64_t> new_id(n);
  for (int64_t i = 0; i < n; ++i) new_id[keyed[i].second] = static_cast<uint64_t>(i);
  return new_id;
}

}  // namespace

Graph generate_rmat(const RmatOptions& o) {
  MATSAMP_CHECK(o.scale >= 1 && o.scale <= 30, "generate_rmat: scale ", o.scale,
                " out of range [1, 30] (ids are 32-bit)");
  MATSAMP_CHECK(o.edge_factor >= 0, "generate_rmat: negative edge factor ", o.edge_factor);
  MATSAMP_CHECK(o.a >= 0 && o.b >= 0 && o.c >= 0 && o.a + o.b + o.c <= 1.0 + 1e-12, "generate_rmat: initiator a=", o.a,
                " b=", o.b, " c=", o.c, " needs non-negative entries summing to at most 1");
  const int64_t n = int64_t{1} << o.scale;
  const int64_t m = static_cast<int64_t>(o.edge_factor) * n;
  // Quadrant thresholds on a 16-bit uniform (four levels per 64-bit draw; the
  // 2^-16 rounding of the initiator is far below R-MAT's own modelling error):
  // [0,a) top-left, [a,a+b) top-right, [a+b,a+b+c) bottom-left, the rest bottom-right.
  const double two16 = 65536.0;
  const uint64_t ta = static_cast<uint64_t>(o.a * two16), tab = static_cast<uint64_t>((o.a + o.b) * two16),
                 tabc = static_cast<uint64_t>((o.a + o.b + o.c) * two16);
  const std::vector<uint64_t> new_id = scramble_permutation(n, o.seed);

  std::vector<uint64_t> edges(m);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    // Keyed by the edge index: the same edges whatever the thread count.
    const RandomKey key{o.seed, 0, kRmatEdgeTag, 0, static_cast<uint64_t>(e)};
    uint64_t u = 0, v = 0, bits = 0;
    for (int level = 0; level < o.scale; ++level) {
      if (level % 4 == 0) bits = random_bits(key, static_cast<uint32_t>(level / 4));
      const uint64_t r = (bits >> (16 * (level % 4))) & 0xFFFFu;
      const uint64_t down = r >= tab, right = (r >= ta && r < tab) || r >= tabc;
      u = (u << 1) | down;
      v = (v << 1) | right;
    }
    edges[e] = pack_edge(new_id[u], new_id[v]);
  }
  Graph g;
  g.adj = symmetric_pattern_from_edges(n, std::move(edges));
  return g;
}

}  // namespace matsamp
