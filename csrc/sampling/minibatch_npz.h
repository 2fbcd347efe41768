// One sampled minibatch as an .npz file, for other tools to check or consume:
//   seeds                      int64 [b]
//   layer{l}_indptr            int64 [rows + 1]   (l = 0 is the batch layer)
//   layer{l}_indices           int32 [nnz]        local column ids into layer{l}_vertices
//   layer{l}_values            float32 [nnz]
//   layer{l}_shape             int64 [2]
//   layer{l}_vertices          int64 [cols]       global vertex ids (frontier first)
#pragma once
#include <string>

#include "sampling/sample.h"

namespace matsamp {

std::string minibatch_path(const std::string& dir, int64_t id);  // DIR/minibatch_000042.npz
void write_minibatch_npz(const std::string& path, const Minibatch& mb);
Minibatch read_minibatch_npz(const std::string& path);

}  // namespace matsamp
