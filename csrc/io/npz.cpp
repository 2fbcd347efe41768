// .npz = a zip archive of .npy members (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html).
// The archive is read by io/zip_archive.h (zip64, deflate, every member's CRC-32 checked).
#include "io/npz.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/zip_archive.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, ".npy parsing assumes a little-endian host");

namespace matsamp {
namespace {

// ---------------------------------------------------------------- .npy headers

// Value of `'key': ...` in the header dict, up to the next top-level ',' or '}'.
std::string dict_value(const std::string& header, const std::string& key) {
  const size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) fail("npy header has no '", key, "'");
  size_t i = header.find(':', at);
  if (i == std::string::npos) fail("npy header: no value for '", key, "'");
  ++i;
  while (i < header.size() && header[i] == ' ') ++i;
  int depth = 0;
  size_t j = i;
  for (; j < header.size(); ++j) {
    const char ch = header[j];
    if (ch == '(' || ch == '[') ++depth;
    else if (ch == ')' || ch == ']') --depth;
    else if ((ch == ',' || ch == '}') && depth == 0) break;
  }
  std::string value = header.substr(i, j - i);
  while (!value.empty() && value.back() == ' ') value.pop_back();
  return value;
}

// Bytes per element of a descr without byte order, or 0 when unknown (objects, "S0", ...).
int64_t item_size(const std::string& dtype) {
  if (dtype.size() < 2) return 0;
  int64_t digits = 0;
  for (size_t i = 1; i < dtype.size(); ++i) {
    if (dtype[i] < '0' || dtype[i] > '9') return 0;
    digits = digits * 10 + (dtype[i] - '0');
    if (digits > (int64_t{1} << 32)) return 0;
  }
  switch (dtype[0]) {
    case 'U': return 4 * digits;  // UCS-4 characters
    case 'b':
    case 'i':
    case 'u':
    case 'f':
    case 'c':
    case 'S':
    case 'V':
    case 'm':
    case 'M': return digits;
    default: return 0;
  }
}

NpyArray parse_npy(std::vector<char> data) {
  if (data.size() < 10 || std::memcmp(data.data(), "\x93NUMPY", 6) != 0) fail("not a .npy array");
  const int major = static_cast<unsigned char>(data[6]);
  size_t header_len = 0, prefix = 0;
  if (major == 1) {
    uint16_t len;
    std::memcpy(&len, data.data() + 8, 2);
    header_len = len;
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) fail("truncated .npy header");
    uint32_t len;
    std::memcpy(&len, data.data() + 8, 4);
    header_len = len;
    prefix = 12;
  } else {
    fail(".npy format version ", major, " is not supported");
  }
  if (data.size() - prefix < header_len) fail("truncated .npy header");
  const std::string header(data.data() + prefix, header_len);

  NpyArray a;
  const std::string descr = dict_value(header, "descr");
  if (descr.size() < 3 || descr.front() != '\'' || descr.back() != '\'')
    fail("structured dtype ", descr, " is not supported");
  a.dtype = descr.substr(1, descr.size() - 2);
  const char order = a.dtype[0];
  if (order == '<' || order == '>' || order == '|' || order == '=') a.dtype.erase(0, 1);
  const int64_t itemsize = item_size(a.dtype);
  // Without an item size the shape cannot be checked against the data (and a
  // forged shape would size later allocations): such arrays are refused.
  if (itemsize <= 0) fail("dtype ", descr, " is not supported (no fixed item size)");
  if (order == '>' && itemsize != 1) fail("big-endian dtype ", descr, " is not supported (save little-endian arrays)");
  if (dict_value(header, "fortran_order") != "False")
    fail("fortran_order arrays are not supported (save C-ordered arrays)");
  const std::string shape = dict_value(header, "shape");
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') fail("bad shape ", shape);
  for (size_t i = 1; i + 1 < shape.size();) {
    while (i + 1 < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i + 1 >= shape.size()) break;
    int64_t dim = 0;
    size_t j = i;
    for (; j + 1 < shape.size() && shape[j] >= '0' && shape[j] <= '9'; ++j) {
      if (dim > (std::numeric_limits<int64_t>::max() - 9) / 10) fail("shape ", shape, " overflows");
      dim = dim * 10 + (shape[j] - '0');
    }
    if (j == i) fail("bad shape ", shape);
    a.shape.push_back(dim);
    i = j;
  }
  data.erase(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(prefix + header_len));
  a.bytes = std::move(data);
  int64_t count = 1;
  for (int64_t d : a.shape)
    if (__builtin_mul_overflow(count, d, &count)) fail("shape ", shape, " overflows");
  int64_t expected;
  if (__builtin_mul_overflow(count, itemsize, &expected) || expected != static_cast<int64_t>(a.bytes.size()))
    fail("array data has ", a.bytes.size(), " bytes, shape ", shape, " of ", descr, " needs ", count, " x ", itemsize);
  return a;
}

