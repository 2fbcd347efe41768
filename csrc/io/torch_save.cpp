// torch.save's dictionary of tensors, read by a pickle machine of the opcodes and
// globals such a file holds (`python -m pickletools` on its data.pkl shows them).
// Values are immutable and shared, so a pickle cannot build cycles, and memo copies
// cost nothing however often they are repeated.
#include "io/torch_save.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "core/error.h"
#include "io/zip_archive.h"

namespace matsamp {

namespace {

struct StorageType {
  const char* name;  // the class torch pickles: torch.<name>
  const char* dtype;
  int bytes;
  bool integer, is_signed;
};

constexpr StorageType kStorageTypes[] = {{"LongStorage", "Long", 8, true, true},
                                         {"IntStorage", "Int", 4, true, true},
                                         {"ShortStorage", "Short", 2, true, true},
                                         {"CharStorage", "Char", 1, true, true},
                                         {"ByteStorage", "Byte", 1, true, false},
                                         {"BoolStorage", "Bool", 1, false, false},
                                         {"FloatStorage", "Float", 4, false, false},
                                         {"DoubleStorage", "Double", 8, false, false},
                                         {"HalfStorage", "Half", 2, false, false},
                                         {"BFloat16Storage", "BFloat16", 2, false, false},
                                         {"ComplexFloatStorage", "ComplexFloat", 8, false, false},
                                         {"ComplexDoubleStorage", "ComplexDouble", 16, false, false}};

struct Value;
using Ref = std::shared_ptr<const Value>;

struct Value {
  enum class Kind { none, boolean, integer, string, tuple, list, dict, global, storage, tensor };
  Kind kind = Kind::none;
  int64_t integer = 0;                // integer, boolean; a storage's element count
  std::string text;                   // string; global "module.name"; a storage's or tensor's storage key
  std::vector<Ref> items;             // tuple, list; dict as key, value, key, value, ...
  const StorageType* type = nullptr;  // storage, tensor
  int64_t numel = 0, offset = 0;      // tensor: its storage's elements, its first element
  std::vector<int64_t> size, stride;  // tensor
  int depth = 0;                      // containers within containers (tuple, list, dict)
};

// A dictionary of tensors nests a few levels; a deeper pickle would only make freeing it
// (recursive, through the shared values) run out of stack.
constexpr int kMaxDepth = 64;

const char* kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::none: return "None";
    case Value::Kind::boolean: return "bool";
    case Value::Kind::integer: return "int";
    case Value::Kind::string: return "str";
    case Value::Kind::tuple: return "tuple";
    case Value::Kind::list: return "list";
    case Value::Kind::dict: return "dict";
    case Value::Kind::global: return "class";
    case Value::Kind::storage: return "storage";
    case Value::Kind::tensor: return "tensor";
  }
  return "value";
}

Ref make(Value v) { return std::make_shared<const Value>(std::move(v)); }

Ref integer(int64_t i, Value::Kind kind = Value::Kind::integer) {
  Value v;
  v.kind = kind;
  v.integer = i;
  return make(std::move(v));
}

int depth_of(const std::vector<Ref>& items) {
  int depth = 0;
  for (const Ref& item : items) depth = std::max(depth, item->depth + 1);
  return depth;
}

Ref sequence(Value::Kind kind, std::vector<Ref> items) {
  Value v;
  v.kind = kind;
  v.depth = depth_of(items);
  v.items = std::move(items);
  return make(std::move(v));
}

// Runs data.pkl; every failure names the file and the byte.
class Unpickler {
 public:
  Unpickler(const std::string& path, const std::vector<char>& data) : path_(path), data_(data) {}

