// io/torch_save.h's pickle machine on pickles written by hand: what torch.save writes
// for a dictionary of tensors is read; anything else is a one-line error, and nothing
// the pickle names is called or allocated beyond the bytes it has.
#include <gtest/gtest.h>

#include <cstring>

#include "error_checks.h"
#include "io/npz.h"
#include "io/torch_save.h"
#include "test_data.h"

namespace matsamp {
namespace {

// Opcodes of pickle protocol 2, appended to a byte string.
struct Pickle {
  std::string bytes = "\x80\x02";
  Pickle& op(const std::string& code) { return bytes += code, *this; }
  Pickle& text(const std::string& s) {  // BINUNICODE
    const uint32_t n = static_cast<uint32_t>(s.size());
    bytes += 'X';
    bytes.append(reinterpret_cast<const char*>(&n), 4);
    return op(s);
  }
  Pickle& global(const std::string& module, const std::string& name) { return op("c" + module + "\n" + name + "\n"); }
  Pickle& small(int v) { return op(std::string("K") + static_cast<char>(v)); }  // BININT1
  // _rebuild_tensor_v2( ... the arguments follow, then finish_tensor().
  Pickle& rebuild() { return global("torch._utils", "_rebuild_tensor_v2").op("("); }
  // The persistent id of storage `key`: `numel` elements of torch.<type>.
  Pickle& storage(const std::string& type, const std::string& key, int numel) {
    return op("(").text("storage").global("torch", type).text(key).text("cpu").small(numel).op("tQ");
  }
  // ..., False, OrderedDict()): the last arguments, and the call.
  Pickle& finish_tensor() { return op("\x89").global("collections", "OrderedDict").op(")RtR"); }
  // _rebuild_tensor_v2(storage `key` of `numel` longs, offset, (size,), (1,), False, OrderedDict())
  Pickle& tensor(const std::string& key, int numel, int offset, int size) {
    rebuild().storage("LongStorage", key, numel).small(offset).small(size).op("\x85").small(1).op("\x85");
    return finish_tensor();
  }
  std::vector<char> end() const { return std::vector<char>(bytes.begin(), bytes.end()); }
};

// Storage "0": the longs 10, 11, ..., 17.
std::optional<std::vector<char>> storage(const std::string& key) {
  if (key != "0") return std::nullopt;
  std::vector<char> bytes(8 * 8);
  for (int64_t i = 0; i < 8; ++i) {
    const int64_t v = 10 + i;
    std::memcpy(bytes.data() + 8 * i, &v, 8);
  }
  return bytes;
}

std::map<std::string, SavedTensor> read(const Pickle& p) { return read_saved_tensors("t.pkl", p.end(), storage); }

TEST(TorchSave, ReadsADictionaryOfTensorsAsTorchSaveWritesIt) {
  Pickle p;
  p.op("}(").text("edge").tensor("0", 8, 2, 3).text("count").small(7).op("u.");
  const auto saved = read(p);
  ASSERT_EQ(saved.size(), 2u);
  EXPECT_EQ(saved.at("edge").dtype, "Long");
  EXPECT_EQ(saved.at("edge").shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(saved.at("edge").values, (std::vector<int64_t>{12, 13, 14})) << "elements 2, 3, 4 of the storage";
  EXPECT_TRUE(saved.at("count").dtype.empty()) << "not a tensor";
}

TEST(TorchSave, AnythingElseIsAOneLineError) {
  const auto refused = [](const Pickle& p, const std::string& fragment) {
    testing::expect_error([&] { read(p); }, fragment);
  };
  refused(Pickle().op("}(").text("x").global("os", "system").text("rm -rf /").op("\x85R").op("u."),
          "holds a os.system object; matsamp reads dictionaries of tensors only");
  refused(Pickle().op("}(").text("x").tensor("0", 8, 6, 3).op("u."), "'x' views elements beyond its storage");
  refused(Pickle().op("}(").text("x").tensor("0", 9, 0, 3).op("u."), "its storage holds 64 bytes");
  refused(Pickle().op("}(").text("x").tensor("7", 8, 0, 3).op("u."), "storage 7 is not in the archive");
  refused(Pickle().op("]."), "t.pkl: holds a list, not a dictionary of tensors");
  refused(Pickle().op("i"), "data.pkl at byte 2: opcode 0x69 is not one torch.save's dictionaries of tensors use");
  refused(Pickle().op("}(").text("x"), "the pickle ends inside an instruction");
  refused(Pickle().op("h\x05"), "memo index 5 was never stored");
  refused(Pickle().op("}R"), "more values than the stack holds");
  refused(Pickle().op("}(").small(1).tensor("0", 8, 0, 3).op("u."), "a dictionary key is a int, not a str");
  refused(Pickle().op("}(").text("x").text("s").op("\x85Q").op("u."), "a persistent id that is not a storage");
  refused(Pickle().op("}(").text("x").rebuild().storage("QInt8Storage", "0", 8).op("u."),
          "storage of type torch.QInt8Storage, which matsamp does not read");
  refused(Pickle()
              .op("}(")
              .text("x")
              .rebuild()
              .storage("LongStorage", "0", 8)
              .small(0)
              .small(3)
              .small(1)
              .op("\x85")
              .finish_tensor()
              .op("u."),
          "a tensor's size is not a tuple");
  refused(Pickle()
              .op("}(")
              .text("x")
              .rebuild()
              .storage("LongStorage", "0", 8)
              .small(0)
              .small(3)
              .op("\x85")
              .small(1)
              .small(1)
              .op("\x86")
              .finish_tensor()
              .op("u."),
          "a tensor with 1 sizes and 2 strides");
  refused(Pickle().op("}(").text("x").rebuild().small(1).op("tR").op("u."),
          "a tensor rebuilt from something other than (storage, offset, size, stride, ...)");
  refused(Pickle().op("}(").text("x").text("f").op(")R").op("u."), "a call of a str, not of a class torch.save uses");
  refused(Pickle().op("\x8a\x09"), "an integer of 9 bytes");
  refused(Pickle().op("ctorch\n_utils"), "a global's name has no end");
  refused(Pickle().op(")").small(1).small(2).op("s."), "adds items to a tuple");
  refused(Pickle().op("}(").small(1).op("u."), "a key without a value");
  refused(Pickle().op("}u."), "no mark to collect values up to");
  refused(Pickle().op("}r\xff\xff\xff\x01"), "memo index 33554431 is beyond any this pickle can fill");
  refused(Pickle().op("q\x01"), "the stack is empty");
  Pickle deep;
  deep.small(0);
  for (int i = 0; i < 100; ++i) deep.op("\x85");
  refused(deep, "values nest more than 64 deep");
}

// A zip archive that is not torch.save's: named as such before any pickle is read.
TEST(TorchSave, AZipWithoutDataPklIsNamed) {
  const std::string path = testing::scratch_dir("torch_save_zip") + "/arrays.npz";
  NpzWriter npz;
  npz.add("edge", std::vector<int64_t>{0, 1});
  npz.write(path);
  testing::expect_error([&] { read_saved_tensors(path); }, "no data.pkl member: not a file torch.save wrote");
}

}  // namespace
}  // namespace matsamp
