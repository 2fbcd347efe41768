#include "graph/transform.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <utility>

namespace matsamp {
namespace {

float value_at(const CsrMatrix& m, int64_t e) { return m.values.empty() ? 1.0f : m.values[e]; }

// Builds a CSR row by row in two parallel passes (count, then fill). row(r, emit)
// must call emit(col, value[, from]) for the entries of row r in ascending column
// order, the same way both times; one generator per transform keeps the passes
// consistent. `from` is the input entry an output entry came from, kept in
// *origin when asked (-1: none, as the diagonal GCN normalization adds).
template <class RowFn>
CsrMatrix build_by_rows(int64_t rows, int64_t cols, RowFn&& row, std::vector<int64_t>* origin = nullptr) {
  CsrMatrix out(rows, cols);
#pragma omp parallel for schedule(dynamic, 512)
  for (int64_t r = 0; r < rows; ++r) {
    int64_t count = 0;
    row(r, [&count](col_t, float, int64_t = -1) { ++count; });
    out.rowptr[r + 1] = count;
  }
  std::partial_sum(out.rowptr.begin(), out.rowptr.end(), out.rowptr.begin());
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  if (origin) origin->assign(out.rowptr.back(), -1);
#pragma omp parallel for schedule(dynamic, 512)
  for (int64_t r = 0; r < rows; ++r) {
    int64_t pos = out.rowptr[r];
    row(r, [&](col_t c, float v, int64_t from = -1) {
      out.colidx[pos] = c;
      out.values[pos] = v;
      if (origin) (*origin)[pos] = from;
      ++pos;
    });
  }
  return out;
}

void require_square(const CsrMatrix& a, const char* what) {
  MATSAMP_CHECK(a.rows == a.cols, what, ": needs a square matrix, got ", a.shape());
}

// Union-find root with path halving.
int64_t find_root(std::vector<int64_t>& parent, int64_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

}  // namespace

namespace {

// Every entry of a or b (same shape, rows in ascending column order), the larger
// value where both have one; entry j of b came from (*b_origin)[j] when given.
CsrMatrix merge_union(const CsrMatrix& a, const CsrMatrix& b, const std::vector<int64_t>* b_origin,
                      std::vector<int64_t>* origin) {
  MATSAMP_CHECK(a.rows == b.rows && a.cols == b.cols, "union of matrices: ", a.shape(), " and ", b.shape());
  auto from_b = [&](int64_t j) { return b_origin ? (*b_origin)[j] : -1; };
  return build_by_rows(
      a.rows, a.cols,
      [&](int64_t r, auto&& emit) {
        int64_t i = a.rowptr[r], j = b.rowptr[r];
        const int64_t i_end = a.rowptr[r + 1], j_end = b.rowptr[r + 1];
        while (i < i_end || j < j_end) {
          if (j == j_end || (i < i_end && a.colidx[i] < b.colidx[j])) {
            emit(a.colidx[i], value_at(a, i), i);
            ++i;
          } else if (i == i_end || b.colidx[j] < a.colidx[i]) {
            emit(b.colidx[j], value_at(b, j), from_b(j));
            ++j;
          } else {
            emit(a.colidx[i], std::max(value_at(a, i), value_at(b, j)), i);  // in both: a's entry, the larger value
            ++i;
            ++j;
          }
        }
      },
      origin);
}

}  // namespace

CsrMatrix symmetrize(const CsrMatrix& a, std::vector<int64_t>* origin) {
  require_square(a, "symmetrize");
  std::vector<int64_t> transposed_from;  // entry of `a` behind each entry of its transpose
  const CsrMatrix t = transpose(a, origin ? &transposed_from : nullptr);
  return merge_union(a, t, origin ? &transposed_from : nullptr, origin);  // an entry only A^T has: a_ji's data
}

CsrMatrix union_of(const CsrMatrix& a, const CsrMatrix& b) { return merge_union(a, b, nullptr, nullptr); }

CsrMatrix drop_self_loops(const CsrMatrix& a, std::vector<int64_t>* origin) {
  return build_by_rows(
      a.rows, a.cols,
      [&](int64_t r, auto&& emit) {
        for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
          if (a.colidx[e] != r) emit(a.colidx[e], value_at(a, e), e);
      },
      origin);
}

std::vector<vid_t> largest_component(const CsrMatrix& a) {
  require_square(a, "largest_component");
  const int64_t n = a.rows;
  std::vector<int64_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      const int64_t x = find_root(parent, r), y = find_root(parent, a.colidx[e]);
      if (x != y) parent[std::max(x, y)] = std::min(x, y);  // edge direction is ignored
    }
  std::vector<int64_t> size(n, 0);
  for (int64_t v = 0; v < n; ++v) ++size[find_root(parent, v)];
  if (n == 0) return {};
  // Ties go to the component holding the smallest vertex id (roots are component minima).
  const int64_t best = std::max_element(size.begin(), size.end()) - size.begin();
  std::vector<vid_t> vertices;
  vertices.reserve(size[best]);
  for (int64_t v = 0; v < n; ++v)
    if (find_root(parent, v) == best) vertices.push_back(v);
  return vertices;
}

Graph induced_subgraph(const Graph& g, const std::vector<vid_t>& vertices) {
  const int64_t n = g.num_vertices(), k = static_cast<int64_t>(vertices.size());
  std::vector<int64_t> new_id(n, -1);
  for (int64_t i = 0; i < k; ++i) {
    const vid_t v = vertices[i];
    MATSAMP_CHECK(v >= 0 && v < n, "induced_subgraph: vertex ", v, " out of range [0, ", n, ")");
    MATSAMP_CHECK(new_id[v] < 0, "induced_subgraph: vertex ", v, " listed twice");
    new_id[v] = i;
  }
  const CsrMatrix& a = g.adj;
  Graph out;
  // Kept neighbours get new ids in `vertices` order, so each row is re-sorted.
  std::vector<int64_t> origin;
  out.adj = build_by_rows(
      k, k,
      [&](int64_t r, auto&& emit) {
        thread_local std::vector<std::tuple<col_t, float, int64_t>> row;
        row.clear();
        const vid_t old = vertices[r];
        for (int64_t e = a.rowptr[old]; e < a.rowptr[old + 1]; ++e)
          if (new_id[a.colidx[e]] >= 0) row.emplace_back(static_cast<col_t>(new_id[a.colidx[e]]), value_at(a, e), e);
        std::sort(row.begin(), row.end());
        for (const auto& [c, v, e] : row) emit(c, v, e);
      },
      g.has_edge_features() ? &origin : nullptr);
  if (g.has_edge_features()) {
    out.edge_feature_dim = g.edge_feature_dim;
    out.edge_features = gather_rows(g.edge_features, g.edge_feature_dim, origin);
  }
  out.feature_dim = g.feature_dim;
  if (g.has_features()) {
    out.features.resize(static_cast<size_t>(k) * g.feature_dim);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < k; ++i)
      std::copy_n(g.features.begin() + vertices[i] * g.feature_dim, g.feature_dim,
                  out.features.begin() + i * g.feature_dim);
  }
  if (g.has_labels()) {
    out.labels.resize(k);
    for (int64_t i = 0; i < k; ++i) out.labels[i] = g.labels[vertices[i]];
  }
  if (g.has_vertex_times()) {
    out.vertex_times.resize(k);
    for (int64_t i = 0; i < k; ++i) out.vertex_times[i] = g.vertex_times[vertices[i]];
  }
  for (const auto& [name, ids] : g.splits) {  // the kept members, renumbered
    std::vector<vid_t>& kept = out.splits[name];
    for (vid_t v : ids)
      if (new_id[v] >= 0) kept.push_back(new_id[v]);
    std::sort(kept.begin(), kept.end());
  }
  return out;
}

