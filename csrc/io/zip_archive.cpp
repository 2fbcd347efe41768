// The zip reading behind io/zip_archive.h.
#include "io/zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.h"
#include "io/file_reader.h"
#include "util/memory.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "zip parsing assumes a little-endian host");

namespace matsamp {
namespace {

// Bounds-checked little-endian reads from the archive.
struct ZipBytes {
  const FileReader& file;

  template <class T>
  T read(uint64_t offset) const {
    need(offset, sizeof(T), "record");
    return file.read<T>(offset);
  }
  void need(uint64_t offset, uint64_t length, const char* what) const {
    if (offset > file.size() || file.size() - offset < length)
      fail(file.path(), ": malformed zip archive: ", what, " at byte ", offset, " runs past the end of the file");
  }
};

struct ZipEntry {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t compressed = 0, uncompressed = 0, local_offset = 0;
};

constexpr uint32_t kZip64EndSig = 0x06064b50, kZip64LocatorSig = 0x07064b50;
constexpr uint64_t kCentralEntryBytes = 46, kEndBytes = 22;
// Deflate turns at most 1032 bytes into one (a 258-byte match per 2 bits), so a
// member that declares more than that is forged: refused before allocating.
constexpr uint64_t kMaxDeflateRatio = 1032;

// Finds the central directory through the end record (and its zip64 version).
std::pair<uint64_t, uint64_t> central_directory(const ZipBytes& z) {
  const uint64_t size = z.file.size();
  if (size < kEndBytes) fail(z.file.path(), ": not a zip archive (", size, " bytes)");
  // The end record is in the last 22 bytes plus a comment of < 64 KiB: search them in memory.
  const uint64_t tail_start = size > kEndBytes + 65535 ? size - kEndBytes - 65535 : 0;
  std::vector<char> tail(size - tail_start);
  z.file.read(tail_start, tail.data(), tail.size());
  uint64_t end = tail.size() - kEndBytes;
  for (;; --end) {
    uint32_t sig;
    std::memcpy(&sig, tail.data() + end, 4);
    if (sig == kZipEndSig) break;
    if (end == 0) fail(z.file.path(), ": not a zip archive (no end of central directory record)");
  }
  end += tail_start;
  uint64_t entries = z.read<uint16_t>(end + 10);
  uint64_t offset = z.read<uint32_t>(end + 16);
  if ((entries == 0xFFFF || offset == 0xFFFFFFFF) && end >= 20 && z.read<uint32_t>(end - 20) == kZip64LocatorSig) {
    const uint64_t end64 = z.read<uint64_t>(end - 20 + 8);
    if (z.read<uint32_t>(end64) != kZip64EndSig) fail(z.file.path(), ": malformed zip archive: bad zip64 end record");
    entries = z.read<uint64_t>(end64 + 32);
    offset = z.read<uint64_t>(end64 + 48);
  }
  if (entries > size / kCentralEntryBytes)
    fail(z.file.path(), ": malformed zip archive: ", entries, " members declared, the file (", size,
         " bytes) holds at most ", size / kCentralEntryBytes);
  return {offset, entries};
}

std::vector<ZipEntry> list_entries(const ZipBytes& z) {
  auto [pos, count] = central_directory(z);
  std::vector<ZipEntry> entries;
  for (uint64_t k = 0; k < count; ++k) {
    if (z.read<uint32_t>(pos) != kZipCentralSig)
      fail(z.file.path(), ": malformed zip archive: bad central directory entry ", k);
    ZipEntry e;
    e.flags = z.read<uint16_t>(pos + 8);
    e.method = z.read<uint16_t>(pos + 10);
    e.crc = z.read<uint32_t>(pos + 16);
    e.compressed = z.read<uint32_t>(pos + 20);
    e.uncompressed = z.read<uint32_t>(pos + 24);
    const uint16_t name_len = z.read<uint16_t>(pos + 28), extra_len = z.read<uint16_t>(pos + 30),
                   comment_len = z.read<uint16_t>(pos + 32);
    e.local_offset = z.read<uint32_t>(pos + 42);
    z.need(pos + kCentralEntryBytes, uint64_t{name_len} + extra_len, "central directory entry");
    e.name.resize(name_len);
    z.file.read(pos + kCentralEntryBytes, e.name.data(), name_len);
    // Zip64 extra field: 64-bit values for exactly the fields saturated above, in this order.
    const uint64_t extra_end = pos + kCentralEntryBytes + name_len + extra_len;
    for (uint64_t x = pos + kCentralEntryBytes + name_len; x + 4 <= extra_end;) {
      const uint16_t id = z.read<uint16_t>(x), len = z.read<uint16_t>(x + 2);
      if (id == 0x0001) {
        uint64_t field = x + 4;
        for (uint64_t* value : {&e.uncompressed, &e.compressed, &e.local_offset})
          if (*value == 0xFFFFFFFF) {
            if (field + 8 > x + 4 + len || field + 8 > extra_end)
              fail(z.file.path(), ": malformed zip archive: zip64 field of member ", e.name, " is too short");
            *value = z.read<uint64_t>(field);
            field += 8;
          }
      }
      x += 4 + uint64_t{len};
    }
    entries.push_back(std::move(e));
    pos += kCentralEntryBytes + uint64_t{name_len} + extra_len + comment_len;
  }
  return entries;
}

// Inflates `e.compressed` bytes from `start` into `out` (sized to the declared
// uncompressed size), reading the archive a piece at a time.
void inflate_member(const ZipBytes& z, const ZipEntry& e, uint64_t start, std::vector<char>& out) {
  z_stream s{};
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK) fail("zlib inflateInit2 failed");
  std::vector<unsigned char> piece(std::min<uint64_t>(e.compressed, uint64_t{1} << 20));
  s.next_out = reinterpret_cast<unsigned char*>(out.data());
  uint64_t in_at = start, in_left = e.compressed, out_left = out.size();
  int rc;
  try {
    do {  // zlib counts in 32-bit chunks; refill both sides before each call
      if (s.avail_in == 0 && in_left > 0) {
        const size_t count = static_cast<size_t>(std::min<uint64_t>(in_left, piece.size()));
        z.file.read(in_at, piece.data(), count);
        s.next_in = piece.data();
        s.avail_in = static_cast<uInt>(count);
        in_at += count;
        in_left -= count;
      }
      if (s.avail_out == 0) {
        s.avail_out = static_cast<uInt>(std::min<uint64_t>(out_left, 1u << 30));
        out_left -= s.avail_out;
      }
      rc = inflate(&s, Z_NO_FLUSH);
    } while (rc == Z_OK);
  } catch (...) {
    inflateEnd(&s);
    throw;
  }
  const uint64_t produced = s.total_out;
  inflateEnd(&s);
  if (rc != Z_STREAM_END || produced != out.size())
    fail("corrupt deflate stream (zlib code ", rc, ", ", produced, " of ", out.size(), " bytes)");
}

// The member's uncompressed bytes; throws a message (without the file prefix) on failure.
// Its declared sizes are checked against the file and what deflate can produce
// before anything is allocated.
std::vector<char> extract(const ZipBytes& z, const ZipEntry& e) {
  if (e.flags & 1) fail("member is encrypted");
  if (e.method != 0 && e.method != 8)
    fail("compression method ", e.method, " is not supported (stored or deflate only)");
  const uint64_t size = z.file.size();
  if (e.local_offset > size || size - e.local_offset < 30)
    fail("truncated: local header runs past the end of the archive");
  if (z.read<uint32_t>(e.local_offset) != kZipLocalSig) fail("bad local header");
  const uint64_t start = e.local_offset + 30 + z.read<uint16_t>(e.local_offset + 26) +
                         z.read<uint16_t>(e.local_offset + 28);
  if (start > size || size - start < e.compressed)
    fail("truncated: member data (", e.compressed, " bytes declared) runs past the end of the archive (", size,
         " bytes)");
  if (e.method == 0 && e.compressed != e.uncompressed)
    fail("stored member declares ", e.uncompressed, " bytes but holds ", e.compressed);
  if (e.method == 8 && e.uncompressed / kMaxDeflateRatio > e.compressed)
    fail("declares ", e.uncompressed, " bytes uncompressed from ", e.compressed,
         " compressed, more than deflate can produce (forged size)");
  const int64_t memory = physical_memory_bytes();
  if (memory > 0 && e.uncompressed > static_cast<uint64_t>(memory))
    fail("needs ", e.uncompressed, " bytes uncompressed, more than this machine's memory (", memory, " bytes)");
  std::vector<char> out;
  try {
    out.resize(e.uncompressed);
  } catch (const std::exception&) {  // bad_alloc, length_error: one line naming the member, not a bare what()
    fail("needs ", e.uncompressed, " bytes uncompressed: out of memory");
  }
  if (e.method == 0) z.file.read(start, out.data(), out.size());
  else inflate_member(z, e, start, out);
  if (zip_crc32(0, out.data(), out.size()) != e.crc) fail("CRC-32 mismatch (corrupt archive)");
  return out;
}

}  // namespace

struct ZipArchive::Entry : ZipEntry {};

ZipArchive::ZipArchive(const std::string& path) : file_(std::make_unique<FileReader>(path)) {
  for (ZipEntry& e : list_entries(ZipBytes{*file_})) {
    names_.push_back(e.name);
    entries_.push_back(Entry{std::move(e)});
  }
}

ZipArchive::~ZipArchive() = default;

std::vector<char> ZipArchive::read(size_t member) const { return extract(ZipBytes{*file_}, entries_.at(member)); }

// (crc32_z returns 0 for a null buffer, which an empty vector may hand out, so empty
// input is skipped.)
uint32_t zip_crc32(uint32_t crc, const char* bytes, size_t size) {
  if (size == 0) return crc;
  return static_cast<uint32_t>(crc32_z(crc, reinterpret_cast<const Bytef*>(bytes), size));
}

}  // namespace matsamp
