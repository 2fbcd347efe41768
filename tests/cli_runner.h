// Runs the matsamp CLI as a user would and captures what it prints.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace matsamp::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `program args` through the shell, its output captured in files of `scratch`.
inline CliResult run_program(const std::string& program, const std::string& args, const std::string& scratch) {
  const std::string out = scratch + "/cli.out", err = scratch + "/cli.err";
  const std::string command = program + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(out), read_text(err)};
}

inline CliResult run_cli(const std::string& args, const std::string& scratch) {
  return run_program(MATSAMP_CLI_PATH, args, scratch);
}

// run_cli under a file-size limit of `kib` KiB for every file the command
// writes (the shell's `ulimit -f`, in 512-byte blocks for /bin/sh).
inline CliResult run_cli_with_file_limit(const std::string& args, const std::string& scratch, int kib) {
  const std::string out = scratch + "/cli.out", err = scratch + "/cli.err";
  const std::string command = "ulimit -f " + std::to_string(2 * kib) + "; exec " + std::string(MATSAMP_CLI_PATH) + " " +
                              args + " >" + out + " 2>" + err;
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(out), read_text(err)};
}

inline int count_lines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

// The first `"key":value` of a JSON text, up to the next comma (empty when absent).
inline std::string json_field(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\":");
  return at == std::string::npos ? std::string() : json.substr(at, json.find(',', at) - at);
}

// A failure is one line on stderr that names the problem, and exit code 1.
inline void expect_one_line_error(const CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(count_lines(r.err.substr(r.err.find("matsamp: error"))), 1) << r.err;
  EXPECT_NE(r.err.find("matsamp: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

// A mistake in the command line is one line on stderr, and exit code 2.
inline void expect_usage_error(const CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("matsamp: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace matsamp::testing
