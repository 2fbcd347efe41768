// The edges of an edge-list file before they become a CSR (the OGB reader
// knows n from the dataset, not from the largest id).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/graph_io.h"

namespace matsamp {

struct EdgeTriples {
  std::vector<int64_t> src, dst;
  std::vector<float> weights;  // empty: every edge weighs 1
  int64_t max_id = -1;
};
EdgeTriples read_edge_triples(const std::string& path, const ReadOptions& options);

}  // namespace matsamp
