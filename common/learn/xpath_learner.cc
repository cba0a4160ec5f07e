#include "common/learn/xpath_learner.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "common/html/document_order.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/rule/feature_selector.h"
#include "common/rule/value.h"

namespace vertex::learn {
namespace {

using Bits = std::vector<uint64_t>;

bool IsTagName(const std::string& s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

// Candidate nodes of a page: non-blank text nodes, or elements.
std::vector<html::Node> CandidateNodes(const html::Page& page, bool text_nodes) {
  std::vector<html::Node> out;
  const html::Node root = page.root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (text_nodes ? n.is_text() && rule::IsValueCandidate(n) : n.is_element()) {
      out.push_back(n);
    }
  }
  return out;
}

// The lowest common ancestor-or-self of `nodes` (null for none).
html::Node CommonAncestor(const std::vector<html::Node>& nodes) {
  if (nodes.empty()) return html::Node();
  std::vector<html::Node> chain;  // nodes[0] and its ancestors, nearest first
  for (html::Node n = nodes[0]; n; n = n.parent()) chain.push_back(n);
  size_t keep = 0;  // chain[keep] is an ancestor-or-self of every node so far
  for (const html::Node& node : nodes) {
    std::vector<const void*> mine;
    for (html::Node n = node; n; n = n.parent()) mine.push_back(n.raw());
    while (keep < chain.size() && std::find(mine.begin(), mine.end(), chain[keep].raw()) == mine.end()) ++keep;
  }
  return keep < chain.size() ? chain[keep] : html::Node();
}

// Whether `node` is `container` or below it.
bool IsInside(html::Node node, html::Node container) {
  for (html::Node n = node; n; n = n.parent()) {
    if (n == container) return true;
  }
  return false;
}

// The tags from `container` (exclusive) down to `node`, "#text" for a text
// node: "div/h2/a/#text". Where a node sits in the list's records.
std::string PathBelow(html::Node node, html::Node container) {
  std::string out;
  for (html::Node n = node; n && !(n == container); n = n.parent()) {
    out.insert(0, std::string(n.is_text() ? std::string_view("#text") : n.tag()) + "/");
  }
  return out;
}

// The candidate nodes of the sample pages of one node type (non-blank text
// nodes, or elements), whatever the attribute: built once per SampleIndex.
struct NodeSet {
  // One anchor memo per page, shared by the page's candidates: a memo per
  // candidate would walk to the nearest text afresh for each (and allocate
  // its maps), the learner's largest cost after the feature tests.
  std::vector<std::unique_ptr<rule::AnchorMemo>> memos;
  // Each candidate's anchors (and a text node's text) are computed when the
  // set is built: afterwards the Candidates are only read, from the threads
  // learning attributes. (An element's own text is never asked.)
  std::vector<rule::Candidate> candidates;
  std::vector<size_t> page_begin;  // candidates of page p: [page_begin[p], page_begin[p+1])
  size_t words = 0;
  // Text candidates whose text is on every sample page (PageTexts), when
  // there are 2 pages or more: not values (see TemplateValues).
  std::vector<uint64_t> template_text;
};

// The candidates as one attribute sees them.
struct Universe {
  explicit Universe(const NodeSet& set)
      : nodes(set), candidates(set.candidates), page_begin(set.page_begin), words(set.words) {}

  const NodeSet& nodes;
  const std::vector<rule::Candidate>& candidates;
  const std::vector<size_t>& page_begin;
  size_t words;
  Bits positive, annotated;
  // Candidates that can hold a value (XPathLearnOptions::value_filter).
  Bits valid;
  // Valid candidates that count for support: not template text (see
  // TemplateValues).
  Bits supporting;
  // Valid candidates of partial pages past their last positive, not judged
  // (ExamplePage::partial): inside the positives' lowest common ancestor
  // (the list goes on there: `tail`) or outside it (`spill`).
  Bits tail, spill;
};

void Set(Bits* b, size_t i) { (*b)[i / 64] |= uint64_t{1} << (i % 64); }
bool Test(const Bits& b, size_t i) { return (b[i / 64] >> (i % 64)) & 1; }

size_t CountAnd(const Bits& a, const Bits& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += std::popcount(a[i] & b[i]);
  return n;
}

struct Score {
  bool recall1 = false;
  double precision = 0;
  double support = 0;
  // Unjudged nodes of partial pages selected outside the labelled values'
  // container (fewer is better), and inside it (more is better): between
  // support and distance, the set that goes on with the list past the K-th
  // labelled value and stops where its container ends wins.
  size_t spill = 0;
  size_t tail = 0;
  int distance = 0;
  bool precise = false;
};

// The words of `b` that are not zero.
std::vector<size_t> NonZeroWords(const Bits& b) {
  std::vector<size_t> out;
  for (size_t w = 0; w < b.size(); ++w) {
    if (b[w] != 0) out.push_back(w);
  }
  return out;
}

size_t CountAndAt(const Bits& a, const Bits& b, const std::vector<size_t>& words) {
  size_t n = 0;
  for (size_t w : words) n += std::popcount(a[w] & b[w]);
  return n;
}

// The bits [begin, end) of word `w`, as a mask.
uint64_t RangeMask(size_t w, size_t begin, size_t end) {
  const size_t lo = std::max(begin, w * 64) - w * 64, hi = std::min(end, w * 64 + 64) - w * 64;
  if (hi <= lo) return 0;
  const uint64_t upto = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
  return upto & ~((uint64_t{1} << lo) - 1);
}

// Scores feature sets' selections. Word at a time; the constants of the
// universe (its positives, the annotated pages' words, whether any page is
// partial) computed once.
class Evaluator {
 public:
  Evaluator(const Universe& u, const std::vector<ExamplePage>& pages, bool multi_valued)
      : u_(u), pages_(pages), multi_valued_(multi_valued), positive_words_(NonZeroWords(u.positive)),
        annotated_words_(NonZeroWords(u.annotated)), positives_(CountAndAt(u.positive, u.positive, positive_words_)),
        partial_(!NonZeroWords(u.tail).empty() || !NonZeroWords(u.spill).empty()) {}

