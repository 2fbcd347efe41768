// Output files that appear whole or not at all: written under a unique hidden
// name beside the target (".NAME.XXXXXX", same folder, so same file system)
// and renamed into place. The temporary file is removed on any failure, and on
// SIGINT / SIGTERM / SIGHUP too (temporary_files.h); an existing file of the
// target's name is replaced only by the rename, and no other file is touched.
#pragma once
#include <cstddef>
#include <cstdio>
#include <string>

namespace matsamp {

class AtomicFileWriter {
 public:
  // Throws "cannot write <path>: <reason>" when no temporary file can be made beside it.
  explicit AtomicFileWriter(const std::string& path);
  ~AtomicFileWriter();  // removes the temporary file unless commit() succeeded
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const void* bytes, size_t count);
  void commit();  // flush, close, rename; throws on any failure
  const std::string& temporary_path() const { return tmp_path_; }

 private:
  void discard();
  std::string path_, tmp_path_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;  // in the signal cleanup registry
};

// Throws "cannot write <path>: <reason>" unless a file could be written there
// now (its folder exists and takes new files, and the path is not a folder):
// for outputs written only after long work, such as checkpoints.
void check_can_write(const std::string& path);

}  // namespace matsamp
