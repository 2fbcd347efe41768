#include "cli/full_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "cli/commands.h"
#include "core/error.h"

namespace matsamp::cli {

namespace {

constexpr const char* kFullCommand = "matsamp-full";

bool& is_full() {
  static bool full = false;
  return full;
}

// The directory of this program's executable.
std::filesystem::path own_directory() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path();
}

}  // namespace

void mark_full_command() { is_full() = true; }

std::string full_command_path() {
  const std::filesystem::path dir = own_directory();
  if (dir.empty()) return "";
  const std::filesystem::path full = dir / kFullCommand;
  return access(full.c_str(), X_OK) == 0 ? full.string() : "";
}

void hand_off(const std::string& what) {
  if (is_full()) return;
  const std::string full = full_command_path();
  if (full.empty())
    fail(what, " needs ", kFullCommand,
         " (matsamp with libtorch, CUDA and NCCL), which is not installed beside "
         "this matsamp in ",
         own_directory().string());
  std::vector<std::string> arguments{program_name()};  // help and errors name the program the user ran
  arguments.insert(arguments.end(), command_line().begin(), command_line().end());
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(full.c_str(), argv.data());
  fail("cannot run ", full, " for ", what, ": ", std::strerror(errno));
}

}  // namespace matsamp::cli