  Ref run() {
    while (true) {
      const size_t at = pos_;
      const auto op = static_cast<unsigned char>(take(1)[0]);
      switch (op) {
        case 0x80: take(1); break;  // PROTO
        case 0x95: take(8); break;  // FRAME (a size hint)
        case '}': push(sequence(Value::Kind::dict, {})); break;
        case ')': push(sequence(Value::Kind::tuple, {})); break;
        case ']': push(sequence(Value::Kind::list, {})); break;
        case '(': marks_.push_back(stack_.size()); break;
        case 'X': push(string(unsigned_int(4))); break;   // BINUNICODE
        case 0x8c: push(string(unsigned_int(1))); break;  // SHORT_BINUNICODE
        case 'q': memo(unsigned_int(1)); break;           // BINPUT
        case 'r': memo(unsigned_int(4)); break;           // LONG_BINPUT
        case 0x94: memo(memo_.size()); break;             // MEMOIZE
        case 'h': push(recall(unsigned_int(1))); break;   // BINGET
        case 'j': push(recall(unsigned_int(4))); break;   // LONG_BINGET
        case 'c': push(global()); break;
        case 'K': push(integer(unsigned_int(1))); break;                        // BININT1
        case 'M': push(integer(unsigned_int(2))); break;                        // BININT2
        case 'J': push(integer(static_cast<int32_t>(unsigned_int(4)))); break;  // BININT
        case 0x8a: push(integer(long1())); break;                               // LONG1
        case 't': push(sequence(Value::Kind::tuple, pop_to_mark())); break;
        case 0x85: push(sequence(Value::Kind::tuple, pop(1))); break;
        case 0x86: push(sequence(Value::Kind::tuple, pop(2))); break;
        case 0x87: push(sequence(Value::Kind::tuple, pop(3))); break;
        case 0x88: push(integer(1, Value::Kind::boolean)); break;  // NEWTRUE
        case 0x89: push(integer(0, Value::Kind::boolean)); break;  // NEWFALSE
        case 'N': push(make({})); break;
        case 'R': reduce(); break;
        case 'Q': persistent_id(); break;                           // BINPERSID
        case 's': extend(Value::Kind::dict, pop(2)); break;         // SETITEM
        case 'u': extend(Value::Kind::dict, pop_to_mark()); break;  // SETITEMS
        case 'a': extend(Value::Kind::list, pop(1)); break;         // APPEND
        case 'e': extend(Value::Kind::list, pop_to_mark()); break;  // APPENDS
        case '.': {
          const std::vector<Ref> result = pop(1);
          return result[0];
        }
        default: bad(at, "opcode 0x", hex(op), " is not one torch.save's dictionaries of tensors use");
      }
    }
  }

 private:
  template <class... Args>
  [[noreturn]] void bad(size_t at, const Args&... args) const {
    fail(path_, ": data.pkl at byte ", at, ": ", args...);
  }
  static std::string hex(unsigned value) {
    const char* digits = "0123456789abcdef";
    return {digits[(value >> 4) & 15], digits[value & 15]};
  }

  const char* take(size_t n) {
    if (data_.size() - pos_ < n) bad(pos_, "the pickle ends inside an instruction");
    const char* p = data_.data() + pos_;
    pos_ += n;
    return p;
  }
  uint64_t unsigned_int(size_t n) {
    const char* p = take(n);
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    return v;
  }
  int64_t long1() {
    const size_t n = unsigned_int(1);
    if (n > 8) bad(pos_ - 1, "an integer of ", n, " bytes");
    if (n == 0) return 0;
    uint64_t v = unsigned_int(n);
    if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign-extend
    return static_cast<int64_t>(v);
  }
  Ref string(uint64_t length) {
    Value v;
    v.kind = Value::Kind::string;
    v.text.assign(take(length), length);
    return make(std::move(v));
  }
  Ref global() {
    Value v;
    v.kind = Value::Kind::global;
    for (int part = 0; part < 2; ++part) {
      const auto end = std::find(data_.begin() + pos_, data_.end(), '\n');
      if (end == data_.end()) bad(pos_, "a global's name has no end");
      if (part == 1) v.text += '.';
      v.text.append(data_.begin() + pos_, end);
      pos_ = end - data_.begin() + 1;
    }
    return make(std::move(v));
  }

