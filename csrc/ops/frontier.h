// GraphSAINT's frontier sampler (Ribeiro and Towsley's multidimensional random
// walk; Zeng et al., "Accurate, efficient and scalable training of graph neural
// networks", shared/papers/graphsaint-parallel.txt, Algorithm 2): a frontier of
// m vertices; each step pops a frontier vertex u with probability deg(u)/Σ deg,
// records it, and puts a uniformly chosen neighbour of u in its place.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/csr.h"
#include "core/philox.h"

namespace matsamp {

// Where the draws come from: Philox keyed by (seed, epoch, minibatch, step).
struct FrontierKeys {
  uint64_t seed = 0;
  uint32_t epoch = 0;
  int64_t first_minibatch = 0;  // minibatch g of the bulk is first_minibatch + g
};

// The names of the draws, shared by the CPU and the CUDA walk: step `step` of global
// minibatch `minibatch` probes with draws 0, 1, … and picks the neighbour with
// kFrontierNeighbourDraw.
constexpr uint32_t kFrontierTag = 0xFE;  // the RandomKey layer of frontier draws (no sampler layer uses it)
constexpr uint32_t kFrontierNeighbourDraw = 1u << 31;
MATSAMP_HD RandomKey frontier_step_key(const FrontierKeys& keys, int64_t minibatch, int64_t step) {
  return RandomKey{keys.seed, keys.epoch, kFrontierTag, static_cast<uint64_t>(minibatch), static_cast<uint64_t>(step)};
}

// The Dashboard's default: compaction when the pin array is twice the live pins.
constexpr double kFrontierEnlargement = 2.0;

// The pin array's starting capacity for roots whose degrees sum to `pins`, the
// largest `largest`: `enlargement` times the sum, at least 4 × the largest.
MATSAMP_HD int64_t frontier_starting_capacity(int64_t pins, int64_t largest, double enlargement) {
  const int64_t scaled = static_cast<int64_t>(enlargement * static_cast<double>(pins));
  return scaled > 4 * largest ? scaled : 4 * largest;
}

// For each minibatch g, its frontier the roots roots[offsets[g], offsets[g+1]),
// the vertices popped in `steps` steps (in order; fewer when no frontier vertex
// has a neighbour left to walk to). Pops use the paper's Dashboard: every
// frontier vertex owns deg(u) consecutive pins of an array probed uniformly
// (rejecting the pins of popped vertices), new vertices append their pins, and
// the array is compacted when it reaches `enlargement` times the roots' degree
// sum (at least 4 × the largest degree of a root or added vertex). Minibatches
// run in parallel (OpenMP); the result depends only on the keys.
std::vector<std::vector<vid_t>> frontier_sample(const CsrMatrix& adj, const std::vector<vid_t>& roots,
                                                const Offsets& offsets, int64_t steps, const FrontierKeys& keys,
                                                double enlargement = kFrontierEnlargement);
// The walk as the subgraph samplers take it: row g of the k x cols result holds
// the distinct vertices minibatch g popped, ascending, each with value 1.
CsrMatrix popped_sets(std::vector<std::vector<vid_t>> popped, int64_t cols);
// frontier_sample's argument checks but the roots' ids (one-line errors), for the
// backends' walks too; `roots` is their count.
void check_frontier_walk(int64_t rows, int64_t cols, int64_t roots, const Offsets& offsets, int64_t steps,
                         double enlargement);

// The same process for one minibatch, written as Algorithm 2 reads: each pop an
// inverse transform sample over the frontier's degrees (O(m) per step). The
// reference the Dashboard's distribution is tested and measured against; its
// draws differ from frontier_sample's, its distribution does not.
std::vector<vid_t> frontier_sample_serial(const CsrMatrix& adj, const std::vector<vid_t>& roots, int64_t steps,
                                          const FrontierKeys& keys, int64_t minibatch);

}  // namespace matsamp
