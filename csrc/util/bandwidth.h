#pragma once

namespace matsamp {

// Measured host memory bandwidth in bytes/s (read + write of a large copy,
// best of a few runs, all threads). The floor of a memory-bound step is the
// bytes it must move divided by this.
double measure_copy_bandwidth();

// Measured rate of random 4-byte gathers from a 256 MiB array, in gathers/s
// (all threads): the floor of steps that read scattered single elements.
double measure_gather_rate();

}  // namespace matsamp
