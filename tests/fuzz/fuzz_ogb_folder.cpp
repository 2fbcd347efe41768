// OGB node-property folders in CSV form: the input is the folder's files, cut at
// NUL bytes in this order (missing parts: absent files, plain or gzip each).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "fuzz_input.h"
#include "io/atomic_file.h"
#include "io/graph_io.h"

namespace {

constexpr const char* kFiles[] = {"raw/edge.csv",      "raw/num-node-list.csv", "raw/num-edge-list.csv",
                                  "raw/node-feat.csv", "raw/node-label.csv",    "raw/edge-feat.csv",
                                  "split/s/train.csv", "split/s/valid.csv",     "split/s/test.csv"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = matsamp::fuzz::scratch_path("ogb");
  matsamp::remove_tree(dir);
  ::mkdir(dir.c_str(), 0700);
  ::mkdir((dir + "/raw").c_str(), 0700);
  ::mkdir((dir + "/split").c_str(), 0700);
  ::mkdir((dir + "/split/s").c_str(), 0700);
  size_t begin = 0;
  for (const char* name : kFiles) {
    if (begin > size) break;
    size_t end = begin;
    while (end < size && data[end] != 0) ++end;
    matsamp::fuzz::write_file(dir + "/" + name, data + begin, end - begin);
    begin = end + 1;
  }
  return matsamp::fuzz::expect_errors_only([] { matsamp::read_ogb_node_dataset(dir); });
}
