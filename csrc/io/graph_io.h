// Reading and writing graphs. Every reader throws matsamp::Error naming the file
// and the line (text formats) or field (binary formats) at fault.
#pragma once
#include <string>

#include "graph/graph.h"

namespace matsamp {

// Matrix Market coordinate: pattern/real/integer, general/symmetric. 1-based ids.
Graph read_matrix_market(const std::string& path);
// SNAP-style edge list: "src dst [weight]" per line, '#' or '%' comments, tabs or spaces.
// n = 1 + largest id. Labels may come from a second file of "vertex label" lines.
Graph read_edge_list(const std::string& path);
void read_vertex_labels(const std::string& path, Graph& g);
// NumPy .npz as ../shared/data/cora.npz: adj_{data,indices,indptr,shape},
// optional attr_{data,indices,indptr,shape} (densified), optional labels.
Graph read_npz_graph(const std::string& path);

// matsamp binary CSR: versioned header, per-section checksums, memory-mapped load.
void write_binary_csr(const std::string& path, const Graph& g);
Graph read_binary_csr(const std::string& path);

// Picks the reader by extension: .mtx, .npz, .msg (binary), anything else = edge list.
Graph read_graph(const std::string& path);

}  // namespace matsamp
