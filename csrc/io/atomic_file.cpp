#include "io/atomic_file.h"

#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#include "core/error.h"
#include "io/temporary_files.h"

namespace matsamp {

namespace {

// A new, empty file ".NAME.XXXXXX" beside `path`, opened for writing (mode 0666
// less the umask, as the target would get); returns its descriptor.
int create_beside(const std::string& path, std::string& tmp_path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") fail("cannot write ", path, ": not a file name");
  static constexpr char kLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix(6, 'x');
    for (char& c : suffix) c = kLetters[random() % (sizeof kLetters - 1)];
    tmp_path = dir + "." + name + "." + suffix;
    const int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) fail("cannot write ", path, ": ", std::strerror(errno));
  }
  fail("cannot write ", path, ": no unused temporary name beside it");
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    fail("cannot write ", path, ": a folder of that name exists");
  const int fd = create_beside(path, tmp_path_);
  slot_ = register_temporary(tmp_path_);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    discard();
    fail("cannot write ", path, ": ", std::strerror(err));
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
    discard();
  }
}

void AtomicFileWriter::discard() {
  ::unlink(tmp_path_.c_str());
  unregister_temporary(slot_);
  slot_ = -1;
}

void AtomicFileWriter::write(const void* bytes, size_t count) {
  MATSAMP_CHECK(file_, "write to ", path_, " after commit");
  if (count > 0 && std::fwrite(bytes, 1, count, file_) != count)
    fail("cannot write ", path_, ": ", std::strerror(errno));
}

void AtomicFileWriter::commit() {
  MATSAMP_CHECK(file_, "commit of ", path_, " twice");
  const bool flushed = std::fflush(file_) == 0;
  const int err = errno;
  const bool closed = std::fclose(file_) == 0;
  const int close_err = errno;
  file_ = nullptr;
  if (!flushed || !closed) {
    discard();
    fail("cannot write ", path_, ": ", std::strerror(flushed ? close_err : err));
  }
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    const int rename_err = errno;
    discard();
    fail("cannot write ", path_, ": rename from ", tmp_path_, " failed: ", std::strerror(rename_err));
  }
  unregister_temporary(slot_);
  slot_ = -1;
}

void check_can_write(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    fail("cannot write ", path, ": a folder of that name exists");
  std::string probe;
  const int fd = create_beside(path, probe);
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {

// ".NAME.XXXXXX" beside `path`, made as a new folder.
std::string make_folder_beside(const std::string& path, const char* what) {
  const std::filesystem::path target(path);
  const std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..") fail("cannot write ", path, ": not a folder name");
  std::string pattern = (target.parent_path() / ("." + name + "." + what + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) fail("cannot write ", path, ": ", std::strerror(errno));
  return pattern;
}

}  // namespace

AtomicDirectory::AtomicDirectory(const std::string& path) : path_(path) {
  while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
  struct stat st;
  if (::stat(path_.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    fail("cannot write ", path, ": a file of that name exists");
  tmp_path_ = make_folder_beside(path_, "");
}

AtomicDirectory::~AtomicDirectory() {
  if (!committed_) remove_tree(tmp_path_);
}

void AtomicDirectory::commit() {
  std::error_code ec;
  std::string old;
  if (std::filesystem::exists(path_, ec)) {  // an earlier run's folder: aside, then gone
    old = make_folder_beside(path_, "old.");
    std::filesystem::remove(old, ec);
    if (::rename(path_.c_str(), old.c_str()) != 0) fail("cannot replace ", path_, ": ", std::strerror(errno));
  }
  if (::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    if (!old.empty()) ::rename(old.c_str(), path_.c_str());  // put the earlier folder back
    fail("cannot write ", path_, ": ", std::strerror(err));
  }
  committed_ = true;
  if (!old.empty()) remove_tree(old);
}

void remove_tree(const std::string& path) {
  // Depth first (FTW_DEPTH: contents before their folder), links not followed.
  const auto remove_one = [](const char* name, const struct stat*, int, struct FTW*) {
    ::remove(name);
    return 0;
  };
  ::nftw(path.c_str(), remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace matsamp
