// Heterogeneous graphs from files: OGB's heterogeneous node-property layout
// (ogbn-mag as downloaded).
#pragma once
#include <string>

#include "graph/hetero_graph.h"
#include "io/graph_io.h"

namespace matsamp {

// True when `dir` is an OGB heterogeneous dataset: raw/num-node-dict.csv(.gz).
bool is_ogb_hetero_dataset(const std::string& dir);

// raw/num-node-dict.csv.gz (a line of type names, a line of their counts),
// raw/relations/<src>___<name>___<dst>/edge.csv.gz ("src,dst" per line; checked
// against num-edge-list when present), raw/node-feat/<type>/node-feat.csv.gz,
// raw/node-label/<type>/node-label.csv.gz and split/<scheme>/<type>/{train,valid,
// test}.csv.gz, each optional per type; unlabelled (NaN) vertices are left out of
// the splits. Relations in folder-name order, as given (no reverses added).
HeteroGraph read_ogb_hetero_dataset(const std::string& dir, const ReadOptions& options = {});

// The same layout written (CSV, gzip unless options say otherwise): creates
// `dir`, overwrites its files.
void write_ogb_hetero_dataset(const std::string& dir, const HeteroGraph& g, const OgbWriteOptions& options = {});

}  // namespace matsamp
