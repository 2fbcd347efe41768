// The files of an OGB dataset folder, shared by the homogeneous and the
// heterogeneous readers.
#pragma once
#include <filesystem>
#include <string>

namespace matsamp::ogb {

// `dir/name.csv.gz`, or `dir/name.csv` when only that exists; empty when neither.
std::string csv_file(const std::filesystem::path& dir, const std::string& name);
// The same, or a one-line error naming the missing file.
std::string required_csv(const std::filesystem::path& dir, const std::string& name);
// split/<scheme>: the only scheme, or the first by name; empty when none.
std::filesystem::path split_scheme(const std::filesystem::path& dir);

}  // namespace matsamp::ogb
