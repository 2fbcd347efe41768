// NumPy .npy arrays in .npz zip archives (stored or deflated members).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace matsamp {

// One array as read from an .npz member: raw little-endian bytes plus its numpy type.
struct NpyArray {
  std::string dtype;  // numpy descr without byte order: "i4", "i8", "f4", "f8", "b1", "u1", ...
  std::vector<int64_t> shape;
  std::vector<char> bytes;
  int64_t size() const;  // product of shape
  // Converts to the requested element type; throws (naming `field`) when the
  // dtype is not an integer / float type that converts exactly. `field` is the
  // whole error context, e.g. "cora.npz: field labels".
  std::vector<int64_t> as_int64(const std::string& field) const;
  std::vector<float> as_float(const std::string& field) const;
  // Integers in [0, bound) as int32 (CSR column ids), read in one pass; a value out
  // of range is an error naming it: "<field>: <what> V at entry I out of range [0, bound)".
  std::vector<int32_t> as_int32_below(int64_t bound, const std::string& field, const char* what) const;
};

class NpzReader {
 public:
  explicit NpzReader(const std::string& path);         // throws on a malformed archive
  bool contains(const std::string& name) const;        // name without ".npy"
  const NpyArray& get(const std::string& name) const;  // throws naming file and field
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::map<std::string, NpyArray> arrays_;
  std::map<std::string, std::string> broken_;  // member -> why it cannot be read; thrown by get()
};

class NpzWriter {
 public:
  void add(const std::string& name, const std::vector<int64_t>& data, std::vector<int64_t> shape = {});
  void add(const std::string& name, const std::vector<int32_t>& data, std::vector<int64_t> shape = {});
  void add(const std::string& name, const std::vector<float>& data, std::vector<int64_t> shape = {});
  // Writes an uncompressed archive (np.load reads it); to a temporary name first,
  // then renamed, so a failed write never leaves a half file behind.
  void write(const std::string& path) const;

 private:
  struct Member {
    std::string name;
    std::string dtype;
    std::vector<int64_t> shape;
    std::vector<char> bytes;
  };
  std::vector<Member> members_;
};

}  // namespace matsamp
