// Vertex partitioning for locality: METIS k-way parts, and the vertex order that
// makes every part a contiguous id range. Reordered so, a graph's equal row blocks
// (the 1.5D layout's block rows, an epoch's locality blocks) are close to its parts,
// and a minibatch drawn from one block finds most of its neighbours there too.
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"

namespace matsamp {

// Whether this build has METIS (partition_kway throws without it).
bool metis_available();

// METIS k-way partition (minimum edge cut, parts balanced within 1%) of the
// undirected pattern of adj (A + Aᵀ without self loops; values ignored): the part
// of each vertex, in [0, parts). Deterministic for a seed.
std::vector<int32_t> partition_kway(const CsrMatrix& adj, int parts, uint64_t seed);

// The vertices grouped by part: parts in order, ascending id within a part. New
// id i is old vertex order[i] (induced_subgraph(g, order) relabels a graph so).
std::vector<vid_t> order_by_part(const std::vector<int32_t>& part, int parts);

// Nonzeros (u, v) of adj with u, v in different parts / in different blocks of
// `blocks` equal id ranges (RowBlocks), self loops excluded.
int64_t cut_nonzeros(const CsrMatrix& adj, const std::vector<int32_t>& part);
int64_t cut_nonzeros(const CsrMatrix& adj, int blocks);

}  // namespace matsamp
