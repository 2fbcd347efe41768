// What a sampler produces for k stacked minibatches: a Bulk, whose layers live
// in the backend that sampled them, and its host form, BulkSample.
//
// Layers are kept in sampling order: layers[0] has the batch vertices as rows
// (fanout s_L), layers.back() reaches furthest out. A model runs them in reverse.
#pragma once
#include <vector>

#include "backend/backend.h"

namespace matsamp {

// Block-diagonal stack: rows of minibatch g are [row_offsets[g], row_offsets[g+1]),
// its columns [vertices.offsets[g], vertices.offsets[g+1]) are the vertices at
// the same positions of vertices.ids. Rows are the previous layer's vertex list
// (the frontier); columns list the frontier first (GraphSAGE, LADIES by default).
struct Layer {
  Matrix adj;
  Offsets row_offsets;
  BlockedIds vertices;
  Ids positions;  // each entry's position in the adjacency, when recorded (Context::record_positions)
};

struct Bulk {
  int64_t first_minibatch = 0;  // global id of the first stacked minibatch
  std::vector<vid_t> seeds;     // batch vertices, stacked (on the host: the caller's)
  Offsets seed_offsets;         // k + 1
  std::vector<Layer> layers;

  int64_t count() const { return static_cast<int64_t>(seed_offsets.size()) - 1; }
  int64_t sampled_edges() const;
};

// Each block of a frontier past its first vertices, as many as block g of
// `expanded` holds (the frontier the layer before drew for): the vertices that
// layer added, the last of each block (compact_columns puts the leading vertices
// first). What a layer draws for when it expands new vertices only (PyG's rule).
BlockedIds added_vertices(Backend& backend, const BlockedIds& frontier, const Offsets& expanded);

// Each layer's entries as positions in `adjacency`, in the backend: the ones the
// sampler recorded (moved out of the layer), else located (Backend::
// entry_positions: layer l's rows are the seeds (l = 0) or layer l - 1's
// vertices, its columns its vertices; -1 marks an entry the adjacency lacks, a
// self-loop of Â). What names a sampled edge by the caller's edge id.
std::vector<Ids> entry_positions(Backend& backend, const Matrix& adjacency, const Ids& seeds, Bulk& bulk);

// A layer on the host.
struct SampledLayer {
  CsrMatrix adj;
  Offsets row_offsets;
  Offsets col_offsets;
  std::vector<vid_t> vertices;
};

struct BulkSample {
  int64_t first_minibatch = 0;
  std::vector<vid_t> seeds;
  Offsets seed_offsets;
  std::vector<SampledLayer> layers;

  int64_t count() const { return static_cast<int64_t>(seed_offsets.size()) - 1; }
  int64_t sampled_edges() const;
};

// The bulk's layers copied (moved, on the CPU) to the host.
BulkSample to_host(Backend& backend, Bulk bulk);

// One minibatch cut out of a bulk, with local row and column ids.
struct MinibatchLayer {
  CsrMatrix adj;                // |rows| x |vertices|
  std::vector<vid_t> vertices;  // global ids of the columns
};
struct Minibatch {
  int64_t id = 0;
  std::vector<vid_t> seeds;
  std::vector<MinibatchLayer> layers;
};

Minibatch extract_minibatch(const BulkSample& bulk, int64_t g);  // g in [0, count())

// Rows [r0, r1) of a stacked layer with their columns, which lie in [c0, c1),
// shifted to [0, c1 - c0): one minibatch's block with local ids.
CsrMatrix minibatch_block(const CsrMatrix& a, int64_t r0, int64_t r1, int64_t c0, int64_t c1);

}  // namespace matsamp
