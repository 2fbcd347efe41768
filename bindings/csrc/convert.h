// Crossing between torch tensors and the engine's std::vectors, the argument
// checks every op shares, and the translation of engine errors to Python ones.
#pragma once
#include <ATen/ATen.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "utf8.h"

namespace matsamp::bindings {

// A 1-D CPU tensor that takes over `values` (moved, not copied) and frees them
// when the tensor's storage goes.
template <class T>
at::Tensor vector_to_tensor(std::vector<T>&& values) {
  auto owner = std::make_unique<std::vector<T>>(std::move(values));
  const int64_t size = static_cast<int64_t>(owner->size());
  void* data = owner->data();
  at::Tensor t = at::from_blob(
      data, {size}, [held = owner.get()](void*) { delete held; },
      at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value));
  owner.release();  // the tensor's deleter owns it now
  return t;
}

// A 1-D tensor viewing `values`, which `keep_alive` owns; the view holds a
// reference to keep_alive so the data outlives neither.
template <class T, class Owner>
at::Tensor vector_view(const std::vector<T>& values, Owner keep_alive) {
  return at::from_blob(
      const_cast<T*>(values.data()), {static_cast<int64_t>(values.size())}, [keep_alive](void*) {},
      at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value));
}

// A Python TypeError / ValueError unless `t` is a 1-D tensor of `dtype` (on any device).
void check_vector_shape(const at::Tensor& t, at::ScalarType dtype, const char* op, const char* name);
// The same, and on the CPU.
void check_vector(const at::Tensor& t, at::ScalarType dtype, const char* op, const char* name);

// The elements of a 1-D CPU tensor (int32 or int64) as int64, copied.
std::vector<int64_t> to_int64_vector(const at::Tensor& t, const char* op, const char* name);

// A ValueError naming the first id outside [0, n).
void check_ids_in_range(const int64_t* ids, int64_t count, int64_t n, const char* op, const char* name);

// The elements of an int64 vertex id tensor, each checked to be in [0, n).
std::vector<int64_t> to_vertex_ids(const at::Tensor& ids, int64_t n, const char* op, const char* name);

// Python ints are int64; the engine's seed is uint64 and its epoch uint32.
// Block offsets (k + 1 >= 2 non-decreasing entries from 0 to `total`), int64 on the host.
std::vector<int64_t> to_block_offsets(const at::Tensor& t, int64_t total, const char* op, const char* name);
uint64_t to_seed(int64_t seed, const char* op);
uint32_t to_epoch(int64_t epoch, const char* op, const char* name = "epoch");

// Runs fn; a matsamp::Error becomes a Python ValueError (bad argument or bad
// input data) with the engine's one-line message, any other C++ exception a
// RuntimeError; messages are made valid UTF-8 on the way.
template <class Fn>
auto translate_errors(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const c10::Error&) {
    throw;  // already a Python error
  } catch (const Error& e) {
    TORCH_CHECK_VALUE(false, valid_utf8(e.what()));
  } catch (const std::exception& e) {
    TORCH_CHECK(false, valid_utf8(e.what()));
  }
}

}  // namespace matsamp::bindings
