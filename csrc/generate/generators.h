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

}  // namespace matsamp
