// The schema of a vertical (book, product, business, ...): the attributes a
// record of the vertical holds, each with its flags (mandatory, constant,
// multi-valued) and an optional value type whose RE2 regex selects and
// validates the attribute's values in a node's text. A CompiledSchema is a
// validated v1::Schema with those regexes compiled; rule learning and
// extraction use it to pick values out of node text, e.g. "$25.99" out of
// "Our Price: $25.99" for an attribute of type "price".
//
// The JSON form is the protobuf JSON mapping of v1::Schema:
//
//   {"vertical": "book",
//    "attributes": [
//      {"name": "title", "mandatory": true, "constant": true},
//      {"name": "author", "multi_valued": true},
//      {"name": "isbn_13", "type": "isbn", "mandatory": true},
//      {"name": "edition", "regex": "(\\d+)(?:st|nd|rd|th) edition"}]}
//
// Record-level verticals (result lists: many records per page, found by
// AMBER, ../shared/papers/DIGEST.md section 3) mark the schema
// "record_level": true, one regular attribute "pivot": true (the value that
// locates records, a listing's price), optionally "regular" per attribute
// (defaults to "mandatory"), "gazetteer" term lists by name, and "disjoint"
// attribute pairs whose annotations of the same text cancel out:
//
//   {"vertical": "real_estate", "record_level": true,
//    "attributes": [
//      {"name": "price", "type": "price", "regular": true, "pivot": true},
//      {"name": "location", "regular": true, "gazetteer": "uk_places"}],
//    "disjoint": [{"first": "price", "second": "location"}]}
//
// Limits on the regexes a schema gives (they run over every candidate
// node's text, so their cost must stay linear with a small factor): at most
// kMaxValueRegexBytes of pattern, compiled within kValueRegexMaxMem bytes of
// RE2 memory, with at most kMaxValueRegexGroups capturing groups.
//
// Thread-safety: a CompiledSchema is immutable; its const methods are safe to
// call from many threads at once. Copies are cheap and share the compiled
// state. TypeRegex() is a pure function.
#ifndef VERTEX_COMMON_SCHEMA_SCHEMA_H_
#define VERTEX_COMMON_SCHEMA_SCHEMA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "re2/re2.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::schema {

// Longest value regex (explicit or by type) a schema may give.
inline constexpr size_t kMaxValueRegexBytes = 1024;
// RE2's memory budget for compiling one value regex (RE2's own default is
// 8 MiB).
inline constexpr int64_t kValueRegexMaxMem = 1 << 20;
// Capturing groups a value regex may have. The value of a match is its
// first group that took part in it ("(?i)(\\d+) beds?|beds?: (\\d+)" reads
// "3 beds" and "Beds: 3" alike), or the whole match without groups.
inline constexpr int kMaxValueRegexGroups = 4;

// The built-in value types, comma-separated, as error messages list them:
// "price, phone, zip, date, isbn, url, image, number, text".
const char* KnownTypes();

// The built-in RE2 pattern of a value type, or nullptr when the type has none:
// "" and "text" (free text) and any unknown type. Each pattern has at most one
// capturing group; when it has one, the group is the value.
const char* TypeRegex(std::string_view type);

// The value of a value regex's match: `submatches` holds the match and its
// NumberOfCapturingGroups() groups (RE2::Match with that many + 1); the
// first group that took part, else (no group) the whole match. A null piece
// when the pattern has groups and none took part.
re2::StringPiece ValueOfMatch(const RE2& re, const re2::StringPiece* submatches);

// True for the types KnownTypes() lists and for "" (free text).
bool IsKnownType(std::string_view type);

// A validated schema with compiled value regexes.
class CompiledSchema {
 public:
  // Parses `json`, the protobuf JSON mapping of v1::Schema (a leading UTF-8
  // BOM is skipped; unknown fields are an error), and validates it as
  // FromProto does. `source` names the input in error messages (a file path,
  // say). InvalidArgument, naming `source`, for malformed JSON (with
  // protobuf's message) and for every FromProto error.
  static absl::StatusOr<CompiledSchema> FromJson(std::string_view json,
                                                 std::string_view source);

  // Reads and parses the JSON schema file at `path`. NotFound naming the path
  // when it does not exist; ResourceExhausted when it is larger than 1 MiB;
  // otherwise as FromJson with `path` as the source.
  static absl::StatusOr<CompiledSchema> FromFile(const std::string& path);

  // Validates `schema` and compiles its regexes. InvalidArgument, naming the
  // offending attribute (by index and name) and field, when: the vertical is
  // empty; there are no attributes; a name does not match [a-z][a-z0-9_]* or
  // repeats an earlier one; a type is unknown (the message lists the known
  // ones); an explicit regex does not compile (with RE2's error and the
  // pattern; a pattern whose program needs more than kValueRegexMaxMem
  // bytes does not), is longer than kMaxValueRegexBytes or has more than
  // kMaxValueRegexGroups capturing groups; a record-level schema has no pivot or more than
  // one, or its pivot is not regular; a schema that is not record-level
  // has a pivot; a gazetteer name does not match [a-z][a-z0-9_]*; a
  // disjoint pair (by index) names an attribute the schema lacks, or the
  // same attribute twice.
  static absl::StatusOr<CompiledSchema> FromProto(const v1::Schema& schema);

  // Copies share the immutable compiled state. A moved-from CompiledSchema
  // may only be destroyed or assigned to.
  CompiledSchema(const CompiledSchema&) = default;
  CompiledSchema& operator=(const CompiledSchema&) = default;
  CompiledSchema(CompiledSchema&&) = default;
  CompiledSchema& operator=(CompiledSchema&&) = default;

  // The schema as validated.
  const v1::Schema& proto() const;
  const std::string& vertical() const;

  // The number of attributes (at least one).
  size_t size() const;

  // The i-th attribute, in schema order. Requires i < size().
  const v1::AttributeSchema& attribute(size_t i) const;

  // The index of the attribute named `name`, or -1 when there is none.
  int Find(std::string_view name) const;

  // The i-th attribute's value regex: its explicit `regex` when set, else its
  // type's; nullptr for free text. Owned by this schema (valid while any copy
  // of it lives). Requires i < size().
  const RE2* ValueRegex(size_t i) const;

  // Many records per page (Schema.record_level).
  bool record_level() const;

  // The index of the pivot attribute of a record-level schema; -1 when the
  // schema is not record-level.
  int pivot() const;

  // Whether the i-th attribute is regular (AMBER's Sigma_R): its explicit
  // `regular`, else its `mandatory`. Requires i < size().
  bool IsRegular(size_t i) const;

  // Whether attributes i and j are declared disjoint (in either order).
  // False for i == j. Requires i, j < size().
  bool Disjoint(size_t i, size_t j) const;

  // Picks the i-th attribute's value out of `text` (already whitespace-
  // normalised): the regex's leftmost match, or its first capturing group that took part in it when
  // the pattern has one, with surrounding ASCII whitespace trimmed. `text`
  // itself when the attribute has no regex. nullopt when the regex finds
  // nothing, or only an empty string: `text` holds no valid value.
  // Requires i < size().
  std::optional<std::string> SelectValue(size_t i, std::string_view text) const;

 private:
  struct State;

  explicit CompiledSchema(std::shared_ptr<const State> state);

  // FromProto with `source` naming the schema in error messages.
  static absl::StatusOr<CompiledSchema> Compile(const v1::Schema& schema,
                                                std::string_view source);

  std::shared_ptr<const State> state_;
};

}  // namespace vertex::schema

#endif  // VERTEX_COMMON_SCHEMA_SCHEMA_H_
