// The graph as the samplers read it: its matrices registered in one backend,
// the derived ones (Â, Â∘Â, FastGCN's and GraphSAINT's distributions) prepared on
// first use. A sampler asks for what it reads when it is built.
#pragma once
#include <memory>
#include <mutex>

#include "backend/backend.h"

namespace matsamp {

class SamplingGraph {
 public:
  virtual ~SamplingGraph() = default;
  virtual int64_t vertices() const = 0;
  virtual bool partitioned() const { return false; }  // split over ranks in 1.5D
  virtual const Matrix& adjacency() = 0;              // A
  virtual const Matrix& normalized() = 0;             // Â = D^-1/2 (A + I) D^-1/2
  virtual const Matrix& squared() = 0;                // Â∘Â
  virtual const Matrix& column_norms() = 0;           // 1ᵀ·(Â∘Â), row-normalized: FastGCN's p (1 x n)
  virtual const Matrix& edge_probabilities() = 0;     // GraphSAINT's p over A's entries (1 x nnz)
  virtual const Matrix& edge_endpoints() = 0;         // row e: the two ends of A's entry e (nnz x n)
  // The whole adjacency and Â on the host, or null where no process holds them
  // (a partitioned graph): what needs them says so.
  virtual const CsrMatrix* host_adjacency() const = 0;
  virtual const CsrMatrix* host_normalized() = 0;
};

// The host forms of the layer-wise matrices.
struct LayerWiseMatrices {
  CsrMatrix normalized;    // Â
  CsrMatrix squared;       // Â∘Â
  CsrMatrix column_norms;  // 1ᵀ·(Â∘Â), row-normalized
};
std::shared_ptr<const LayerWiseMatrices> prepare_layerwise_matrices(const CsrMatrix& adj);

// GraphSAINT's edge distribution as one row over A's entries (column e = entry e
// of A in CSR order): p(u, v) ∝ 1/deg(u) + 1/deg(v), deg counting entries.
CsrMatrix saint_edge_probabilities(const CsrMatrix& adj);

// Row e holds both ends u, v of A's entry e (CSR order), once when u = v: a
// draw over A's entries times this matrix gives the vertices it touched.
CsrMatrix edge_endpoints(const CsrMatrix& adj);

// A graph one process holds whole, on the host, registered in `backend`. The
// adjacency (and the backend) must outlive it. Safe to use from several threads.
class LocalGraph final : public SamplingGraph {
 public:
  LocalGraph(Backend& backend, const CsrMatrix& adj);
  int64_t vertices() const override { return adj_.rows; }
  const Matrix& adjacency() override { return adjacency_; }
  const Matrix& normalized() override;
  const Matrix& squared() override;
  const Matrix& column_norms() override;
  const Matrix& edge_probabilities() override;
  const Matrix& edge_endpoints() override;
  const CsrMatrix* host_adjacency() const override { return &adj_; }
  const CsrMatrix* host_normalized() override { return &host_layerwise().normalized; }
  Backend& backend() { return backend_; }

 private:
  const LayerWiseMatrices& host_layerwise();
  const Matrix& registered(Matrix& slot, const CsrMatrix& host);
  // `slot`, registered from host = build() on first use (host must outlive it).
  template <class Build>
  const Matrix& derived(Matrix& slot, CsrMatrix& host, Build build);

  Backend& backend_;
  const CsrMatrix& adj_;
  Matrix adjacency_;
  std::mutex mutex_;  // guards everything below
  std::shared_ptr<const LayerWiseMatrices> layerwise_;
  CsrMatrix edge_probabilities_host_, edge_endpoints_host_;
  Matrix normalized_, squared_, column_norms_, edge_probabilities_, edge_endpoints_;
};

}  // namespace matsamp