// Calls fn(T{}) with the C++ type of a numeric dtype; false when there is none.
template <class Fn>
bool with_numeric_type(const std::string& dtype, Fn&& fn) {
  if (dtype == "b1" || dtype == "u1") fn(uint8_t{});
  else if (dtype == "i1") fn(int8_t{});
  else if (dtype == "i2") fn(int16_t{});
  else if (dtype == "u2") fn(uint16_t{});
  else if (dtype == "i4") fn(int32_t{});
  else if (dtype == "u4") fn(uint32_t{});
  else if (dtype == "i8") fn(int64_t{});
  else if (dtype == "u8") fn(uint64_t{});
  else if (dtype == "f4") fn(float{});
  else if (dtype == "f8") fn(double{});
  else return false;
  return true;
}

template <class T>
T element(const NpyArray& a, int64_t i) {
  T value;
  std::memcpy(&value, a.bytes.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

// Calls each(value, index) for every element of an integer array; an error naming
// `field` for any other dtype.
template <class Each>
void for_each_integer(const NpyArray& a, const std::string& field, Each&& each) {
  const bool known = with_numeric_type(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_integral_v<T>) {
      fail(field, ": dtype ", a.dtype, " is not an integer type");
    } else {
      for (int64_t i = 0; i < a.size(); ++i) each(element<T>(a, i), i);
    }
  });
  if (!known) fail(field, ": dtype ", a.dtype, " is not an integer type");
}

}  // namespace

// ---------------------------------------------------------------- NpyArray

int64_t NpyArray::size() const {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  return count;
}

std::vector<int64_t> NpyArray::as_int64(const std::string& field) const {
  std::vector<int64_t> out(size());
  for_each_integer(*this, field, [&](auto v, int64_t i) {
    if constexpr (std::is_same_v<decltype(v), uint64_t>)
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail(field, ": value ", v, " at index ", i, " does not fit int64");
    out[i] = static_cast<int64_t>(v);
  });
  return out;
}

std::vector<int32_t> NpyArray::as_int32_below(int64_t bound, const std::string& field, const char* what) const {
  std::vector<int32_t> out(size());
  for_each_integer(*this, field, [&](auto v, int64_t i) {
    bool in_range;
    if constexpr (std::is_signed_v<decltype(v)>) in_range = v >= 0 && static_cast<int64_t>(v) < bound;
    else in_range = static_cast<uint64_t>(v) < static_cast<uint64_t>(bound);
    if (!in_range) fail(field, ": ", what, " ", +v, " at entry ", i, " out of range [0, ", bound, ")");
    out[i] = static_cast<int32_t>(v);
  });
  return out;
}

std::vector<float> NpyArray::as_float(const std::string& field) const {
  std::vector<float> out(size());
  const bool known = with_numeric_type(dtype, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < size(); ++i) {
      const T v = element<T>(*this, i);
      const float f = static_cast<float>(v);
      // Integers must survive the trip; doubles may round but must not overflow.
      if constexpr (std::is_integral_v<T>) {
        if (static_cast<long double>(f) != static_cast<long double>(v))
          fail(field, ": value ", v, " at index ", i, " is not exactly representable as float");
      } else if constexpr (std::is_same_v<T, double>) {
        if (std::isfinite(v) && !std::isfinite(f)) fail(field, ": value ", v, " at index ", i, " overflows float");
      }
      out[i] = f;
    }
  });
  if (!known) fail(field, ": dtype ", dtype, " is not a numeric type");
  return out;
}

// ---------------------------------------------------------------- NpzReader

