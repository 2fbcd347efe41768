#include "transports.h"

#include <map>

#include "core/error.h"

namespace matsamp {

namespace {

// Function-local, so that registrations from other libraries' static initializers find it.
std::map<std::string, TransportFactory>& transports() {
  static std::map<std::string, TransportFactory> registered;
  return registered;
}

}  // namespace

bool register_transport(const std::string& name, TransportFactory make) {
  MATSAMP_CHECK(transports().emplace(name, std::move(make)).second, "transport '", name, "' registered twice");
  return true;
}

const TransportFactory* find_transport(const std::string& name) {
  const auto it = transports().find(name);
  return it == transports().end() ? nullptr : &it->second;
}

}  // namespace matsamp
