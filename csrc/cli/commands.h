// The subcommands of the matsamp CLI; each registers its options and callback.
#pragma once
#include <CLI/CLI.hpp>

namespace matsamp::cli {

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
