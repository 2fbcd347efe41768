// GraphSAINT's pre-sampled counts kept in a file, so that a second run (another
// training run, or the Python loader after `matsamp train`) skips the
// pre-sampling: a .msg of its own version holding the key (sampler, options,
// batch, seed), a checksum of Â, the totals and the counts, every section
// checksummed, written atomically. A missing file holds nothing; counts for
// another key or another graph are refused with one line naming both.
#pragma once
#include <memory>
#include <string>

#include "sampling/saint_normalization.h"

namespace matsamp {

std::shared_ptr<const EstimateStore> estimate_file(const std::string& path);

}  // namespace matsamp
