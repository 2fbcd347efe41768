// Memory rates of the engine's GPU, the ceilings of bench's floor.
#pragma once
#include "kernels/device_engine.h"

namespace matsamp::gpu {

double measure_copy_bandwidth(DeviceEngine& engine);  // bytes/s, read + write
double measure_gather_rate(DeviceEngine& engine);     // random 4-byte gathers/s

}  // namespace matsamp::gpu
