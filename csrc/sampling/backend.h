// The seam between the samplers and whatever runs their ops: the CPU backend
// here, the CUDA backend in kernels/, the distributed product in distributed/.
// Samplers only ever call these.
#pragma once
#include <memory>
#include <string>

#include "ops/ops.h"
#include "sampling/sample.h"

namespace matsamp {

struct StepStats;   // sampler.h

// A layer-wise layer's draw (Backend::draw_columns).
struct ColumnDraw {
  CsrMatrix chosen;                         // its_sample(P, s, keys): each value is its p_g(v)
  std::vector<float> frontier_probability;  // p_g(v) of each frontier vertex (when asked)
  int64_t probability_nnz = 0;              // entries of P
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) = 0;
  virtual CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) = 0;
  virtual CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets,
                                        const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                        const std::vector<float>& weights) = 0;
  // select_cols_blocked(select_rows(a, rows), …): a layer-wise sampler's
  // extraction diag(R_g·Â)·C_g. The default composes the two ops; the CPU
  // backend never forms R·A, the CUDA backend keeps it on the device.
  virtual CsrMatrix select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows,
                                             const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                             const Offsets& col_offsets, const std::vector<float>& weights);
  virtual void normalize_rows(CsrMatrix& p, bool square_first) = 0;
  virtual CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) = 0;
  virtual CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                const SampleKeys& keys, bool uniform_rows) = 0;
  // S is consumed: the CPU backend relabels it in place.
  virtual CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                        const Offsets& leading_offsets) = 0;

  // One layer-wise (LADIES, FastGCN) or subgraph (GraphSAINT) layer's matrix:
  // select_rows_cols_blocked of `a` (rows: the frontier, blocks layer.row_offsets;
  // columns layer.vertices, blocks layer.col_offsets, scaled by `weights`, 1 when
  // empty), rows then normalized. Appends
  // the layer, its adj set, to bulk.layers. The default runs those ops; the CUDA
  // backend normalizes on the device and, when results are held, leaves the
  // matrix there (then every layer of the bulk is in bulk.held).
  virtual void append_weighted_layer(const CsrMatrix& a, const std::vector<vid_t>& frontier,
                                     const std::vector<float>& weights, SampledLayer layer, BulkSample& bulk);

  // One node-wise (GraphSAGE) layer: sample_rows of the frontier, mean weights
  // (1 / sampled count per row), compact_columns with the frontier leading.
  // The default runs those ops; a backend may keep the intermediates to itself
  // (the CUDA backend does the layer on the device). Adds the time of the
  // sampling and of the rest to times->sampling / times->extraction.
  virtual SampledLayer sample_neighbour_layer(const CsrMatrix& adj, const std::vector<vid_t>& frontier,
                                              const Offsets& offsets, int64_t fanout,
                                              const SampleKeys& keys, bool uniform_rows,
                                              StepStats* times);

  // One layer-wise (LADIES, FastGCN) draw: P = normalize_rows(Q·B) when q is given,
  // else P = B, one row shared by every minibatch; chosen = its_sample(P, s, keys);
  // and, when `frontier` is given, p_g(v) for each of its vertices v, minibatch g
  // owning the frontier block g of `offsets`. The default runs spgemm,
  // normalize_rows and its_sample and looks P up on the host; the CUDA backend
  // keeps P on the device. Adds to times->probability, sampling and extraction (the
  // lookups, which weight the extracted columns).
  virtual ColumnDraw draw_columns(const CsrMatrix* q, const CsrMatrix& b, int64_t s, const SampleKeys& keys,
                                  const std::vector<vid_t>* frontier, const Offsets& offsets, StepStats* times);

  // labor_sample_rows of ops.h; the default runs it on the host.
  virtual CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                      const SampleKeys& keys);

  // The layers of LABOR-0, appended to bulk.layers like sample_neighbour_layers'
  // (mean weights, the frontier leading each layer's columns), with each layer's
  // rows drawn by labor_sample_rows.
  void sample_labor_layers(const CsrMatrix& adj, const std::vector<int64_t>& fanouts, uint64_t seed, uint32_t epoch,
                           BulkSample& bulk, StepStats* times);

  // Every layer of a node-wise sampler, appended to bulk.layers: layer l is
  // sample_neighbour_layer of the previous layer's vertices (the seeds for the
  // first) with fanouts[l] and keys {seed, epoch, l, bulk.first_minibatch}.
  // The default calls sample_neighbour_layer per layer; the CUDA backend keeps
  // each layer's vertex list on the device as the next frontier.
  virtual void sample_neighbour_layers(const CsrMatrix& adj, const std::vector<int64_t>& fanouts, uint64_t seed,
                                       uint32_t epoch, bool uniform_rows, BulkSample& bulk, StepStats* times);

  // Asks sample_neighbour_layers and append_weighted_layer to leave the layers'
  // matrices and vertex lists in the backend's memory (BulkSample::held, fetched
  // on demand) for a consumer on the same device. Returns whether this backend
  // does; the default never does.
  virtual bool hold_results_on_device(bool hold) { return !hold; }
};

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace matsamp
