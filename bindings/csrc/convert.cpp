#include "convert.h"

#include <limits>

namespace matsamp::bindings {

namespace {
// numpy-style names, which Python users know (torch's own are "Long", "Float").
std::string dtype_name(at::ScalarType dtype) {
  switch (dtype) {
    case at::kLong: return "int64";
    case at::kInt: return "int32";
    case at::kFloat: return "float32";
    case at::kDouble: return "float64";
    default: return c10::toString(dtype);
  }
}
}  // namespace

void check_vector_shape(const at::Tensor& t, at::ScalarType dtype, const char* op, const char* name) {
  TORCH_CHECK_VALUE(t.defined(), op, ": ", name, " is missing");
  TORCH_CHECK_TYPE(t.scalar_type() == dtype, op, ": ", name, " must have dtype ", dtype_name(dtype), ", got ",
                   dtype_name(t.scalar_type()));
  TORCH_CHECK_VALUE(t.dim() == 1, op, ": ", name, " must be 1-D, got shape ", t.sizes());
}

void check_vector(const at::Tensor& t, at::ScalarType dtype, const char* op, const char* name) {
  check_vector_shape(t, dtype, op, name);
  TORCH_CHECK_VALUE(t.device().is_cpu(), op, ": ", name, " is on ", t.device(), ", but this kernel runs on the CPU");
}

std::vector<int64_t> to_int64_vector(const at::Tensor& t, const char* op, const char* name) {
  const at::ScalarType dtype = t.defined() ? t.scalar_type() : at::kLong;
  TORCH_CHECK_TYPE(dtype == at::kLong || dtype == at::kInt, op, ": ", name, " must have dtype int64 or int32, got ",
                   dtype_name(dtype));
  check_vector(t, dtype, op, name);
  const at::Tensor dense = t.contiguous();
  if (dtype == at::kLong) {
    const int64_t* data = dense.data_ptr<int64_t>();
    return std::vector<int64_t>(data, data + dense.numel());
  }
  const int32_t* data = dense.data_ptr<int32_t>();
  return std::vector<int64_t>(data, data + dense.numel());
}

void check_ids_in_range(const int64_t* ids, int64_t count, int64_t n, const char* op, const char* name) {
  for (int64_t i = 0; i < count; ++i)
    TORCH_CHECK_VALUE(ids[i] >= 0 && ids[i] < n, op, ": ", name, "[", i, "] = ", ids[i], " is out of range [0, ", n,
                      ")");
}

std::vector<int64_t> to_vertex_ids(const at::Tensor& ids, int64_t n, const char* op, const char* name) {
  check_vector(ids, at::kLong, op, name);
  std::vector<int64_t> out = to_int64_vector(ids, op, name);
  check_ids_in_range(out.data(), static_cast<int64_t>(out.size()), n, op, name);
  return out;
}

std::vector<int64_t> to_block_offsets(const at::Tensor& t, int64_t total, const char* op, const char* name) {
  check_vector(t, at::kLong, op, name);
  const std::vector<int64_t> offsets = to_int64_vector(t, op, name);
  TORCH_CHECK_VALUE(offsets.size() >= 2 && offsets.front() == 0 && offsets.back() == total, op, ": ", name,
                    " must hold k + 1 >= 2 entries from 0 to ", total);
  for (size_t g = 1; g < offsets.size(); ++g)
    TORCH_CHECK_VALUE(offsets[g - 1] <= offsets[g], op, ": ", name, " decrease at ", g);
  return offsets;
}

uint64_t to_seed(int64_t seed, const char* op) {
  TORCH_CHECK_VALUE(seed >= 0, op, ": seed must be non-negative, got ", seed);
  return static_cast<uint64_t>(seed);
}

uint32_t to_epoch(int64_t epoch, const char* op, const char* name) {
  TORCH_CHECK_VALUE(epoch >= 0 && epoch <= std::numeric_limits<uint32_t>::max(), op, ": ", name,
                    " must be in [0, 2^32), got ", epoch);
  return static_cast<uint32_t>(epoch);
}

}  // namespace matsamp::bindings
