// URL patterns of page clusters (Vertex paper, IV-A "rule matching").
//
// Every learnt rule carries a URL regex: the most specific pattern matching
// all URLs of its cluster, with size limits against over-fitting. At
// extraction time a page's URL is matched against all of a site's patterns in
// one pass (UrlMatcher, an RE2::Set); a page matching none is answered
// without parsing it.
//
// InferUrlRegex reads each URL as scheme "://" authority path ["?" query]
// ["#" fragment] and builds the pattern piece by piece:
//
//  * scheme and authority (host[:port]) are case-insensitive: the pattern
//    opens with "(?i:scheme://authority)". One scheme is kept literally,
//    {http, https} become "https?". A constant authority is kept literally
//    (digits included: a host is not an id; file:/// has an empty one);
//    varying ones are generalised like a varying path segment (below), e.g.
//    "www.x.com", "m.x.com" -> "[a-z]+\.x\.com".
//  * path: the URLs are grouped by segment count (a trailing '/' is not a
//    segment; mixed with and without it gives "/?"). Each group is one
//    alternative; per segment position
//      - a constant segment is kept literally, except that one containing a
//        digit needs min_urls_for_literal_digits URLs (a single URL's ids must
//        not be frozen): then each letter/digit run holding a digit becomes
//        its character class, e.g. "0001.htm" -> "[0-9]+\.htm";
//      - a varying segment keeps its longest common literal prefix and suffix
//        cut at token boundaries (punctuation, or a letters-to-digits change
//        as in "page|12"; never inside a run, so 978xxx ISBNs keep no "978")
//        and generalises the middle to the union of the character classes
//        seen: [0-9], [a-z], [A-Z] (hex digits too once '%' is seen), the
//        punctuation seen, and any non-ASCII character when one is seen.
//        "product-123.html", "product-45.html" -> "product-[0-9]+\.html".
//        '+' unless a middle is empty, then '*'.
//  * query: "name=value" pairs in order. When every URL lists its names
//    without repeats and in one consistent order, the names are merged into
//    that order and those missing from some URL become optional, so unseen
//    combinations of optional parameters match:
//    "\?id=[0-9]*(?:&page=[0-9]*)?". Names before the first required name are
//    preceded by "[?&]" (a slight over-approximation that keeps the pattern
//    linear in the number of names). When names repeat or their orders
//    conflict, the query is any sequence of the known pairs:
//    "\?(?:a=[0-9]*|b=[a-z]*)(?:&(?:a=[0-9]*|b=[a-z]*))*" (listing every
//    order seen would not generalise to orders not seen). Values are
//    generalised like segments but with '*' (an empty value is always
//    allowed), and a value or a prefix/suffix of values is kept literally only
//    when seen in min_urls_for_literal_query_value URLs. More than 16 distinct
//    names, or a name containing a digit seen in fewer than
//    min_urls_for_literal_digits URLs, give any query: "(?:\?[^#]*)?". A URL
//    without a query among ones with a query makes the query optional; when
//    no URL has one, none is allowed.
//  * the fragment is ignored when learning and any fragment is allowed.
//
// Examples: http://www.booksamillion.com/product/9780316125581 alone gives
// "(?i:http://www\.booksamillion\.com)/product/[0-9]+(?:#.*)?";
// file:///data/swde/0001.htm alone gives
// "(?i:file://)/data/swde/[0-9]+\.htm(?:#.*)?".
//
// Size limits: when there are more path shapes than max_alternatives the path
// becomes its constant leading segments followed by "(?:/[^/?#]*)*". When the
// pattern is longer than max_regex_bytes (or RE2 cannot compile it) it is
// rebuilt coarser, step by step: any query; varying segments as "[^/?#]+";
// constant leading segments then any path; any path and query after the
// authority; any authority. The coarsest pattern is returned even when it is
// still longer than max_regex_bytes.
//
// Thread-safety: InferUrlRegex is a pure function. A UrlMatcher is immutable
// after Create(); Match() may be called from many threads at once.
#ifndef VERTEX_COMMON_URLPATTERN_URL_REGEX_H_
#define VERTEX_COMMON_URLPATTERN_URL_REGEX_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "re2/re2.h"
#include "re2/set.h"

namespace vertex::urlpattern {

struct UrlRegexOptions {
  // Over this many bytes the pattern is generalised further (coarser)
  // instead of growing.
  size_t max_regex_bytes = 2048;
  // Distinct path shapes (segment counts) kept as alternatives before the
  // path is generalised to its constant leading segments. Must be >= 1.
  int max_alternatives = 8;
  // A constant segment (or affix) containing a digit is kept literally only
  // when seen in at least this many URLs. Must be >= 1.
  int min_urls_for_literal_digits = 2;
  // A constant query value, or a common prefix/suffix of varying values, is
  // kept literally only when seen in at least this many URLs: a value
  // constant in a small sample is rarely constant. Must be >= 1.
  int min_urls_for_literal_query_value = 5;
};

// Infers a pattern that RE2 fully matches against every URL of `urls`
// (absolute URLs; at least one; duplicates count once, fragments ignored).
// The pattern is meant for anchored matching (RE2::FullMatch or UrlMatcher)
// and carries no "^"/"$".
//
// InvalidArgument when `urls` is empty, when a URL (named with its index) is
// empty, is not an absolute http, https or file URL (http and https need a
// host), contains control characters or is not valid UTF-8, or when an
// option is out of range. Internal if the inferred pattern fails to match one
// of the URLs (a bug).
absl::StatusOr<std::string> InferUrlRegex(const std::vector<std::string>& urls,
                                          const UrlRegexOptions& options = {});

// Matches URLs against a site's patterns in one pass: an RE2::Set anchored at
// both ends (each pattern must match the whole URL).
class UrlMatcher {
 public:
  // InvalidArgument naming the pattern and its index when one does not
  // compile (RE2's error text included), or when the set as a whole cannot be
  // compiled (over RE2's memory budget). An empty list is valid and matches
  // nothing.
  static absl::StatusOr<UrlMatcher> Create(
      const std::vector<std::string>& patterns);

  UrlMatcher(UrlMatcher&&) = default;
  UrlMatcher& operator=(UrlMatcher&&) = default;
  ~UrlMatcher();

  // Indices of the patterns fully matching `url`, ascending; empty when none
  // matches. Should the set's DFA run out of memory, the patterns are tried
  // one by one, so the answer is the same.
  std::vector<int> Match(std::string_view url) const;

  // Number of patterns.
  size_t size() const { return regexes_.size(); }

 private:
  UrlMatcher(std::unique_ptr<re2::RE2::Set> set,
             std::vector<std::unique_ptr<re2::RE2>> regexes);

  std::unique_ptr<re2::RE2::Set> set_;  // Null when there are no patterns.
  // The same patterns one by one, for the out-of-memory fallback.
  std::vector<std::unique_ptr<re2::RE2>> regexes_;
};

}  // namespace vertex::urlpattern

#endif  // VERTEX_COMMON_URLPATTERN_URL_REGEX_H_
