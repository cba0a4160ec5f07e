#include "common/urlpattern/url_regex.h"

#include <algorithm>
#include <bitset>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"

namespace vertex::urlpattern {
namespace {

constexpr char kAnyFragment[] = "(?:#.*)?";
constexpr char kAnyQuery[] = "(?:\\?[^#]*)?";
constexpr char kAnySegments[] = "(?:/[^/?#]*)*";
constexpr char kAnyPathAndQuery[] = "(?:[/?][^#]*)?";
constexpr char kAnyAuthority[] = "[^/?#]*";
constexpr char kAnyQueryValue[] = "[^&#]*";
constexpr char kDigits[] = "0123456789";
// More distinct query names than this make the query generic.
constexpr size_t kMaxQueryNames = 16;
// Longest part of an offending URL or pattern quoted in an error message.
constexpr size_t kMaxQuotedBytes = 200;

absl::string_view Av(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

// `text` C-escaped in double quotes, cut after kMaxQuotedBytes.
std::string Quote(std::string_view text) {
  const bool cut = text.size() > kMaxQuotedBytes;
  return absl::StrCat("\"",
                      absl::CHexEscape(Av(text.substr(0, kMaxQuotedBytes))),
                      cut ? "\"..." : "\"");
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c));
}
bool IsAlnum(char c) { return IsDigit(c) || IsAlpha(c); }
bool HasDigit(std::string_view s) {
  return s.find_first_of(kDigits) != std::string_view::npos;
}

re2::RE2::Options QuietOptions() {
  re2::RE2::Options options;
  options.set_log_errors(false);
  return options;
}

// ------------------------------------------------------------------ Parsing

struct Path {
  std::vector<std::string> segments;  // Between the slashes.
  bool trailing_slash = false;        // Path ends in '/' (not a segment).
};

struct Query {
  bool present = false;             // The URL has a '?'.
  std::vector<std::string> names;   // "name=" or, without '=', "name".
  std::vector<std::string> values;  // Parallel to names; "" after "name".
};

struct ParsedUrl {
  std::string scheme;     // Lower case.
  std::string authority;  // Lower case; empty for file:///.
  Path path;
  Query query;
  std::string canonical;  // Lower-cased scheme://authority, no fragment.
};

using UrlList = std::vector<const ParsedUrl*>;

// `path` is empty or starts with '/'.
Path SplitPath(std::string_view path) {
  Path out;
  if (path.empty()) return out;
  path.remove_prefix(1);
  if (path.empty()) {
    out.trailing_slash = true;
    return out;
  }
  if (path.back() == '/') {
    out.trailing_slash = true;
    path.remove_suffix(1);
  }
  out.segments = absl::StrSplit(Av(path), '/');
  return out;
}

// `query` is the text after '?'.
Query SplitQuery(std::string_view query) {
  Query out;
  out.present = true;
  for (absl::string_view pair : absl::StrSplit(Av(query), '&')) {
    const size_t eq = pair.find('=');
    const size_t name_end = eq == pair.npos ? pair.size() : eq + 1;
    out.names.emplace_back(pair.substr(0, name_end));
    out.values.emplace_back(pair.substr(name_end));
  }
  return out;
}

absl::Status BadUrl(size_t index, std::string_view url, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("URL #", index, " ", Quote(url), " ", Av(why)));
}

