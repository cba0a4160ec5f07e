// Text as the feed matcher compares it (feed_matcher.h): whitespace runs
// (ASCII, U+00A0 and the other Unicode spaces, CR, tabs) collapsed to one
// space and trimmed, typographic quotes, apostrophes, dashes and the
// ellipsis folded to ASCII, with a map from each byte of the normalised text
// back to the original's, so that a match can be reported as the page's own
// substring. Entities are decoded by the page model and the feed parser
// before this runs.
//
// Thread-safety: pure functions and an immutable value type.
#ifndef VERTEX_COMMON_FEED_MATCH_TEXT_H_
#define VERTEX_COMMON_FEED_MATCH_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vertex::feed {

struct MatchText {
  // The normalised text (see the file comment).
  std::string text;
  // text, ASCII letters lower-cased (same length: offsets are shared).
  std::string folded;
  // For each byte of `text`, the offset in the original of the character
  // it came from; one more entry, the original's length, at the end. Empty
  // when NormalizeForMatch was asked for none.
  std::vector<size_t> offsets;
  // Whether a typographic character was folded to ASCII.
  bool typographic = false;

  // The original's bytes behind text[begin, end); the whole original when
  // there are no offsets.
  std::string_view Original(std::string_view original, size_t begin, size_t end) const;
};

// Normalises `original` (UTF-8) as the file comment says; without
// `offsets` (8 bytes per byte of text) when `with_offsets` is false.
MatchText NormalizeForMatch(std::string_view original, bool with_offsets = true);

// Whether text[pos, pos + len) starts and ends at word boundaries (no ASCII
// letter or digit just outside it).
bool WordBounded(std::string_view text, size_t pos, size_t len);

// The first word-bounded occurrence of `needle` in `hay` at or after
// `from`, or npos.
size_t FindWord(std::string_view hay, std::string_view needle, size_t from = 0);

// ASCII letters lower-cased.
std::string AsciiLower(std::string_view s);

// `s` without leading and trailing ASCII whitespace.
std::string_view TrimAscii(std::string_view s);

// Space-separated words of a normalised text.
std::vector<std::string_view> Words(std::string_view text);

// Length of the longest common subsequence of two word sequences.
size_t CommonWordsInOrder(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b);

// Removes what a badly cleaned feed or page leaves in its text: tags written
// as text ("<p>", "</div>") and entities left encoded ("&nbsp;", "&#8217;"),
// then normalises spaces again. Whether anything was removed goes to
// `*removed`.
std::string StripMarkupRemnants(std::string_view text, bool* removed);

// Trailing ellipsis forms a summary ends with ("[...]", "[…]", "...", "…",
// after NormalizeForMatch: "[...]" and "..."), removed with the partial word
// before them; false when `text` ends with none.
bool StripTrailingEllipsis(std::string* text);

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_MATCH_TEXT_H_
