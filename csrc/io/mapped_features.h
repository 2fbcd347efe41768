// The float32 vertex features of a .msg file as a memory mapping, for callers
// that take the rows without a copy (Python's load_dataset(path, mmap=True)),
// as numpy's mmap_mode does. Opt-in because it gives up a promise every other
// reader keeps (io/file_reader.h): if the file shrinks while it is mapped, the
// next access to a lost page kills the process with SIGBUS.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace matsamp {

class MappedFeatures {
 public:
  // Maps the features section and verifies it once, as read_binary_csr does:
  // its checksum and that every value is finite (so every page is read once).
  // A one-line error naming the file when it cannot be mapped, has no
  // features, or stores them as float16 (those must be converted).
  explicit MappedFeatures(const std::string& path);
  ~MappedFeatures();
  MappedFeatures(const MappedFeatures&) = delete;
  MappedFeatures& operator=(const MappedFeatures&) = delete;

  // rows() x dim(), row-major. The mapping is private: writing to it copies
  // the page touched and never reaches the file.
  float* data() const { return data_; }
  int64_t rows() const { return rows_; }
  int64_t dim() const { return dim_; }

 private:
  void* base_ = nullptr;  // page-aligned start of the mapping
  size_t length_ = 0;
  float* data_ = nullptr;
  int64_t rows_ = 0, dim_ = 0;
};

}  // namespace matsamp
