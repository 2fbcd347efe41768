// What a sampler produces for k stacked minibatches.
//
// Layers are kept in sampling order: layers[0] has the batch vertices as rows
// (fanout s_L), layers.back() reaches furthest out. A model runs them in reverse.
#pragma once
#include <memory>
#include <vector>

#include "ops/ops.h"

namespace matsamp {

struct SampledLayer {
  // Block-diagonal stack: rows of minibatch g are [row_offsets[g], row_offsets[g+1]),
  // its columns [col_offsets[g], col_offsets[g+1]) are the vertices at the same
  // positions of `vertices`. Rows are the previous layer's vertex list (the
  // frontier); columns list the frontier first (GraphSAGE, LADIES by default).
  CsrMatrix adj;
  Offsets row_offsets;
  Offsets col_offsets;
  std::vector<vid_t> vertices;
};

struct BulkSample;

// One held layer's arrays in the backend's device memory: read-only, valid while
// the layers are held (a consumer on that device copies them from there), and
// complete: the backend's work on them has finished when HeldLayers::layer returns.
struct HeldLayerArrays {
  const int64_t* rowptr = nullptr;   // rows + 1
  const col_t* colidx = nullptr;     // nnz
  const float* values = nullptr;     // nnz
  const vid_t* vertices = nullptr;   // one per column
  int64_t nnz = 0;
};

// Layers a backend left in its own memory (a GPU's, see
// Backend::hold_results_on_device): the host layers carry their offsets and
// shapes, their matrices and vertex lists stay there until fetched (a layer-wise
// sampler's vertex lists are on the host as well: it chose them there). Valid
// while the backend that made them lives; that backend may append layers.
class HeldLayers {
 public:
  virtual ~HeldLayers() = default;
  virtual HeldLayerArrays layer(size_t l) const = 0;
  virtual void fetch(BulkSample& bulk) const = 0;   // fills every layer's adj and vertices
};

struct BulkSample {
  int64_t first_minibatch = 0;   // global id of the first stacked minibatch
  std::vector<vid_t> seeds;      // batch vertices, stacked
  Offsets seed_offsets;          // k + 1
  std::vector<SampledLayer> layers;
  std::shared_ptr<HeldLayers> held;   // set: the layers' matrices are still on the device

  int64_t count() const { return static_cast<int64_t>(seed_offsets.size()) - 1; }
  int64_t sampled_edges() const;
  void fetch();   // copies held layers to the host (nothing when none are held)
};

// One minibatch cut out of a bulk, with local row and column ids.
struct MinibatchLayer {
  CsrMatrix adj;                 // |rows| x |vertices|
  std::vector<vid_t> vertices;   // global ids of the columns
};
struct Minibatch {
  int64_t id = 0;
  std::vector<vid_t> seeds;
  std::vector<MinibatchLayer> layers;
};

Minibatch extract_minibatch(const BulkSample& bulk, int64_t g);   // g in [0, count())

}  // namespace matsamp
