// Vertex partitioning for locality: METIS k-way parts, and the vertex order that
// makes every part a contiguous id range. Reordered so, a graph's equal row blocks
// (the 1.5D layout's block rows, an epoch's locality blocks) are close to its parts,
// and a minibatch drawn from one block finds most of its neighbours there too.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/csr.h"

namespace matsamp {

// Whether this build has METIS (partition_kway throws without it).
bool metis_available();

// What each part should hold an equal share of besides vertices (METIS's
// multi-constraint partitioning, as DistDGL balances its partitions): the edges
// (each vertex weighs its degree in A + Aᵀ) and each named vertex set (a
// split's train, valid and test vertices, ascending ids).
struct PartitionBalance {
  bool edges = false;
  std::vector<std::pair<std::string, std::vector<vid_t>>> sets;
  bool empty() const { return !edges && sets.empty(); }
};

// METIS k-way partition (minimum edge cut) of the undirected pattern of adj
// (A + Aᵀ without self loops; values ignored): the part of each vertex, in
// [0, parts). Parts are balanced within 1% in vertices, or with `balance`
// within 5% in vertices and in each of its constraints. Deterministic for a seed.
std::vector<int32_t> partition_kway(const CsrMatrix& adj, int parts, uint64_t seed,
                                    const PartitionBalance& balance = {});

// Two levels, as a cluster is built: `machines` parts of the whole graph, then
// each of them cut into `devices` parts of its own; a vertex's part is
// machine · devices + device. Ranks numbered machine by machine (Slurm's block
// distribution) then hold the parts of one machine-level part, so most of the
// rows they fetch stay on their machine. `balance` holds at both levels.
std::vector<int32_t> partition_two_level(const CsrMatrix& adj, int machines, int devices, uint64_t seed,
                                         const PartitionBalance& balance = {});

// Per constraint (vertices first, then edges and the sets of `balance`), the
// largest part's share over the mean share: 1 is perfect balance.
std::vector<std::pair<std::string, double>> part_imbalance(const CsrMatrix& adj, const std::vector<int32_t>& part,
                                                           int parts, const PartitionBalance& balance);

// The vertices grouped by part: parts in order, ascending id within a part. New
// id i is old vertex order[i] (induced_subgraph(g, order) relabels a graph so).
std::vector<vid_t> order_by_part(const std::vector<int32_t>& part, int parts);

// Nonzeros (u, v) of adj with u, v in different parts / in different blocks of
// `blocks` equal id ranges (RowBlocks), self loops excluded.
int64_t cut_nonzeros(const CsrMatrix& adj, const std::vector<int32_t>& part);
int64_t cut_nonzeros(const CsrMatrix& adj, int blocks);

}  // namespace matsamp
