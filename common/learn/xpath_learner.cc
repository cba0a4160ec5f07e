#include "common/learn/xpath_learner.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
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

struct Universe {
  // One anchor memo per page, shared by the page's candidates: a memo per
  // candidate would walk to the nearest text afresh for each (and allocate
  // its maps), the learner's largest cost after the feature tests.
  std::vector<std::unique_ptr<rule::AnchorMemo>> memos;
  std::vector<rule::Candidate> candidates;
  std::vector<size_t> page_begin;  // candidates of page p: [page_begin[p], page_begin[p+1])
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
  size_t words = 0;
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

struct Evaluator {
  const Universe& u;
  const std::vector<ExamplePage>& pages;
  bool multi_valued;

  Score Evaluate(const Bits& sel, int distance) const {
    Score s;
    s.distance = distance;
    const size_t pos = CountAnd(sel, u.positive);
    s.recall1 = pos == CountAnd(u.positive, u.positive);
    const size_t chosen = CountAnd(sel, u.annotated);
    s.precision = chosen ? static_cast<double>(pos) / chosen : 0;
    size_t unannotated = 0, supported = 0;
    bool many = false;
    for (size_t p = 0; p < pages.size(); ++p) {
      if (pages[p].annotated) continue;
      ++unannotated;
      size_t hits = 0;
      bool supporting = false;
      for (size_t i = u.page_begin[p]; i < u.page_begin[p + 1] && hits < 2; ++i) {
        hits += Test(sel, i) && Test(u.valid, i);
        supporting |= Test(sel, i) && Test(u.supporting, i);
      }
      supported += supporting;
      many |= hits > 1;
    }
    s.support = unannotated ? static_cast<double>(supported) / unannotated : 0;
    s.tail = CountAnd(sel, u.tail);
    s.spill = CountAnd(sel, u.spill);
    s.precise = s.recall1 && pos == chosen && (multi_valued || !many);
    return s;
  }
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
  explicit PageTexts(const std::vector<ExamplePage>& pages) : pages_(pages.size()) {
    for (const ExamplePage& p : pages) CountPage(*p.page);
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
Bits TemplateValues(const Universe& u, const PageTexts& texts) {
  Bits out = u.valid;
  const size_t n = texts.pages();
  if (n < 2) return out;
  const auto is_template = [&](size_t i) {
    return u.candidates[i].node().is_text() && texts.PagesWith(u.candidates[i].text()) == n;
  };
  for (size_t i = 0; i < u.candidates.size(); ++i) {
    if (Test(u.positive, i) && is_template(i)) return out;
  }
  for (size_t i = 0; i < u.candidates.size(); ++i) {
    if (is_template(i)) out[i / 64] &= ~(uint64_t{1} << (i % 64));
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
                                               const Bits& selected, const std::vector<Bits>& feature_bits,
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
    for (int f : p.set) parts.push_back(&feature_bits[f]);
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

// Algorithm 3 over the anchors `texts` admits (AnchorFilter). Sets
// `*template_refused` when template admission left out an anchor that the
// refusal of annotated values alone would keep.
absl::StatusOr<LearnedXPath> LearnXPathOnce(const std::vector<ExamplePage>& pages, const XPathLearnOptions& options,
                                            const PageTexts& page_texts, bool template_only, bool* template_refused) {
  // Positives and their node type.
  std::vector<rule::Candidate> positive_candidates;
  std::vector<size_t> page_of;
  int texts = 0, elements = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    for (html::Node n : pages[p].positives) {
      (n.is_text() ? texts : elements)++;
      positive_candidates.emplace_back(n);
      page_of.push_back(p);
    }
  }
  if (positive_candidates.empty()) return absl::InvalidArgumentError("no annotated node to learn from");
  if (texts && elements) return absl::InvalidArgumentError("annotated nodes mix text nodes and elements");
  const bool text_nodes = texts > 0;

  // The universe of candidate nodes, page by page.
  Universe u;
  std::vector<html::Node> all_positive;
  for (const ExamplePage& p : pages) all_positive.insert(all_positive.end(), p.positives.begin(), p.positives.end());
  for (const ExamplePage& p : pages) {
    u.page_begin.push_back(u.candidates.size());
    u.memos.push_back(std::make_unique<rule::AnchorMemo>());
    for (html::Node n : CandidateNodes(*p.page, text_nodes)) u.candidates.emplace_back(n, u.memos.back().get());
  }
  u.page_begin.push_back(u.candidates.size());
  u.words = (u.candidates.size() + 63) / 64;
  u.positive.assign(u.words, 0);
  u.annotated.assign(u.words, 0);
  u.valid.assign(u.words, 0);
  u.tail.assign(u.words, 0);
  u.spill.assign(u.words, 0);
  for (size_t p = 0; p < pages.size(); ++p) {
    for (size_t i = u.page_begin[p]; i < u.page_begin[p + 1]; ++i) {
      if (!options.value_filter || options.value_filter(*pages[p].page, u.candidates[i].node())) Set(&u.valid, i);
    }
  }
  for (size_t p = 0; p < pages.size(); ++p) {
    size_t judged_end = u.page_begin[p];  // past the last positive: the end of a partial page's judged nodes
    for (size_t i = u.page_begin[p]; i < u.page_begin[p + 1]; ++i) {
      if (std::find(pages[p].positives.begin(), pages[p].positives.end(), u.candidates[i].node()) !=
          pages[p].positives.end()) {
        Set(&u.positive, i);
        judged_end = i + 1;
      }
    }
    if (!pages[p].partial) judged_end = u.page_begin[p + 1];
    for (size_t i = u.page_begin[p]; i < judged_end; ++i) {
      if (pages[p].annotated) Set(&u.annotated, i);
    }
    // One labelled value shows no container (its own node is not the list's):
    // its page's tail stays out of the tie-break.
    if (pages[p].positives.size() < 2) continue;
    const html::Node container = CommonAncestor(pages[p].positives);
    for (size_t i = judged_end; i < u.page_begin[p + 1]; ++i) {
      if (Test(u.valid, i)) Set(IsInside(u.candidates[i].node(), container) ? &u.tail : &u.spill, i);
    }
  }
  if (CountAnd(u.positive, u.positive) != all_positive.size()) {
    return absl::InvalidArgumentError("an annotated node is blank text or inside script/style");
  }

  LearnedXPath result;
  std::vector<rule::Feature> features = GenerateFeatures(positive_candidates, page_of, options.multi_valued);
  const AnchorFilter anchors(options.refused_anchor_texts, page_texts, /*template_only=*/false);
  const AnchorFilter template_anchors(options.refused_anchor_texts, page_texts, template_only);
  u.supporting = TemplateValues(u, page_texts);
  std::erase_if(features, [&](const rule::Feature& f) { return IsAnchorKind(f.kind) && !anchors.Admits(f); });
  const size_t before = features.size();
  std::erase_if(features, [&](const rule::Feature& f) { return IsAnchorKind(f.kind) && !template_anchors.Admits(f); });
  *template_refused = features.size() < before;
  result.feature_count = features.size();
  if (features.empty()) return absl::FailedPreconditionError("no feature holds for every annotated node");
  std::vector<Bits> feature_bits(features.size(), Bits(u.words, 0));
  for (size_t f = 0; f < features.size(); ++f) {
    for (size_t i = 0; i < u.candidates.size(); ++i) {
      if (u.candidates[i].Holds(features[f])) Set(&feature_bits[f], i);
    }
  }
  const Evaluator eval{u, pages, options.multi_valued};
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
      for (int f : set) parts.push_back(&feature_bits[f]);
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
    // C_{k+1}: (k+1)-sets all of whose k-subsets are kept.
    std::set<std::vector<int>> kept_set(kept.begin(), kept.end());
    candidates.clear();
    for (size_t a = 0; a < kept.size() && !result.cap_hit; ++a) {
      for (size_t b = a + 1; b < kept.size(); ++b) {
        if (!std::equal(kept[a].begin(), kept[a].end() - 1, kept[b].begin())) continue;
        std::vector<int> joined = kept[a];
        joined.push_back(kept[b].back());
        std::sort(joined.begin(), joined.end());
        bool all_in = true;
        for (size_t drop = 0; drop < joined.size() && all_in; ++drop) {
          std::vector<int> sub = joined;
          sub.erase(sub.begin() + drop);
          all_in = kept_set.count(sub) > 0;
        }
        if (!all_in) continue;
        candidates.push_back(std::move(joined));
        if (candidates.size() >= options.max_candidates_per_level) {
          result.cap_hit = true;
          break;
        }
      }
    }
  }

  const std::vector<int>& chosen = best.empty() ? max_prec_set : best;
  if (chosen.empty()) return absl::FailedPreconditionError("no XPath selects every annotated node");
  std::vector<const Bits*> parts;
  for (int f : chosen) {
    result.features.push_back(features[f]);
    parts.push_back(&feature_bits[f]);
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

absl::StatusOr<LearnedXPath> LearnXPath(const std::vector<ExamplePage>& pages, const XPathLearnOptions& options) {
  const PageTexts texts(pages);
  bool template_refused = false;
  absl::StatusOr<LearnedXPath> strict = LearnXPathOnce(pages, options, texts, /*template_only=*/true, &template_refused);
  if (!template_refused) return strict;
  bool unused = false;
  absl::StatusOr<LearnedXPath> loose = LearnXPathOnce(pages, options, texts, /*template_only=*/false, &unused);
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
