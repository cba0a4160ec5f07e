// A small JSON (RFC 8259) reader that builds a tree: for the project's own
// data files (list truth, problem sets) and other input that may be
// hostile, so it is strict, bounded and never recurses past a depth limit.
//
// Strict: one value per document (a UTF-8 byte-order mark is skipped);
// numbers follow the JSON grammar; strings must be valid UTF-8, may not hold
// raw control characters, and their \u escapes must pair surrogates
// (\uD83D\uDE00 is U+1F600; a lone surrogate is an error); an object may not
// name a member twice. Errors are InvalidArgument naming `where` and the
// position ("t.jsonl:3: offset 17: expected ':'"; documents of several lines
// say "line 2, column 5 (offset 17)"); nesting deeper than `max_depth`
// arrays and objects is ResourceExhausted (the reader's own recursion is
// bounded by it).
//
// Thread-safety: pure functions; a Json is a plain value.
#ifndef VERTEX_COMMON_UTIL_JSON_READER_H_
#define VERTEX_COMMON_UTIL_JSON_READER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace vertex::util {

// One JSON value.
struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  // A string's contents (unescaped UTF-8), a number as written ("-1.5e3"),
  // "true" / "false" / "null".
  std::string scalar;
  // An array's items.
  std::vector<Json> items;
  // An object's members in document order: names and values side by side.
  // (A vector<pair<string, Json>> would need Json complete where it is
  // declared, which clang's libstdc++ checks in the fuzz build.)
  std::vector<std::string> member_names;
  std::vector<Json> member_values;

  bool is_null() const { return kind == Kind::kNull; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_bool() const { return kind == Kind::kBool; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_object() const { return kind == Kind::kObject; }
  // A bool's value (false for any other kind).
  bool boolean() const { return kind == Kind::kBool && scalar == "true"; }
  // The member `key` of an object; nullptr when absent or not an object.
  const Json* Find(std::string_view key) const;
};

// "null", "boolean", "number", "string", "array", "object".
const char* JsonKindName(Json::Kind kind);

inline constexpr int kDefaultMaxJsonDepth = 32;

// Parses the JSON document `text`; `where` names it in error messages (a
// file, "file:line"). See the header comment for what is refused.
absl::StatusOr<Json> ParseJson(std::string_view text, std::string_view where,
                               int max_depth = kDefaultMaxJsonDepth);

}  // namespace vertex::util

#endif  // VERTEX_COMMON_UTIL_JSON_READER_H_
