// .npz graphs (zip members, npy headers, deflate): read_npz_graph.
#include "fuzz_input.h"
#include "io/graph_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "graph.npz", [](const std::string& p) { matsamp::read_npz_graph(p); });
}
