#pragma once
#include <cstdint>
#include <string>

namespace matsamp {

int64_t peak_resident_bytes();    // of this process so far
int64_t physical_memory_bytes();  // of the machine
// "4G", "512M", "100000" (bytes) -> bytes; throws on anything else.
int64_t parse_bytes(const std::string& text);

// Makes glibc's malloc keep freed memory for the next allocation instead of
// returning it to the system. Each bulk allocates its arrays afresh, and the
// first touch of a returned page costs a fault and zeroing: on virtual machines
// more than the sampling itself (bulk GraphSAGE on R-MAT 20: 1.58 s -> 0.61 s,
// cpu-baseline.md). The process then holds its peak heap until it exits. Does
// nothing where malloc is not glibc's or GLIBC_TUNABLES / MALLOC_*_ are set (the
// user's own tuning wins). Returns whether it changed the settings.
bool keep_freed_memory_for_reuse();
// Whether keep_freed_memory_for_reuse changed the settings in this process (benchmarks report it).
bool freed_memory_kept();

}  // namespace matsamp