absl::StatusOr<ParsedUrl> ParseUrl(size_t index, std::string_view url) {
  if (url.empty()) return BadUrl(index, url, "is empty");
  const bool control = std::any_of(url.begin(), url.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (control || !util::IsValidUtf8(url)) {
    return BadUrl(index, url, "has control characters or invalid UTF-8");
  }
  ParsedUrl out;
  const size_t sep = url.find("://");
  if (sep != url.npos) {
    out.scheme = absl::AsciiStrToLower(Av(url.substr(0, sep)));
  }
  if (out.scheme != "http" && out.scheme != "https" && out.scheme != "file") {
    return BadUrl(index, url, "is not an absolute http, https or file URL");
  }
  std::string_view rest = url.substr(sep + 3);
  rest = rest.substr(0, rest.find('#'));
  const size_t authority_end = std::min(rest.find_first_of("/?"), rest.size());
  out.authority = absl::AsciiStrToLower(Av(rest.substr(0, authority_end)));
  if (out.authority.empty() && out.scheme != "file") {
    return BadUrl(index, url, "has no host");
  }
  rest.remove_prefix(authority_end);
  out.canonical = absl::StrCat(out.scheme, "://", out.authority, Av(rest));
  const size_t question = rest.find('?');
  out.path = SplitPath(rest.substr(0, question));
  if (question != rest.npos) out.query = SplitQuery(rest.substr(question + 1));
  return out;
}

// The distinct URLs of `urls` (by canonical form), in input order.
absl::StatusOr<std::vector<ParsedUrl>> ParseDistinct(
    const std::vector<std::string>& urls) {
  if (urls.empty()) return absl::InvalidArgumentError("no URLs to infer from");
  std::vector<ParsedUrl> out;
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < urls.size(); ++i) {
    VERTEX_ASSIGN_OR_RETURN(ParsedUrl url, ParseUrl(i, urls[i]));
    if (seen.insert(url.canonical).second) out.push_back(std::move(url));
  }
  return out;
}

// --------------------------------------------------------------- Regex text

// `text` with RE2's metacharacters escaped (outside a character class).
std::string QuoteLiteral(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\.+*?()|[]{}^$").find(c) != std::string_view::npos) {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  return out;
}

std::string Alternation(const std::vector<std::string>& alternatives) {
  if (alternatives.size() == 1) return alternatives[0];
  return absl::StrCat("(?:", absl::StrJoin(alternatives, "|"), ")");
}

// The characters seen in some texts, written as an RE2 character class of
// whole classes: [0-9], [a-z], [A-Z], the punctuation seen, hex digits once
// '%' is seen, and all non-ASCII characters once a byte >= 0x80 is seen.
class CharClass {
 public:
  void Add(std::string_view text) {
    for (char c : text) seen_.set(static_cast<unsigned char>(c));
  }
  bool empty() const { return seen_.none(); }
  std::string ToRegex() const;

 private:
  bool Any(int lo, int hi) const {
    for (int c = lo; c <= hi; ++c) {
      if (seen_[c]) return true;
    }
    return false;
  }

  std::bitset<256> seen_;
};

std::string CharClass::ToRegex() const {
  const bool percent = seen_['%'];
  std::string out = "[";
  if (Any('0', '9') || percent) out += "0-9";
  if (Any('a', 'z')) {
    out += "a-z";
  } else if (percent) {
    out += "a-f";
  }
  if (Any('A', 'Z')) {
    out += "A-Z";
  } else if (percent) {
    out += "A-F";
  }
  for (int c = 0x20; c < 0x7f; ++c) {
    if (!seen_[c] || IsAlnum(static_cast<char>(c))) continue;
    if (c == ' ') {
      out += "\\x20";
      continue;
    }
    if (std::string_view("\\]^-[").find(static_cast<char>(c)) !=
        std::string_view::npos) {
      out.push_back('\\');
    }
    out.push_back(static_cast<char>(c));
  }
  if (Any(0x80, 0xff)) out += "\\x{80}-\\x{10FFFF}";
  return out + "]";
}

// `value` with every letter/digit run that holds a digit replaced by its
// character class: "0001.htm" -> "[0-9]+\.htm".
std::string GeneralizeDigitRuns(std::string_view value) {
  std::string out;
  size_t i = 0;
  while (i < value.size()) {
    size_t end = i;
    while (end < value.size() && IsAlnum(value[end])) ++end;
    if (end == i) {
      out += QuoteLiteral(value.substr(i++, 1));
      continue;
    }
    const std::string_view run = value.substr(i, end - i);
    if (HasDigit(run)) {
      CharClass cls;
      cls.Add(run);
      absl::StrAppend(&out, cls.ToRegex(), "+");
    } else {
      out += QuoteLiteral(run);
    }
    i = end;
  }
  return out;
}

// ------------------------------------------------------ Value generalisation

