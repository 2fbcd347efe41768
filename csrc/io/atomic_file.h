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

// A folder of outputs that appears whole or not at all: filled under a unique
// hidden name beside it (".NAME.XXXXXX") and renamed into place by commit(),
// which replaces an earlier folder of that name (moved aside, then removed), so
// that files of an earlier run never mix with new ones. Removed with what it
// holds unless committed (a signal leaves the hidden folder; its files written
// through AtomicFileWriter are whole).
class AtomicDirectory {
 public:
  // Throws "cannot write <path>: <reason>" (a file of that name, no folder beside it).
  explicit AtomicDirectory(const std::string& path);
  ~AtomicDirectory();
  AtomicDirectory(const AtomicDirectory&) = delete;
  AtomicDirectory& operator=(const AtomicDirectory&) = delete;

  const std::string& staging() const { return tmp_path_; }  // where to write
  void commit();

 private:
  std::string path_, tmp_path_;
  bool committed_ = false;
};

// Throws "cannot write <path>: <reason>" unless a file could be written there
// now (its folder exists and takes new files, and the path is not a folder):
// for outputs written only after long work, such as checkpoints.
void check_can_write(const std::string& path);

// Removes a file or a folder with all it holds, not following symbolic links;
// what cannot be removed stays (best effort, no error). Written on POSIX's
// nftw rather than std::filesystem::remove_all: libtorch 2.11 exports its own
// copy of the latter, which binds in place of libstdc++'s and crashes.
void remove_tree(const std::string& path);

}  // namespace matsamp
