#pragma once
#include <cstdint>
#include <string>

namespace matsamp {

int64_t peak_resident_bytes();        // of this process so far
int64_t physical_memory_bytes();      // of the machine
// "4G", "512M", "100000" (bytes) -> bytes; throws on anything else.
int64_t parse_bytes(const std::string& text);

}  // namespace matsamp
