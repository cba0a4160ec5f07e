#include "common/learn/record_learner.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <libxml/xpath.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/learn/range_learner.h"
#include "common/learn/xpath_learner.h"
#include "common/rule/features.h"
#include "common/rule/url.h"

namespace vertex::learn {
namespace {

// Element children of `n`, in order.
std::vector<html::Node> ElementChildren(html::Node n) {
  std::vector<html::Node> out;
  for (html::Node c = n.first_child(); c; c = c.next_sibling()) {
    if (c.is_element()) out.push_back(c);
  }
  return out;
}

std::string Tag(html::Node n) { return std::string(n.tag()); }

// "html/body/div/ul": the tags from the root element down to `n`.
std::string RootTagPath(html::Node n) {
  std::vector<std::string> tags;
  for (html::Node a = n; a; a = a.parent()) tags.push_back(Tag(a));
  std::reverse(tags.begin(), tags.end());
  return absl::StrJoin(tags, "/");
}

// The structural XPath of an area root: its tags from the root element,
// each with its class attribute when it has one.
std::string StructuralPath(html::Node n) {
  std::vector<std::string> steps;
  for (html::Node a = n; a; a = a.parent()) {
    std::string step(a.tag());
    if (a.has_attribute("class")) {
      absl::StrAppend(&step, "[@class=", rule::XPathLiteral(a.attribute("class")), "]");
    }
    steps.push_back(std::move(step));
  }
  std::reverse(steps.begin(), steps.end());
  return "/" + absl::StrJoin(steps, "/");
}

// "[contains(concat(' ', normalize-space(@class), ' '), ' listing ')]" for
// each class token every record start of `area` has; "" when none.
std::string CommonClassPredicate(const amber::DataArea& area) {
  std::set<std::string> common;
  bool first = true;
  for (const amber::Record& r : area.records) {
    std::set<std::string> tokens;
    for (absl::string_view t : absl::StrSplit(r.nodes[0].attribute("class"), ' ', absl::SkipEmpty())) {
      tokens.insert(std::string(t));
    }
    if (first) {
      common = std::move(tokens);
      first = false;
    } else {
      std::set<std::string> both;
      for (const std::string& t : common) {
        if (tokens.count(t)) both.insert(t);
      }
      common = std::move(both);
    }
  }
  std::string out;
  for (const std::string& t : common) {
    absl::StrAppend(&out, "[contains(concat(' ', normalize-space(@class), ' '), ", rule::XPathLiteral(" " + t + " "),
                    ")]");
  }
  return out;
}

// "span[contains(concat(' ', normalize-space(@class), ' '), ' price ')]...":
// the element's tag with a test per class token.
std::string ClassStep(html::Node n) {
  std::string out(n.tag());
  for (absl::string_view t : absl::StrSplit(n.attribute("class"), ' ', absl::SkipEmpty())) {
    absl::StrAppend(&out, "[contains(concat(' ', normalize-space(@class), ' '), ",
                    rule::XPathLiteral(absl::StrCat(" ", t, " ")), ")]");
  }
  return out;
}

std::string AreaKey(const amber::DataArea& area) {
  std::string start_tag = area.records.empty() || area.records[0].nodes.empty() ? std::string()
                                                                                : Tag(area.records[0].nodes[0]);
  return absl::StrCat(RootTagPath(area.root), " len ", area.record_length, " start ", start_tag);
}

bool IsUrlType(const v1::AttributeSchema& a) { return a.type() == "url" || a.type() == "image"; }

// The candidate XPath's precision and recall against the expected starts
// on the analysed pages.
struct Score {
  double precision = 0;
  double recall = 0;
  double F1() const { return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0; }
};

absl::StatusOr<Score> ScoreXPath(const std::string& xpath, const std::vector<const html::Page*>& pages,
                                 const std::vector<std::set<xmlNode*>>& expected) {
  absl::StatusOr<html::XPath> x = html::XPath::Compile(xpath);
  if (!x.ok()) return x.status();
  size_t selected = 0, right = 0, wanted = 0;
  for (size_t i = 0; i < pages.size(); ++i) {
    absl::StatusOr<std::vector<html::Node>> nodes = x->Select(*pages[i]);
    if (!nodes.ok()) return nodes.status();
    selected += nodes->size();
    for (html::Node n : *nodes) right += expected[i].count(n.raw());
    wanted += expected[i].size();
  }
  Score s;
  s.precision = selected ? static_cast<double>(right) / selected : 0;
  s.recall = wanted ? static_cast<double>(right) / wanted : 0;
  return s;
}

}  // namespace

std::string RelativeTagPath(html::Node start, html::Node node) {
  if (!start.is_element() || !node) return "";
  if (!node.is_element()) node = node.parent();
  // The chain from node up to start's parent's child level.
  std::vector<html::Node> chain;
  html::Node top = node;
  for (; top && !(top.parent() == start.parent()); top = top.parent()) chain.push_back(top);
  if (!top) return "";
  chain.push_back(top);
  std::reverse(chain.begin(), chain.end());  // chain[0]: a sibling of start (or start)
  std::string path = absl::StrCat("self::", Tag(start));
  // Top level: next-sibling steps from start to chain[0].
  html::Node at = start;
  while (!(at == chain[0])) {
    at = at.next_element_sibling();
    if (!at) return "";  // chain[0] precedes start
    absl::StrAppend(&path, "/following-sibling::*[1][self::", Tag(at), "]");
  }
  for (size_t k = 1; k < chain.size(); ++k) {
    // From chain[k-1] to its child chain[k]: first-child, then next-sibling
    // steps.
    html::Node c = chain[k - 1].first_element_child();
    if (!c) return "";
    absl::StrAppend(&path, "/*[1][self::", Tag(c), "]");
    while (!(c == chain[k])) {
      c = c.next_element_sibling();
      if (!c) return "";
      absl::StrAppend(&path, "/following-sibling::*[1][self::", Tag(c), "]");
    }
  }
  return path;
}

absl::StatusOr<RecordLearnResult> LearnRecordRule(const schema::CompiledSchema& schema,
                                                  const std::vector<RecordPage>& pages, const std::string& source) {
  RecordLearnResult result;
  // 1. Vote on the area keys, one vote per page.
  std::map<std::string, size_t> votes;
  size_t analysed = 0;
  for (const RecordPage& p : pages) {
    if (p.typing == nullptr) continue;
    ++analysed;
    std::set<std::string> keys;
    for (const amber::DataArea& a : p.typing->areas) {
      if (!a.records.empty()) keys.insert(AreaKey(a));
    }
    for (const std::string& k : keys) ++votes[k];
  }
  if (votes.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no data area with records on any of the ", analysed, " analysed pages"));
  }
  // The main area's key (most pages) gives the record length; an area on
  // fewer pages is kept when its records have that length and it is on at
  // least kMinAreaShare of the pages and two of them (a featured block on
  // some pages); an area on one page is a segmentation the others refute.
  std::string main_key;
  size_t best_votes = 0;
  for (const auto& [key, n] : votes) {
    if (n > best_votes) {
      best_votes = n;
      main_key = key;
    }
  }
  const auto length_of = [](const std::string& key) {
    const size_t at = key.rfind(" len ");  // the key ends "len N start T"
    return std::atoi(key.c_str() + at + 5);
  };
  const int record_length = length_of(main_key);
  std::set<std::string> kept;
  for (const auto& [key, n] : votes) {
    const bool keep = key == main_key || (length_of(key) == record_length && n >= 2 &&
                                          static_cast<double>(n) >= kMinAreaShare * static_cast<double>(analysed));
    if (keep) kept.insert(key);
    result.notes.push_back(absl::StrFormat("area %s: on %d of %d pages%s", key, n, analysed,
                                           keep ? "" : " (dropped: on too few pages, or another record length)"));
  }
  if (2 * best_votes < analysed) {
    return absl::FailedPreconditionError(absl::StrCat("no data area is on half of the ", analysed,
                                                      " analysed pages: the pages disagree (", votes.size(),
                                                      " different areas)"));
  }

  // 2. The record XPath, from the kept areas' starts.
  std::vector<ExamplePage> examples;
  std::vector<const html::Page*> scored_pages;
  std::vector<std::set<xmlNode*>> expected;
  std::vector<std::string> structural;
  std::set<std::string> seen_structural;
  std::vector<std::string> values;
  // Per attribute: tag path -> the record starts it was typed in (page,
  // start), and the (node text, value) of its annotated nodes.
  struct Occurrence {
    const html::Page* page;
    html::Node start;
    html::Node node;  // the typed element
  };
  std::vector<std::map<std::string, std::vector<Occurrence>>> paths(schema.size());
  std::vector<std::map<std::string, std::vector<RangeExample>>> ranges(schema.size());
  size_t records = 0, agreeing = 0;
  for (const RecordPage& p : pages) {
    ExamplePage e;
    e.page = p.page;
    if (p.typing != nullptr) {
      std::set<xmlNode*> starts;
      for (const amber::DataArea& a : p.typing->areas) {
        if (a.records.empty() || !kept.count(AreaKey(a))) continue;
        if (seen_structural.insert(StructuralPath(a.root)).second) {
          structural.push_back(absl::StrCat(StructuralPath(a.root), "/", Tag(a.records[0].nodes[0]),
                                            CommonClassPredicate(a)));
        }
        for (const amber::Record& r : a.records) {
          e.positives.push_back(r.nodes[0]);
          starts.insert(r.nodes[0].raw());
          ++records;
          for (const amber::AttributeMatch& m : r.attributes) {
            if (m.attribute < 0 || static_cast<size_t>(m.attribute) >= schema.size()) continue;
            std::string path = m.tag_path.empty() ? RelativeTagPath(r.nodes[0], m.node) : m.tag_path;
            if (path.empty()) continue;
            paths[m.attribute][path].push_back({p.page, r.nodes[0], m.node});
            if (values.size() < 2000 && !m.value.empty()) values.push_back(m.value);
            std::vector<RangeExample>& examples = ranges[m.attribute][path];
            if (m.annotated && !m.value.empty() && examples.size() < 200) {
              std::string text = m.node.Text();
              if (text.find(m.value) != std::string::npos) examples.push_back({std::move(text), m.value});
            }
          }
        }
      }
      e.annotated = !starts.empty();
      if (e.annotated) {
        ++agreeing;
        scored_pages.push_back(p.page);
        expected.push_back(std::move(starts));
      }
    }
    examples.push_back(std::move(e));
  }
  XPathLearnOptions options;
  options.multi_valued = true;
  options.refused_anchor_texts = values;
  std::string xpath;
  Score score;
  absl::StatusOr<LearnedXPath> learnt = LearnXPath(examples, options);
  if (learnt.ok()) {
    absl::StatusOr<Score> s = ScoreXPath(learnt->xpath, scored_pages, expected);
    if (s.ok()) {
      xpath = learnt->xpath;
      score = *s;
      result.notes.push_back(absl::StrFormat("record XPath learnt by Algorithm 3: %s (precision %.4f, recall %.4f, "
                                             "support %.2f)",
                                             xpath, score.precision, score.recall, learnt->support));
    }
  } else {
    result.notes.push_back(absl::StrCat("Algorithm 3 learnt no record XPath: ", learnt.status().message()));
  }
  if (score.precision < 1 || score.recall < 1) {
    std::vector<std::string> alternatives;
    std::string uni = absl::StrJoin(structural, " | ");
    alternatives.push_back(uni);
    if (record_length > 1) {
      std::vector<std::string> strided;
      for (const std::string& s : structural) {
        strided.push_back(absl::StrCat(s, "[position() mod ", record_length, " = 1]"));
      }
      alternatives.push_back(absl::StrJoin(strided, " | "));
    }
    for (const std::string& alt : alternatives) {
      absl::StatusOr<Score> s = ScoreXPath(alt, scored_pages, expected);
      if (!s.ok()) continue;
      result.notes.push_back(absl::StrFormat("structural candidate %s: precision %.4f, recall %.4f", alt,
                                             s->precision, s->recall));
      // AMBER's starts are not all right (a noise sibling taken as a record
      // on one page): the better F1 against them wins, not recall 1.
      if (s->F1() > score.F1()) {
        xpath = alt;
        score = *s;
        result.notes.push_back(absl::StrFormat("structural record XPath %s (precision %.4f, recall %.4f)", alt,
                                               score.precision, score.recall));
      }
    }
  }
  if (xpath.empty() || score.recall < kMinRecordXPathRecall) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "no XPath selects %.0f%% of the record starts of the %d agreeing pages (%d records; best: %s, recall %.4f)",
        100 * kMinRecordXPathRecall, agreeing, records, xpath.empty() ? "none" : xpath, score.recall));
  }
  result.precision = score.precision;
  result.recall = score.recall;
  v1::RecordRule& rule = result.rule;
  rule.set_record_xpath(xpath);
  rule.set_record_length(record_length);
  rule.set_source(source);
  rule.set_pages_analysed(static_cast<uint32_t>(analysed));
  rule.set_pages_agreeing(static_cast<uint32_t>(agreeing));

  // 3. Attributes.
  for (size_t i = 0; i < schema.size(); ++i) {
    const v1::AttributeSchema& attr = schema.attribute(i);
    if (paths[i].empty()) {
      result.notes.push_back(absl::StrCat(attr.name(), ": in no record"));
      continue;
    }
    std::vector<std::pair<size_t, std::string>> ranked;
    size_t total = 0;
    for (const auto& [path, where] : paths[i]) {
      ranked.push_back({where.size(), path});
      total += where.size();
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    // A secondary path joins only where it stands in for the main one: in
    // no record it was typed in does the main path select a node too (there
    // it is a second occurrence, e.g. a struck-through old price the typing
    // took because it came first, which the union would then prefer).
    std::vector<std::string> chosen = {ranked[0].second};
    size_t covered = ranked[0].first;
    absl::StatusOr<html::XPath> main_path = html::XPath::Compile(ranked[0].second);
    size_t conflicting = 0;
    for (size_t k = 1; k < ranked.size() && main_path.ok(); ++k) {
      if (ranked[k].first < 2 || ranked[k].first < kMinAlternativeShare * total) continue;
      bool conflict = false;
      for (const Occurrence& o : paths[i][ranked[k].second]) {
        absl::StatusOr<std::vector<html::Node>> got = main_path->Select(*o.page, o.start);
        if (got.ok() && !got->empty()) {
          conflict = true;
          break;
        }
      }
      if (conflict) {
        ++conflicting;
        continue;
      }
      chosen.push_back(ranked[k].second);
      covered += ranked[k].first;
    }
    // The typed nodes' class: a path by class from the record start
    // ("descendant-or-self::li[...' bedrooms '...]") does not move when an
    // optional sibling before the value is missing, as a positional tag
    // path does, nor land on the next sibling where the value is missing.
    // It replaces the tag paths when it agrees with the typing as well or
    // better: the records whose typed node it selects first, less twice
    // those where it selects another node first.
    std::string xpath = absl::StrJoin(chosen, " | ");
    {
      std::map<std::string, size_t> classes;
      std::vector<const Occurrence*> all;
      for (const auto& [path, where] : paths[i]) {
        for (const Occurrence& o : where) {
          all.push_back(&o);
          if (o.node.has_attribute("class")) ++classes[ClassStep(o.node)];
        }
      }
      std::string best_class;
      size_t best_count = 0;
      for (const auto& [step, n] : classes) {
        if (n > best_count) {
          best_count = n;
          best_class = step;
        }
      }
      if (!best_class.empty()) {
        const std::string by_class =
            record_length > 1 ? absl::StrCat("(self::* | following-sibling::*[position() < ", record_length,
                                             "])/descendant-or-self::", best_class)
                              : absl::StrCat("descendant-or-self::", best_class);
        const auto agreement = [&all](const std::string& x) -> long long {
          absl::StatusOr<html::XPath> compiled = html::XPath::Compile(x);
          if (!compiled.ok()) return -1000000;
          long long score = 0;
          for (const Occurrence* o : all) {
            absl::StatusOr<std::vector<html::Node>> got = compiled->Select(*o->page, o->start);
            if (!got.ok() || got->empty()) continue;
            score += (*got)[0] == o->node ? 1 : -2;
          }
          return score;
        };
        const long long tag_score = agreement(xpath);
        const long long class_score = agreement(by_class);
        if (class_score >= tag_score) {
          result.notes.push_back(absl::StrFormat("%s: by class %s (agreement %d against %d by tag path)", attr.name(),
                                                 by_class, class_score, tag_score));
          xpath = by_class;
        }
      }
    }
    v1::AttributeRule* a = rule.add_attributes();
    a->set_attribute(attr.name());
    a->set_method(v1::AttributeRule::XPATH);
    a->set_xpath(xpath);
    a->set_multi_valued(attr.multi_valued());
    if (attr.type() == "url") a->set_value_attribute("href");
    if (attr.type() == "image") a->set_value_attribute("src");
    // Without a regex the value is the node's whole text; where the typing's
    // annotated values are a consistent part of it ("Yelfield" of
    // "Yelfield (RG15)"), the range pruner learns that part.
    if (schema.ValueRegex(i) == nullptr && a->value_attribute().empty()) {
      std::vector<RangeExample> examples;
      for (const std::string& path : chosen) {
        const std::vector<RangeExample>& e = ranges[i][path];
        examples.insert(examples.end(), e.begin(), e.end());
      }
      if (!examples.empty()) {
        absl::StatusOr<std::optional<v1::TextRange>> range = LearnTextRange(examples);
        if (range.ok() && range->has_value()) {
          *a->mutable_range() = **range;
          result.notes.push_back(absl::StrCat(attr.name(), ": a text range from ", examples.size(), " values"));
        }
      }
    }
    const double support = records ? static_cast<double>(covered) / records : 0;
    a->set_support(support);
    rule.add_attribute_support(support);
    result.notes.push_back(absl::StrFormat("%s: %s (%d of %d records; %d other paths dropped, %d of them second "
                                           "occurrences)",
                                           attr.name(), a->xpath(), covered, records, ranked.size() - chosen.size(),
                                           conflicting));
  }
  return result;
}