namespace {

// `what` (edge weights, edge times) taken from edge feature `column`: the graph has one.
void check_edge_feature_column(const Graph& g, int64_t column, const char* what) {
  MATSAMP_CHECK(g.has_edge_features(), what, " from edge feature column ", column, ": the graph has no edge features");
  MATSAMP_CHECK(column >= 0 && column < g.edge_feature_dim, what, ": column ", column, " is not one of the graph's ",
                g.edge_feature_dim, " edge feature columns [0, ", g.edge_feature_dim, ")");
}

}  // namespace

void weigh_by_edge_feature(Graph& g, int64_t column) {
  check_edge_feature_column(g, column, "edge weights");
  std::vector<float> weights(g.adj.nnz());
  for (int64_t e = 0; e < g.adj.nnz(); ++e) {
    weights[e] = g.edge_features[e * g.edge_feature_dim + column];
    MATSAMP_CHECK(std::isfinite(weights[e]) && weights[e] >= 0, "edge weights: entry ", e, " (row ",
                  g.adj.row_of_entry(e), ") has weight ", weights[e], " in edge feature column ", column,
                  "; weights must be finite and non-negative");
  }
  g.adj.values = std::move(weights);
}

std::vector<int64_t> edge_times_from_feature(const Graph& g, int64_t column) {
  check_edge_feature_column(g, column, "edge times");
  std::vector<int64_t> times(g.adj.nnz());
  for (int64_t e = 0; e < g.adj.nnz(); ++e) {
    const float t = g.edge_features[e * g.edge_feature_dim + column];
    MATSAMP_CHECK(std::isfinite(t) && std::trunc(t) == t && std::fabs(t) < 9.0e15f, "edge times: entry ", e, " (row ",
                  g.adj.row_of_entry(e), ") has time ", t, " in edge feature column ", column,
                  "; times must be integers");
    times[e] = static_cast<int64_t>(t);
  }
  return times;
}

