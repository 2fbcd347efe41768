// The subcommands of the matsamp CLI; each registers its options and callback.
#pragma once
#include <CLI/CLI.hpp>

namespace matsamp::cli {

// The command line as main() received it (after the program name), for the
// ranks of a distributed run to check that they all run the same command.
void set_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();
// argv[0], as the user wrote it (what help text names).
const std::string& program_name();

void add_generate_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_partition_command(CLI::App& app);
void add_sample_command(CLI::App& app);
void add_bench_command(CLI::App& app);
#ifdef MATSAMP_HAVE_TRAIN
void add_train_command(CLI::App& app);  // cmd_train.cpp, built with libtorch only
#endif

}  // namespace matsamp::cli