namespace {

// The page's text nodes with their folded text, in document order: folded
// once for every value looked up.
using FoldedTexts = std::vector<std::pair<html::Node, std::string>>;

FoldedTexts FoldTexts(const html::Page& page) {
  FoldedTexts out;
  const html::Node root = page.root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (n.is_text()) out.emplace_back(n, html::FoldText(n.RawText()));
  }
  return out;
}

// Text nodes whose normalised text holds `value` (folded), in document
// order; for url/image attributes, the <a>/<img> whose resolved URL (or
// attribute as written) equals it.
std::vector<html::Node> Occurrences(const html::Page& page, const FoldedTexts& texts,
                                    const v1::AttributeSchema& attr, const std::string& value) {
  std::vector<html::Node> out;
  const html::Node root = page.root();
  if (IsUrlType(attr)) {
    const char* name = attr.type() == "url" ? "href" : "src";
    const std::string base = rule::PageBaseUrl(page);
    for (html::Node n = root; n; n = n.NextInDocument(root)) {
      if (!n.is_element() || !n.has_attribute(name)) continue;
      std::string raw = n.attribute(name);
      absl::StatusOr<std::string> resolved = rule::ResolveUrl(base, raw);
      if (raw == value || (resolved.ok() && *resolved == value)) out.push_back(n);
    }
    return out;
  }
  const std::string folded = html::FoldText(value);
  if (folded.empty()) return out;
  for (const auto& [n, text] : texts) {
    if (text.find(folded) != std::string::npos) out.push_back(n);
  }
  return out;
}

