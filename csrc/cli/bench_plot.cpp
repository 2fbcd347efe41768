#include "cli/bench_plot.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/error.h"
#include "io/temporary_files.h"

namespace matsamp::cli {

namespace {

// The script: $MATSAMP_PLOT_SCRIPT, the installed copy, or the source tree's.
std::string plot_script() {
  if (const char* given = std::getenv("MATSAMP_PLOT_SCRIPT")) return given;
  for (const char* path : {MATSAMP_INSTALLED_PLOT_SCRIPT, MATSAMP_SOURCE_PLOT_SCRIPT})
    if (std::filesystem::exists(path)) return path;
  fail("--plot: plot_bench.py is neither at ", MATSAMP_INSTALLED_PLOT_SCRIPT, " nor at ", MATSAMP_SOURCE_PLOT_SCRIPT,
       " (set MATSAMP_PLOT_SCRIPT)");
}

// Runs argv, returns its exit status (127 when it could not start).
int run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t child = fork();
  MATSAMP_CHECK(child >= 0, "--plot: cannot start ", argv[0]);
  if (child == 0) {
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

void plot_bench(const std::string& json, const std::string& out) {
  const std::string script = plot_script();
  const char* python = std::getenv("MATSAMP_PYTHON");
  const std::string interpreter = python && *python ? python : "python3";
  const std::string data = out + ".json";
  const int slot = register_temporary(data);  // gone on a signal too
  {
    std::ofstream file(data);
    MATSAMP_CHECK(file << json << '\n', "--plot: cannot write ", data);
  }
  const int status = run({interpreter, script, data, out});
  std::filesystem::remove(data);
  unregister_temporary(slot);
  MATSAMP_CHECK(status == 0, "--plot: ", interpreter, " ", script, " exited with ", status,
                " (it needs matplotlib; MATSAMP_PYTHON picks the Python)");
}

}  // namespace matsamp::cli