  Score Evaluate(const Bits& sel, int distance) const {
    Score s;
    s.distance = distance;
    const size_t pos = CountAndAt(sel, u_.positive, positive_words_);
    s.recall1 = pos == positives_;
    const size_t chosen = CountAndAt(sel, u_.annotated, annotated_words_);
    s.precision = chosen ? static_cast<double>(pos) / chosen : 0;
    size_t unannotated = 0, supported = 0;
    bool many = false;
    for (size_t p = 0; p < pages_.size(); ++p) {
      if (pages_[p].annotated) continue;
      ++unannotated;
      const auto [hits, supporting] = FirstHits(sel, u_.page_begin[p], u_.page_begin[p + 1]);
      supported += supporting;
      many |= hits > 1;
    }
    s.support = unannotated ? static_cast<double>(supported) / unannotated : 0;
    if (partial_) {
      s.tail = CountAnd(sel, u_.tail);
      s.spill = CountAnd(sel, u_.spill);
    }
    s.precise = s.recall1 && pos == chosen && (multi_valued_ || !many);
    return s;
  }

 private:
  // Of the selected valid candidates in [begin, end): how many, counting up
  // to 2, and whether the first two hold a supporting one (supporting
  // candidates are valid; the count stops at the second, as a page with two
  // is ambiguous whatever follows).
  std::pair<size_t, bool> FirstHits(const Bits& sel, size_t begin, size_t end) const {
    size_t hits = 0;
    bool supporting = false;
    for (size_t w = begin / 64; w * 64 < end && hits < 2; ++w) {
      for (uint64_t x = sel[w] & u_.valid[w] & RangeMask(w, begin, end); x != 0 && hits < 2; x &= x - 1) {
        ++hits;
        supporting |= (u_.supporting[w] & x & (~x + 1)) != 0;
      }
    }
    return {hits, supporting};
  }

  const Universe& u_;
  const std::vector<ExamplePage>& pages_;
  bool multi_valued_;
  std::vector<size_t> positive_words_, annotated_words_;
  size_t positives_;
  bool partial_;
};

Bits And(const std::vector<const Bits*>& parts, size_t words) {
  Bits out(words, ~uint64_t{0});
  for (const Bits* b : parts) {
    for (size_t i = 0; i < words; ++i) out[i] &= (*b)[i];
  }
  return out;
}

bool IsAnchorKind(rule::Kind k) { return k >= rule::Kind::kOutLeftText; }

size_t WordCount(const std::string& normalised) {
  return normalised.empty() ? 0 : std::count(normalised.begin(), normalised.end(), ' ') + 1;
}

bool IsLong(const std::string& normalised) { return WordCount(normalised) > static_cast<size_t>(kMaxLabelWords); }

// A label is a few words ("ISBN-13:", "Sold by"); a longer anchor is a
// sentence, which editors reword and which is often content (a review
// link's "I'm the author/artist and I want to review"). A word anchor is as
// long as the texts it is cut from: the last word of a sentence is that
// sentence's fragment, not a label.
bool IsLongAnchor(const rule::Feature& f, const std::vector<rule::Candidate>& positives) {
  switch (f.kind) {
    case rule::Kind::kOutLeftWord:
      return std::any_of(positives.begin(), positives.end(), [](const rule::Candidate& c) { return IsLong(c.left()); });
    case rule::Kind::kOutRightWord:
      return std::any_of(positives.begin(), positives.end(), [](const rule::Candidate& c) { return IsLong(c.right()); });
    default:
      return IsAnchorKind(f.kind) && std::any_of(f.values.begin(), f.values.end(), IsLong);
  }
}

// How fragile a feature is, for ties between feature sets of equal support
// and distance. The paper's strong features first: id and class values and
// the label text before a value (rarely changed); then a label after it,
// the node's own text and tags; sibling features last, the farther the
// sibling the weaker (an added row moves it). A long anchor sentence
// (`long_anchor`) counts as weaker than a short label on either side and
// than a tag.
int Fragility(const rule::Feature& f, bool long_anchor) {
  switch (f.kind) {
    case rule::Kind::kId:
    case rule::Kind::kClass:
      return f.values.empty() ? 1 : 0;
    case rule::Kind::kOutLeftText:
    case rule::Kind::kOutLeftWord:
      return long_anchor ? 2 : 0;
    case rule::Kind::kOutRightText:
    case rule::Kind::kOutRightWord:
    case rule::Kind::kInLeftText:
    case rule::Kind::kInRightText:
      return long_anchor ? 3 : 1;
    case rule::Kind::kTag:
      return 1;
    default:  // sibling kinds
      return 1 + f.index;
  }
}

// The sample pages' texts, each with the number of pages that show it: the
// normalised text of every non-blank text node (what kOutLeftText and
// kOutRightText compare with: XPath's normalize-space), its last word
// (kOutLeftWord) and its first word (kOutRightWord). Every page the
// learner receives counts, annotated or not.
class PageTexts {
 public:
  explicit PageTexts(const std::vector<const html::Page*>& pages) : pages_(pages.size()) {
    for (const html::Page* p : pages) CountPage(*p);
  }

