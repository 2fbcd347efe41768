// Graphs in the .npz layout of the GNN benchmark datasets (cora.npz and friends):
// scipy CSR parts for the adjacency and the features, plus a label vector.
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "io/graph_io.h"
#include "io/npz.h"

namespace matsamp {
namespace {

std::string field(const NpzReader& in, const std::string& name) { return in.path() + ": field " + name; }

// Sorts each row by column and sums repeated columns, in place; rows already
// strictly ascending (scipy's canonical form, what most files hold) are left as
// they are. Repeats are summed in the file's order.
void sort_and_merge_rows(CsrMatrix& m) {
  std::vector<int64_t> length(m.rows);
  bool merged = false;
#pragma omp parallel for schedule(dynamic, 1024) reduction(|| : merged)
  for (int64_t r = 0; r < m.rows; ++r) {
    const int64_t b = m.rowptr[r], e = m.rowptr[r + 1];
    length[r] = e - b;
    if (std::is_sorted(m.colidx.begin() + b, m.colidx.begin() + e, std::less_equal<col_t>())) continue;
    std::vector<std::pair<col_t, float>> row(e - b);
    for (int64_t i = b; i < e; ++i) row[i - b] = {m.colidx[i], m.values[i]};
    std::stable_sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    int64_t at = b;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0 && row[i].first == row[i - 1].first) {
        m.values[at - 1] += row[i].second;
        continue;
      }
      m.colidx[at] = row[i].first;
      m.values[at++] = row[i].second;
    }
    length[r] = at - b;
    merged = merged || at < e;
  }
  if (!merged) return;
  int64_t at = 0;  // close the gaps that merged repeats left, row by row
  for (int64_t r = 0; r < m.rows; ++r) {
    const int64_t b = m.rowptr[r];
    std::copy(m.colidx.begin() + b, m.colidx.begin() + b + length[r], m.colidx.begin() + at);
    std::copy(m.values.begin() + b, m.values.begin() + b + length[r], m.values.begin() + at);
    m.rowptr[r] = at;
    at += length[r];
  }
  m.rowptr[m.rows] = at;
  m.colidx.resize(at);
  m.values.resize(at);
}

// The CSR stored as <prefix>_{shape,indptr,indices,data} (data optional: all ones),
// checked, with columns sorted per row and duplicates summed, read straight into
// its final arrays. `weights` demands non-negative values (adjacency); otherwise
// finite is enough.
CsrMatrix read_csr(const NpzReader& in, const std::string& prefix, bool weights) {
  const std::string shape_name = prefix + "_shape", ptr_name = prefix + "_indptr", idx_name = prefix + "_indices",
                    data_name = prefix + "_data";
  const std::vector<int64_t> shape = in.get(shape_name).as_int64(field(in, shape_name));
  if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0)
    fail(field(in, shape_name), ": expected two non-negative dimensions");
  const int64_t rows = shape[0], cols = shape[1];
  check_column_count(cols, field(in, shape_name).c_str());

  CsrMatrix m(rows, cols);
  m.rowptr = in.get(ptr_name).as_int64(field(in, ptr_name));
  const int64_t nnz = in.get(idx_name).size();
  if (static_cast<int64_t>(m.rowptr.size()) != rows + 1)
    fail(field(in, ptr_name), ": has ", m.rowptr.size(), " entries, expected rows + 1 = ", rows + 1);
  if (m.rowptr.front() != 0 || m.rowptr.back() != nnz)
    fail(field(in, ptr_name), ": must run from 0 to the ", nnz, " entries of ", idx_name, " (runs from ",
         m.rowptr.front(), " to ", m.rowptr.back(), ")");
  for (int64_t r = 0; r < rows; ++r)
    if (m.rowptr[r] > m.rowptr[r + 1]) fail(field(in, ptr_name), ": decreases at row ", r);
  m.colidx = in.get(idx_name).as_int32_below(cols, field(in, idx_name), "column");

  if (in.contains(data_name)) {
    m.values = in.get(data_name).as_float(field(in, data_name));
    if (static_cast<int64_t>(m.values.size()) != nnz)
      fail(field(in, data_name), ": has ", m.values.size(), " entries, ", idx_name, " has ", nnz);
    for (int64_t e = 0; e < nnz; ++e)
      if (!std::isfinite(m.values[e]) || (weights && m.values[e] < 0))
        fail(field(in, data_name), ": value ", m.values[e], " at entry ", e, " is not a finite",
             weights ? " non-negative weight" : " number");
  } else {
    m.values.assign(nnz, 1.0f);
  }
  sort_and_merge_rows(m);
  return m;
}

}  // namespace

Graph read_npz_graph(const std::string& path) {
  const NpzReader in(path);
  Graph g;
  g.adj = read_csr(in, "adj", /*weights=*/true);
  if (g.adj.rows != g.adj.cols)
    fail(field(in, "adj_shape"), ": matrix is ", g.adj.rows, " x ", g.adj.cols, "; a graph needs a square matrix");
  const int64_t n = g.num_vertices();

  if (in.contains("attr_shape")) {
    const CsrMatrix attr = read_csr(in, "attr", /*weights=*/false);
    if (attr.rows != n) fail(field(in, "attr_shape"), ": ", attr.rows, " feature rows for ", n, " vertices");
    g.feature_dim = attr.cols;
    g.features.assign(static_cast<size_t>(n) * static_cast<size_t>(attr.cols), 0.0f);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t e = attr.rowptr[r]; e < attr.rowptr[r + 1]; ++e)
        g.features[r * attr.cols + attr.colidx[e]] = attr.values[e];
  }

  if (in.contains("labels")) {
    g.labels = in.get("labels").as_int64(field(in, "labels"));
    if (static_cast<int64_t>(g.labels.size()) != n)
      fail(field(in, "labels"), ": has ", g.labels.size(), " entries for ", n, " vertices");
    for (int64_t v = 0; v < n; ++v)
      if (g.labels[v] < -1)
        fail(field(in, "labels"), ": label ", g.labels[v], " of vertex ", v, " is negative (-1 marks unlabelled)");
  }
  validate(g, path);
  return g;
}

}  // namespace matsamp