// True when a literal prefix of `v` may end before v[i]: at either end, next
// to punctuation, or where a run of letters meets a digit ("page|12").
bool IsPrefixCut(std::string_view v, size_t i) {
  if (i == 0 || i >= v.size()) return true;
  if (!IsAlnum(v[i - 1]) || !IsAlnum(v[i])) return true;
  if (!IsAlpha(v[i - 1]) || !IsDigit(v[i])) return false;
  for (size_t k = i; k > 0 && IsAlnum(v[k - 1]); --k) {
    if (!IsAlpha(v[k - 1])) return false;
  }
  return true;
}

// The mirror image: a literal suffix may start at v[j] ("12|px").
bool IsSuffixCut(std::string_view v, size_t j) {
  if (j == 0 || j >= v.size()) return true;
  if (!IsAlnum(v[j - 1]) || !IsAlnum(v[j])) return true;
  if (!IsDigit(v[j - 1]) || !IsAlpha(v[j])) return false;
  for (size_t k = j; k < v.size() && IsAlnum(v[k]); ++k) {
    if (!IsAlpha(v[k])) return false;
  }
  return true;
}

size_t CommonPrefixLength(const std::vector<std::string_view>& values) {
  size_t n = values[0].size();
  for (std::string_view v : values) {
    n = std::min(n, v.size());
    n = std::mismatch(v.begin(), v.begin() + n, values[0].begin()).first -
        v.begin();
  }
  auto cut_everywhere = [&](size_t len) {
    return std::all_of(values.begin(), values.end(),
                       [&](std::string_view v) { return IsPrefixCut(v, len); });
  };
  while (n > 0 && !cut_everywhere(n)) --n;
  return n;
}

// The longest common suffix of `values` not overlapping their first `prefix`
// bytes.
size_t CommonSuffixLength(const std::vector<std::string_view>& values,
                          size_t prefix) {
  size_t n = values[0].size() - prefix;
  for (std::string_view v : values) {
    n = std::min(n, v.size() - prefix);
    n = std::mismatch(v.rbegin(), v.rbegin() + n, values[0].rbegin()).first -
        v.rbegin();
  }
  auto cut_everywhere = [&](size_t len) {
    return std::all_of(values.begin(), values.end(), [&](std::string_view v) {
      return IsSuffixCut(v, v.size() - len);
    });
  };
  while (n > 0 && !cut_everywhere(n)) --n;
  return n;
}

// Length of the longest part of `prefix` before its first run holding a digit.
size_t DigitFreePrefix(std::string_view prefix) {
  size_t i = prefix.find_first_of(kDigits);
  if (i == prefix.npos) return prefix.size();
  while (i > 0 && IsAlnum(prefix[i - 1])) --i;
  return i;
}

// Length of the longest part of `suffix` after its last run holding a digit.
size_t DigitFreeSuffix(std::string_view suffix) {
  size_t i = suffix.find_last_of(kDigits);
  if (i == suffix.npos) return suffix.size();
  while (i < suffix.size() && IsAlnum(suffix[i])) ++i;
  return suffix.size() - i;
}

// How literally the values of one position (a segment, a query value) are
// kept; see the header.
struct ValuePolicy {
  int min_urls_for_literal = 1;
  int min_urls_for_literal_digits = 2;
  bool always_allow_empty = false;
};

// The class of the values' middles (between `prefix` and `suffix` bytes).
std::string MiddleRegex(const std::vector<std::string_view>& values,
                        size_t prefix, size_t suffix, bool allow_empty) {
  CharClass cls;
  bool empty = allow_empty;
  for (std::string_view v : values) {
    const std::string_view middle =
        v.substr(prefix, v.size() - prefix - suffix);
    cls.Add(middle);
    empty = empty || middle.empty();
  }
  if (cls.empty()) return allow_empty ? std::string(kAnyQueryValue) : "";
  return absl::StrCat(cls.ToRegex(), empty ? "*" : "+");
}

bool AllEqual(const std::vector<std::string_view>& values) {
  return std::all_of(values.begin(), values.end(),
                     [&](std::string_view v) { return v == values[0]; });
}