  size_t pages() const { return pages_; }
  // On how many sample pages a text node has normalised text `text`.
  size_t PagesWith(const std::string& text) const { return CountOf(texts_, text); }
  // On how many sample pages anchor feature kind `k` finds `value`: as a
  // whole text, as a text's last word (kOutLeftWord) or first word
  // (kOutRightWord).
  size_t PagesWith(rule::Kind k, const std::string& value) const {
    return CountOf(k == rule::Kind::kOutLeftWord ? last_words_ : k == rule::Kind::kOutRightWord ? first_words_ : texts_,
                   value);
  }

 private:
  using Counts = absl::flat_hash_map<std::string, size_t>;

  static size_t CountOf(const Counts& counts, const std::string& text) {
    const auto it = counts.find(text);
    return it == counts.end() ? 0 : it->second;
  }

  void CountPage(const html::Page& page) {
    absl::flat_hash_set<std::string> texts, first, last;
    const html::Node root = page.root();
    for (html::Node n = root; n; n = n.NextInDocument(root)) {
      if (!n.is_text()) continue;
      std::string t = html::NormalizeXmlSpace(n.RawText());
      if (t.empty()) continue;
      first.insert(t.substr(0, t.find(' ')));
      const size_t sp = t.rfind(' ');
      last.insert(sp == std::string::npos ? t : t.substr(sp + 1));
      texts.insert(std::move(t));
    }
    for (const std::string& t : texts) ++texts_[t];
    for (const std::string& t : first) ++first_words_[t];
    for (const std::string& t : last) ++last_words_[t];
  }

  size_t pages_;
  Counts texts_, first_words_, last_words_;
};

// Which anchor features may be used. Never one whose text is, or holds as
// whole words, a value annotated on the sample pages (data of those pages,
// not a label). With `template_only`, also only template text: every value
// is on at least half of the sample pages, and on 2 or more (see
// LearnXPath in the header). One sample page tells nothing about it.
class AnchorFilter {
 public:
  AnchorFilter(const std::vector<std::string>& refused, const PageTexts& texts, bool template_only)
      : texts_(texts), template_only_(template_only) {
    for (const std::string& r : refused) {
      std::string folded = html::FoldText(r);
      if (!folded.empty()) refused_.push_back(" " + folded + " ");
    }
  }

  bool Admits(const rule::Feature& f) const {
    return std::none_of(f.values.begin(), f.values.end(),
                        [&](const std::string& v) { return IsRefused(v) || !IsTemplate(f.kind, v); });
  }

 private:
  bool IsRefused(const std::string& v) const {
    const std::string padded = " " + html::FoldText(v) + " ";
    return std::any_of(refused_.begin(), refused_.end(),
                       [&](const std::string& r) { return padded.find(r) != std::string::npos; });
  }

  bool IsTemplate(rule::Kind k, const std::string& v) const {
    const size_t n = texts_.pages();
    if (!template_only_ || n < 2) return true;
    const size_t with = texts_.PagesWith(k, v);
    return with >= 2 && 2 * with >= n;
  }

