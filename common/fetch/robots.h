// A robots.txt file (RFC 9309) parsed for one crawler, and the question it
// answers: may this crawler fetch this path?
//
// Parsing never fails: lines that are not `key: value` with a known key are
// ignored, as RFC 9309 asks. Only the first kMaxBytes of a file are read.
// Matching costs O(|path| * |pattern|) per rule at worst (a two-pointer
// wildcard match, no backtracking regex) and is near linear in practice.
//
// Thread-safety: a Robots is immutable after creation; const methods are safe
// from many threads.
#ifndef VERTEX_COMMON_FETCH_ROBOTS_H_
#define VERTEX_COMMON_FETCH_ROBOTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vertex::fetch {

class Robots {
 public:
  // The part of a robots.txt that is parsed (RFC 9309 asks for at least
  // 500 KiB); bytes past it are ignored.
  static constexpr size_t kMaxBytes = 500 * 1024;

  // Parses `text` for the crawler whose product token is `user_agent_token`
  // (e.g. "VertexMonitor"; see ProductToken). The rules used are those of
  // the groups whose `User-agent` names that token (case-insensitive; groups
  // naming it are merged), else those of the `*` groups, else none (all
  // allowed). Handles LF, CR and CRLF line ends, `#` comments, a UTF-8 BOM.
  static Robots Parse(std::string_view text, std::string_view user_agent_token);

  // Everything allowed: what a robots.txt answered with HTTP 4xx means.
  static Robots AllowAll();
  // Nothing allowed: what an unreachable robots.txt (HTTP 5xx, network
  // error) means until it can be read again.
  static Robots DisallowAll();

  // Whether `path_and_query` (starting with "/", e.g. "/a/b?x=1") may be
  // fetched. The longest matching rule decides (length in octets of its
  // pattern); on a tie Allow wins; no matching rule allows. `*` in a pattern
  // matches any run of characters, a final `$` anchors at the end; otherwise
  // a pattern matches a prefix. "/robots.txt" is always allowed.
  bool Allowed(std::string_view path_and_query) const;

  // The number of rules kept for this crawler (for tests and diagnostics).
  size_t rule_count() const { return rules_.size(); }

 private:
  struct Rule {
    bool allow = false;
    std::string pattern;  // normalized; a trailing '$' kept when anchored
  };
  std::vector<Rule> rules_;
  bool disallow_all_ = false;
};

// The product token of an HTTP User-Agent: its leading run of letters, digits,
// '_' and '-' ("VertexMonitor/1.0 (+url)" -> "VertexMonitor").
std::string ProductToken(std::string_view user_agent);

}  // namespace vertex::fetch

#endif  // VERTEX_COMMON_FETCH_ROBOTS_H_
