// OGB link-property splits (train/ogb_link_split.h): torch.save'd dictionaries of
// vertex-id tensors. The input is written as train.pt, valid.pt and test.pt of one
// split folder, read against a graph of 16 vertices.
#include <torch/torch.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/error.h"
#include "train/ogb_link_split.h"

namespace {

const matsamp::CsrMatrix& ring() {
  static const matsamp::CsrMatrix graph = [] {
    std::vector<int64_t> rows, cols;
    for (int64_t v = 0; v < 16; ++v) {
      rows.push_back(v);
      cols.push_back((v + 1) % 16);
    }
    return matsamp::csr_from_triples(16, 16, rows, cols, {});
  }();
  return graph;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  torch::set_num_threads(1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = "/tmp/matsamp_fuzz_" + std::to_string(::getpid()) + "_link";
  ::mkdir(dir.c_str(), 0700);
  for (const char* name : {"/train.pt", "/valid.pt", "/test.pt"}) {
    std::FILE* f = std::fopen((dir + name).c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  try {
    matsamp::read_ogb_link_split(dir + "/train.pt", ring());
  } catch (const matsamp::Error&) {
  }
  return 0;
}
