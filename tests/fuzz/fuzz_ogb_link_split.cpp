// OGB link-property splits (train/ogb_link_split.h): torch.save'd dictionaries of
// vertex-id tensors. The input is written as train.pt, valid.pt and test.pt of one
// split folder, read against a ring of 16 vertices.
#include <sys/stat.h>

#include <string>

#include "fuzz_input.h"
#include "train/ogb_link_split.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = matsamp::fuzz::scratch_path("link");
  static const matsamp::CsrMatrix graph = matsamp::fuzz::ring(16);
  ::mkdir(dir.c_str(), 0700);
  for (const char* name : {"/train.pt", "/valid.pt", "/test.pt"})
    if (!matsamp::fuzz::write_file(dir + name, data, size)) return 0;
  return matsamp::fuzz::expect_errors_only([&] { matsamp::read_ogb_link_split(dir + "/train.pt", graph); });
}
