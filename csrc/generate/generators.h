// Deterministic graph generators (same seed, same graph, whatever the thread count).
#pragma once
#include <cstdint>

#include "graph/graph.h"

namespace matsamp {

struct RmatOptions {
  int scale = 16;                       // n = 2^scale
  int edge_factor = 16;                 // edges drawn = edge_factor * n
  double a = 0.57, b = 0.19, c = 0.19;  // Graph500 initiator; d = 1 - a - b - c
  uint64_t seed = 1;
};
// Symmetrized, without self loops or duplicate edges, vertex ids scrambled.
Graph generate_rmat(const RmatOptions& options);

struct PlantedPartitionOptions {
  int64_t vertices = 2000;
  int classes = 5;
  double average_degree = 10;
  double homophily = 0.8;  // fraction of edges inside a class
  int feature_dim = 64;
  double feature_signal = 1.0;  // distance of class means relative to the noise
  uint64_t seed = 1;
};
// Labels 0..classes-1, features = class mean + Gaussian noise, symmetric, no self loops.
Graph generate_planted_partition(const PlantedPartitionOptions& options);

// A heterogeneous graph of ogbn-mag's shape: papers, authors, institutions and
// fields of study in ogbn-mag's proportions (1.54 authors, 0.012 institutions and
// 0.081 fields per paper), relations author-writes-paper (9.7 per paper),
// paper-cites-paper (7.3), paper-has_topic-field (10.2) and
// author-affiliated_with-institution (0.92 per author), as OGB lists them (no
// reverses). Every vertex has a class (id % classes); an edge's far end is of its
// near end's class with probability `homophily`. Papers carry the labels, a
// train/valid/test split (60/20/20 by a hash of the id) and Gaussian features
// around their class mean, `feature_signal` apart; the other types have none.
struct HeteroMagOptions {
  int64_t papers = 20000;
  int classes = 8;
  double homophily = 0.7;
  int feature_dim = 32;
  double feature_signal = 0.3;
  uint64_t seed = 1;
};
struct HeteroGraph;
HeteroGraph generate_hetero_mag(const HeteroMagOptions& options);

}  // namespace matsamp
