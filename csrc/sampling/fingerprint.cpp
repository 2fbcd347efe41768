#include "sampling/fingerprint.h"

#include <cstring>

namespace matsamp {

void Fingerprint::add(const BulkSample& bulk) {
  for (int64_t g = 0; g < bulk.count(); ++g) add(extract_minibatch(bulk, g));
}

void Fingerprint::add(const Minibatch& mb) {
  mix(static_cast<uint64_t>(mb.id));
  for (vid_t v : mb.seeds) mix(static_cast<uint64_t>(v));
  for (const MinibatchLayer& layer : mb.layers) {
    for (int64_t p : layer.adj.rowptr) mix(static_cast<uint64_t>(p));
    for (col_t c : layer.adj.colidx) mix(static_cast<uint64_t>(c));
    for (float v : layer.adj.values) {
      uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      mix(bits);
    }
    for (vid_t v : layer.vertices) mix(static_cast<uint64_t>(v));
  }
}

void Fingerprint::add(const HeteroBulkSample& bulk) {
  for (int64_t g = 0; g < bulk.count(); ++g) add(bulk, g);
}

void Fingerprint::add(const HeteroBulkSample& bulk, int64_t g) {
  const auto mix_value = [this](float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    mix(bits);
  };
  mix(static_cast<uint64_t>(bulk.first_minibatch + g));
  for (size_t t = 0; t < bulk.seeds.ids.size(); ++t)
    for (int64_t i = bulk.seeds.offsets[t][g]; i < bulk.seeds.offsets[t][g + 1]; ++i)
      mix(static_cast<uint64_t>(bulk.seeds.ids[t][i]));
  for (const HeteroSampledLayer& layer : bulk.layers) {
    for (size_t t = 0; t < layer.vertices.size(); ++t)
      for (int64_t i = layer.vertex_offsets[t][g]; i < layer.vertex_offsets[t][g + 1]; ++i)
        mix(static_cast<uint64_t>(layer.vertices[t][i]));
    for (size_t r = 0; r < layer.adj.size(); ++r) {
      const CsrMatrix& a = layer.adj[r];
      if (a.rows == 0) continue;
      mix(r);
      const std::vector<vid_t>& columns = layer.vertices[bulk.relation_sources[r]];  // stacked column ids
      for (int64_t row = layer.row_offsets[r][g]; row < layer.row_offsets[r][g + 1]; ++row) {
        mix(static_cast<uint64_t>(a.rowptr[row + 1] - a.rowptr[row]));
        for (int64_t e = a.rowptr[row]; e < a.rowptr[row + 1]; ++e) {
          mix(static_cast<uint64_t>(columns[a.colidx[e]]));
          mix_value(a.values[e]);
        }
      }
    }
  }
}

}  // namespace matsamp
