// A minimal JSON object writer for benchmark and metric output (one object per line).
#pragma once
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace matsamp {

class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  JsonObject& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonObject& add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  JsonObject& add(const std::string& key, double value) { return raw(key, number(value)); }
  JsonObject& add(const std::string& key, int64_t value) { return raw(key, std::to_string(value)); }
  JsonObject& add(const std::string& key, int value) { return add(key, static_cast<int64_t>(value)); }
  JsonObject& add(const std::string& key, uint64_t value) { return raw(key, std::to_string(value)); }
  JsonObject& add(const std::string& key, const std::vector<int64_t>& values) {
    std::string list = "[";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) list += ',';
      list += std::to_string(values[i]);
    }
    return raw(key, list + "]");
  }
  JsonObject& add(const std::string& key, const std::vector<double>& values) {
    std::string list = "[";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) list += ',';
      list += number(values[i]);
    }
    return raw(key, list + "]");
  }
  JsonObject& add(const std::string& key, const JsonObject& value) { return raw(key, value.str()); }

  // Appends the members of `other`, in their order.
  JsonObject& merge(const JsonObject& other) {
    if (!body_.empty() && !other.body_.empty()) body_ += ',';
    body_ += other.body_;
    return *this;
  }

  std::string str() const { return "{" + body_ + "}"; }

 private:
  JsonObject& raw(const std::string& key, const std::string& value) {
    // Appended piece by piece: "literal" + string&& trips g++ 12's -Wrestrict under C++20.
    if (!body_.empty()) body_ += ',';
    body_ += quote(key);
    body_ += ':';
    body_ += value;
    return *this;
  }
  static std::string number(double value) {
    if (!std::isfinite(value)) return "null";
    std::ostringstream out;
    out.precision(6);
    out << value;
    return out.str();
  }
  static std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20) {
        out += ' ';
        continue;
      }
      out += c;
    }
    return out + "\"";
  }
  std::string body_;
};

}  // namespace matsamp