// A pattern for `values`, one per distinct URL.
std::string GeneralizeValues(const std::vector<std::string_view>& values,
                             const ValuePolicy& policy) {
  const int n = static_cast<int>(values.size());
  const bool literal_ok = n >= policy.min_urls_for_literal;
  const bool digits_ok = n >= policy.min_urls_for_literal_digits;
  const std::string_view first = values[0];
  if (literal_ok && AllEqual(values)) {
    return digits_ok || !HasDigit(first) ? QuoteLiteral(first)
                                         : GeneralizeDigitRuns(first);
  }
  size_t prefix = 0;
  size_t suffix = 0;
  if (literal_ok) {
    prefix = CommonPrefixLength(values);
    if (!digits_ok) prefix = DigitFreePrefix(first.substr(0, prefix));
    suffix = CommonSuffixLength(values, prefix);
    if (!digits_ok)
      suffix = DigitFreeSuffix(first.substr(first.size() - suffix));
  }
  return absl::StrCat(
      QuoteLiteral(first.substr(0, prefix)),
      MiddleRegex(values, prefix, suffix, policy.always_allow_empty),
      QuoteLiteral(first.substr(first.size() - suffix)));
}

// ------------------------------------------------------------ Scheme, host

std::string SchemeRegex(const UrlList& urls) {
  std::set<std::string_view> schemes;
  for (const ParsedUrl* url : urls) schemes.insert(url->scheme);
  if (schemes == std::set<std::string_view>{"http", "https"}) return "https?";
  return Alternation(std::vector<std::string>(schemes.begin(), schemes.end()));
}

std::string AuthorityRegex(const UrlList& urls,
                           const UrlRegexOptions& options) {
  std::vector<std::string_view> values;
  for (const ParsedUrl* url : urls) values.push_back(url->authority);
  if (AllEqual(values)) return QuoteLiteral(values[0]);
  return GeneralizeValues(values, {1, options.min_urls_for_literal_digits});
}

// --------------------------------------------------------------------- Path

enum class PathLevel {
  kExact,     // Per shape, segments generalised by their values.
  kWildcard,  // Per shape, varying segments as [^/?#]+.
  kCoarse,    // Constant leading segments, then any path.
  kAny,       // Any path and query.
};

std::string TrailingSlashRegex(const UrlList& urls) {
  const auto with =
      std::count_if(urls.begin(), urls.end(),
                    [](const ParsedUrl* u) { return u->path.trailing_slash; });
  if (with == 0) return "";
  return with == static_cast<long>(urls.size()) ? "/" : "/?";
}

// The pattern of one path shape: URLs with the same number of segments.
std::string ShapeRegex(const UrlList& shape, const ValuePolicy& policy,
                       bool wildcard) {
  std::string out;
  for (size_t i = 0; i < shape[0]->path.segments.size(); ++i) {
    std::vector<std::string_view> values;
    bool any_empty = false;
    for (const ParsedUrl* url : shape) {
      values.push_back(url->path.segments[i]);
      any_empty = any_empty || values.back().empty();
    }
    out += "/";
    if (wildcard && !AllEqual(values)) {
      out += any_empty ? "[^/?#]*" : "[^/?#]+";
    } else {
      out += GeneralizeValues(values, policy);
    }
  }
  return out + TrailingSlashRegex(shape);
}

// The segments all URLs start with, literally, then any further segments.
std::string CoarsePathRegex(const UrlList& urls, const ValuePolicy& policy) {
  const bool digits_ok =
      static_cast<int>(urls.size()) >= policy.min_urls_for_literal_digits;
  std::string out;
  for (size_t i = 0;; ++i) {
    auto differs = [&](const ParsedUrl* u) {
      return u->path.segments.size() <= i ||
             u->path.segments[i] != urls[0]->path.segments[i];
    };
    if (std::any_of(urls.begin(), urls.end(), differs)) break;
    const std::string& segment = urls[0]->path.segments[i];
    if (!digits_ok && HasDigit(segment)) break;
    absl::StrAppend(&out, "/", QuoteLiteral(segment));
  }
  return absl::StrCat(out, kAnySegments);
}

