#include "io/text_writer.h"

#include <omp.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/error.h"
#include "io/atomic_file.h"

namespace matsamp {

namespace {

constexpr int64_t kLinesPerChunk = 1 << 16;

std::string gzip_member(const std::string& text, const std::string& path) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    fail(path, ": cannot start zlib");
  std::string out(deflateBound(&z, text.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) fail(path, ": gzip compression failed");
  return out;
}

}  // namespace

void write_lines(const std::string& path, int64_t lines, const std::function<void(int64_t, std::string&)>& format,
                 bool gzip) {
  AtomicFileWriter out(path);
  const int threads = std::max(1, omp_get_max_threads());
  const int64_t chunks = (lines + kLinesPerChunk - 1) / kLinesPerChunk;
  std::vector<std::string> batch(threads);
  for (int64_t first = 0; first < chunks; first += threads) {
    const int count = static_cast<int>(std::min<int64_t>(threads, chunks - first));
#pragma omp parallel for schedule(static, 1) num_threads(count)
    for (int t = 0; t < count; ++t) {
      std::string text;
      const int64_t begin = (first + t) * kLinesPerChunk, end = std::min(lines, begin + kLinesPerChunk);
      for (int64_t i = begin; i < end; ++i) format(i, text);
      batch[t] = gzip ? gzip_member(text, path) : std::move(text);
    }
    for (int t = 0; t < count; ++t) out.write(batch[t].data(), batch[t].size());
  }
  out.commit();
}

void append_number(std::string& out, int64_t value) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

void append_number(std::string& out, float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

}  // namespace matsamp
