// `bench --plot OUT`: the per-step breakdown of the bench JSON drawn by
// scripts/plot_bench.py (matplotlib), installed beside the CLI.
#pragma once
#include <string>

namespace matsamp::cli {

// Writes `json` beside `out` and runs the script on it; a one-line error when
// no Python with matplotlib runs it ($MATSAMP_PYTHON, default python3) or it fails.
void plot_bench(const std::string& json, const std::string& out);

}  // namespace matsamp::cli
