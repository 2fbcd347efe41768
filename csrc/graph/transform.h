// Whole-graph transformations applied at load time or before sampling.
#pragma once
#include "graph/graph.h"

namespace matsamp {

struct CleanupOptions {
  bool symmetrize = false;
  bool drop_self_loops = false;
  bool largest_component = false;
};

// With `origin`, (*origin)[e] is the entry of `a` that entry e of the result
// came from, for carrying edge features along (Graph::edge_features).
// Pattern of A + A^T, values max(a_ij, a_ji); an entry only A^T has comes from
// a_ji, an entry both have from a_ij.
CsrMatrix symmetrize(const CsrMatrix& a, std::vector<int64_t>* origin = nullptr);
// Every entry of a or b (of one shape), max(a_ij, b_ij) where both have one:
// symmetrize(a) is union_of(a, transpose(a)), block row by block row too.
CsrMatrix union_of(const CsrMatrix& a, const CsrMatrix& b);
CsrMatrix drop_self_loops(const CsrMatrix& a, std::vector<int64_t>* origin = nullptr);
std::vector<vid_t> largest_component(const CsrMatrix& a);                    // ascending vertex ids (weakly connected)
Graph induced_subgraph(const Graph& g, const std::vector<vid_t>& vertices);  // keeps order
// The steps asked for, in that order; edge features follow their entries.
Graph cleanup(Graph g, const CleanupOptions& options);
// Each entry's value set to column `column` of its edge features (weighted
// sampling by an edge attribute); throws naming the column or the first entry
// whose value is negative or not finite.
void weigh_by_edge_feature(Graph& g, int64_t column);
// Each stored edge's time (per CSR entry) from an edge feature column (an OGB
// edge_year column): its values must be integers.
std::vector<int64_t> edge_times_from_feature(const Graph& g, int64_t column);

// Â = D^-1/2 (A + I) D^-1/2 with D the degrees of A + I (the GCN normalization).
CsrMatrix gcn_normalize(const CsrMatrix& a);
// The same in pieces, for a block `rows` of A holding rows first_row … (distributed/):
// 1/sqrt(degree of A + I) of each of its rows; the columns it touches outside its
// own rows, ascending (whose degrees other blocks know); and Â's rows given both.
std::vector<double> gcn_inverse_sqrt_degrees(const CsrMatrix& rows);
std::vector<col_t> outside_columns(const CsrMatrix& rows, int64_t first_row);
CsrMatrix gcn_normalize_rows(const CsrMatrix& rows, int64_t first_row, const std::vector<double>& row_inv_sqrt_degree,
                             const std::vector<col_t>& outside, const std::vector<double>& outside_inv_sqrt_degree);
// Elementwise square (the LADIES distribution uses Â∘Â).
CsrMatrix square_values(const CsrMatrix& a);

}  // namespace matsamp
