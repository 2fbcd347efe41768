// The heterogeneous .msg format: the header check alone, then the whole file.
#include "fuzz_input.h"
#include "io/hetero_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "hetero.msg", [](const std::string& p) {
    if (matsamp::is_hetero_binary(p)) matsamp::read_hetero_binary(p);
    matsamp::read_hetero_graph(p);
  });
}