  const PageTexts& texts_;
  bool template_only_;
  std::vector<std::string> refused_;  // folded, padded with a space each side
};

// The candidates that count for support: valid ones, less text nodes whose
// text is on every sample page (a menu entry, a label), when there are 2
// pages or more and no annotated node's text is: a value varies from page
// to page. An anchor that is template text but stands beside the value on
// some pages only ("Sale" after the value here, after the menu's "Catalog"
// there) then gets no support from the template text it selects, and
// loses to a rule that finds a value on every page.
Bits TemplateValues(const Universe& u) {
  Bits out = u.valid;
  const Bits& template_text = u.nodes.template_text;
  for (size_t w = 0; w < u.words; ++w) {
    if (u.positive[w] & template_text[w]) return out;
  }
  for (size_t w = 0; w < u.words; ++w) out[w] &= ~template_text[w];
  return out;
}

// C_{k+1} (Apriori's join) from the kept k-sets: for each kept set a, in
// order, each later kept set b with the same first k-1 features, joined,
// when every k-subset of the join is kept; in that order, at most `cap`
// (then `*cap_hit`). Sets sharing a prefix are grouped first: comparing
// every pair was quadratic in the kept sets.
std::vector<std::vector<int>> JoinLevel(const std::vector<std::vector<int>>& kept, size_t cap, bool* cap_hit) {
  absl::flat_hash_set<std::vector<int>> kept_set(kept.begin(), kept.end());
  absl::flat_hash_map<std::vector<int>, std::vector<size_t>> by_prefix;
  for (size_t a = 0; a < kept.size(); ++a) by_prefix[std::vector<int>(kept[a].begin(), kept[a].end() - 1)].push_back(a);
  std::vector<std::vector<int>> out;
  std::vector<int> sub;
  for (size_t a = 0; a < kept.size() && !*cap_hit; ++a) {
    const std::vector<size_t>& group = by_prefix[std::vector<int>(kept[a].begin(), kept[a].end() - 1)];
    for (auto b = std::upper_bound(group.begin(), group.end(), a); b != group.end(); ++b) {
      std::vector<int> joined = kept[a];
      joined.push_back(kept[*b].back());
      std::sort(joined.begin(), joined.end());
      bool all_in = true;
      for (size_t drop = 0; drop < joined.size() && all_in; ++drop) {
        sub = joined;
        sub.erase(sub.begin() + static_cast<std::ptrdiff_t>(drop));
        all_in = kept_set.contains(sub);
      }
      if (!all_in) continue;
      out.push_back(std::move(joined));
      if (out.size() >= cap) {
        *cap_hit = true;
        break;
      }
    }
  }
  return out;
}

struct PreciseSet {
  std::vector<int> set;
  Score score;
  int fragility = 0;
};

// The best precise sets other than `chosen` whose selection differs.
std::vector<std::vector<rule::Feature>> Alternatives(std::vector<PreciseSet> sets, const std::vector<int>& chosen,
                                               const Bits& selected, const std::vector<const Bits*>& feature_bits,
                                               const std::vector<rule::Feature>& features, size_t words, size_t max) {
  std::stable_sort(sets.begin(), sets.end(), [](const PreciseSet& a, const PreciseSet& b) {
    return std::make_tuple(-a.score.support, a.score.spill, -static_cast<double>(a.score.tail), a.score.distance,
                           a.fragility) <
           std::make_tuple(-b.score.support, b.score.spill, -static_cast<double>(b.score.tail), b.score.distance,
                           b.fragility);
  });
  std::vector<std::vector<rule::Feature>> out;
  std::vector<Bits> seen = {selected};
  for (const PreciseSet& p : sets) {
    if (out.size() >= max) break;
    if (p.set == chosen) continue;
    std::vector<const Bits*> parts;
    for (int f : p.set) parts.push_back(feature_bits[f]);
    Bits bits = And(parts, words);
    if (std::find(seen.begin(), seen.end(), bits) != seen.end()) continue;
    seen.push_back(std::move(bits));
    std::vector<rule::Feature> fs;
    for (int f : p.set) fs.push_back(features[f]);
    out.push_back(std::move(fs));
  }
  return out;
}

}  // namespace

std::vector<rule::Feature> GenerateFeatures(const std::vector<rule::Candidate>& positives,
                                      const std::vector<size_t>& page_of, bool uniform_per_page) {
  std::vector<rule::Feature> out;
  if (positives.empty()) return out;
  const auto add_slot = [&](rule::Kind kind, int level, int index) {
    std::set<std::string> values;
    std::map<size_t, std::string> value_of_page;
    for (size_t i = 0; i < positives.size(); ++i) {
      std::string v;
      if (!positives[i].Value(kind, level, index, &v)) return;
      auto [it, inserted] = value_of_page.emplace(page_of[i], v);
      if (uniform_per_page && !inserted && it->second != v) return;
      values.insert(v);
    }
    const bool tag_kind = kind == rule::Kind::kTag || kind == rule::Kind::kPrecedingTag || kind == rule::Kind::kFollowingTag;
    if (tag_kind && !std::all_of(values.begin(), values.end(), IsTagName)) return;
    const bool attr_kind = kind == rule::Kind::kId || kind == rule::Kind::kClass || kind == rule::Kind::kPrecedingId ||
                           kind == rule::Kind::kPrecedingClass || kind == rule::Kind::kFollowingId || kind == rule::Kind::kFollowingClass;
    if (attr_kind) out.push_back({kind, level, index, {}});
    const bool anchor = kind >= rule::Kind::kOutLeftText;
    if (values.size() <= static_cast<size_t>(rule::kMaxDisjunction) && !(anchor && values.count(""))) {
      out.push_back({kind, level, index, std::vector<std::string>(values.begin(), values.end())});
    }
  };
  for (int level = 0; level <= rule::kMaxLevel; ++level) {
    for (rule::Kind k : {rule::Kind::kTag, rule::Kind::kId, rule::Kind::kClass}) add_slot(k, level, 0);
    for (int i = 1; i <= rule::kMaxSibling; ++i) {
      for (rule::Kind k : {rule::Kind::kPrecedingTag, rule::Kind::kPrecedingId, rule::Kind::kPrecedingClass, rule::Kind::kFollowingTag,
                     rule::Kind::kFollowingId, rule::Kind::kFollowingClass}) {
        add_slot(k, level, i);
      }
    }
  }
  for (rule::Kind k : {rule::Kind::kOutLeftText, rule::Kind::kOutLeftWord, rule::Kind::kOutRightText, rule::Kind::kOutRightWord}) add_slot(k, 0, 0);
  return out;
}

// ---- SampleIndex ----

struct SampleIndex::Impl {
  explicit Impl(std::vector<const html::Page*> p) : pages(std::move(p)) {}

  const PageTexts& Texts() {
    std::call_once(texts_once, [&] { texts.emplace(pages); });
    return *texts;
  }