std::string PathRegex(const UrlList& urls, const UrlRegexOptions& options,
                      PathLevel level) {
  const ValuePolicy policy{1, options.min_urls_for_literal_digits};
  std::map<size_t, UrlList> shapes;
  for (const ParsedUrl* url : urls) {
    shapes[url->path.segments.size()].push_back(url);
  }
  if (level == PathLevel::kCoarse ||
      shapes.size() > static_cast<size_t>(options.max_alternatives)) {
    return CoarsePathRegex(urls, policy);
  }
  std::vector<std::string> alternatives;
  for (const auto& [depth, shape] : shapes) {
    alternatives.push_back(
        ShapeRegex(shape, policy, level == PathLevel::kWildcard));
  }
  return Alternation(alternatives);
}

// -------------------------------------------------------------------- Query

ValuePolicy QueryValuePolicy(const UrlRegexOptions& options) {
  return {options.min_urls_for_literal_query_value,
          options.min_urls_for_literal_digits, true};
}

// "name=" followed by the pattern of its values, or a bare "name".
std::string PairRegex(std::string_view name,
                      const std::vector<std::string_view>& values,
                      const UrlRegexOptions& options) {
  if (name.empty() || name.back() != '=') return QuoteLiteral(name);
  return QuoteLiteral(name) +
         GeneralizeValues(values, QueryValuePolicy(options));
}

// False when a name holding a digit is seen in too few URLs to be literal.
bool NamesAreLiteral(const UrlList& urls, int min_urls_for_literal_digits) {
  std::map<std::string_view, int> urls_with;
  for (const ParsedUrl* url : urls) {
    const std::set<std::string_view> names(url->query.names.begin(),
                                           url->query.names.end());
    for (std::string_view name : names) ++urls_with[name];
  }
  return std::none_of(urls_with.begin(), urls_with.end(), [&](const auto& e) {
    return HasDigit(e.first) && e.second < min_urls_for_literal_digits;
  });
}

// Query names as a precedence graph: an edge from each name to the next one
// in some URL.
struct NameGraph {
  std::vector<std::string_view> names;  // In order of first appearance.
  std::vector<std::set<size_t>> successors;
  std::vector<int> in_degree;
};

// nullopt when a URL repeats a name.
std::optional<NameGraph> BuildNameGraph(const UrlList& urls) {
  NameGraph graph;
  std::map<std::string_view, size_t> index;
  for (const ParsedUrl* url : urls) {
    std::set<size_t> in_url;
    size_t previous = SIZE_MAX;
    for (const std::string& name : url->query.names) {
      const auto [it, added] = index.emplace(name, graph.names.size());
      if (added) {
        graph.names.push_back(name);
        graph.successors.emplace_back();
        graph.in_degree.push_back(0);
      }
      const size_t node = it->second;
      if (!in_url.insert(node).second) return std::nullopt;
      if (previous != SIZE_MAX &&
          graph.successors[previous].insert(node).second) {
        ++graph.in_degree[node];
      }
      previous = node;
    }
  }
  return graph;
}

// All query names in one order consistent with every URL (ties broken by
// first appearance), or nullopt when there is none or too many names.
std::optional<std::vector<std::string_view>> MergedNameOrder(
    const UrlList& urls) {
  std::optional<NameGraph> graph = BuildNameGraph(urls);
  if (!graph || graph->names.size() > kMaxQueryNames) return std::nullopt;
  std::vector<std::string_view> order;
  std::vector<bool> done(graph->names.size(), false);
  while (order.size() < graph->names.size()) {
    size_t next = 0;
    while (next < done.size() && (done[next] || graph->in_degree[next] > 0)) {
      ++next;
    }
    if (next == done.size()) return std::nullopt;  // A cycle.
    done[next] = true;
    order.push_back(graph->names[next]);
    for (size_t s : graph->successors[next]) --graph->in_degree[s];
  }
  return order;
}

// The values of `name` in the URLs that have it (names are unique per URL).
std::vector<std::string_view> ValuesOf(const UrlList& urls,
                                       std::string_view name) {
  std::vector<std::string_view> values;
  for (const ParsedUrl* url : urls) {
    const auto& names = url->query.names;
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end())
      values.push_back(url->query.values[it - names.begin()]);
  }
  return values;
}

