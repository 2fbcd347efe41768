// Members of a zip archive (.npz, torch.save's files): the central directory is read
// on opening (zip64 included), a member's bytes on request, stored or deflated, with
// its declared sizes checked against the file and what deflate can produce before
// anything is allocated, and its CRC-32 checked after.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace matsamp {

class FileReader;

class ZipArchive {
 public:
  // Throws "<path>: not a zip archive ..." or "<path>: malformed zip archive: ...".
  explicit ZipArchive(const std::string& path);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  const std::vector<std::string>& names() const { return names_; }  // in directory order
  // Member i's bytes. A failure throws a message without the file's name (the caller
  // names file and member): "CRC-32 mismatch (corrupt archive)", "truncated: ...".
  std::vector<char> read(size_t member) const;

 private:
  struct Entry;
  std::unique_ptr<FileReader> file_;
  std::vector<Entry> entries_;
  std::vector<std::string> names_;
};

// Record signatures, for the writer of .npz (io/npz.cpp).
constexpr uint32_t kZipLocalSig = 0x04034b50, kZipCentralSig = 0x02014b50, kZipEndSig = 0x06054b50;

// zlib's CRC-32 of `size` bytes, continued from `crc` (0 to start).
uint32_t zip_crc32(uint32_t crc, const char* bytes, size_t size);

}  // namespace matsamp
