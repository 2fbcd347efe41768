// Edge lists: SNAP and CSV, with headers, comments and weights, plain or gzip
// (the text source knows gzip by its magic bytes).
#include "fuzz_input.h"
#include "io/graph_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "edges.csv", [](const std::string& p) { matsamp::read_edge_list(p); });
}
