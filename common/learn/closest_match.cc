#include "common/learn/closest_match.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "common/html/text.h"

namespace vertex::learn {
namespace {

using Word = uint64_t;
constexpr size_t kWordBits = 64;

bool IsSpace(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xA0;
}

// UTF-8 as code points into `*out` (replaced), a byte that starts no valid
// sequence as one unit; with `normalize`, whitespace as html::NormalizeSpace
// has it (runs of ASCII whitespace and U+00A0 one space, ends trimmed),
// without a copy of the text.
void DecodeInto(std::string_view s, bool normalize, std::u32string* out_ptr) {
  std::u32string& out = *out_ptr;
  out.clear();
  bool pending_space = false;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      ok = (d >> 6) == 2;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (!ok) cp = c;
    i += ok ? len : 1;
    if (normalize && IsSpace(cp)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(cp);
  }
}

std::u32string Decode(std::string_view s) {
  std::u32string out;
  DecodeInto(s, /*normalize=*/false, &out);
  return out;
}

void Encode(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

char32_t Fold(char32_t c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

// Myers/Hyyrö bit-vector state for one pattern: per block, the pattern
// positions holding each code point; per block, the vertical deltas.
class Matcher {
 public:
  explicit Matcher(const std::u32string& pattern) : m_(pattern.size()), blocks_((m_ + kWordBits - 1) / kWordBits) {
    ascii_.assign(128 * blocks_, 0);
    for (size_t i = 0; i < m_; ++i) {
      const char32_t c = Fold(pattern[i]);
      Word* eq = c < 128 ? &ascii_[c * blocks_] : Other(c);
      eq[i / kWordBits] |= Word{1} << (i % kWordBits);
    }
  }

  size_t blocks() const { return blocks_; }

  // Scans `text`: the least D[m][j] over its end positions j and the first
  // j (exclusive end) reaching it.
  std::pair<size_t, size_t> Scan(const std::u32string& text) {
    pv_.assign(blocks_, ~Word{0});
    mv_.assign(blocks_, 0);
    size_t score = m_, best = m_, best_end = 0;
    const Word last_bit = Word{1} << ((m_ - 1) % kWordBits);
    for (size_t j = 0; j < text.size(); ++j) {
      const Word* eq = Eq(Fold(text[j]));
      int hin = 0;
      for (size_t b = 0; b < blocks_; ++b) {
        const Word bit = b + 1 == blocks_ ? last_bit : Word{1} << (kWordBits - 1);
        hin = Step(b, eq == nullptr ? 0 : eq[b], hin, bit);
      }
      score = static_cast<size_t>(static_cast<long>(score) + hin);
      if (score < best) {
        best = score;
        best_end = j + 1;
      }
    }
    return {best, best_end};
  }

 private:
  // One block of one column (Hyyrö 2003); returns the horizontal delta at
  // row `out_bit` of the block.
  int Step(size_t b, Word eq, int hin, Word out_bit) {
    const Word pv = pv_[b], mv = mv_[b];
    const Word xv = eq | mv;
    if (hin < 0) eq |= 1;
    const Word xh = (((eq & pv) + pv) ^ pv) | eq;
    Word ph = mv | ~(xh | pv);
    Word mh = pv & xh;
    const int hout = (ph & out_bit) ? 1 : (mh & out_bit) ? -1 : 0;
    ph <<= 1;
    mh <<= 1;
    if (hin < 0) mh |= 1;
    if (hin > 0) ph |= 1;
    pv_[b] = mh | ~(xv | ph);
    mv_[b] = ph & xv;
    return hout;
  }

  Word* Other(char32_t c) {
    std::vector<Word>& v = other_[c];
    if (v.empty()) v.assign(blocks_, 0);
    return v.data();
  }
  const Word* Eq(char32_t c) const {
    if (c < 128) return &ascii_[c * blocks_];
    const auto it = other_.find(c);
    return it == other_.end() ? nullptr : it->second.data();
  }

  size_t m_, blocks_;
  std::vector<Word> ascii_;
  absl::flat_hash_map<char32_t, std::vector<Word>> other_;
  std::vector<Word> pv_, mv_;
};

// The start of the substring of `text` ending at `end` (exclusive) at
// `edits` from `pattern`, by the plain dynamic programme run backwards from
// `end`; among equal starts, the one whose length is nearest the pattern's.
size_t MatchStart(const std::u32string& pattern, const std::u32string& text, size_t end, size_t edits) {
  const size_t m = pattern.size();
  const size_t span = std::min(end, m + edits);
  // prev[i]: distance of pattern's last i code points to the text's last k.
  std::vector<size_t> prev(m + 1), cur(m + 1);
  for (size_t i = 0; i <= m; ++i) prev[i] = i;
  size_t best_start = end, best_gap = m;
  for (size_t k = 1; k <= span; ++k) {
    const char32_t t = Fold(text[end - k]);
    cur[0] = k;
    for (size_t i = 1; i <= m; ++i) {
      const size_t sub = prev[i - 1] + (Fold(pattern[m - i]) == t ? 0 : 1);
      cur[i] = std::min({sub, prev[i] + 1, cur[i - 1] + 1});
    }
    const size_t gap = k > m ? k - m : m - k;
    if (cur[m] == edits && gap < best_gap) {
      best_gap = gap;
      best_start = end - k;
    }
    std::swap(prev, cur);
  }
  return best_start;
}

bool Skipped(html::Node text) {
  const html::Node parent = text.parent();
  return parent && (parent.tag() == "script" || parent.tag() == "style" || parent.tag() == "title");
}

std::string ElementXPath(html::Node element) {
  std::vector<std::string> steps;
  for (html::Node n = element; n && n.is_element(); n = n.parent()) {
    size_t position = 1, same = 1;
    for (html::Node s = n.previous_sibling(); s; s = s.previous_sibling()) {
      if (s.is_element() && s.tag() == n.tag()) ++position, ++same;
    }
    for (html::Node s = n.next_sibling(); s; s = s.next_sibling()) {
      if (s.is_element() && s.tag() == n.tag()) ++same;
    }
    const std::string tag(n.tag());
    steps.push_back(same == 1 ? "/" + tag : absl::StrCat("/", tag, "[", position, "]"));
  }
  std::string out;
  for (size_t i = steps.size(); i-- > 0;) out += steps[i];
  return out;
}

}  // namespace

ClosestMatchResult FindClosestMatch(const html::Page& page, std::string_view value,
                                    const ClosestMatchOptions& options) {
  ClosestMatchResult result;
  const std::u32string pattern = Decode(html::NormalizeSpace(value));
  result.max_edits = static_cast<size_t>(static_cast<double>(pattern.size()) * options.max_edit_fraction);
  if (pattern.size() > options.max_value_chars) result.cut = true;
  if (pattern.empty() || result.max_edits == 0 || result.cut) return result;
  Matcher matcher(pattern);
  size_t best = result.max_edits + 1;
  const html::Node root = page.root();
  std::u32string text;  // reused: one allocation for the page, not one per node
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (!n.is_text() || Skipped(n)) continue;
    DecodeInto(n.RawText(), /*normalize=*/true, &text);
    if (text.empty()) continue;
    const uint64_t step = static_cast<uint64_t>(text.size()) * matcher.blocks();
    if (result.work + step > options.max_work) {
      result.cut = true;
      break;
    }
    result.work += step;
    const auto [edits, end] = matcher.Scan(text);
    if (edits >= best) continue;
    best = edits;
    const size_t start = MatchStart(pattern, text, end, edits);
    ClosestMatch match{"", ElementXPath(n.parent()), edits};
    for (size_t i = start; i < end; ++i) Encode(text[i], &match.text);
    result.match = std::move(match);
    if (best == 0) break;
  }
  return result;
}

size_t SubstringEditDistance(std::string_view value, std::string_view text) {
  const std::u32string pattern = Decode(html::NormalizeSpace(value));
  if (pattern.empty()) return 0;
  Matcher matcher(pattern);
  const std::u32string t = Decode(html::NormalizeSpace(text));
  return t.empty() ? pattern.size() : matcher.Scan(t).first;
}

std::string DescribeNotFound(std::string_view value, std::string_view url, const ClosestMatchResult& result,
                             std::string_view scope) {
  std::string out = absl::StrCat("\"", std::string(value), "\" is not ",
                                 scope.empty() ? std::string() : "in " + std::string(scope) + " ", "on page ",
                                 std::string(url), "; ");
  if (result.match.has_value()) {
    const ClosestMatch& m = *result.match;
    absl::StrAppend(&out, "closest: \"", m.text, "\" at ", m.xpath, " (", m.edits, m.edits == 1 ? " edit)" : " edits)");
  } else if (result.max_edits == 0 && !result.cut) {
    absl::StrAppend(&out, "too short to look for a near match");
  } else {
    absl::StrAppend(&out, "nothing on the page within ", result.max_edits, result.max_edits == 1 ? " edit" : " edits");
  }
  if (result.cut) absl::StrAppend(&out, " (search cut: value too long or page too large)");
  return out;
}

}  // namespace vertex::learn
