// Matrix Market files, plain or gzip, with each way of taking values.
#include "fuzz_input.h"
#include "io/graph_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const matsamp::ValueMode mode = size == 0 ? matsamp::ValueMode::given : static_cast<matsamp::ValueMode>(data[0] % 3);
  return matsamp::fuzz::read_as_file(data, size, "graph.mtx",
                                     [&](const std::string& p) { matsamp::read_matrix_market(p, {mode}); });
}
