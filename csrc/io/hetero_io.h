// Heterogeneous graphs from files: OGB's heterogeneous node-property layout
// (ogbn-mag as downloaded), and matsamp's .msg binary format.
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

// A heterogeneous graph in one .msg file: the container of io/binary_csr.h
// (io/msg_container.h: header, table of named sections, each 64-byte aligned
// and covered by an XXH3-64 checksum) with version 3 and its own sections.
//
// Header: magic "MATSAMP1", version 3, the section count, n = the vertices of
// every type, nnz = the edges of every relation, feature_dim 0, the checksum.
// Sections (t: a vertex type's index, r: a relation's, both in schema order):
//   schema               text, one tab-separated line per type, then per relation:
//                          "type NAME COUNT FEATURE_DIM" and
//                          "relation SOURCE NAME DESTINATION EDGES"
//   type/<t>/features    float[count * feature_dim], row-major (present iff feature_dim > 0)
//   type/<t>/labels      int64[count], -1 unlabelled (optional)
//   type/<t>/split/<s>   int64[], ascending ids ("train", "valid", "test"; optional)
//   relation/<r>/rowptr  int64[|destination| + 1]
//   relation/<r>/colidx  int32[EDGES], source ids
//   relation/<r>/values  float[EDGES] (absent, as written when every edge weighs 1: all ones)
//   chunks/<section>     uint64[], the XXH3-64 of each MiB of <section>, for the
//                        features, labels and relations (what a process reading a
//                        block of rows verifies; older files lack them)
// A section the schema does not describe, or one of another size than it
// implies, is refused before anything is allocated; every checksum is verified
// and the graph validated (ids against the types' counts). read_binary_csr
// refuses these files and read_hetero_binary homogeneous ones, each saying
// which reader takes the file.
void write_hetero_binary(const std::string& path, const HeteroGraph& g);
HeteroGraph read_hetero_binary(const std::string& path);

// What a process that holds only blocks of the relations reads first: every
// vertex type with its labels and splits (its features too when `features`;
// otherwise none, feature_dim 0) and each relation shaped |destination| x
// |source| with no entries (validate_schema accepts it, validate does not);
// edges[r] counts relation r's entries.
struct HeteroSchema {
  HeteroGraph graph;
  std::vector<int64_t> edges;
};
HeteroSchema read_hetero_schema(const std::string& path, bool features);
// Rows [r0, r1) of relation r's A_r (r in schema order), each MiB read verified
// by its checksum; a file written before those checksums is refused with a hint
// to convert it again.
CsrMatrix read_hetero_relation_rows(const std::string& path, size_t r, int64_t r0, int64_t r1);
// True when `path` is a file with the .msg magic and version 3 (its header
// alone is read; never throws).
bool is_hetero_binary(const std::string& path);

// An OGB heterogeneous folder or a heterogeneous .msg file; throws naming what
// `path` is not otherwise.
HeteroGraph read_hetero_graph(const std::string& path, const ReadOptions& options = {});

}  // namespace matsamp
