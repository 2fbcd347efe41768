// Backends by name ("cpu", "cuda"): the CLI's --device and Python's device
// choice go through this list. The CPU backend is always here; others register
// themselves from their own library (kernels/ registers "cuda", also in builds
// without CUDA, where it says why it cannot run).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/device_memory.h"

namespace matsamp {

struct BackendKind {
  std::string name;
  std::string summary;
  // How many devices of this kind the process can use (0: none, and *why says
  // why not when given).
  std::function<int(std::string* why)> device_count;
  // The backend on device `index` (0 ≤ index < device_count()), in memory and on
  // the stream `lent` gives when not null (a device kind's; torch lends its own).
  std::function<std::unique_ptr<Backend>(int index, std::shared_ptr<DeviceMemorySource> lent)> make;
};

// A device as users write it: a backend name and an optional index ("cuda:1").
struct DeviceName {
  std::string kind;
  int index = 0;
  bool has_index = false;
  std::string str() const { return has_index ? kind + ":" + std::to_string(index) : kind; }
};

// Registers `kind` (at static initialization; a second kind of the same name
// is a programming error). Returns true, so that a registration is one line:
//   static const bool registered = register_backend({...});
bool register_backend(BackendKind kind);
// Every registered kind, "cpu" first, the others by name.
std::vector<const BackendKind*> backend_kinds();
// "cpu, cuda": for help text and errors.
std::string backend_names();

// Parses "cpu", "cuda", "cuda:1"; throws Error naming the text and the
// registered kinds when the name is unknown or the index malformed.
DeviceName parse_device(const std::string& text);
// The backend of `device`; throws Error "<device>: <why>" when the kind has no
// device of that index.
std::unique_ptr<Backend> make_backend(const DeviceName& device, std::shared_ptr<DeviceMemorySource> lent = nullptr);

}  // namespace matsamp
