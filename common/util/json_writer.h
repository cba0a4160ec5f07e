// JsonWriter: a small streaming JSON emitter producing compact, valid JSON.
//
// Strings are escaped per RFC 8259; bytes that are not valid UTF-8 are
// replaced by U+FFFD so the output is always valid UTF-8. The writer checks
// nothing about call order beyond what is needed to place commas: callers
// pair Begin*/End* and give a Key before each object member.
//
// Thread-safety: none; one writer per thread.
#ifndef VERTEX_COMMON_UTIL_JSON_WRITER_H_
#define VERTEX_COMMON_UTIL_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vertex::util {

class JsonWriter {
 public:
  JsonWriter() = default;

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // The name of the next object member.
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Uint(uint64_t value);
  // Non-finite values are written as null (JSON has no NaN/Inf).
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // The text written so far.
  const std::string& str() const { return out_; }
  std::string Release() { return std::move(out_); }

 private:
  void BeforeValue();

  std::string out_;
  // One entry per open container: true once it holds a member.
  std::vector<bool> has_member_;
  bool after_key_ = false;
};

// Appends `s` to `out` as a quoted JSON string.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace vertex::util

#endif  // VERTEX_COMMON_UTIL_JSON_WRITER_H_
