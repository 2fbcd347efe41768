#include "backend/backend_registry.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "core/error.h"

namespace matsamp {

namespace {

// Function-local, so that registrations from other libraries' static
// initializers find it constructed.
std::map<std::string, BackendKind>& kinds() {
  static std::map<std::string, BackendKind> registered = [] {
    std::map<std::string, BackendKind> m;
    m["cpu"] = BackendKind{"cpu", "the host, OpenMP over its cores (--threads)", [](std::string*) { return 1; },
                           [](int, std::shared_ptr<DeviceMemorySource> lent) {
                             MATSAMP_CHECK(!lent, "the cpu backend takes no lent device memory");
                             return make_cpu_backend();
                           }};
    return m;
  }();
  return registered;
}

const BackendKind& find_kind(const std::string& name) {
  auto it = kinds().find(name);
  if (it == kinds().end()) fail("unknown device '", name, "'; the devices are ", backend_names());
  return it->second;
}

}  // namespace

bool register_backend(BackendKind kind) {
  MATSAMP_CHECK(!kind.name.empty() && kind.name.find(':') == std::string::npos, "a backend needs a name without ':'");
  const bool inserted = kinds().emplace(kind.name, kind).second;
  MATSAMP_CHECK(inserted, "backend '", kind.name, "' registered twice");
  return true;
}

std::vector<const BackendKind*> backend_kinds() {
  std::vector<const BackendKind*> out{&kinds().at("cpu")};
  for (const auto& [name, kind] : kinds())
    if (name != "cpu") out.push_back(&kind);
  return out;
}

std::string backend_names() {
  std::string names;
  for (const BackendKind* kind : backend_kinds()) names += (names.empty() ? "" : ", ") + kind->name;
  return names;
}

DeviceName parse_device(const std::string& text) {
  DeviceName device;
  const size_t colon = text.find(':');
  device.kind = text.substr(0, colon);
  find_kind(device.kind);
  if (colon == std::string::npos) return device;
  const std::string index = text.substr(colon + 1);
  const auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), device.index);
  if (index.empty() || ec != std::errc() || end != index.data() + index.size() || device.index < 0)
    fail("device '", text, "': the index after ':' must be a non-negative integer");
  device.has_index = true;
  return device;
}

std::unique_ptr<Backend> make_backend(const DeviceName& device, std::shared_ptr<DeviceMemorySource> lent) {
  const BackendKind& kind = find_kind(device.kind);
  std::string why;
  const int count = kind.device_count(&why);
  if (count == 0) fail(device.str(), ": ", why.empty() ? "no such device" : why);
  if (device.index >= count)
    fail(device.str(), ": this process sees ", count, " ", device.kind, " device", count == 1 ? "" : "s");
  try {
    return kind.make(device.index, std::move(lent));
  } catch (const Error& e) {
    fail(device.str(), ": ", e.what());
  }
}

}  // namespace matsamp
