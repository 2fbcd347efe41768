#include "sampling/minibatch_npz.h"

#include <cstdio>

#include "io/npz.h"

namespace matsamp {

std::string minibatch_path(const std::string& dir, int64_t id) {
  char name[64];
  std::snprintf(name, sizeof name, "/minibatch_%06lld.npz", static_cast<long long>(id));
  return dir + name;
}

void write_minibatch_npz(const std::string& path, const Minibatch& mb) {
  NpzWriter npz;
  npz.add("seeds", mb.seeds);
  npz.add("id", std::vector<int64_t>{mb.id});
  for (size_t l = 0; l < mb.layers.size(); ++l) {
    const std::string prefix = "layer" + std::to_string(l) + "_";
    const MinibatchLayer& layer = mb.layers[l];
    npz.add(prefix + "indptr", layer.adj.rowptr);
    npz.add(prefix + "indices", layer.adj.colidx);
    npz.add(prefix + "values", layer.adj.values);
    npz.add(prefix + "shape", std::vector<int64_t>{layer.adj.rows, layer.adj.cols});
    npz.add(prefix + "vertices", layer.vertices);
  }
  npz.write(path);
}

Minibatch read_minibatch_npz(const std::string& path) {
  const NpzReader npz(path);
  Minibatch mb;
  mb.seeds = npz.get("seeds").as_int64("seeds");
  mb.id = npz.get("id").as_int64("id").at(0);
  for (int l = 0; npz.contains("layer" + std::to_string(l) + "_indptr"); ++l) {
    const std::string prefix = "layer" + std::to_string(l) + "_";
    const std::vector<int64_t> shape = npz.get(prefix + "shape").as_int64(prefix + "shape");
    MATSAMP_CHECK(shape.size() == 2, path, ": field ", prefix, "shape must hold 2 numbers");
    MinibatchLayer layer;
    layer.adj = CsrMatrix(shape[0], shape[1]);
    layer.adj.rowptr = npz.get(prefix + "indptr").as_int64(prefix + "indptr");
    for (int64_t c : npz.get(prefix + "indices").as_int64(prefix + "indices"))
      layer.adj.colidx.push_back(static_cast<col_t>(c));
    layer.adj.values = npz.get(prefix + "values").as_float(prefix + "values");
    layer.vertices = npz.get(prefix + "vertices").as_int64(prefix + "vertices");
    validate(layer.adj, path + ": " + prefix + "adjacency");
    mb.layers.push_back(std::move(layer));
  }
  return mb;
}

}  // namespace matsamp
