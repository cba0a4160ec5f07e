// The text on a page nearest to an annotated value that is not on it: what
// an editor most likely meant when they mistyped it ("Nonexistant Title"
// for the page's "Nonexistent Title").
//
// Every text node's text (whitespace normalised; script, style and title,
// which an editor does not see, left out) is searched for the substring of
// least edit distance (Levenshtein over Unicode code points, ASCII letters
// compared case-insensitively, as annotated values are matched) to the
// value (whitespace normalised), with
// Myers' bit-parallel approximate string matching in Hyyrö's block form:
// one pass over the page's text, ceil(value length / 64) machine words per
// text character. Only matches within max(value length * max_edit_fraction)
// edits are reported. The work is bounded: a value longer than
// max_value_chars is not searched, and the search stops after max_work
// (text character x block) steps, keeping the best match so far.
//
// Thread-safety: pure functions; the page is only read.
#ifndef VERTEX_COMMON_LEARN_CLOSEST_MATCH_H_
#define VERTEX_COMMON_LEARN_CLOSEST_MATCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/html/page.h"

namespace vertex::learn {

struct ClosestMatchOptions {
  // A match may have at most floor(value length x this) edits (none for a
  // value under 1 / this characters).
  double max_edit_fraction = 1.0 / 3;
  // Values longer than this (code points, whitespace normalised) are not
  // searched.
  size_t max_value_chars = 1024;
  // At most this many (text code point x 64-code-point block) steps.
  uint64_t max_work = uint64_t{1} << 28;
};

struct ClosestMatch {
  // The page's text that matched (whitespace normalised, case as on the
  // page), the absolute XPath of the element holding it
  // (/html/body/div[2]/h1), and the edits from the value to it.
  std::string text;
  std::string xpath;
  size_t edits = 0;
};

struct ClosestMatchResult {
  // The best match within the edit bound; nullopt when none is.
  std::optional<ClosestMatch> match;
  // Steps taken (text code points x blocks), for the cost bound's tests.
  uint64_t work = 0;
  // The search stopped at max_work, or the value was too long to search.
  bool cut = false;
  // The edit bound used.
  size_t max_edits = 0;
};

// The closest match to `value` among the text of `page`.
ClosestMatchResult FindClosestMatch(const html::Page& page, std::string_view value,
                                    const ClosestMatchOptions& options = {});

// The least edit distance from `value` to a substring of `text` (both
// compared as FindClosestMatch does), for tests and the search's checks.
size_t SubstringEditDistance(std::string_view value, std::string_view text);

// How a not-found value reads in a diagnostic:
//   "\"V\" is not on page URL; closest: \"T\" at XPATH (2 edits)"
// or "...; nothing on the page within N edits" (with " (search cut)" when
// the search was cut). With a `scope` (the XPath an annotation looked for
// its value in), "\"V\" is not in SCOPE on page URL; closest: ..." (the
// closest text may then be the value itself elsewhere, 0 edits).
std::string DescribeNotFound(std::string_view value, std::string_view url, const ClosestMatchResult& result,
                             std::string_view scope = "");

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_CLOSEST_MATCH_H_
