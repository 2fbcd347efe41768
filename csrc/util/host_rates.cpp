#include "util/host_rates.h"

#include <omp.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "util/bandwidth.h"

namespace matsamp {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 1);
  return "unknown cpu";
}

// FNV-1a: a file name for the key.
std::string file_name(const std::string& key) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  std::ostringstream name;
  name << "host_rates_" << std::hex << h;
  return name.str();
}

// The rates in `path` if it holds `key` and two positive numbers.
bool read_rates(const std::filesystem::path& path, const std::string& key, HostRates* rates) {
  std::ifstream in(path);
  std::string kept_key;
  if (!std::getline(in, kept_key) || kept_key != key) return false;
  HostRates r;
  if (!(in >> r.copy_bandwidth >> r.gather_rate) || !(r.copy_bandwidth > 0) || !(r.gather_rate > 0)) return false;
  r.source = path.string();
  *rates = r;
  return true;
}

// Written beside and renamed into place, so that a reader never sees half a file.
void write_rates(const std::filesystem::path& path, const std::string& key, const HostRates& rates) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  const std::filesystem::path partial = path.string() + "." + std::to_string(getpid());
  {
    std::ofstream out(partial);
    out.precision(17);
    out << key << '\n' << rates.copy_bandwidth << ' ' << rates.gather_rate << '\n';
    if (!out) return;
  }
  std::filesystem::rename(partial, path, error);
  if (error) std::filesystem::remove(partial, error);
}

}  // namespace

std::string rates_cache_dir() {
  if (const char* dir = std::getenv("MATSAMP_CACHE_DIR")) return dir;
  if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/matsamp";
  if (const std::string home = environment("HOME"); !home.empty()) return home + "/.cache/matsamp";
  return "";
}

HostRates cached_rates(const std::string& dir, const std::string& key, const std::function<HostRates()>& measure) {
  const std::filesystem::path path = dir.empty() ? "" : std::filesystem::path(dir) / file_name(key);
  HostRates rates;
  if (!dir.empty() && read_rates(path, key, &rates)) return rates;
  rates = measure();
  rates.source = "measured";
  if (!dir.empty()) write_rates(path, key, rates);
  return rates;
}

HostRates host_rates() {
  static std::mutex mutex;                        // one measurement at a time: each takes the machine
  static std::map<std::string, HostRates> known;  // this process's, by key
  const std::lock_guard<std::mutex> lock(mutex);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::string key = std::string(host) + " |" + cpu_model() + " | " + std::to_string(omp_get_max_threads()) +
                          " threads";
  if (const auto it = known.find(key); it != known.end()) return it->second;
  return known[key] = cached_rates(rates_cache_dir(), key, [] {
           HostRates measured;
           measured.copy_bandwidth = measure_copy_bandwidth();
           measured.gather_rate = measure_gather_rate();
           return measured;
         });
}

}  // namespace matsamp
