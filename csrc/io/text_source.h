// A text file read as blocks of whole lines, plain or gzip-compressed (known by
// its magic bytes, whatever its name), with the next block read or inflated on a
// second thread while the caller parses the current one. Memory stays at two
// blocks whatever the file's size, and nothing is memory-mapped, so a file that
// shrinks while it is read is an error, not a SIGBUS. Reading a file of 128 MiB
// or more reports its progress on stderr (util/progress.h).
#pragma once
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <string_view>

#include "util/progress.h"

namespace matsamp {

class TextSource {
 public:
  // Throws "cannot open <path>: <reason>" (missing, a directory, a FIFO, unreadable).
  explicit TextSource(const std::string& path, size_t block_bytes = size_t{8} << 20);
  ~TextSource();
  TextSource(const TextSource&) = delete;
  TextSource& operator=(const TextSource&) = delete;

  // The next block: whole lines (the last line of the file may lack its '\n'),
  // valid until the next call; empty at the end of the file. A line longer than
  // the block size grows the block. Throws "<path>: gzip stream truncated" or
  // "<path>: corrupt gzip data (<zlib's reason>)".
  std::string_view next_block();

  const std::string& path() const { return path_; }
  bool compressed() const;
  // Uncompressed bytes handed out so far.
  int64_t bytes_read() const { return bytes_read_; }
  // True when the text handed out so far ends inside a line (no '\n' after its
  // last byte): at the end of the file, a file without its final line end, or
  // one cut inside its last line, which only a count or gzip's trailer can tell.
  bool ends_inside_a_line() const { return bytes_read_ > 0 && last_byte_ != '\n'; }

  // The most text the file can hold: its size, or what that inflates to at most
  // when gzip-compressed. Readers bound declared counts by it before allocating.
  uint64_t max_text_bytes() const;

  // True when the file at `path` starts with gzip's magic bytes (1f 8b); sets
  // *file_bytes to the file's size when given.
  static bool is_gzip(const std::string& path, uint64_t* file_bytes = nullptr);

  struct Reader;  // plain or inflating

 private:
  struct Block {
    std::string bytes;
    size_t size = 0;  // bytes handed out (whole lines); the rest is carried over
  };
  void fill(Block& block, std::string carry);

  std::string path_;
  size_t block_bytes_;
  std::unique_ptr<Reader> reader_;
  Block blocks_[2];
  int current_ = 0;
  char last_byte_ = '\n';
  bool started_ = false;
  std::future<void> pending_;           // fills blocks_[1 - current_] after blocks_[current_]
  std::unique_ptr<Progress> progress_;  // files of 128 MiB and more
  int64_t reported_mib_ = -1;
  int64_t bytes_read_ = 0;
  uint64_t file_bytes_ = 0;  // on disk, when opened
};

}  // namespace matsamp
