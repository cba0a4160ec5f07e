#include "common/workflow/list_proposals.h"

#include <algorithm>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/html/text.h"
#include "common/lists/list_finder.h"
#include "google/protobuf/util/json_util.h"

namespace vertex::workflow {
namespace {

// "div.a.b" / "section#id" / "li": an ancestor step of ItemPath.
std::string Step(html::Node n, bool with_classes) {
  std::string step(n.tag());
  if (!with_classes) return step;
  const std::string id = n.attribute("id");
  if (!id.empty()) absl::StrAppend(&step, "#", id);
  for (absl::string_view c : absl::StrSplit(n.attribute("class"), absl::ByAnyChar(" \t\n\r\f"), absl::SkipEmpty())) {
    absl::StrAppend(&step, ".", c);
  }
  return step;
}

// A suggestion as the assignment sees it.
struct Candidate {
  const v1::ListSuggestion* suggestion = nullptr;
  size_t rank = 0;                  // 0: best
  std::vector<std::string> paths;   // ItemPath of each item
  std::vector<std::string> folded;  // folded texts
};

// Whether `n`'s parent holds no text besides `n`'s: every other child that
// gives its parent text (not a comment or processing instruction) is blank.
// Then the parent's folded text is `n`'s.
bool OnlyTextOfParent(html::Node n) {
  for (html::Node c = n.parent().first_child(); c; c = c.next_sibling()) {
    if (c == n || c.raw()->type == XML_COMMENT_NODE || c.raw()->type == XML_PI_NODE) continue;
    if (!html::NormalizeSpace(c.RawText()).empty()) return false;
  }
  return true;
}

// The outermost element holding exactly `n`'s text (as ValueElements finds
// values): a span item and its li compare alike. Siblings are looked at, not
// the ancestors' whole texts, which made long lists quadratic.
html::Node OutermostWithText(html::Node n) {
  while (n.parent() && OnlyTextOfParent(n)) n = n.parent();
  return n;
}

std::optional<Candidate> CandidateOf(const v1::ListSuggestion& s, size_t rank, const html::Page& page) {
  std::vector<std::string> xpaths(s.node_xpaths().begin(), s.node_xpaths().end());
  absl::StatusOr<std::vector<html::Node>> items = lists::NodesOfXPaths(page, xpaths);
  if (!items.ok() || items->empty() || s.texts_size() == 0) return std::nullopt;
  Candidate c{&s, rank, {}, {}};
  for (const html::Node& n : *items) c.paths.push_back(ItemPath(OutermostWithText(n)));
  for (const std::string& t : s.texts()) c.folded.push_back(html::FoldText(t));
  return c;
}

// Share of `c`'s values the attribute's value type accepts.
double TypeFit(const schema::CompiledSchema& schema, size_t attribute, const Candidate& c) {
  if (schema.ValueRegex(attribute) == nullptr) return 1;
  size_t fit = 0;
  for (const std::string& t : c.suggestion->texts()) fit += schema.SelectValue(attribute, t).has_value();
  return static_cast<double>(fit) / static_cast<double>(c.suggestion->texts_size());
}

struct Match {
  double structure = 0;  // share of items whose ItemPath the evidence has
  double values = 0;     // share of values the rule gives on this page
  double best() const { return std::max(structure, values); }
};

Match MatchOf(const AttributeEvidence& e, const Candidate& c) {
  Match m;
  size_t n = 0;
  for (const std::string& p : c.paths) n += e.item_paths.count(p);
  m.structure = static_cast<double>(n) / static_cast<double>(c.paths.size());
  if (!e.page_values.empty()) {
    n = 0;
    for (const std::string& v : c.folded) n += e.page_values.count(v);
    m.values = static_cast<double>(n) / static_cast<double>(c.folded.size());
  }
  return m;
}

v1::ProposedList ProposalOf(const std::string& attribute, const Candidate& c, int64_t model_version,
                            std::string reason) {
  const v1::ListSuggestion& s = *c.suggestion;
  v1::ProposedList p;
  p.set_attribute(attribute);
  p.mutable_values()->CopyFrom(s.texts());
  // Items and values are parallel unless a hot-list item holds several links.
  if (s.node_xpaths_size() == s.texts_size()) p.mutable_xpaths()->CopyFrom(s.node_xpaths());
  if (s.kind() == v1::ListSuggestion::HOTLIST) p.mutable_urls()->CopyFrom(s.urls());
  p.set_score(s.score());
  p.set_reason(std::move(reason));
  p.set_model_version(model_version);
  return p;
}

std::string KnownReason(const std::string& attribute, const AttributeEvidence& e, const Candidate& c, Match m) {
  const char* kind = c.suggestion->kind() == v1::ListSuggestion::HOTLIST ? "hot-list" : "list";
  std::string why = absl::StrFormat("the list finder's %s #%zu (%d items, score %.2f)", kind, c.rank + 1,
                                    static_cast<int>(c.paths.size()), c.suggestion->score());
  if (m.structure >= m.values) {
    absl::StrAppendFormat(&why, ": %.0f%% of its items sit where %s's values are (%s) on %zu annotated page(s)%s",
                          100 * m.structure, attribute, c.paths.front(), e.annotated_pages,
                          e.rule_values ? " or where the rule finds them" : "");
  } else {
    absl::StrAppendFormat(&why, ": %.0f%% of its values are the ones the current rule extracts for %s here",
                          100 * m.values, attribute);
  }
  return why;
}

using Chosen = std::map<size_t, v1::ProposedList>;  // by schema index

// Attributes with evidence: best (attribute, suggestion) pairs first.
void AssignKnown(const schema::CompiledSchema& schema, const std::vector<Candidate>& cands,
                 const std::map<std::string, AttributeEvidence>& evidence, int64_t version,
                 const ProposalOptions& options, std::vector<bool>* claimed, Chosen* chosen) {
  struct Pair {
    double score;
    size_t attribute, cand;
    Match match;
  };
  std::vector<Pair> pairs;
  for (size_t a = 0; a < schema.size(); ++a) {
    auto e = evidence.find(schema.attribute(a).name());
    if (!schema.attribute(a).multi_valued() || e == evidence.end() || !e->second.known()) continue;
    for (size_t i = 0; i < cands.size(); ++i) {
      const Match m = MatchOf(e->second, cands[i]);
      if (m.best() >= options.min_match && TypeFit(schema, a, cands[i]) >= 0.5) pairs.push_back({m.best(), a, i, m});
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.score > y.score; });
  for (const Pair& p : pairs) {
    if ((*claimed)[p.cand] || chosen->count(p.attribute)) continue;
    (*claimed)[p.cand] = true;
    const std::string& name = schema.attribute(p.attribute).name();
    (*chosen)[p.attribute] =
        ProposalOf(name, cands[p.cand], version, KnownReason(name, evidence.at(name), cands[p.cand], p.match));
  }
}

// A crude English stem: "categories" -> "category", "features" -> "feature".
std::string Stem(std::string w) {
  if (w.size() > 4 && w.ends_with("ies")) return w.substr(0, w.size() - 3) + "y";
  if (w.size() > 3 && w.ends_with("s") && !w.ends_with("ss")) w.pop_back();
  return w;
}

// The stemmed, lower-cased words of the classes and ids along an ItemPath
// ("/html/body/div.product-info/ul.features/li": product, info, feature).
std::set<std::string> MarkupWords(const std::string& path) {
  std::set<std::string> out;
  for (absl::string_view step : absl::StrSplit(path, '/', absl::SkipEmpty())) {
    const size_t names = step.find_first_of(".#");
    if (names == absl::string_view::npos) continue;
    for (absl::string_view w : absl::StrSplit(step.substr(names), absl::ByAnyChar(".#-_"), absl::SkipEmpty())) {
      out.insert(Stem(absl::AsciiStrToLower(w)));
    }
  }
  return out;
}

// Whether the markup of `c`'s first item names `attribute` (a word of the
// attribute's name, of 4 letters or more, is a class or id word).
bool MarkupNames(const std::string& attribute, const Candidate& c) {
  const std::set<std::string> words = MarkupWords(c.paths.front());
  for (absl::string_view w : absl::StrSplit(attribute, '_', absl::SkipEmpty())) {
    if (w.size() >= 4 && words.count(Stem(std::string(w)))) return true;
  }
  return false;
}

std::string UnknownReason(const std::string& attribute, const Candidate& c, bool named) {
  return absl::StrFormat(
      "no annotation or rule of %s in this cluster yet: the list finder's %s (#%zu, %d items, score %.2f, %s): "
      "confirm it is %s, correct it, or ignore it",
      attribute, named ? "best list whose markup names it" : "best list no other attribute claims", c.rank + 1,
      static_cast<int>(c.paths.size()), c.suggestion->score(), c.paths.front(), attribute);
}

// Attributes without evidence: first the best unclaimed suggestion whose
// markup names the attribute, then, for those left, the best unclaimed one.
void AssignUnknown(const schema::CompiledSchema& schema, const std::vector<Candidate>& cands,
                   const std::map<std::string, AttributeEvidence>& evidence, int64_t version,
                   std::vector<bool>* claimed, Chosen* chosen) {
  for (const bool by_name : {true, false}) {
    for (size_t a = 0; a < schema.size(); ++a) {
      const std::string& name = schema.attribute(a).name();
      auto e = evidence.find(name);
      if (!schema.attribute(a).multi_valued() || chosen->count(a) || (e != evidence.end() && e->second.known())) {
        continue;
      }
      for (size_t i = 0; i < cands.size(); ++i) {
        if ((*claimed)[i] || TypeFit(schema, a, cands[i]) < 0.5 || (by_name && !MarkupNames(name, cands[i]))) continue;
        (*claimed)[i] = true;
        (*chosen)[a] = ProposalOf(name, cands[i], version, UnknownReason(name, cands[i], by_name));
        break;
      }
    }
  }
}

}  // namespace

std::string ItemPath(html::Node element) {
  std::vector<std::string> steps;
  for (html::Node n = element; n; n = n.parent()) steps.push_back(Step(n, !(n == element)));
  std::string path;
  for (size_t i = steps.size(); i-- > 0;) absl::StrAppend(&path, "/", steps[i]);
  return path;
}

std::vector<html::Node> ValueElements(const html::Page& page, const std::vector<std::string>& values) {
  std::set<std::string> wanted;
  for (const std::string& v : values) wanted.insert(html::FoldText(v));
  std::vector<html::Node> out;
  const html::Node root = page.root();
  for (html::Node n = root; n;) {
    if (n.is_element() && wanted.count(html::FoldText(n.RawText()))) {
      out.push_back(n);
      // Skip its subtree: the outermost element with the text is the item.
      html::Node next;
      for (html::Node a = n; a && !next; a = a.parent()) {
        if (a == root) break;
        next = a.next_sibling();
      }
      n = next;
      continue;
    }
    n = n.NextInDocument(root);
  }
  return out;
}

void AddValueEvidence(const html::Page& page, const std::vector<std::string>& values, AttributeEvidence* evidence) {
  for (const html::Node& n : ValueElements(page, values)) evidence->item_paths.insert(ItemPath(n));
}

std::vector<v1::ProposedList> AssignSuggestions(const schema::CompiledSchema& schema,
                                                const std::vector<v1::ListSuggestion>& suggestions,
                                                const html::Page& page,
                                                const std::map<std::string, AttributeEvidence>& evidence,
                                                int64_t model_version, const ProposalOptions& options) {
  if (schema.record_level()) return {};
  std::vector<Candidate> cands;
  for (size_t i = 0; i < suggestions.size(); ++i) {
    if (std::optional<Candidate> c = CandidateOf(suggestions[i], i, page)) cands.push_back(*std::move(c));
  }
  std::vector<bool> claimed(cands.size(), false);
  Chosen chosen;
  AssignKnown(schema, cands, evidence, model_version, options, &claimed, &chosen);
  AssignUnknown(schema, cands, evidence, model_version, &claimed, &chosen);
  std::vector<v1::ProposedList> out;
  for (auto& [index, p] : chosen) {
    if (out.size() >= options.max_per_task) break;
    out.push_back(std::move(p));
  }
  return out;
}

absl::StatusOr<std::vector<v1::ProposedList>> ProposeLists(const v1::ListModel& model,
                                                           const schema::CompiledSchema& schema,
                                                           const html::Page& page,
                                                           const std::map<std::string, AttributeEvidence>& evidence,
                                                           const ProposalOptions& options) {
  absl::StatusOr<std::vector<v1::ListSuggestion>> suggestions = lists::SuggestLists(model, page, options.suggestions);
  if (!suggestions.ok()) return suggestions.status();
  return AssignSuggestions(schema, *suggestions, page, evidence, model.version(), options);
}

std::string ProposalAnnotationLines(const v1::GetAnnotationTasksResponse& tasks) {
  std::string out;
  for (const v1::AnnotationTask& t : tasks.tasks()) {
    for (const v1::ProposedList& p : t.proposed()) {
      absl::StrAppendFormat(&out, "# cluster %s, task %d, %s: %s (list model v%d, score %.2f)\n", t.cluster_id(),
                            t.rank(), t.file().empty() ? t.url() : t.file(), p.reason(), p.model_version(), p.score());
      if (p.urls_size() > 0) absl::StrAppend(&out, "#   links: ", absl::StrJoin(p.urls(), " "), "\n");
      v1::Annotation a;
      if (t.file().empty()) {
        a.set_url(t.url());
      } else {
        a.set_file(t.file());
      }
      a.set_attribute(p.attribute());
      a.mutable_values()->CopyFrom(p.values());
      std::string line;
      google::protobuf::util::JsonPrintOptions json;
      json.preserve_proto_field_names = true;
      if (google::protobuf::util::MessageToJsonString(a, &line, json).ok()) absl::StrAppend(&out, line, "\n");
    }
  }
  return out;
}

}  // namespace vertex::workflow