  // The candidates of one node type, built on first use.
  const NodeSet& Nodes(bool text_nodes) {
    Slot& slot = slots[text_nodes];
    std::call_once(slot.once, [&] { Build(text_nodes, &slot.nodes); });
    return slot.nodes;
  }

  // Feature `f` on every candidate of Nodes(text_nodes) (which must have
  // been built), computed once per index: the two passes of LearnXPath and
  // the attributes share their features' bitsets.
  const Bits& FeatureBits(bool text_nodes, const rule::Feature& f) {
    Slot& slot = slots[text_nodes];
    const std::string key = FeatureKey(f);
    {
      absl::MutexLock lock(&slot.mu);
      if (auto it = slot.bits.find(key); it != slot.bits.end()) return *it->second;
    }
    auto bits = std::make_unique<Bits>(slot.nodes.words, 0);
    if (f.kind >= rule::Kind::kOutLeftText) {
      for (size_t i = 0; i < slot.nodes.candidates.size(); ++i) {
        if (slot.nodes.candidates[i].Holds(f)) Set(bits.get(), i);
      }
    } else {
      StructuralBits(slot, f, bits.get());
    }
    absl::MutexLock lock(&slot.mu);
    return *slot.bits.try_emplace(key, std::move(bits)).first->second;
  }

  const std::vector<const html::Page*> pages;

 private:
  // A structural slot's value (rule::Candidate::Value) on every candidate,
  // interned: -1 where the slot does not exist. Features of one slot with
  // other values (another attribute's tag or class at that level) then cost
  // an integer test per candidate.
  struct SlotValues {
    std::vector<int32_t> ids;
    absl::flat_hash_map<std::string, int32_t> intern;
  };

  struct Slot {
    std::once_flag once;
    NodeSet nodes;
    absl::Mutex mu;
    absl::flat_hash_map<std::string, std::unique_ptr<const Bits>> bits ABSL_GUARDED_BY(mu);
    absl::flat_hash_map<int, std::unique_ptr<const SlotValues>> values ABSL_GUARDED_BY(mu);
  };

  static bool IsAttributeKind(rule::Kind k) {
    return k == rule::Kind::kId || k == rule::Kind::kClass || k == rule::Kind::kPrecedingId ||
           k == rule::Kind::kPrecedingClass || k == rule::Kind::kFollowingId || k == rule::Kind::kFollowingClass;
  }

  // Candidate::Holds for a structural feature: its slot holds one of its
  // values or, with none, exists and is an attribute kind's.
  void StructuralBits(Slot& slot, const rule::Feature& f, Bits* bits) {
    const SlotValues& values = Values(slot, f);
    if (f.values.empty()) {
      if (!IsAttributeKind(f.kind)) return;
      for (size_t i = 0; i < values.ids.size(); ++i) {
        if (values.ids[i] >= 0) Set(bits, i);
      }
      return;
    }
    std::vector<int32_t> wanted;
    for (const std::string& v : f.values) {
      if (auto it = values.intern.find(v); it != values.intern.end()) wanted.push_back(it->second);
    }
    for (size_t i = 0; i < values.ids.size(); ++i) {
      if (values.ids[i] >= 0 && std::find(wanted.begin(), wanted.end(), values.ids[i]) != wanted.end()) Set(bits, i);
    }
  }

  const SlotValues& Values(Slot& slot, const rule::Feature& f) {
    const int key = (static_cast<int>(f.kind) * 64 + f.level) * 64 + f.index;
    {
      absl::MutexLock lock(&slot.mu);
      if (auto it = slot.values.find(key); it != slot.values.end()) return *it->second;
    }
    auto values = std::make_unique<SlotValues>();
    values->ids.reserve(slot.nodes.candidates.size());
    std::string v;
    for (const rule::Candidate& c : slot.nodes.candidates) {
      if (!c.Value(f.kind, f.level, f.index, &v)) {
        values->ids.push_back(-1);
        continue;
      }
      values->ids.push_back(values->intern.try_emplace(v, static_cast<int32_t>(values->intern.size())).first->second);
    }
    absl::MutexLock lock(&slot.mu);
    return *slot.values.try_emplace(key, std::move(values)).first->second;
  }

  static std::string FeatureKey(const rule::Feature& f) {
    std::string key = {static_cast<char>(f.kind), static_cast<char>(f.level), static_cast<char>(f.index)};
    for (const std::string& v : f.values) absl::StrAppend(&key, v.size(), ":", v);
    return key;
  }

  void Build(bool text_nodes, NodeSet* set) {
    for (const html::Page* page : pages) {
      set->page_begin.push_back(set->candidates.size());
      set->memos.push_back(std::make_unique<rule::AnchorMemo>());
      for (html::Node n : CandidateNodes(*page, text_nodes)) {
        const rule::Candidate& c = set->candidates.emplace_back(n, set->memos.back().get());
        c.left();
        c.right();
        if (text_nodes) c.text();
      }
    }
    set->page_begin.push_back(set->candidates.size());
    set->words = (set->candidates.size() + 63) / 64;
    set->template_text.assign(set->words, 0);
    const size_t n = Texts().pages();
    if (!text_nodes || n < 2) return;
    for (size_t i = 0; i < set->candidates.size(); ++i) {
      if (Texts().PagesWith(set->candidates[i].text()) == n) Set(&set->template_text, i);
    }
  }

