#include "sampling/sampling_graph.h"

#include <algorithm>

#include "graph/transform.h"

namespace matsamp {

std::shared_ptr<const LayerWiseMatrices> prepare_layerwise_matrices(const CsrMatrix& adj) {
  MATSAMP_CHECK(adj.rows == adj.cols, "layer-wise sampling: adjacency is not square (", adj.shape(), ")");
  auto m = std::make_shared<LayerWiseMatrices>();
  m->normalized = gcn_normalize(adj);
  m->squared = square_values(m->normalized);
  CsrMatrix ones(1, adj.rows);
  ones.rowptr[1] = adj.rows;
  for (int64_t v = 0; v < adj.rows; ++v) ones.colidx.push_back(static_cast<col_t>(v));
  ones.values.assign(adj.rows, 1.0f);
  m->column_norms = spgemm(ones, m->squared);
  normalize_rows(m->column_norms);
  return m;
}

CsrMatrix saint_edge_probabilities(const CsrMatrix& adj) {
  MATSAMP_CHECK(adj.rows == adj.cols, "GraphSAINT edges: adjacency is not square (", adj.shape(), ")");
  check_column_count(adj.nnz(), "GraphSAINT edges: entries of the adjacency");
  CsrMatrix p(1, adj.nnz());
  p.rowptr[1] = adj.nnz();
  p.colidx.resize(adj.nnz());
  p.values.resize(adj.nnz());
  for (int64_t u = 0; u < adj.rows; ++u)
    for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) {
      const int64_t v = adj.colidx[e];
      p.colidx[e] = static_cast<col_t>(e);
      // deg(v) >= 1 unless the graph is directed and v has no entries of its own.
      const double inverse_v = adj.row_nnz(v) ? 1.0 / static_cast<double>(adj.row_nnz(v)) : 1.0;
      p.values[e] = static_cast<float>(1.0 / static_cast<double>(adj.row_nnz(u)) + inverse_v);
    }
  normalize_rows(p);
  return p;
}

CsrMatrix edge_endpoints(const CsrMatrix& adj) {
  check_column_count(adj.rows, "edge endpoints: vertices");
  CsrMatrix m(adj.nnz(), adj.cols);
  m.colidx.reserve(2 * adj.nnz());
  for (int64_t u = 0; u < adj.rows; ++u)
    for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) {
      const col_t v = adj.colidx[e], from = static_cast<col_t>(u);
      m.colidx.push_back(std::min(from, v));
      if (v != from) m.colidx.push_back(std::max(from, v));
      m.rowptr[e + 1] = static_cast<int64_t>(m.colidx.size());
    }
  m.values.assign(m.colidx.size(), 1.0f);
  return m;
}

LocalGraph::LocalGraph(Backend& backend, const CsrMatrix& adj)
    : backend_(backend), adj_(adj), adjacency_(backend.register_graph(adj)) {}

const LayerWiseMatrices& LocalGraph::host_layerwise() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!layerwise_) layerwise_ = prepare_layerwise_matrices(adj_);
  return *layerwise_;
}

const Matrix& LocalGraph::registered(Matrix& slot, const CsrMatrix& host) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!slot.defined()) slot = backend_.register_graph(host);
  return slot;
}

const Matrix& LocalGraph::normalized() { return registered(normalized_, host_layerwise().normalized); }
const Matrix& LocalGraph::squared() { return registered(squared_, host_layerwise().squared); }
const Matrix& LocalGraph::column_norms() { return registered(column_norms_, host_layerwise().column_norms); }

template <class Build>
const Matrix& LocalGraph::derived(Matrix& slot, CsrMatrix& host, Build build) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!slot.defined()) {
    host = build();
    slot = backend_.register_graph(host);
  }
  return slot;
}

const Matrix& LocalGraph::edge_probabilities() {
  return derived(edge_probabilities_, edge_probabilities_host_, [&] { return saint_edge_probabilities(adj_); });
}

const Matrix& LocalGraph::edge_endpoints() {
  return derived(edge_endpoints_, edge_endpoints_host_, [&] { return matsamp::edge_endpoints(adj_); });
}

}  // namespace matsamp