int Depth(html::Node n) {
  int d = 0;
  for (; n; n = n.parent()) ++d;
  return d;
}

html::Node Lca(html::Node a, html::Node b) {
  int da = Depth(a), db = Depth(b);
  for (; da > db; --da) a = a.parent();
  for (; db > da; --db) b = b.parent();
  while (a && !(a == b)) {
    a = a.parent();
    b = b.parent();
  }
  return a;
}

bool Precedes(html::Node a, html::Node b) {
  return xmlXPathCmpNodes(a.raw(), b.raw()) == 1;
}

// Whether an element sibling of `n` has its tag.
bool HasTwin(html::Node n) {
  if (!n.parent()) return false;
  for (html::Node c = n.parent().first_child(); c; c = c.next_sibling()) {
    if (c.is_element() && !(c == n) && c.tag() == n.tag()) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<amber::Typing> TypingFromRecords(const html::Page& page, const schema::CompiledSchema& schema,
                                                const std::vector<RecordValues>& records) {
  struct Found {
    html::Node container;
    std::vector<std::pair<int, html::Node>> nodes;
  };
  std::vector<Found> found;
  const FoldedTexts texts = FoldTexts(page);
  html::Node after;  // the previous record's last value node
  for (size_t r = 0; r < records.size(); ++r) {
    if (records[r].empty()) return absl::InvalidArgumentError(absl::StrCat("record ", r + 1, " has no value"));
    std::vector<std::pair<int, std::vector<html::Node>>> occ;
    for (const auto& [attr, value] : records[r]) {
      std::vector<html::Node> all = Occurrences(page, texts, schema.attribute(attr), value);
      std::vector<html::Node> kept;
      for (html::Node n : all) {
        if (!after || Precedes(after, n)) kept.push_back(n);
      }
      if (kept.empty()) {
        return absl::NotFoundError(absl::StrCat("record ", r + 1, ": ", schema.attribute(attr).name(), " \"", value,
                                                "\" is not on the page", after ? " after record " : "",
                                                after ? absl::StrCat(r) : ""));
      }
      occ.push_back({attr, std::move(kept)});
    }
    // Anchor on the value with the fewest occurrences; each other value
    // takes its occurrence nearest (smallest common container).
    std::sort(occ.begin(), occ.end(), [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    Found best;
    int best_depth = -1;
    for (html::Node anchor : occ[0].second) {
      Found f;
      f.container = anchor.is_element() ? anchor : anchor.parent();
      f.nodes.push_back({occ[0].first, anchor});
      for (size_t k = 1; k < occ.size(); ++k) {
        html::Node pick;
        int pick_depth = -1;
        for (html::Node n : occ[k].second) {
          const int d = Depth(Lca(f.container, n));
          if (d > pick_depth) {
            pick_depth = d;
            pick = n;
          }
        }
        f.nodes.push_back({occ[k].first, pick});
        f.container = Lca(f.container, pick);
      }
      const int d = Depth(f.container);
      if (d > best_depth) {
        best_depth = d;
        best = std::move(f);
      }
    }
    after = best.nodes[0].second;
    for (const auto& [attr, n] : best.nodes) {
      if (Precedes(after, n)) after = n;
    }
    found.push_back(std::move(best));
  }
  // The data area and the record starts: with two records or more, the
  // area is the lowest common ancestor of all their values, and a record
  // starts at the area's child holding its first value (a record of several
  // siblings, dt + dd, has its values in several children). With one
  // record, the start is the nearest ancestor-or-self of its container that
  // has a sibling of its tag, or, when the values lie in several children
  // of the container and the first one's has such a sibling, that child.
  html::Node area;
  std::vector<html::Node> starts;
  if (found.size() >= 2) {
    area = found[0].nodes[0].second;
    for (const Found& f : found) {
      for (const auto& [attr, n] : f.nodes) area = Lca(area, n);
    }
    for (const Found& f : found) {
      html::Node first = f.nodes[0].second;
      for (const auto& [attr, n] : f.nodes) {
        if (Precedes(n, first)) first = n;
      }
      html::Node s = first.ChildOfAncestor(area);
      if (!s) return absl::InvalidArgumentError("records share no data area");
      if (!starts.empty() && !Precedes(starts.back(), s)) {
        return absl::InvalidArgumentError(
            absl::StrCat("records ", starts.size(), " and ", starts.size() + 1, " are in the same element"));
      }
      starts.push_back(s);
    }
  } else {
    const Found& f = found[0];
    html::Node first = f.nodes[0].second;
    for (const auto& [attr, n] : f.nodes) {
      if (Precedes(n, first)) first = n;
    }
    html::Node s = f.container;
    html::Node child = first.ChildOfAncestor(f.container);
    if (child && !(child == first) && HasTwin(child)) {
      for (const auto& [attr, n] : f.nodes) {
        if (!(n.ChildOfAncestor(f.container) == child)) s = child;
      }
    }
    if (!(s == child)) {
      for (; s && s.parent() && !HasTwin(s); s = s.parent()) {
      }
    }
    if (!s || !s.parent() || !HasTwin(s)) return absl::InvalidArgumentError("the record repeats nowhere on the page");
    area = s.parent();
    starts.push_back(s);
  }
  // Record length: from a start to the next sibling of its tag.
  int length = 1;
  for (html::Node c = starts[0].next_element_sibling(); c && c.tag() != starts[0].tag(); c = c.next_element_sibling()) {
    ++length;
  }
  if (found.size() >= 2 && length > 1) {
    // A run of other tags after the start may be an ad before the next
    // record; the starts' distance bounds it.
    int distance = 0;
    for (html::Node c = starts[0]; c && !(c == starts[1]); c = c.next_element_sibling()) ++distance;
    length = std::min(length, distance);
  }
  const std::string start_class = starts[0].attribute("class");
  amber::Typing typing;
  amber::DataArea a;
  a.root = area;
  a.record_length = length;
  std::vector<html::Node> children = ElementChildren(area);
  for (size_t k = 0; k < children.size(); ++k) {
    html::Node c = children[k];
    if (c.tag() != starts[0].tag() || c.attribute("class") != start_class) continue;
    amber::Record record;
    for (int j = 0; j < length && k + j < children.size(); ++j) record.nodes.push_back(children[k + j]);
    for (size_t r = 0; r < starts.size(); ++r) {
      if (!(starts[r] == c)) continue;
      for (const auto& [attr, node] : found[r].nodes) {
        amber::AttributeMatch m;
        m.attribute = attr;
        m.node = node.is_element() ? node : node.parent();
        m.value = records[r].at(attr);
        m.annotated = true;
        m.tag_path = RelativeTagPath(c, m.node);
        record.attributes.push_back(std::move(m));
      }
    }
    a.records.push_back(std::move(record));
  }
  typing.areas.push_back(std::move(a));
  return typing;
}

}  // namespace vertex::learn