// The names in their merged order, those absent from some URL optional.
std::optional<std::string> MergedQueryRegex(const UrlList& urls,
                                            const UrlRegexOptions& options) {
  const std::optional<std::vector<std::string_view>> order =
      MergedNameOrder(urls);
  if (!order) return std::nullopt;
  std::string out;
  bool required_seen = false;
  for (std::string_view name : *order) {
    const std::vector<std::string_view> values = ValuesOf(urls, name);
    const bool required = values.size() == urls.size();
    const std::string pair = PairRegex(name, values, options);
    if (required_seen) {
      out += required ? "&" + pair : "(?:&" + pair + ")?";
    } else if (required) {
      out += (out.empty() ? "\\?" : "[?&]") + pair;
    } else {
      out += "(?:[?&]" + pair + ")?";
    }
    required_seen = required_seen || required;
  }
  return out;
}

// Any number of the known name=value pairs in any order: for URLs whose
// names repeat or come in conflicting orders. nullopt beyond kMaxQueryNames.
std::optional<std::string> UnorderedQueryRegex(const UrlList& urls,
                                               const UrlRegexOptions& options) {
  std::map<std::string_view, std::vector<std::string_view>> values_by_name;
  bool optional = false;
  for (const ParsedUrl* url : urls) {
    optional = optional || !url->query.present;
    for (size_t i = 0; i < url->query.names.size(); ++i) {
      values_by_name[url->query.names[i]].push_back(url->query.values[i]);
    }
  }
  if (values_by_name.size() > kMaxQueryNames) return std::nullopt;
  std::vector<std::string> pairs;
  for (const auto& [name, values] : values_by_name) {
    pairs.push_back(PairRegex(name, values, options));
  }
  const std::string pair = Alternation(pairs);
  const std::string query = absl::StrCat("\\?", pair, "(?:&", pair, ")*");
  return optional ? absl::StrCat("(?:", query, ")?") : query;
}

std::string QueryRegex(const UrlList& urls, const UrlRegexOptions& options,
                       bool exact) {
  if (!exact) return std::string(kAnyQuery);
  const bool any_query =
      std::any_of(urls.begin(), urls.end(),
                  [](const ParsedUrl* u) { return u->query.present; });
  if (!any_query) return "";
  if (!NamesAreLiteral(urls, options.min_urls_for_literal_digits)) {
    return std::string(kAnyQuery);
  }
  if (auto merged = MergedQueryRegex(urls, options)) return *std::move(merged);
  if (auto unordered = UnorderedQueryRegex(urls, options)) {
    return *std::move(unordered);
  }
  return std::string(kAnyQuery);
}

// ----------------------------------------------------------------- Assembly

// One rung of the ladder from most specific to coarsest.
struct Level {
  PathLevel path;
  bool exact_query;
  bool any_authority;
};

constexpr Level kLevels[] = {
    {PathLevel::kExact, true, false},     {PathLevel::kExact, false, false},
    {PathLevel::kWildcard, false, false}, {PathLevel::kCoarse, false, false},
    {PathLevel::kAny, false, false},      {PathLevel::kAny, false, true},
};

std::string BuildRegex(const UrlList& urls, const UrlRegexOptions& options,
                       const Level& level) {
  std::string out =
      absl::StrCat("(?i:", SchemeRegex(urls), "://",
                   level.any_authority ? std::string(kAnyAuthority)
                                       : AuthorityRegex(urls, options),
                   ")");
  if (level.path == PathLevel::kAny) {
    return absl::StrCat(out, kAnyPathAndQuery, kAnyFragment);
  }
  return absl::StrCat(out, PathRegex(urls, options, level.path),
                      QueryRegex(urls, options, level.exact_query),
                      kAnyFragment);
}

absl::Status ValidateOptions(const UrlRegexOptions& options) {
  if (options.max_alternatives < 1 || options.min_urls_for_literal_digits < 1 ||
      options.min_urls_for_literal_query_value < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "UrlRegexOptions out of range: max_alternatives=",
        options.max_alternatives,
        " min_urls_for_literal_digits=", options.min_urls_for_literal_digits,
        " min_urls_for_literal_query_value=",
        options.min_urls_for_literal_query_value, " (each must be >= 1)"));
  }
  return absl::OkStatus();
}