  void push(Ref v) {
    if (v->depth > kMaxDepth) bad(pos_ - 1, "values nest more than ", kMaxDepth, " deep");
    stack_.push_back(std::move(v));
  }
  std::vector<Ref> pop(size_t n) {
    const size_t floor = marks_.empty() ? 0 : marks_.back();
    if (stack_.size() - floor < n) bad(pos_ - 1, "an instruction takes more values than the stack holds");
    std::vector<Ref> out(stack_.end() - n, stack_.end());
    stack_.resize(stack_.size() - n);
    return out;
  }
  std::vector<Ref> pop_to_mark() {
    if (marks_.empty()) bad(pos_ - 1, "no mark to collect values up to");
    std::vector<Ref> out(stack_.begin() + marks_.back(), stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return out;
  }
  const Ref& top() const {
    if (stack_.size() == (marks_.empty() ? 0 : marks_.back())) bad(pos_ - 1, "the stack is empty");
    return stack_.back();
  }
  void memo(uint64_t index) {
    if (index > data_.size()) bad(pos_, "memo index ", index, " is beyond any this pickle can fill");
    memo_[index] = top();
  }
  Ref recall(uint64_t index) const {
    const auto found = memo_.find(index);
    if (found == memo_.end()) bad(pos_, "memo index ", index, " was never stored");
    return found->second;
  }
  // SETITEM(S), APPEND(S): the container below the values, copied with them added.
  void extend(Value::Kind kind, std::vector<Ref> added) {
    const Ref& container = top();
    if (container->kind != kind) bad(pos_ - 1, "adds items to a ", kind_name(container->kind));
    if (kind == Value::Kind::dict && added.size() % 2 != 0) bad(pos_ - 1, "a key without a value");
    Value grown = *container;
    grown.depth = std::max(grown.depth, depth_of(added));
    if (grown.depth > kMaxDepth) bad(pos_ - 1, "values nest more than ", kMaxDepth, " deep");
    grown.items.insert(grown.items.end(), added.begin(), added.end());
    stack_.back() = make(std::move(grown));
  }

  // ('storage', torch.<Type>Storage, key, location, numel): one storage of the archive.
  void persistent_id() {
    const Ref id = pop(1)[0];
    const auto& f = id->items;
    if (id->kind != Value::Kind::tuple || f.size() != 5 || f[0]->kind != Value::Kind::string ||
        f[0]->text != "storage" || f[1]->kind != Value::Kind::global || f[2]->kind != Value::Kind::string ||
        f[4]->kind != Value::Kind::integer || f[4]->integer < 0)
      bad(pos_ - 1, "a persistent id that is not a storage of the archive");
    Value v;
    v.kind = Value::Kind::storage;
    v.text = f[2]->text;
    v.integer = f[4]->integer;
    for (const StorageType& t : kStorageTypes)
      if (f[1]->text == std::string("torch.") + t.name) v.type = &t;
    if (!v.type) bad(pos_ - 1, "storage of type ", f[1]->text, ", which matsamp does not read");
    push(make(std::move(v)));
  }

  std::vector<int64_t> integers(const Ref& tuple, const char* what) const {
    if (tuple->kind != Value::Kind::tuple) bad(pos_ - 1, "a tensor's ", what, " is not a tuple");
    std::vector<int64_t> out;
    for (const Ref& item : tuple->items) {
      if (item->kind != Value::Kind::integer || item->integer < 0) bad(pos_ - 1, "a tensor's ", what, " is not sizes");
      out.push_back(item->integer);
    }
    return out;
  }

  // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata]),
  // collections.OrderedDict() (the hooks) and libtorch's type tag; nothing else is called.
  void reduce() {
    const std::vector<Ref> call = pop(2);
    const Ref &callable = call[0], &args = call[1];
    if (callable->kind != Value::Kind::global || args->kind != Value::Kind::tuple)
      bad(pos_ - 1, "a call of a ", kind_name(callable->kind), ", not of a class torch.save uses");
    const auto& a = args->items;
    if (callable->text == "collections.OrderedDict" && a.empty()) return push(sequence(Value::Kind::dict, {}));
    // libtorch's pickle_save tags a typed dictionary: restore_type_tag(dict, "Dict[str, Tensor]").
    if (callable->text == "torch.jit._pickle.restore_type_tag" && a.size() == 2 && a[1]->kind == Value::Kind::string)
      return push(a[0]);
    if (callable->text != "torch._utils._rebuild_tensor_v2")
      bad(pos_ - 1, "holds a ", callable->text, " object; matsamp reads dictionaries of tensors only");
    if ((a.size() != 6 && a.size() != 7) || a[0]->kind != Value::Kind::storage || a[1]->kind != Value::Kind::integer ||
        a[1]->integer < 0)
      bad(pos_ - 1, "a tensor rebuilt from something other than (storage, offset, size, stride, ...)");
    Value t;
    t.kind = Value::Kind::tensor;
    t.type = a[0]->type;
    t.text = a[0]->text;
    t.numel = a[0]->integer;
    t.offset = a[1]->integer;
    t.size = integers(a[2], "size");
    t.stride = integers(a[3], "stride");
    if (t.size.size() != t.stride.size())
      bad(pos_ - 1, "a tensor with ", t.size.size(), " sizes and ", t.stride.size(), " strides");
    push(make(std::move(t)));
  }

  const std::string& path_;
  const std::vector<char>& data_;
  size_t pos_ = 0;
  std::vector<Ref> stack_;
  std::vector<size_t> marks_;
  std::map<uint64_t, Ref> memo_;
};

// The tensor's elements, row-major, from its storage's bytes; every index checked.
SavedTensor materialize(const std::string& path, const std::string& key, const Value& t,
                        const std::vector<char>& bytes) {
  SavedTensor out;
  out.dtype = t.type->dtype;
  out.shape = t.size;
  const int64_t width = t.type->bytes;
  if (t.numel > static_cast<int64_t>(bytes.size()) / width || static_cast<int64_t>(bytes.size()) != t.numel * width)
    fail(path, ": '", key, "': its storage holds ", bytes.size(), " bytes, the pickle declares ", t.numel, " ",
         out.dtype, " values");
  int64_t count = 1;
  unsigned __int128 last = static_cast<unsigned __int128>(t.offset);  // the largest index the view reads
  for (size_t d = 0; d < t.size.size(); ++d) {
    if (t.size[d] == 0) count = 0;
    else if (count > 0 && t.size[d] > t.numel / count) count = t.numel + 1;  // more than the storage: refused below
    else count *= t.size[d];
    if (t.size[d] > 0) last += static_cast<unsigned __int128>(t.size[d] - 1) * static_cast<uint64_t>(t.stride[d]);
  }
  if (count > 0 && (count > t.numel || last >= static_cast<unsigned __int128>(t.numel)))
    fail(path, ": '", key, "' views elements beyond its storage (", out.dtype, " ", shape_string(t.size),
         " from offset ", t.offset, " of ", t.numel, "; a view saved without .contiguous()?)");
  if (!t.type->integer) return out;
  out.values.reserve(count);
  std::vector<int64_t> index(t.size.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = t.offset;
    for (size_t d = 0; d < index.size(); ++d) at += index[d] * t.stride[d];
    const char* p = bytes.data() + at * width;
    int64_t v = 0;
    switch (width) {
      case 1: v = t.type->is_signed ? int64_t{static_cast<int8_t>(*p)} : int64_t{static_cast<uint8_t>(*p)}; break;
      case 2: {
        int16_t x;
        std::memcpy(&x, p, 2);
        v = x;
        break;
      }
      case 4: {
        int32_t x;
        std::memcpy(&x, p, 4);
        v = x;
        break;
      }
      default: std::memcpy(&v, p, 8);
    }
    out.values.push_back(v);
    for (size_t d = index.size(); d-- > 0;) {  // the next index, row-major
      if (++index[d] < t.size[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace

bool SavedTensor::is_integer() const {
  for (const StorageType& t : kStorageTypes)
    if (dtype == t.dtype) return t.integer;
  return false;
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

std::map<std::string, SavedTensor> read_saved_tensors(const std::string& path) {
  const ZipArchive archive(path);
  // torch.save's members: <name>/data.pkl, <name>/data/<storage key>, <name>/version, ...
  std::string prefix;
  for (const std::string& name : archive.names()) {
    const size_t slash = name.find('/');
    if (slash != std::string::npos && name.compare(slash, std::string::npos, "/data.pkl") == 0) {
      if (!prefix.empty()) fail(path, ": two data.pkl members (", prefix, "data.pkl and ", name, ")");
      prefix = name.substr(0, slash + 1);
    }
  }
  if (prefix.empty()) fail(path, ": no data.pkl member: not a file torch.save wrote");
  // <prefix><name>'s bytes, or nullopt when the archive has no such member.
  const auto member = [&](const std::string& name) -> std::optional<std::vector<char>> {
    const auto& names = archive.names();
    const auto found = std::find(names.begin(), names.end(), prefix + name);
    if (found == names.end()) return std::nullopt;
    try {
      return archive.read(found - names.begin());
    } catch (const Error& e) {
      fail(path, ": member ", prefix + name, ": ", e.what());
    }
  };
  const std::vector<char> order = member("byteorder").value_or(std::vector<char>{});
  if (!order.empty() && std::string(order.begin(), order.end()) != "little")
    fail(path, ": saved on a ", std::string(order.begin(), order.end()),
         "-endian machine; matsamp reads little-endian files");
  return read_saved_tensors(path, *member("data.pkl"), [&](const std::string& key) { return member("data/" + key); });
}

std::map<std::string, SavedTensor> read_saved_tensors(const std::string& path, const std::vector<char>& pickle,
                                                      const StorageBytes& storage) {
  const Ref result = Unpickler(path, pickle).run();
  if (result->kind != Value::Kind::dict)
    fail(path, ": holds a ", kind_name(result->kind), ", not a dictionary of tensors");
  std::map<std::string, SavedTensor> out;
  for (size_t i = 0; i + 1 < result->items.size(); i += 2) {
    const Value &key = *result->items[i], &value = *result->items[i + 1];
    if (key.kind != Value::Kind::string) fail(path, ": a dictionary key is a ", kind_name(key.kind), ", not a str");
    if (value.kind != Value::Kind::tensor) {
      out[key.text] = {};  // no dtype: not a tensor
      continue;
    }
    const std::optional<std::vector<char>> bytes = storage(value.text);
    if (!bytes) fail(path, ": '", key.text, "': storage ", value.text, " is not in the archive");
    out[key.text] = materialize(path, key.text, value, *bytes);
  }
  return out;
}

}  // namespace matsamp
