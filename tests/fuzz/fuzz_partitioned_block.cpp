// What a rank of graph-partitioned training reads of a .msg: its block of rows,
// its feature rows, the labels of the split's vertices, every label and the split
// (training_data.cpp's read_partitioned_training_data, distributed_csr.cpp's read_block_row).
#include <algorithm>
#include <map>

#include "core/row_blocks.h"
#include "fuzz_input.h"
#include "io/binary_csr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "block.msg", [](const std::string& p) {
    const matsamp::BinaryCsrInfo info = matsamp::read_binary_csr_info(p);
    const matsamp::RowBlocks blocks{info.vertices, 3};
    for (int b = 0; b < 3; ++b) {
      matsamp::read_binary_csr_rows(p, blocks.begin(b), blocks.end(b));
      if (info.has_features) matsamp::read_binary_feature_rows(p, blocks.begin(b), blocks.end(b));
    }
    std::vector<matsamp::vid_t> scored;
    for (const auto& [name, ids] : matsamp::read_binary_splits(p)) scored.insert(scored.end(), ids.begin(), ids.end());
    std::sort(scored.begin(), scored.end());
    scored.erase(std::unique(scored.begin(), scored.end()), scored.end());
    if (info.has_labels) {
      matsamp::read_binary_labels_at(p, scored);
      matsamp::read_binary_labels(p);
    }
  });
}
