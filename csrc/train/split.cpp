#include "train/split.h"

#include <algorithm>

#include "sampling/epoch.h"

namespace matsamp {

namespace {
// A shuffle key no training epoch uses, one per class.
constexpr uint32_t kSplitTag = 0xC1A55000u;
}  // namespace

DataSplit split_per_class(const std::vector<int64_t>& labels, const PerClassSplitOptions& options) {
  MATSAMP_CHECK(options.train_per_class > 0 && options.validation_per_class >= 0,
                "split: need a positive training count and a non-negative validation count per "
                "class, got ",
                options.train_per_class, " and ", options.validation_per_class);
  int64_t classes = 0;
  for (int64_t label : labels) {
    MATSAMP_CHECK(label >= -1, "split: label ", label, " is negative (-1 marks unlabelled)");
    classes = std::max(classes, label + 1);
  }
  MATSAMP_CHECK(classes > 0, "split: no vertex has a label");
  std::vector<std::vector<vid_t>> members(classes);
  for (int64_t v = 0; v < static_cast<int64_t>(labels.size()); ++v)
    if (labels[v] >= 0) members[labels[v]].push_back(v);

  const int64_t needed = options.train_per_class + options.validation_per_class;
  DataSplit split;
  for (int64_t c = 0; c < classes; ++c) {
    MATSAMP_CHECK(static_cast<int64_t>(members[c].size()) >= needed, "split: class ", c, " has ", members[c].size(),
                  " labelled vertices, the split needs ", needed, " (", options.train_per_class, " train + ",
                  options.validation_per_class, " validation)");
    const std::vector<vid_t> order = shuffle_vertices(members[c], options.seed, kSplitTag + static_cast<uint32_t>(c));
    const auto train_end = order.begin() + options.train_per_class;
    const auto validation_end = train_end + options.validation_per_class;
    split.train.insert(split.train.end(), order.begin(), train_end);
    split.validation.insert(split.validation.end(), train_end, validation_end);
    split.test.insert(split.test.end(), validation_end, order.end());
  }
  for (auto* set : {&split.train, &split.validation, &split.test}) std::sort(set->begin(), set->end());
  return split;
}

}  // namespace matsamp
