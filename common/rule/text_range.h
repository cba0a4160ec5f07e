// Applying a learnt text range (Vertex paper, III-C.4): which part of a
// source text is the value. "Our Price: $25.99" holds "$25.99" at offset 2
// words from the start and 0 words before the end; "£340.00 (inc VAT)" holds
// "340.00" at 1 character from the start and 10 before the end. The range
// is learnt by learn/range_learner.h.
//
// A source text is seen as rule/value.h's SourceTexts give it: lines, each
// whitespace-normalised, joined by "\n" (NormalizeLines). Units are counted
// on that text with "\n" standing for a space: WORDS are the tokens between
// single spaces or line breaks, CHARACTERS are Unicode code points (a
// malformed UTF-8 byte counts as one; a cut never falls inside a code
// point). What a range cuts keeps its line breaks, so that a split
// (rule/split.h) can still cut at them.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_TEXT_RANGE_H_
#define VERTEX_COMMON_RULE_TEXT_RANGE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "re2/re2.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

// Each line of `text` NormalizeSpace'd (html/text.h), blank lines dropped,
// the rest joined by "\n". A text without line breaks is NormalizeSpace'd.
std::string NormalizeLines(std::string_view text);

// One unit of a normalised text: the bytes [begin, end).
struct TextUnit {
  size_t begin = 0;
  size_t end = 0;
};

// The units of `normalized` (a NormalizeLines result) in order.
std::vector<TextUnit> TextUnits(std::string_view normalized, v1::TextRange::Unit unit);

// The part of `text` (normalised here) that `range` selects; nullopt when
// the text has too few units for it or the range has a negative count.
// nearest_match is not looked at here (see NearestMatch).
std::optional<std::string> ApplyTextRange(const v1::TextRange& range, std::string_view text);

// The value `regex` selects from `text` (normalised here, "\n" read as a
// space) near the range's offset, for a range with nearest_match: among the
// regex's matches starting at every code point, the one whose start is
// nearest the start of unit skip_start — or, with anchor_end, whose end is
// nearest the end of the unit skip_end units before the end of the text —;
// on a tie the earlier start wins, or with anchor_end the later (the
// shorter of two matches ending at one place). length is not looked at. The value is the match's first capturing group
// when the regex has one, else the whole match, trimmed of ASCII
// whitespace (as schema::CompiledSchema::SelectValue); matches whose value
// is empty do not count. An offset past the text is taken at its end.
// nullopt when the regex matches nowhere. Only matches starting within
// kNearestMatchWindow bytes of that offset and ending within
// kNearestMatchMaxBytes past the window count, so the cost is bounded
// whatever the text's size (one unanchored search per match found).
inline constexpr size_t kNearestMatchWindow = 1024;
inline constexpr size_t kNearestMatchMaxBytes = 256;
std::optional<std::string> NearestMatch(const v1::TextRange& range, const RE2& regex, std::string_view text);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_TEXT_RANGE_H_
