// The host's memory rates that bench's floor divides by (bandwidth.h), measured
// once per machine and thread count and kept in a small file: measuring takes
// 768 MiB and about half a second, more than a small epoch and most of a short
// run's peak memory, and the rates are the machine's, not the run's.
#pragma once
#include <functional>
#include <string>

namespace matsamp {

struct HostRates {
  double copy_bandwidth = 0;  // bytes/s, read + write
  double gather_rate = 0;     // random 4-byte gathers/s
  std::string source;         // "measured", or the file they were read from
};

// The folder of kept rates: $MATSAMP_CACHE_DIR, else $XDG_CACHE_HOME/matsamp,
// else ~/.cache/matsamp; "" (MATSAMP_CACHE_DIR set empty, or no home) keeps none.
std::string rates_cache_dir();

// The rates kept in `dir` under `key`, or measure() (then kept there; a file that
// cannot be written or read back as two positive numbers is measured again).
// dir "": always measured.
HostRates cached_rates(const std::string& dir, const std::string& key, const std::function<HostRates()>& measure);

// This host's rates for the current OpenMP thread count: cached_rates with the
// host name, CPU model and thread count as the key.
HostRates host_rates();

}  // namespace matsamp
