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

DataSplit split_by_time(const std::vector<int64_t>& labels, const std::vector<int64_t>& times, int64_t t1, int64_t t2) {
  MATSAMP_CHECK(t1 < t2, "time split: the validation start ", t1, " must come before the test start ", t2);
  MATSAMP_CHECK(labels.size() == times.size(), "time split: ", times.size(), " vertex times for ", labels.size(),
                " vertices");
  DataSplit split;
  for (size_t v = 0; v < labels.size(); ++v) {
    if (labels[v] < 0) continue;
    auto& set = times[v] < t1 ? split.train : times[v] < t2 ? split.validation : split.test;
    set.push_back(static_cast<vid_t>(v));
  }
  MATSAMP_CHECK(!split.train.empty() && !split.validation.empty() && !split.test.empty(), "time split ", t1, ",", t2,
                ": ", split.train.size(), " train, ", split.validation.size(), " validation and ", split.test.size(),
                " test vertices; each set needs one");
  return split;
}

}  // namespace matsamp