  std::once_flag texts_once;
  std::optional<PageTexts> texts;
  Slot slots[2];  // [text_nodes]
};

SampleIndex::SampleIndex(std::vector<const html::Page*> pages) : impl_(std::make_unique<Impl>(std::move(pages))) {}

SampleIndex::~SampleIndex() = default;

std::vector<html::Node> SampleIndex::CandidatesForTesting(bool text_nodes) const {
  std::vector<html::Node> out;
  for (const rule::Candidate& c : impl_->Nodes(text_nodes).candidates) out.push_back(c.node());
  return out;
}

std::vector<bool> SampleIndex::FeatureForTesting(bool text_nodes, const rule::Feature& f) const {
  const size_t n = impl_->Nodes(text_nodes).candidates.size();
  const Bits& bits = impl_->FeatureBits(text_nodes, f);
  std::vector<bool> out;
  for (size_t i = 0; i < n; ++i) out.push_back(Test(bits, i));
  return out;
}

bool SampleIndex::Indexes(const std::vector<ExamplePage>& pages) const {
  if (pages.size() != impl_->pages.size()) return false;
  for (size_t p = 0; p < pages.size(); ++p) {
    if (pages[p].page != impl_->pages[p]) return false;
  }
  return true;
}

namespace {

// The alternatives of the rule learnt with all admissible anchors (`loose`,
// precise) for the rule learnt with template anchors only (`strict`):
// loose's winner when it differs from strict's, then loose's alternatives,
// leaving out strict's own feature set; at most `max`.
std::vector<std::vector<rule::Feature>> MergeAlternatives(const LearnedXPath& strict, const LearnedXPath& loose,
                                                         size_t max) {
  std::vector<std::vector<rule::Feature>> out;
  const auto add = [&](const std::vector<rule::Feature>& fs) {
    if (out.size() < max && fs != strict.features && std::find(out.begin(), out.end(), fs) == out.end()) {
      out.push_back(fs);
    }
  };
  add(loose.features);
  for (const std::vector<rule::Feature>& fs : loose.alternatives) add(fs);
  for (const std::vector<rule::Feature>& fs : strict.alternatives) add(fs);
  return out;
}

// What the two passes of LearnXPath share: the positives, their node type
// and the universe of candidates as the attribute sees them.
struct Prepared {
  std::vector<rule::Candidate> positive_candidates;
  std::vector<size_t> page_of;  // the page of each positive
  std::vector<html::Node> all_positive;
  bool text_nodes = false;
  std::optional<Universe> u;
};

// The universe's bits for the attribute of `pages`.
void MarkUniverse(const std::vector<ExamplePage>& pages, const XPathLearnOptions& options, Universe* u) {
  u->positive.assign(u->words, 0);
  u->annotated.assign(u->words, 0);
  u->valid.assign(u->words, 0);
  u->tail.assign(u->words, 0);
  u->spill.assign(u->words, 0);
  for (size_t p = 0; p < pages.size(); ++p) {
    for (size_t i = u->page_begin[p]; i < u->page_begin[p + 1]; ++i) {
      if (!options.value_filter || options.value_filter(*pages[p].page, u->candidates[i].node())) Set(&u->valid, i);
    }
  }
  for (size_t p = 0; p < pages.size(); ++p) {
    size_t judged_end = u->page_begin[p];  // past the last positive: the end of a partial page's judged nodes
    for (size_t i = u->page_begin[p]; i < u->page_begin[p + 1]; ++i) {
      if (std::find(pages[p].positives.begin(), pages[p].positives.end(), u->candidates[i].node()) !=
          pages[p].positives.end()) {
        Set(&u->positive, i);
        judged_end = i + 1;
      }
    }
    if (!pages[p].partial) judged_end = u->page_begin[p + 1];
    for (size_t i = u->page_begin[p]; i < judged_end; ++i) {
      if (pages[p].annotated) Set(&u->annotated, i);
    }
    // One labelled value shows no container (its own node is not the list's):
    // its page's tail stays out of the tie-break.
    if (pages[p].positives.size() < 2) continue;
    // The tail is what the list's unlabelled records hold: nodes inside the
    // container at a labelled value's place in its record; the container's
    // other nodes after the list (a pager's "Older", "« Newer") spill.
    const html::Node container = CommonAncestor(pages[p].positives);
    std::set<std::string> record_paths;
    for (html::Node n : pages[p].positives) record_paths.insert(PathBelow(n, container));
    for (size_t i = judged_end; i < u->page_begin[p + 1]; ++i) {
      if (!Test(u->valid, i)) continue;
      const html::Node n = u->candidates[i].node();
      Set(IsInside(n, container) && record_paths.count(PathBelow(n, container)) ? &u->tail : &u->spill, i);
    }
  }
}

absl::StatusOr<Prepared> Prepare(const std::vector<ExamplePage>& pages, const XPathLearnOptions& options,
                                 SampleIndex::Impl& index) {
  // Positives and their node type.
  Prepared out;
  int texts = 0, elements = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    for (html::Node n : pages[p].positives) {
      (n.is_text() ? texts : elements)++;
      out.positive_candidates.emplace_back(n);
      out.page_of.push_back(p);
    }
  }
  if (out.positive_candidates.empty()) return absl::InvalidArgumentError("no annotated node to learn from");
  if (texts && elements) return absl::InvalidArgumentError("annotated nodes mix text nodes and elements");
  out.text_nodes = texts > 0;
  // The universe of candidate nodes, page by page.
  for (const ExamplePage& p : pages) {
    out.all_positive.insert(out.all_positive.end(), p.positives.begin(), p.positives.end());
  }
  Universe& u = out.u.emplace(index.Nodes(out.text_nodes));
  MarkUniverse(pages, options, &u);
  if (CountAnd(u.positive, u.positive) != out.all_positive.size()) {
    return absl::InvalidArgumentError("an annotated node is blank text or inside script/style");
  }
  u.supporting = TemplateValues(u);
  return out;
}

// Algorithm 3 over the anchors `texts` admits (AnchorFilter). Sets
// `*template_refused` when template admission left out an anchor that the
// refusal of annotated values alone would keep.
absl::StatusOr<LearnedXPath> LearnXPathOnce(const std::vector<ExamplePage>& pages, const XPathLearnOptions& options,
                                            SampleIndex::Impl& index, const Prepared& prep, bool template_only,
                                            bool* template_refused) {
  const std::vector<rule::Candidate>& positive_candidates = prep.positive_candidates;
  const std::vector<html::Node>& all_positive = prep.all_positive;
  const bool text_nodes = prep.text_nodes;
  const Universe& u = *prep.u;
  const PageTexts& page_texts = index.Texts();
  LearnedXPath result;
  std::vector<rule::Feature> features = GenerateFeatures(positive_candidates, prep.page_of, options.multi_valued);
  const AnchorFilter anchors(options.refused_anchor_texts, page_texts, /*template_only=*/false);
  const AnchorFilter template_anchors(options.refused_anchor_texts, page_texts, template_only);
  std::erase_if(features, [&](const rule::Feature& f) { return IsAnchorKind(f.kind) && !anchors.Admits(f); });
  const size_t before = features.size();
  std::erase_if(features, [&](const rule::Feature& f) { return IsAnchorKind(f.kind) && !template_anchors.Admits(f); });
  *template_refused = features.size() < before;
  result.feature_count = features.size();
  if (features.empty()) return absl::FailedPreconditionError("no feature holds for every annotated node");
  std::vector<const Bits*> feature_bits;
  for (const rule::Feature& f : features) feature_bits.push_back(&index.FeatureBits(text_nodes, f));
  const Evaluator eval(u, pages, options.multi_valued);
  // A text node that is the whole text of its parent element is, for a
  // reader, that element: its parent's features (level 1) are as near as its
  // own. Otherwise a one-page rule anchors on neighbouring texts (level 0)
  // rather than on the class of the value's own element, and breaks when
  // an ad block is inserted next to it.
  bool own_element = !all_positive.empty();
  for (const html::Node& n : all_positive) {
    own_element = own_element && n.is_text() && n.parent() && n.parent().Text() == n.Text();
  }
  const auto distance_of = [&](const std::vector<int>& set) {
    int d = 0;
    for (int f : set) d = std::max(d, own_element ? std::max(0, features[f].level - 1) : features[f].level);
    return d;
  };
  std::vector<int> fragility(features.size());
  for (size_t f = 0; f < features.size(); ++f) {
    fragility[f] = Fragility(features[f], IsLongAnchor(features[f], positive_candidates));
  }
  const auto fragility_of = [&](const std::vector<int>& set) {
    int c = 0;
    for (int f : set) c += fragility[f];
    return c;
  };

  // Algorithm 3.
  std::vector<std::vector<int>> candidates;
  for (size_t f = 0; f < features.size(); ++f) candidates.push_back({static_cast<int>(f)});
  int min_dist = INT32_MAX, min_fragility = INT32_MAX;
  size_t max_tail = 0, min_spill = SIZE_MAX;
  std::vector<PreciseSet> precise_sets;
  double max_sup = 0, max_prec = 0;
  std::vector<int> best, max_prec_set;
  for (int k = 1; !candidates.empty() && k <= options.max_features; ++k) {
    std::vector<std::vector<int>> next_level;
    std::vector<Score> next_scores;
    for (const std::vector<int>& set : candidates) {
      std::vector<const Bits*> parts;
      for (int f : set) parts.push_back(feature_bits[f]);
      const Score s = eval.Evaluate(And(parts, u.words), distance_of(set));
      ++result.sets_evaluated;
      if (!s.recall1) continue;
      const int fragility = fragility_of(set);
      // Ties on (precision,) support, spill, tail and distance go to the
      // sturdier set.
      const bool better_tie =
          s.support == max_sup && std::make_tuple(s.spill, -static_cast<double>(s.tail), s.distance, fragility) <
                                      std::make_tuple(min_spill, -static_cast<double>(max_tail), min_dist, min_fragility);
      if (!s.precise) {
        next_level.push_back(set);
        next_scores.push_back(s);
        if (best.empty() && (s.precision > max_prec || (s.precision == max_prec && s.support > max_sup) ||
                             (s.precision == max_prec && better_tie))) {
          max_prec = s.precision, max_prec_set = set, min_dist = s.distance, max_sup = s.support;
          min_fragility = fragility, max_tail = s.tail, min_spill = s.spill;
        }
      } else {
        precise_sets.push_back({set, s, fragility});
        if (best.empty() || s.support > max_sup || better_tie) {
          best = set, min_dist = s.distance, max_sup = s.support, max_prec = 1, min_fragility = fragility;
          max_tail = s.tail, min_spill = s.spill;
        }
      }
    }
    // No level past max_features is evaluated: building it would only waste
    // time and report a cap that cut nothing.
    if (k == options.max_features) break;
    // Prune sets that cannot beat the best precise XPath: adding features
    // only lowers support and tail, raises distance and adds fragility. It
    // may lower the spill too: nothing is pruned on it while the best spills.
    std::vector<std::vector<int>> kept;
    for (size_t i = 0; i < next_level.size(); ++i) {
      const Score& s = next_scores[i];
      const bool dominated =
          s.support < max_sup ||
          (s.support == max_sup && min_spill == 0 &&
           std::make_tuple(-static_cast<double>(s.tail), s.distance, fragility_of(next_level[i])) >=
               std::make_tuple(-static_cast<double>(max_tail), min_dist, min_fragility));
      if (!best.empty() && dominated) continue;
      kept.push_back(next_level[i]);
    }
    candidates = JoinLevel(kept, options.max_candidates_per_level, &result.cap_hit);
  }

  const std::vector<int>& chosen = best.empty() ? max_prec_set : best;
  if (chosen.empty()) return absl::FailedPreconditionError("no XPath selects every annotated node");
  std::vector<const Bits*> parts;
  for (int f : chosen) {
    result.features.push_back(features[f]);
    parts.push_back(feature_bits[f]);
  }
  const Bits selected = And(parts, u.words);
  result.alternatives = Alternatives(precise_sets, chosen, selected, feature_bits, features, u.words,
                                     options.max_alternatives);
  const Score s = eval.Evaluate(selected, distance_of(chosen));
  result.precision = s.precision;
  result.support = s.support;
  result.distance = s.distance;
  result.precise = s.precise;
  result.xpath = rule::RenderXPath(result.features, text_nodes);

  // The features' native evaluation (what the engine runs) must select on
  // every page exactly what the bitset says; the XPath rendering is checked
  // against libxml2 by the caller (rule_learner.cc) on some of the pages.
  const rule::FeatureSelector native(result.features, text_nodes, v1::Position());
  for (size_t p = 0; p < pages.size(); ++p) {
    std::vector<html::Node> expected;
    for (size_t i = u.page_begin[p]; i < u.page_begin[p + 1]; ++i) {
      if (Test(selected, i)) expected.push_back(u.candidates[i].node());
    }
    std::vector<html::Node> got;
    for (html::Node n : native.Select(*pages[p].page)) {
      if (rule::IsValueCandidate(n)) got.push_back(n);
    }
    if (got != expected) {
      return absl::InternalError("XPath " + result.xpath + " selects " + std::to_string(got.size()) +
                                 " nodes on page " + pages[p].page->url() + " where its features select " +
                                 std::to_string(expected.size()));
    }
  }
  return result;
}

}  // namespace

