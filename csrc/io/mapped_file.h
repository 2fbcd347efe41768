// A read-only memory map of a whole file (POSIX mmap). The readers parse straight
// from the mapping, so large graphs are neither copied nor read line by line.
#pragma once
#include <cstddef>
#include <cstdio>
#include <string>

namespace matsamp {

class MappedFile {
 public:
  // Throws "cannot open <path>: <reason>" when the file cannot be opened or mapped.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char* data_ = nullptr;  // nullptr for an empty file (mmap of 0 bytes fails)
  size_t size_ = 0;
};

// Writes through `path + ".tmp"` and renames, so a failed write never leaves a half
// file under the final name. `write` receives the open stream.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::string& path);
  ~AtomicFileWriter();  // removes the temporary file unless commit() succeeded
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const void* bytes, size_t count);
  void commit();  // flush, close, rename; throws on any failure

 private:
  std::string path_, tmp_path_;
  std::FILE* file_ = nullptr;
};

}  // namespace matsamp
