#include "io/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "core/error.h"

namespace matsamp {

FileReader::FileReader(const std::string& path) : path_(path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) fail("cannot open ", path, ": ", std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    fail("cannot open ", path, ": ", std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    fail("cannot open ", path, ": not a regular file");
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

FileReader::~FileReader() { ::close(fd_); }

void FileReader::read(uint64_t offset, void* out, size_t count) const {
  if (offset > size_ || size_ - offset < count)
    fail(path_, ": truncated: ", count, " bytes at byte ", offset, " run past the end (", size_, " bytes)");
  char* to = static_cast<char*>(out);
  for (size_t done = 0; done < count;) {
    const ssize_t got = ::pread(fd_, to + done, count - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(path_, ": read failed: ", std::strerror(errno));
    if (got == 0)
      fail(path_, ": file shrank while it was read (", size_, " bytes when opened, ended at byte ", offset + done, ")");
    done += static_cast<size_t>(got);
  }
}

}  // namespace matsamp
