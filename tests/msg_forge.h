// .msg files altered as a forger would: sections replaced and every checksum
// made to match, so that the readers' checks behind the checksums are reached.
// The layout: io/msg_container.h (a 48-byte header, entries of name[32],
// offset, bytes, checksum, sections 64-byte aligned).
#pragma once
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace matsamp::testing {

struct MsgSection {
  std::string name;
  uint64_t offset = 0, bytes = 0;
  int index = 0;  // in the table
};

inline std::vector<MsgSection> msg_sections(const std::string& file) {
  uint32_t count;
  std::memcpy(&count, file.data() + 12, 4);
  std::vector<MsgSection> table;
  for (uint32_t i = 0; i < count; ++i) {
    const char* e = file.data() + 48 + 56 * i;
    MsgSection s{std::string(e), 0, 0, static_cast<int>(i)};
    std::memcpy(&s.offset, e + 32, 8);
    std::memcpy(&s.bytes, e + 40, 8);
    table.push_back(s);
  }
  return table;
}

inline MsgSection msg_section(const std::string& file, const std::string& name) {
  for (const MsgSection& s : msg_sections(file))
    if (s.name == name) return s;
  ADD_FAILURE() << "no section " << name;
  return {};
}

inline std::string msg_section_bytes(const std::string& file, const std::string& name) {
  const MsgSection s = msg_section(file, name);
  return file.substr(s.offset, s.bytes);
}

// The header's checksum recomputed (after the header or the table was changed).
inline std::string with_header_checksum(std::string file) {
  uint32_t count;
  std::memcpy(&count, file.data() + 12, 4);
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, file.data(), 40);
  XXH3_64bits_update(state, file.data() + 48, 56 * count);
  const uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  std::memcpy(&file[40], &sum, 8);
  return file;
}

// Section `name` replaced by `content` (the later sections moved to follow it),
// its checksum and the header's made to match.
inline std::string with_section(const std::string& file, const std::string& name, const std::string& content) {
  const std::vector<MsgSection> table = msg_sections(file);
  std::string out = file.substr(0, table.front().offset);
  for (const MsgSection& s : table) {
    const std::string data = s.name == name ? content : file.substr(s.offset, s.bytes);
    const uint64_t offset = out.size(), size = data.size(), sum = XXH3_64bits(data.data(), data.size());
    char* entry = &out[48 + 56 * s.index];
    std::memcpy(entry + 32, &offset, 8);
    std::memcpy(entry + 40, &size, 8);
    std::memcpy(entry + 48, &sum, 8);
    out += data + std::string((64 - size % 64) % 64, '\0');
  }
  return with_header_checksum(out);
}

// Section `name` left out of the file (the table and every offset made to match).
inline std::string without_section(const std::string& file, const std::string& name) {
  std::vector<MsgSection> table = msg_sections(file);
  table.erase(std::remove_if(table.begin(), table.end(), [&](const MsgSection& s) { return s.name == name; }),
              table.end());
  const uint32_t count = static_cast<uint32_t>(table.size());
  const uint64_t first = (48 + 56 * uint64_t{count} + 63) / 64 * 64;
  std::string out = file.substr(0, 48) + std::string(first - 48, '\0');
  std::memcpy(&out[12], &count, 4);
  for (uint32_t i = 0; i < count; ++i) {
    const MsgSection& s = table[i];
    char* entry = &out[48 + 56 * i];
    std::memcpy(entry, file.data() + 48 + 56 * s.index, 56);  // name, bytes and checksum as they were
    const uint64_t offset = out.size();
    std::memcpy(entry + 32, &offset, 8);
    out += file.substr(s.offset, s.bytes) + std::string((64 - s.bytes % 64) % 64, '\0');
  }
  return with_header_checksum(out);
}

}  // namespace matsamp::testing
