// GraphSAINT's kept counts (estimate_file.h): a .msg of their own version whose
// key and graph checksum must match before the counts are read.
#include <cstdlib>
#include <string>

#include "fuzz_input.h"
#include "graph/transform.h"
#include "sampling/estimate_file.h"
#include "sampling/saint_normalization.h"

namespace {

// The graph the counts are kept for: a ring of 8 vertices, GCN-normalized.
const matsamp::CsrMatrix& ring() {
  static const matsamp::CsrMatrix normalized = matsamp::gcn_normalize(matsamp::fuzz::ring(8));
  return normalized;
}

}  // namespace

// With MATSAMP_FUZZ_SEED_DIR set, writes a valid file there first (fuzz.sh's
// seed: counts kept for this key and graph, which the mutations start from).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("MATSAMP_FUZZ_SEED_DIR")) {
    matsamp::SubgraphCounts counts(ring());
    counts.subgraphs = 3;
    counts.sampled_vertices = 12;
    for (size_t v = 0; v < counts.vertex.size(); ++v) counts.vertex[v] = static_cast<int64_t>(v % 3);
    for (size_t e = 0; e < counts.entry.size(); ++e) counts.entry[e] = static_cast<int64_t>(e % 2);
    matsamp::estimate_file(std::string(dir) + "/kept.msg")->save("fuzz", ring(), counts);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "counts.msg", [](const std::string& p) {
    matsamp::SubgraphCounts counts(ring());
    matsamp::estimate_file(p)->load("fuzz", ring(), counts);
  });
}
