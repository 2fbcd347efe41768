// matsamp: bulk matrix-based minibatch sampling for GNN training.
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/full_command.h"
#include "cli/validators.h"
#include "core/error.h"
#include "util/memory.h"

namespace {

// One line: CLI11's messages may hold newlines (lists of extra arguments).
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// The innermost command that was named on the line, for the help hint.
std::string command_path(CLI::App& app) {
  std::string path = "matsamp";
  for (CLI::App* sub = &app; sub;) {
    const auto named = sub->get_subcommands();
    sub = named.empty() ? nullptr : named.front();
    if (sub) path += " " + sub->get_name();
  }
  return path;
}

std::vector<std::string>& arguments() {
  static std::vector<std::string> given;
  return given;
}

std::string& program() {
  static std::string name;
  return name;
}

}  // namespace

namespace matsamp::cli {
void set_command_line(int argc, char** argv) {
  program() = argc > 0 ? argv[0] : "matsamp";
  arguments().assign(argv + 1, argv + argc);
}
const std::vector<std::string>& command_line() { return arguments(); }
const std::string& program_name() { return program(); }
}  // namespace matsamp::cli

#ifndef MATSAMP_HAVE_TRAIN
namespace {

// Where the trainer is not linked in: `matsamp` hands `train` (its --help too) to
// matsamp-full (cli/full_command.h); a matsamp-full built without libtorch says so.
void add_train_hand_off(CLI::App& app) {
  CLI::App* train = app.add_subcommand("train", "train a GNN on sampled minibatches (libtorch)");
  train->prefix_command();
  train->set_help_flag();
  train->callback([] {
    matsamp::cli::hand_off("train");
    matsamp::fail("train: this matsamp was built without libtorch (Debian: libtorch-dev), so it cannot train");
  });
}

}  // namespace
#endif

int main(int argc, char** argv) {
  matsamp::keep_freed_memory_for_reuse();
  matsamp::cli::set_command_line(argc, argv);
#ifdef MATSAMP_FULL_COMMAND
  matsamp::cli::mark_full_command();
#endif
  CLI::App app{
      "matsamp: samples GNN minibatches in bulk with sparse matrix algebra.\n"
      "Run 'matsamp COMMAND --help' for the options of a command."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "matsamp 0.1.0");
  matsamp::cli::add_generate_command(app);
  matsamp::cli::add_convert_command(app);
  matsamp::cli::add_info_command(app);
  matsamp::cli::add_partition_command(app);
  matsamp::cli::add_sample_command(app);
  matsamp::cli::add_bench_command(app);
#ifdef MATSAMP_HAVE_TRAIN
  matsamp::cli::add_train_command(app);
#else
  add_train_hand_off(app);
#endif
  matsamp::cli::check_numbers(app);
  // Usage errors exit with 2, errors in the data or the run with 1; both are one line.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "matsamp: error: %s (see '%s --help')\n", one_line(e.what()).c_str(),
                 command_path(app).c_str());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "matsamp: error: out of memory (std::bad_alloc)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "matsamp: error: %s\n", one_line(e.what()).c_str());
    return 1;
  }
  return 0;
}
