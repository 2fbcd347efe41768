// Graphs in the .npz layout of the GNN benchmark datasets (cora.npz and friends):
// scipy CSR parts for the adjacency and the features, plus a label vector.
#include <algorithm>
#include <cmath>
#include <utility>

#include "io/graph_io.h"
#include "io/npz.h"

namespace matsamp {
namespace {

std::string field(const NpzReader& in, const std::string& name) { return in.path() + ": field " + name; }

// The CSR stored as <prefix>_{shape,indptr,indices,data} (data optional: all ones),
// checked, with columns sorted per row and duplicates summed.
// `weights` demands non-negative values (adjacency); otherwise finite is enough.
CsrMatrix read_csr(const NpzReader& in, const std::string& prefix, bool weights) {
  const std::string shape_name = prefix + "_shape", ptr_name = prefix + "_indptr", idx_name = prefix + "_indices",
                    data_name = prefix + "_data";
  const std::vector<int64_t> shape = in.get(shape_name).as_int64(field(in, shape_name));
  if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0)
    fail(field(in, shape_name), ": expected two non-negative dimensions");
  const int64_t rows = shape[0], cols = shape[1];
  check_column_count(cols, field(in, shape_name).c_str());

  const std::vector<int64_t> indptr = in.get(ptr_name).as_int64(field(in, ptr_name));
  const std::vector<int64_t> indices = in.get(idx_name).as_int64(field(in, idx_name));
  const int64_t nnz = static_cast<int64_t>(indices.size());
  if (static_cast<int64_t>(indptr.size()) != rows + 1)
    fail(field(in, ptr_name), ": has ", indptr.size(), " entries, expected rows + 1 = ", rows + 1);
  if (indptr.front() != 0 || indptr.back() != nnz)
    fail(field(in, ptr_name), ": must run from 0 to the ", nnz, " entries of ", idx_name, " (runs from ",
         indptr.front(), " to ", indptr.back(), ")");
  for (int64_t r = 0; r < rows; ++r)
    if (indptr[r] > indptr[r + 1]) fail(field(in, ptr_name), ": decreases at row ", r);
  for (int64_t e = 0; e < nnz; ++e)
    if (indices[e] < 0 || indices[e] >= cols)
      fail(field(in, idx_name), ": column ", indices[e], " at entry ", e, " out of range [0, ", cols, ")");

  std::vector<float> data(nnz, 1.0f);
  if (in.contains(data_name)) {
    data = in.get(data_name).as_float(field(in, data_name));
    if (static_cast<int64_t>(data.size()) != nnz)
      fail(field(in, data_name), ": has ", data.size(), " entries, ", idx_name, " has ", nnz);
    for (int64_t e = 0; e < nnz; ++e)
      if (!std::isfinite(data[e]) || (weights && data[e] < 0))
        fail(field(in, data_name), ": value ", data[e], " at entry ", e, " is not a finite",
             weights ? " non-negative weight" : " number");
  }

  // Sort each row by column (scipy does not promise sorted rows), then sum duplicates.
  std::vector<std::pair<int64_t, float>> entries(nnz);
  for (int64_t e = 0; e < nnz; ++e) entries[e] = {indices[e], data[e]};
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < rows; ++r)
    std::sort(entries.begin() + indptr[r], entries.begin() + indptr[r + 1],
              [](const auto& x, const auto& y) { return x.first < y.first; });
  CsrMatrix m(rows, cols);
  m.colidx.reserve(nnz);
  m.values.reserve(nnz);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t e = indptr[r]; e < indptr[r + 1]; ++e) {
      if (e > indptr[r] && entries[e].first == entries[e - 1].first) {
        m.values.back() += entries[e].second;
        continue;
      }
      m.colidx.push_back(static_cast<col_t>(entries[e].first));
      m.values.push_back(entries[e].second);
    }
    m.rowptr[r + 1] = m.nnz();
  }
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
