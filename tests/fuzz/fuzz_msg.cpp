// The .msg format: the whole file, and a block of rows as partitioned loading reads it.
#include <algorithm>

#include "fuzz_input.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "graph.msg", [](const std::string& p) {
    const matsamp::BinaryCsrInfo info = matsamp::read_binary_csr_info(p);
    matsamp::read_binary_csr_rows(p, info.vertices / 3, std::max<int64_t>(info.vertices / 3, info.vertices / 2));
    matsamp::read_binary_csr(p);
  });
}
