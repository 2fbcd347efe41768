#include "io/mapped_features.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/binary_csr.h"
#include "io/file_reader.h"
#include "io/msg_container.h"

namespace matsamp {

MappedFeatures::MappedFeatures(const std::string& path) {
  const FileReader file(path);
  const FloatFeatureSection features = binary_float_features(file);
  const BinarySection& section = features.section;
  rows_ = features.rows;
  dim_ = features.dim;
  // mmap takes page-aligned offsets; sections are only 64-byte aligned.
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  if (section.bytes == 0) return;  // no rows: nothing to map
  const uint64_t start = section.offset / page * page;
  length_ = static_cast<size_t>(section.offset + section.bytes - start);
  base_ = ::mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_PRIVATE, file.descriptor(), static_cast<off_t>(start));
  if (base_ == MAP_FAILED) {
    base_ = nullptr;
    fail("cannot map ", path, ": ", std::strerror(errno));
  }
  data_ = reinterpret_cast<float*>(static_cast<char*>(base_) + (section.offset - start));
  ::madvise(base_, length_, MADV_SEQUENTIAL);  // the checks below read it front to back
  try {
    msg::check_section(path, "features", data_, section.bytes, section.checksum);
    msg::check_finite_features(path, "features", data_, static_cast<size_t>(rows_ * dim_), dim_);
  } catch (...) {
    ::munmap(base_, length_);
    throw;
  }
  ::madvise(base_, length_, MADV_NORMAL);  // rows are then read in any order
}

MappedFeatures::~MappedFeatures() {
  if (base_) ::munmap(base_, length_);
}

}  // namespace matsamp
