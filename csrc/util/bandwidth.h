#pragma once

namespace matsamp {

// Measured host memory bandwidth in bytes/s (read + write of a large copy,
// best of a few runs, all threads). The floor of a memory-bound step is the
// bytes it must move divided by this.
double measure_copy_bandwidth();

}  // namespace matsamp
