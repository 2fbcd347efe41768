#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace matsamp {

MappedFile::MappedFile(const std::string& path) : path_(path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open ", path, ": ", std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    fail("cannot open ", path, ": ", std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    fail("cannot open ", path, ": not a regular file");
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    ::close(fd);
    if (p == MAP_FAILED) fail("cannot open ", path, ": mmap failed: ", std::strerror(err));
    data_ = static_cast<const char*>(p);
  } else {
    ::close(fd);
  }
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path), tmp_path_(path + ".tmp") {
  file_ = std::fopen(tmp_path_.c_str(), "wb");
  if (!file_) fail("cannot open ", tmp_path_, " for writing: ", std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (file_) {
    std::fclose(file_);
    std::remove(tmp_path_.c_str());
  }
}

void AtomicFileWriter::write(const void* bytes, size_t count) {
  MATSAMP_CHECK(file_, "write to ", path_, " after commit");
  if (count > 0 && std::fwrite(bytes, 1, count, file_) != count)
    fail("cannot write ", tmp_path_, ": ", std::strerror(errno));
}

void AtomicFileWriter::commit() {
  MATSAMP_CHECK(file_, "commit of ", path_, " twice");
  const bool ok = std::fflush(file_) == 0;
  const int err = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok || !closed) {
    std::remove(tmp_path_.c_str());
    fail("cannot write ", tmp_path_, ": ", std::strerror(err));
  }
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    const int rename_err = errno;
    std::remove(tmp_path_.c_str());
    fail("cannot rename ", tmp_path_, " to ", path_, ": ", std::strerror(rename_err));
  }
}

}  // namespace matsamp