std::vector<html::Node> JudgedNodes(const ExamplePage& page, std::vector<html::Node> nodes) {
  if (!page.partial || page.positives.empty() || nodes.empty()) return nodes;
  const absl::flat_hash_map<const void*, size_t> rank = html::PreorderRanks(*page.page);
  size_t last = 0;
  for (html::Node n : page.positives) {
    if (auto it = rank.find(n.raw()); it != rank.end()) last = std::max(last, it->second);
  }
  std::erase_if(nodes, [&](html::Node n) {
    auto it = rank.find(n.raw());
    return it == rank.end() || it->second > last;
  });
  return nodes;
}

absl::StatusOr<LearnedXPath> LearnXPath(const std::vector<ExamplePage>& pages, const XPathLearnOptions& options,
                                        const SampleIndex* index) {
  std::optional<SampleIndex> own;
  if (index == nullptr) {
    std::vector<const html::Page*> of;
    for (const ExamplePage& p : pages) of.push_back(p.page);
    index = &own.emplace(std::move(of));
  } else if (!index->Indexes(pages)) {
    return absl::InvalidArgumentError("the sample index was built from other pages than the ones to learn from");
  }
  absl::StatusOr<Prepared> prep = Prepare(pages, options, *index->impl_);
  if (!prep.ok()) return prep.status();
  bool template_refused = false;
  absl::StatusOr<LearnedXPath> strict =
      LearnXPathOnce(pages, options, *index->impl_, *prep, /*template_only=*/true, &template_refused);
  if (!template_refused) return strict;
  bool unused = false;
  absl::StatusOr<LearnedXPath> loose =
      LearnXPathOnce(pages, options, *index->impl_, *prep, /*template_only=*/false, &unused);
  if (!loose.ok()) return strict;
  if (strict.ok() && strict->precise) {
    // The anchors left out still tell where the annotated pages leave the
    // value's place open: their precise sets stay alternatives.
    if (loose->precise) strict->alternatives = MergeAlternatives(*strict, *loose, options.max_alternatives);
    return strict;
  }
  // No precise rule from template anchors alone. The labels of a layout
  // variant shown by a minority of the sample pages ("Published:" on the
  // list-layout pages, "Publication date" on the table pages) are template
  // text of that variant; once both variants are annotated only their
  // disjunction is precise. Anchors that are not annotated values are then
  // allowed, and win when they give a precise rule.
  if (loose->precise || !strict.ok()) return loose;
  return strict;
}

}  // namespace vertex::learn
