// The pickle machine of io/torch_save.h on raw data.pkl bytes (a torch.save file's CRC-32
// keeps mutated pickles from it otherwise): every storage key the pickle names gets the
// same 64 bytes, so that tensors over them are rebuilt and bounds-checked too.
#include <vector>

#include "fuzz_input.h"
#include "io/torch_save.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<char> pickle(data, data + size);
  return matsamp::fuzz::expect_errors_only([&] {
    matsamp::read_saved_tensors("data.pkl", pickle, [](const std::string& key) -> std::optional<std::vector<char>> {
      if (key.size() != 1 || key[0] < '0' || key[0] > '9') return std::nullopt;
      return std::vector<char>(64, static_cast<char>(key[0]));
    });
  });
}