NpzReader::NpzReader(const std::string& path) : path_(path) {
  const ZipArchive archive(path);
  for (size_t i = 0; i < archive.names().size(); ++i) {
    const std::string& member = archive.names()[i];
    const std::string suffix = ".npy";
    if (member.size() <= suffix.size() || member.compare(member.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;  // not an array: ignore
    const std::string name = member.substr(0, member.size() - suffix.size());
    // A bad member only fails when someone asks for it: unknown members are ignored.
    try {
      arrays_[name] = parse_npy(archive.read(i));
    } catch (const Error& err) {
      broken_[name] = err.what();
    }
  }
}

bool NpzReader::contains(const std::string& name) const { return arrays_.count(name) > 0 || broken_.count(name) > 0; }

const NpyArray& NpzReader::get(const std::string& name) const {
  if (auto b = broken_.find(name); b != broken_.end()) fail(path_, ": field ", name, ": ", b->second);
  auto a = arrays_.find(name);
  if (a == arrays_.end()) fail(path_, ": field ", name, ": not in the archive");
  return a->second;
}

// ---------------------------------------------------------------- NpzWriter

namespace {

template <class T>
std::vector<char> raw_bytes(const std::vector<T>& data) {
  std::vector<char> bytes(data.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), data.data(), bytes.size());
  return bytes;
}

std::vector<int64_t> checked_shape(const std::string& name, size_t count, std::vector<int64_t> shape) {
  if (shape.empty()) return {static_cast<int64_t>(count)};
  int64_t product = 1;
  for (int64_t d : shape) {
    MATSAMP_CHECK(d >= 0, "npz member ", name, ": negative dimension ", d);
    product *= d;
  }
  MATSAMP_CHECK(product == static_cast<int64_t>(count), "npz member ", name, ": shape holds ", product,
                " elements, data has ", count);
  return shape;
}

// A version 1.0 .npy header padded so the data starts 64-byte aligned, as numpy does.
std::string npy_header(const std::string& descr, const std::vector<int64_t>& shape) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dims += ",";
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xFF);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

struct LittleEndianBuffer {
  std::string bytes;
  template <class T>
  void put(T value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
};

}  // namespace

void NpzWriter::add(const std::string& name, const std::vector<int64_t>& data, std::vector<int64_t> shape) {
  members_.push_back({name, "<i8", checked_shape(name, data.size(), std::move(shape)), raw_bytes(data)});
}
void NpzWriter::add(const std::string& name, const std::vector<int32_t>& data, std::vector<int64_t> shape) {
  members_.push_back({name, "<i4", checked_shape(name, data.size(), std::move(shape)), raw_bytes(data)});
}
void NpzWriter::add(const std::string& name, const std::vector<float>& data, std::vector<int64_t> shape) {
  members_.push_back({name, "<f4", checked_shape(name, data.size(), std::move(shape)), raw_bytes(data)});
}

void NpzWriter::write(const std::string& path) const {
  MATSAMP_CHECK(members_.size() < 0xFFFF, path, ": too many npz members (", members_.size(), ")");
  constexpr uint16_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01, as numpy writes
  AtomicFileWriter out(path);
  LittleEndianBuffer central;
  uint64_t offset = 0;
  for (const Member& m : members_) {
    const std::string header = npy_header(m.dtype, m.shape);
    const std::string file_name = m.name + ".npy";
    const uint64_t size = header.size() + m.bytes.size();
    // Plain zip32 records: anything bigger is refused rather than written wrongly.
    MATSAMP_CHECK(size < 0xFFFFFFFFull && offset < 0xFFFFFFFFull, path, ": member ", m.name,
                  " is too large for an uncompressed zip32 archive");
    const uint32_t crc = zip_crc32(zip_crc32(0, header.data(), header.size()), m.bytes.data(), m.bytes.size());

    LittleEndianBuffer local;
    local.put<uint32_t>(kZipLocalSig);
    local.put<uint16_t>(20);  // version needed: 2.0
    local.put<uint16_t>(0);   // flags
    local.put<uint16_t>(0);   // method: stored
    local.put<uint16_t>(0);   // time
    local.put<uint16_t>(kDosDate1980);
    local.put<uint32_t>(crc);
    local.put<uint32_t>(static_cast<uint32_t>(size));
    local.put<uint32_t>(static_cast<uint32_t>(size));
    local.put<uint16_t>(static_cast<uint16_t>(file_name.size()));
    local.put<uint16_t>(0);  // extra length
    local.bytes += file_name;
    out.write(local.bytes.data(), local.bytes.size());
    out.write(header.data(), header.size());
    out.write(m.bytes.data(), m.bytes.size());

    central.put<uint32_t>(kZipCentralSig);
    central.put<uint16_t>(20);  // version made by
    central.put<uint16_t>(20);  // version needed
    central.put<uint16_t>(0);
    central.put<uint16_t>(0);
    central.put<uint16_t>(0);
    central.put<uint16_t>(kDosDate1980);
    central.put<uint32_t>(crc);
    central.put<uint32_t>(static_cast<uint32_t>(size));
    central.put<uint32_t>(static_cast<uint32_t>(size));
    central.put<uint16_t>(static_cast<uint16_t>(file_name.size()));
    central.put<uint16_t>(0);  // extra
    central.put<uint16_t>(0);  // comment
    central.put<uint16_t>(0);  // disk
    central.put<uint16_t>(0);  // internal attributes
    central.put<uint32_t>(0);  // external attributes
    central.put<uint32_t>(static_cast<uint32_t>(offset));
    central.bytes += file_name;
    offset += local.bytes.size() + size;
  }
  MATSAMP_CHECK(offset < 0xFFFFFFFFull, path, ": archive too large for zip32");
  LittleEndianBuffer end;
  end.put<uint32_t>(kZipEndSig);
  end.put<uint16_t>(0);
  end.put<uint16_t>(0);
  end.put<uint16_t>(static_cast<uint16_t>(members_.size()));
  end.put<uint16_t>(static_cast<uint16_t>(members_.size()));
  end.put<uint32_t>(static_cast<uint32_t>(central.bytes.size()));
  end.put<uint32_t>(static_cast<uint32_t>(offset));
  end.put<uint16_t>(0);  // comment length
  out.write(central.bytes.data(), central.bytes.size());
  out.write(end.bytes.data(), end.bytes.size());
  out.commit();
}

}  // namespace matsamp
