#include "io/text_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/error.h"

namespace matsamp {

namespace {

int open_text_file(const std::string& path, uint64_t* size = nullptr) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail("cannot open ", path, ": ", std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail("cannot open ", path, ": not a regular file");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (size) *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

// Reads up to `count` bytes; fewer only at the end of the file.
size_t read_fully(int fd, char* out, size_t count, const std::string& path) {
  size_t done = 0;
  while (done < count) {
    const ssize_t got = ::read(fd, out + done, count - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(path, ": read failed: ", std::strerror(errno));
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

}  // namespace

// Produces the file's (uncompressed) bytes in order.
struct TextSource::Reader {
  virtual ~Reader() = default;
  // Appends up to `count` bytes to `out` at `at`; returns how many (0 at the end).
  virtual size_t read(char* out, size_t count) = 0;
  virtual bool compressed() const = 0;
  uint64_t consumed = 0;  // bytes of the file read so far
};

namespace {

struct PlainReader final : TextSource::Reader {
  explicit PlainReader(const std::string& path) : path(path), fd(open_text_file(path)) {}
  ~PlainReader() override { ::close(fd); }
  size_t read(char* out, size_t count) override {
    const size_t got = read_fully(fd, out, count, path);
    consumed += got;
    return got;
  }
  bool compressed() const override { return false; }
  std::string path;
  int fd;
};

// zlib's inflate over the file, member after member (gzip files may be
// concatenations, as `cat a.gz b.gz` or pigz make them).
struct GzipReader final : TextSource::Reader {
  explicit GzipReader(const std::string& path) : path(path), fd(open_text_file(path)), input(size_t{1} << 20) {
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
      ::close(fd);
      fail(path, ": cannot start zlib");
    }
  }
  ~GzipReader() override {
    inflateEnd(&z);
    ::close(fd);
  }
  bool compressed() const override { return true; }

  size_t read(char* out, size_t count) override {
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(count);
    while (z.avail_out > 0) {
      if (z.avail_in == 0 && !eof) {
        const size_t got = read_fully(fd, input.data(), input.size(), path);
        consumed += got;
        eof = got < input.size();
        z.next_in = reinterpret_cast<Bytef*>(input.data());
        z.avail_in = static_cast<uInt>(got);
      }
      if (z.avail_in == 0 && eof) {
        if (in_member) fail(path, ": gzip stream truncated");
        break;
      }
      in_member = true;
      const int rc = inflate(&z, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member = false;
        if (inflateReset(&z) != Z_OK) fail(path, ": cannot restart zlib");
      } else if (rc == Z_BUF_ERROR && z.avail_in == 0) {
        continue;  // needs more input
      } else if (rc != Z_OK) {
        fail(path, ": corrupt gzip data (", z.msg ? z.msg : zError(rc), ")");
      }
    }
    return count - z.avail_out;
  }

  std::string path;
  int fd;
  std::vector<char> input;
  z_stream z{};
  bool eof = false;
  bool in_member = false;  // inside a member whose end has not been seen
};

}  // namespace

bool TextSource::is_gzip(const std::string& path, uint64_t* file_bytes) {
  const int fd = open_text_file(path, file_bytes);
  unsigned char magic[2] = {0, 0};
  const size_t got = read_fully(fd, reinterpret_cast<char*>(magic), 2, path);
  ::close(fd);
  return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

TextSource::TextSource(const std::string& path, size_t block_bytes)
    : path_(path), block_bytes_(std::max<size_t>(block_bytes, 64)) {
  if (is_gzip(path, &file_bytes_)) reader_ = std::make_unique<GzipReader>(path);
  else reader_ = std::make_unique<PlainReader>(path);
  // A file that takes a while to read says how far it is.
  constexpr uint64_t kReportedBytes = uint64_t{128} << 20;
  if (file_bytes_ >= kReportedBytes)
    progress_ = std::make_unique<Progress>("reading " + std::filesystem::path(path).filename().string(),
                                           static_cast<int64_t>(file_bytes_ >> 20), "MiB");
  fill(blocks_[0], {});
}

TextSource::~TextSource() {
  if (pending_.valid()) pending_.wait();
}

bool TextSource::compressed() const { return reader_->compressed(); }

uint64_t TextSource::max_text_bytes() const {
  // Deflate turns at most 1032 bytes into one.
  constexpr uint64_t kMaxDeflateRatio = 1032;
  if (!compressed()) return file_bytes_;
  return file_bytes_ > UINT64_MAX / kMaxDeflateRatio ? UINT64_MAX : file_bytes_ * kMaxDeflateRatio;
}

void TextSource::fill(Block& block, std::string carry) {
  block.bytes = std::move(carry);
  size_t filled = block.bytes.size();
  size_t capacity = std::max(block_bytes_, filled * 2);
  for (;;) {
    block.bytes.resize(capacity);
    const size_t searched_from = filled;
    filled += reader_->read(block.bytes.data() + filled, capacity - filled);
    block.bytes.resize(filled);
    if (filled < capacity) {  // the end of the file: all of it
      block.size = filled;
      return;
    }
    const void* newline = ::memrchr(block.bytes.data() + searched_from, '\n', filled - searched_from);
    if (newline) {
      block.size = static_cast<size_t>(static_cast<const char*>(newline) - block.bytes.data()) + 1;
      return;
    }
    capacity *= 2;  // a line longer than the block
  }
}

std::string_view TextSource::next_block() {
  if (started_) {
    if (!pending_.valid()) return {};  // the end was handed out before
    pending_.get();
    current_ = 1 - current_;
  }
  const int64_t mib = static_cast<int64_t>(reader_->consumed >> 20);  // written by the finished fill
  if (progress_ && mib != reported_mib_) progress_->update(reported_mib_ = mib);
  started_ = true;
  Block& out = blocks_[current_];
  if (out.size == 0) return {};
  // Read the next block meanwhile, into the buffer the previous call handed out.
  pending_ = std::async(std::launch::async,
                        [this, &out, &next = blocks_[1 - current_]] { fill(next, out.bytes.substr(out.size)); });
  bytes_read_ += static_cast<int64_t>(out.size);
  last_byte_ = out.bytes[out.size - 1];
  return {out.bytes.data(), out.size};
}

}  // namespace matsamp
