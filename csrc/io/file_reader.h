// A regular file read at offsets (pread), for the binary readers (.msg, .npz),
// which copy what they read anyway. Nothing is memory-mapped, so a file that
// shrinks while it is read is an error, not a SIGBUS; and opening never waits
// (a FIFO is refused at once instead of blocking until a writer comes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace matsamp {

class FileReader {
 public:
  // Throws "cannot open <path>: <reason>" (missing, unreadable, not a regular file).
  explicit FileReader(const std::string& path);
  ~FileReader();
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  // The size when the file was opened; readers check their offsets against it.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // The open file, for the one opt-in mapping (io/mapped_features.h).
  int descriptor() const { return fd_; }

  // Copies bytes [offset, offset + count) to `out`. Throws "<path>: truncated: ..."
  // when they lie past size(), "<path>: file shrank ..." when the file lost them since.
  void read(uint64_t offset, void* out, size_t count) const;
  template <class T>
  T read(uint64_t offset) const {
    T value;
    read(offset, &value, sizeof(T));
    return value;
  }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace matsamp
