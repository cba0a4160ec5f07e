// JSON-LD (<script type="application/ld+json">) as a source of values: a
// small JSON reader that lists a document's scalars with their key paths,
// numbers kept as written ("310.00" stays "310.00", not 310).
//
// A path is the object keys from the root to the scalar joined by "."
// ("offers.price", "author.name", "@graph.name"); arrays add no key, so a
// path names every element of a list on the way ("author.name" is each
// author's name). Keys holding "." are not told apart from nesting.
//
// Script text is untrusted: malformed JSON is an error value, never a crash,
// and nesting deeper than kMaxJsonDepth is refused rather than recursed.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_JSON_LD_H_
#define VERTEX_COMMON_RULE_JSON_LD_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"

namespace vertex::rule {

// Deepest nesting of arrays and objects JsonLeaves accepts.
inline constexpr int kMaxJsonDepth = 64;

// One scalar of a JSON document: a string (unescaped), a number (as
// written), or "true"/"false". Nulls are not listed.
struct JsonLeaf {
  std::string path;
  std::string value;

  bool operator==(const JsonLeaf& o) const { return path == o.path && value == o.value; }
};

// The scalars of the JSON text `json` in document order. A UTF-8 byte order
// mark and surrounding whitespace are allowed. InvalidArgument (naming the
// byte offset) for malformed JSON or trailing text; ResourceExhausted for
// nesting deeper than kMaxJsonDepth.
absl::StatusOr<std::vector<JsonLeaf>> JsonLeaves(std::string_view json);

// The values at `path` in `json`, in document order; empty when `json` is
// not valid JSON or has nothing at `path`.
std::vector<std::string> JsonValuesAt(std::string_view json, std::string_view path);

// Whether `node` is a <script> whose type is application/ld+json (ASCII case
// and surrounding whitespace ignored, parameters after ";" allowed).
bool IsJsonLdScript(html::Node node);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_JSON_LD_H_