Graph cleanup(Graph g, const CleanupOptions& options) {
  std::vector<int64_t> origin;
  std::vector<int64_t>* traced = g.has_edge_features() ? &origin : nullptr;
  auto carry_edge_features = [&] {
    if (traced) g.edge_features = gather_rows(g.edge_features, g.edge_feature_dim, origin);
  };
  if (options.symmetrize) g.adj = symmetrize(g.adj, traced), carry_edge_features();
  if (options.drop_self_loops) g.adj = drop_self_loops(g.adj, traced), carry_edge_features();
  if (options.largest_component) {
    const std::vector<vid_t> keep = largest_component(g.adj);
    if (static_cast<int64_t>(keep.size()) != g.num_vertices()) g = induced_subgraph(g, keep);
  }
  return g;
}

std::vector<double> gcn_inverse_sqrt_degrees(const CsrMatrix& rows) {
  std::vector<double> inv_sqrt_degree(rows.rows);  // degree of A + I: row sum plus the added 1
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows.rows; ++r) {
    double degree = 1.0;
    for (int64_t e = rows.rowptr[r]; e < rows.rowptr[r + 1]; ++e) degree += value_at(rows, e);
    inv_sqrt_degree[r] = 1.0 / std::sqrt(degree);
  }
  return inv_sqrt_degree;
}

namespace {

// Â's rows first_row … of a block `rows` of A; inv_sqrt_degree(c) gives any column's value.
template <class InverseSqrtDegree>
CsrMatrix normalize_block(const CsrMatrix& rows, int64_t first_row, InverseSqrtDegree inv_sqrt_degree) {
  return build_by_rows(rows.rows, rows.cols, [&](int64_t local, auto&& emit) {
    const int64_t r = first_row + local;
    const double row_scale = inv_sqrt_degree(r);
    auto scaled = [&](int64_t c, double v) {
      emit(static_cast<col_t>(c), static_cast<float>(row_scale * v * inv_sqrt_degree(c)));
    };
    bool diagonal_done = false;
    for (int64_t e = rows.rowptr[local]; e < rows.rowptr[local + 1]; ++e) {
      const col_t c = rows.colidx[e];
      if (!diagonal_done && c >= r) {
        diagonal_done = true;
        if (c == r) {  // an existing self loop gets the +1 of the identity
          scaled(r, value_at(rows, e) + 1.0);
          continue;
        }
        scaled(r, 1.0);
      }
      scaled(c, value_at(rows, e));
    }
    if (!diagonal_done) scaled(r, 1.0);
  });
}

}  // namespace

std::vector<col_t> outside_columns(const CsrMatrix& rows, int64_t first_row) {
  std::vector<col_t> columns;
  const int64_t last_row = first_row + rows.rows;
  for (col_t c : rows.colidx)
    if (c < first_row || c >= last_row) columns.push_back(c);
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

CsrMatrix gcn_normalize_rows(const CsrMatrix& rows, int64_t first_row, const std::vector<double>& row_inv_sqrt_degree,
                             const std::vector<col_t>& outside, const std::vector<double>& outside_inv_sqrt_degree) {
  const int64_t last_row = first_row + rows.rows;
  MATSAMP_CHECK(first_row >= 0 && last_row <= rows.cols &&
                    row_inv_sqrt_degree.size() == static_cast<size_t>(rows.rows) &&
                    outside.size() == outside_inv_sqrt_degree.size(),
                "gcn_normalize: block of ", rows.shape(), " at row ", first_row, " with ", row_inv_sqrt_degree.size(),
                " row degrees and ", outside_inv_sqrt_degree.size(), " for ", outside.size(), " other columns");
  return normalize_block(rows, first_row, [&](int64_t c) {
    if (c >= first_row && c < last_row) return row_inv_sqrt_degree[c - first_row];
    // `outside` is outside_columns(rows, first_row): every other column is in it.
    return outside_inv_sqrt_degree[std::lower_bound(outside.begin(), outside.end(), c) - outside.begin()];
  });
}

CsrMatrix gcn_normalize(const CsrMatrix& a) {
  require_square(a, "gcn_normalize");
  const std::vector<double> inv_sqrt_degree = gcn_inverse_sqrt_degrees(a);
  return normalize_block(a, 0, [&](int64_t c) { return inv_sqrt_degree[c]; });
}

CsrMatrix square_values(const CsrMatrix& a) {
  CsrMatrix out = a;
  if (out.values.empty()) out.values.assign(out.nnz(), 1.0f);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < out.nnz(); ++e) out.values[e] *= out.values[e];
  return out;
}

}  // namespace matsamp
