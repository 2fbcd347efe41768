// The dictionary of tensors that torch.save(dict) writes (torch's zip format, torch
// 1.6 and later: OGB's link splits), read without torch: a zip archive whose data.pkl
// pickle is run by a small machine that knows only what such a file holds (string
// keys; tensors rebuilt by torch._utils._rebuild_tensor_v2 from storages kept in the
// archive). Anything else is a one-line error naming the file, so that damaged or
// foreign bytes never reach an unpickler that can be made to allocate or run anything.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace matsamp {

struct SavedTensor {
  std::string dtype;  // torch's name: "Long", "Int", "Short", "Char", "Byte", "Bool", "Float", "Double", ...
  std::vector<int64_t> shape;
  std::vector<int64_t> values;  // row-major; integer dtypes only (empty for the others)
  bool is_integer() const;
};

// Throws "<path>: ..." when the file is not such a dictionary or is damaged.
std::map<std::string, SavedTensor> read_saved_tensors(const std::string& path);

// The same from data.pkl's bytes, each storage's bytes asked of `storage` by key
// (nullopt: not in the archive); `path` names the source in errors. For tests and fuzzing.
using StorageBytes = std::function<std::optional<std::vector<char>>(const std::string& key)>;
std::map<std::string, SavedTensor> read_saved_tensors(const std::string& path, const std::vector<char>& pickle,
                                                      const StorageBytes& storage);

// "[3, 2]", as torch prints a tensor's sizes.
std::string shape_string(const std::vector<int64_t>& shape);

}  // namespace matsamp
