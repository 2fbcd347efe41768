// Plain types of the device side that the engine and the backend's users share
// (lent device memory, out-of-memory errors, memory figures and counters:
// backend/device_memory.h). No Backend here, so the CUDA translation units never
// see the engine's seam.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "backend/device_memory.h"
#include "core/error.h"

namespace matsamp {}  // namespace matsamp
