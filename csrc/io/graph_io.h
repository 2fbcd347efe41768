// Reading and writing graphs. Every reader throws matsamp::Error naming the file
// and the line (text formats) or field (binary formats) at fault. Text formats
// may be gzip-compressed (recognized by their magic bytes, whatever the name).
#pragma once
#include <string>

#include "graph/graph.h"

namespace matsamp {

// How readers take edge values: as weights (negative ones refused), as the
// pattern of the nonzeros (every edge weighs 1), or as magnitudes (|v|, the
// modulus of a complex value): stiffness matrices, SuiteSparse collection.
enum class ValueMode { given, pattern, abs };
struct ReadOptions {
  ValueMode values = ValueMode::given;
  bool msg_features = true;  // false: a .msg file's vertex features are left unread (a caller maps them)
};
// "given", "pattern", "abs"; throws naming the text otherwise.
ValueMode parse_value_mode(const std::string& text);

// Matrix Market coordinate: pattern/real/integer/complex, general/symmetric. 1-based ids.
Graph read_matrix_market(const std::string& path, const ReadOptions& options = {});
// Edge lists as SNAP and CSV files have them: "src dst [weight]" per line,
// separated by blanks or one comma, '#' or '%' comments, an optional header
// line (a first line whose ids are not numbers). n = 1 + largest id. Parsed in
// parallel, one block of the file in memory at a time.
Graph read_edge_list(const std::string& path, const ReadOptions& options = {});
// "vertex label" lines (blanks or a comma).
void read_vertex_labels(const std::string& path, Graph& g);
// "vertex time" lines (integers), one for each of n vertices.
std::vector<int64_t> read_vertex_times(const std::string& path, int64_t n);
// NumPy .npz as ../shared/data/cora.npz: adj_{data,indices,indptr,shape},
// optional attr_{data,indices,indptr,shape} (densified), optional labels.
Graph read_npz_graph(const std::string& path);
// An OGB node-property dataset folder as downloaded (ogbn_arxiv/, ...): the CSV
// form (raw/edge.csv.gz, raw/node-feat.csv.gz, raw/node-label.csv.gz, ...) or
// the npz form (raw/data.npz, raw/node-label.npz), and its split
// (split/<scheme>/{train,valid,test}.csv.gz) as g.splits. Vertices whose label
// is NaN are unlabelled (-1) and kept out of every split. Edge features
// (raw/edge-feat.csv.gz, or data.npz's edge_feat: a row per edge, in the edges'
// order) become g.edge_features, aligned with the CSR's entries; an edge listed
// twice is one entry, with the row of its first listing.
Graph read_ogb_node_dataset(const std::string& dir, const ReadOptions& options = {});
bool is_ogb_node_dataset(const std::string& dir);
// OGB's link-property datasets (ogbl-collab, ...) read as above, but their split
// ships as torch pickles (split/<scheme>/train.pt, ...), which matsamp does not
// read: the path of such a split's train.pt, or "" when there is none.
std::string ogb_pickled_split(const std::string& dir);
struct OgbWriteOptions {
  bool gzip = true;
  std::string split_scheme = "given";  // split/<scheme>/ holds g.splits
};
// The CSV form of that layout (edges as "row,col" per nonzero, NaN for label -1,
// edge features as edge-feat in the same order); creates `dir`, overwrites its files.
void write_ogb_node_dataset(const std::string& dir, const Graph& g, const OgbWriteOptions& options = {});

// matsamp binary format: versioned header, named sections with checksums, read with pread.
void write_binary_csr(const std::string& path, const Graph& g);
Graph read_binary_csr(const std::string& path);

// Picks the reader: a folder in OGB's layout, then by extension (.mtx, .npz,
// .msg, anything else an edge list; a trailing .gz is looked through).
Graph read_graph(const std::string& path, const ReadOptions& options = {});

}  // namespace matsamp
