// Shared by the generators: the Philox purpose tags they draw under, and the
// conversion of drawn edges into a symmetric simple graph.
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"

namespace matsamp {

// RandomKey::layer values of the generators (only the low 8 bits count); kept far
// from the small layer numbers the samplers use.
enum GeneratorTag : uint32_t {
  kRmatEdgeTag = 0xF0,
  kRmatScrambleTag = 0xF1,
  kPlantedEdgeTag = 0xF2,
  kPlantedMeanTag = 0xF3,
  kPlantedNoiseTag = 0xF4,
  kHeteroEdgeTag = 0xF5,  // + the relation's index below 8
};

inline uint64_t pack_edge(uint64_t u, uint64_t v) { return (u << 32) | v; }

// n x n CSR of the undirected edges (packed (u << 32) | v): both directions, self
// loops and duplicates dropped, values 1. Rows come out sorted, so the result does
// not depend on the thread count. Consumes `edges` to free its memory early.
CsrMatrix symmetric_pattern_from_edges(int64_t n, std::vector<uint64_t>&& edges);

}  // namespace matsamp
