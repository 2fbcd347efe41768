#include "util/progress.h"

#include <unistd.h>

#include <algorithm>

namespace matsamp {

namespace {

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

}  // namespace

Progress::Progress(std::string what, int64_t total, std::string unit, std::FILE* out)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      out_(out),
      terminal_(out && ::isatty(::fileno(out))),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (open_line_) std::fputc('\n', out_);
}

void Progress::clear() {
  if (!open_line_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  open_line_ = false;
}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::line(int64_t done) const {
  const double elapsed = seconds();
  std::string text = what_ + ": " + std::to_string(done) + " / " + std::to_string(total_) + " " + unit_ + " (" +
                     format("%.1f s", elapsed);
  if (done > 0 && elapsed > 0) {
    const double rate = static_cast<double>(done) / elapsed;
    text += ", " + format("%.1f ", rate) + unit_ + "/s";
    if (done < total_) text += ", " + format("%.1f s left", static_cast<double>(total_ - done) / rate);
  }
  return text + ")";
}

void Progress::update(int64_t done) {
  if (!out_) return;
  const double now = seconds();
  const bool last = done >= total_;
  if (!last && now - last_ < (terminal_ ? 0.2 : 5.0)) return;
  last_ = now;
  if (!terminal_) {
    std::fprintf(out_, "matsamp: %s\n", line(done).c_str());
    return;
  }
  constexpr int kWidth = 24;
  const int filled = total_ > 0 ? static_cast<int>(kWidth * std::min<int64_t>(done, total_) / total_) : kWidth;
  std::fprintf(out_, "\r\033[Kmatsamp: [%s%s] %s", std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), line(done).c_str());
  open_line_ = !last;
  if (last) std::fputc('\n', out_);
  std::fflush(out_);
}

}  // namespace matsamp