absl::Status CheckMatchesAll(const re2::RE2& re,
                             const std::vector<std::string>& urls) {
  for (size_t i = 0; i < urls.size(); ++i) {
    if (!re2::RE2::FullMatch(urls[i], re)) {
      return absl::InternalError(
          absl::StrCat("inferred URL pattern ", Quote(re.pattern()),
                       " does not match URL #", i, " ", Quote(urls[i])));
    }
  }
  return absl::OkStatus();
}

std::vector<int> MatchOneByOne(
    const std::vector<std::unique_ptr<re2::RE2>>& regexes,
    std::string_view url) {
  std::vector<int> matched;
  for (size_t i = 0; i < regexes.size(); ++i) {
    if (re2::RE2::FullMatch(url, *regexes[i])) {
      matched.push_back(static_cast<int>(i));
    }
  }
  return matched;
}

}  // namespace

absl::StatusOr<std::string> InferUrlRegex(const std::vector<std::string>& urls,
                                          const UrlRegexOptions& options) {
  VERTEX_RETURN_IF_ERROR(ValidateOptions(options));
  VERTEX_ASSIGN_OR_RETURN(const std::vector<ParsedUrl> parsed,
                          ParseDistinct(urls));
  UrlList list;
  for (const ParsedUrl& url : parsed) list.push_back(&url);
  for (size_t i = 0; i < std::size(kLevels); ++i) {
    const bool last = i + 1 == std::size(kLevels);
    std::string pattern = BuildRegex(list, options, kLevels[i]);
    if (pattern.size() > options.max_regex_bytes && !last) continue;
    const re2::RE2 re(pattern, QuietOptions());
    if (!re.ok() && !last) continue;  // Too large for RE2: coarser.
    if (!re.ok()) {
      return absl::InternalError(
          absl::StrCat("inferred URL pattern ", Quote(pattern),
                       " does not compile: ", re.error()));
    }
    VERTEX_RETURN_IF_ERROR(CheckMatchesAll(re, urls));
    return pattern;
  }
  return absl::InternalError("no URL pattern level");  // Not reached.
}

UrlMatcher::UrlMatcher(std::unique_ptr<re2::RE2::Set> set,
                       std::vector<std::unique_ptr<re2::RE2>> regexes)
    : set_(std::move(set)), regexes_(std::move(regexes)) {}

UrlMatcher::~UrlMatcher() = default;

absl::StatusOr<UrlMatcher> UrlMatcher::Create(
    const std::vector<std::string>& patterns) {
  const re2::RE2::Options options = QuietOptions();
  auto set = std::make_unique<re2::RE2::Set>(options, re2::RE2::ANCHOR_BOTH);
  std::vector<std::unique_ptr<re2::RE2>> regexes;
  for (size_t i = 0; i < patterns.size(); ++i) {
    auto re = std::make_unique<re2::RE2>(patterns[i], options);
    std::string error = re->error();
    if (re->ok() && set->Add(patterns[i], &error) >= 0) {
      regexes.push_back(std::move(re));
      continue;
    }
    return absl::InvalidArgumentError(
        absl::StrCat("URL pattern #", i, " ", Quote(patterns[i]),
                     " does not compile: ", error));
  }
  if (patterns.empty()) return UrlMatcher(nullptr, {});
  if (!set->Compile()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the set of ", patterns.size(),
        " URL patterns does not compile (over RE2's memory budget)"));
  }
  return UrlMatcher(std::move(set), std::move(regexes));
}

std::vector<int> UrlMatcher::Match(std::string_view url) const {
  std::vector<int> matched;
  if (set_ == nullptr) return matched;
  re2::RE2::Set::ErrorInfo error{re2::RE2::Set::kNoError};
  if (!set_->Match(url, &matched, &error) &&
      error.kind != re2::RE2::Set::kNoError) {
    return MatchOneByOne(regexes_, url);  // The DFA ran out of memory.
  }
  std::sort(matched.begin(), matched.end());
  return matched;
}

}  // namespace vertex::urlpattern
