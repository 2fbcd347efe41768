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

}  // namespace matsamp
