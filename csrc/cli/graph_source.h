// Where a command's graph comes from: a file, or a generator spec.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "graph/hetero_graph.h"
#include "graph/transform.h"

namespace matsamp::cli {

struct GraphSource {
  std::string spec = "rmat:16";  // a path, "rmat:SCALE[:EDGE_FACTOR]" or "planted:N[:CLASSES]"
  std::string labels;            // optional "vertex label" file for edge lists
  std::string values = "given";  // how readers take edge values: given, pattern, abs
  uint64_t seed = 1;             // generator seed
  CleanupOptions cleanup;
  bool msg_features = true;   // false: a .msg file's features are left for a mapping (train --map-features)
  int64_t edge_weights = -1;  // an edge feature column whose values become the edge weights; -1: none
};

void add_graph_options(CLI::App& command, GraphSource& source);
Graph load_graph(const GraphSource& source);  // progress on stderr

// A heterogeneous graph: an OGB heterogeneous folder, a heterogeneous .msg, or
// "mag:PAPERS[:CLASSES]" (generate_hetero_mag with `seed`).
bool is_hetero_source(const std::string& spec);
HeteroGraph load_hetero_graph(const std::string& spec, uint64_t seed);

}  // namespace matsamp::cli
