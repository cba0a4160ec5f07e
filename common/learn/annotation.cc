#include "common/learn/annotation.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

#include "absl/strings/str_join.h"
#include "common/html/rendered_text.h"
#include "common/html/text.h"
#include "common/rule/json_ld.h"
#include "common/rule/url.h"

namespace vertex::learn {
namespace {

// One place of a page that can hold a value under some source.
struct Site {
  html::Node node;
  std::string folded;  // FoldText of location.text
  std::string key;     // structural key (see annotation.h)
  ValueLocation location;
  bool url = false;    // a URL attribute: compared with the annotated value resolved
};

std::string Step(html::Node e) {
  std::string s(e.tag());
  const std::string cls = html::NormalizeSpace(e.attribute("class"));
  if (!cls.empty()) s += "." + cls;
  return s;
}

// Text no editor sees: scripts and styles.
bool IsSkipped(std::string_view tag) { return tag == "script" || tag == "style" || tag == "noscript"; }

// Where a node stands: its key (an element's tag path through itself, a
// text node's through its parent) and whether it is inside <head> or a
// skipped element (the element itself included).
struct Place {
  const std::string& key;
  bool in_head;
  bool skipped;
};

// Calls `visit(node, place)` for every element and text node of `page` in
// document order. Iterative walk.
void Walk(const html::Page& page, const std::function<void(html::Node, const Place&)>& visit) {
  std::string key;
  std::vector<size_t> lengths;  // key's length before each open element
  int head = 0, skipped = 0;    // open <head> / skipped elements
  const auto close = [&](html::Node e) {
    head -= e.tag() == "head";
    skipped -= IsSkipped(e.tag());
    key.resize(lengths.back());
    lengths.pop_back();
  };
  html::Node n = page.root();
  while (n) {
    if (n.is_element()) {
      lengths.push_back(key.size());
      key += "/" + Step(n);
      head += n.tag() == "head";
      skipped += IsSkipped(n.tag());
      visit(n, Place{key, head > 0, skipped > 0});
      if (html::Node c = n.first_child()) {
        n = c;
        continue;
      }
      close(n);
    } else if (n.is_text()) {
      visit(n, Place{key, head > 0, skipped > 0});
    }
    // Next node: a sibling, or climb (closing elements) until one.
    while (n && !n.next_sibling()) {
      n = n.parent();
      if (n) close(n);
    }
    if (n) n = n.next_sibling();
  }
}

Site MakeSite(html::Node node, std::string key, ValueLocation location) {
  std::string folded = html::FoldText(location.text);
  return Site{node, std::move(folded), std::move(key), std::move(location)};
}

std::vector<Site> TextSites(const html::Page& page) {
  std::vector<Site> out;
  Walk(page, [&](html::Node n, const Place& at) {
    if (!n.is_text() || at.in_head || at.skipped) return;
    std::string text = n.Text();
    if (!text.empty()) out.push_back(MakeSite(n, at.key, {ValueSource::kText, "", "", std::move(text)}));
  });
  return out;
}

std::vector<Site> ElementSites(const html::Page& page) {
  std::vector<Site> out;
  Walk(page, [&](html::Node n, const Place& at) {
    if (!n.is_element() || at.in_head || at.skipped) return;
    const std::vector<std::string> lines = html::RenderedLines(n);
    if (lines.empty()) return;
    Site s = MakeSite(n, at.key, {ValueSource::kElement, "", "", absl::StrJoin(lines, "\n")});
    s.folded = html::FoldText(absl::StrJoin(lines, " "));
    out.push_back(std::move(s));
  });
  return out;
}

bool IsSourceAttribute(std::string_view name) {
  static constexpr std::string_view kNames[] = {"href", "src",   "srcset", "content", "datetime", "title",
                                                "alt",  "value", "action", "poster",  "cite"};
  return name.starts_with("data-") || std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// Inside <head>, only <meta content> and <link rel=canonical href> are
// values (og:title, the canonical URL); the rest of the head is not.
bool IsHeadSource(html::Node e, std::string_view name) {
  if (e.tag() == "meta") return name == "content";
  if (e.tag() != "link" || name != "href") return false;
  const std::string rel = " " + html::FoldText(e.attribute_view("rel")) + " ";
  return rel.find(" canonical ") != std::string::npos;
}

std::vector<Site> AttributeSites(const html::Page& page) {
  std::vector<Site> out;
  const std::string base = rule::PageBaseUrl(page);
  Walk(page, [&](html::Node n, const Place& at) {
    if (!n.is_element() || at.skipped) return;
    for (std::string_view name : html::AttributeNames(n)) {
      if (!IsSourceAttribute(name) || (at.in_head && !IsHeadSource(n, name))) continue;
      std::string text = rule::AttributeSourceText(n, name, base);
      if (text.empty()) continue;
      Site s = MakeSite(n, at.key + "@" + std::string(name),
                        {ValueSource::kAttribute, std::string(name), "", std::move(text)});
      s.url = rule::IsUrlAttribute(n, name);
      out.push_back(std::move(s));
    }
  });
  return out;
}

std::vector<Site> JsonLdSites(const html::Page& page) {
  std::vector<Site> out;
  Walk(page, [&](html::Node n, const Place& at) {
    if (!rule::IsJsonLdScript(n)) return;
    absl::StatusOr<std::vector<rule::JsonLeaf>> leaves = rule::JsonLeaves(n.RawText());
    if (!leaves.ok()) return;  // not JSON: no value there
    for (rule::JsonLeaf& leaf : *leaves) {
      std::string text = html::NormalizeSpace(leaf.value);
      if (text.empty()) continue;
      out.push_back(MakeSite(n, at.key + "$" + leaf.path,
                             {ValueSource::kJsonLd, "", leaf.path, std::move(text)}));
    }
  });
  return out;
}

std::vector<Site> SitesOf(ValueSource source, const html::Page& page) {
  switch (source) {
    case ValueSource::kText:
      return TextSites(page);
    case ValueSource::kElement:
      return ElementSites(page);
    case ValueSource::kAttribute:
      return AttributeSites(page);
    case ValueSource::kJsonLd:
      return JsonLdSites(page);
  }
  return {};
}

// The sites of one page holding each of its annotation's values.
struct PageHits {
  std::vector<Site> sites;
  std::vector<std::vector<size_t>> hits;  // per value: indices into sites
};

// Drops hits that are ancestors of other hits: an element value resolves to
// the smallest elements holding it.
void KeepSmallest(const std::vector<Site>& sites, std::vector<size_t>* hits) {
  std::unordered_set<const void*> hit_nodes;
  for (size_t i : *hits) hit_nodes.insert(sites[i].node.raw());
  std::unordered_set<const void*> containers;
  for (size_t i : *hits) {
    for (html::Node p = sites[i].node.parent(); p; p = p.parent()) {
      if (hit_nodes.count(p.raw()) > 0) containers.insert(p.raw());
    }
  }
  std::erase_if(*hits, [&](size_t i) { return containers.count(sites[i].node.raw()) > 0; });
}

// Whether `node` is one of `scope` or below one; true for an empty scope.
bool InScope(html::Node node, const std::vector<html::Node>& scope) {
  if (scope.empty()) return true;
  for (html::Node n = node; n; n = n.parent()) {
    if (std::find(scope.begin(), scope.end(), n) != scope.end()) return true;
  }
  return false;
}

PageHits FindValues(ValueSource source, const ValueAnnotation& annotation) {
  PageHits out;
  out.sites = SitesOf(source, *annotation.page);
  std::erase_if(out.sites, [&](const Site& s) { return !InScope(s.node, annotation.scope); });
  const bool whole = source == ValueSource::kAttribute || source == ValueSource::kJsonLd;
  const std::string base = source == ValueSource::kAttribute ? rule::PageBaseUrl(*annotation.page) : "";
  for (const std::string& value : annotation.values) {
    const std::string v = html::FoldText(value);
    const std::string v_url = source == ValueSource::kAttribute ? html::FoldText(rule::NormalizeAnnotatedUrl(value, base)) : "";
    std::vector<size_t> hits;
    for (size_t i = 0; i < out.sites.size() && !v.empty(); ++i) {
      const Site& s = out.sites[i];
      const bool match = whole ? s.folded == v || (s.url && s.folded == v_url) : s.folded.find(v) != std::string::npos;
      if (match) hits.push_back(i);
    }
    if (source == ValueSource::kElement) KeepSmallest(out.sites, &hits);
    out.hits.push_back(std::move(hits));
  }
  return out;
}

size_t CountFound(const std::vector<PageHits>& pages) {
  size_t n = 0;
  for (const PageHits& p : pages) {
    for (const std::vector<size_t>& h : p.hits) n += !h.empty();
  }
  return n;
}

// The source used for every value (see annotation.h) and its hits.
std::pair<ValueSource, std::vector<PageHits>> ChooseSource(const std::vector<ValueAnnotation>& annotations) {
  size_t total = 0;
  for (const ValueAnnotation& a : annotations) total += a.values.size();
  std::vector<PageHits> best;
  ValueSource best_source = ValueSource::kText;
  size_t best_found = 0;
  for (ValueSource source : {ValueSource::kText, ValueSource::kElement, ValueSource::kAttribute}) {
    std::vector<PageHits> pages;
    for (const ValueAnnotation& a : annotations) pages.push_back(FindValues(source, a));
    const size_t found = CountFound(pages);
    if (best.empty() || found > best_found) {
      best = std::move(pages);
      best_source = source;
      best_found = found;
    }
    if (best_found == total) return {best_source, std::move(best)};
  }
  if (best_found > 0) return {best_source, std::move(best)};
  std::vector<PageHits> json;
  for (const ValueAnnotation& a : annotations) json.push_back(FindValues(ValueSource::kJsonLd, a));
  if (CountFound(json) > 0) return {ValueSource::kJsonLd, std::move(json)};
  return {best_source, std::move(best)};
}

// A value the annotation repeats (two entries of a list by one author)
// takes the next occurrence of its structure in document order: the n-th
// "Alice" of the values is the n-th such node on the page, so the values
// stay in page order and each names its own node. `best` itself when it is
// unused or no other occurrence is left (more repeats than nodes: the
// values share it, as before).
size_t NextUnused(const std::vector<Site>& sites, const std::vector<size_t>& hits, size_t best,
                  const std::set<size_t>& chosen) {
  if (!chosen.count(best)) return best;
  size_t next = best;  // sites are in document order
  for (size_t i : hits) {
    if (i > best && (next == best || i < next) && !chosen.count(i) && sites[i].key == sites[best].key &&
        sites[i].folded == sites[best].folded) {
      next = i;
    }
  }
  return next;
}

// Occurrences with the key and text of a chosen site that no value chose
// (a value the page lists more often than the annotation), each once.
std::vector<html::Node> RepeatsOf(const std::vector<Site>& sites, const std::vector<std::vector<size_t>>& hits,
                                  const std::set<size_t>& chosen) {
  std::set<size_t> out;
  for (const std::vector<size_t>& value_hits : hits) {
    for (size_t i : value_hits) {
      if (chosen.count(i) || out.count(i)) continue;
      for (size_t c : chosen) {
        if (sites[i].key == sites[c].key && sites[i].folded == sites[c].folded) {
          out.insert(i);
          break;
        }
      }
    }
  }
  std::vector<html::Node> nodes;
  for (size_t i : out) nodes.push_back(sites[i].node);
  return nodes;
}

}  // namespace

const char* ValueSourceName(ValueSource source) {
  switch (source) {
    case ValueSource::kText:
      return "text";
    case ValueSource::kElement:
      return "element";
    case ValueSource::kAttribute:
      return "attribute";
    case ValueSource::kJsonLd:
      return "json_ld";
  }
  return "unknown";
}

std::vector<ResolvedAnnotation> ResolveValues(const std::vector<ValueAnnotation>& annotations) {
  auto [source, pages] = ChooseSource(annotations);
  // Occurrence counts per key over all annotations.
  std::map<std::string, std::set<size_t>> pages_of_key;
  std::map<std::string, std::set<size_t>> exact_pages_of_key;  // whole text = value
  std::map<std::string, std::set<std::pair<size_t, size_t>>> values_of_key;  // (annotation, value)
  for (size_t a = 0; a < annotations.size(); ++a) {
    for (size_t v = 0; v < annotations[a].values.size(); ++v) {
      const std::string folded = html::FoldText(annotations[a].values[v]);
      for (size_t i : pages[a].hits[v]) {
        const Site& s = pages[a].sites[i];
        pages_of_key[s.key].insert(a);
        values_of_key[s.key].emplace(a, v);
        if (s.folded == folded) exact_pages_of_key[s.key].insert(a);
      }
    }
  }
  // Sites per key holding a value, over the annotated pages: a list's
  // structure (related products, say) holds many, an attribute's few.
  std::map<std::string, size_t> nodes_of_key;
  for (const PageHits& p : pages) {
    for (const Site& s : p.sites) {
      if (pages_of_key.count(s.key) > 0) ++nodes_of_key[s.key];
    }
  }
  std::vector<ResolvedAnnotation> out;
  for (size_t a = 0; a < annotations.size(); ++a) {
    ResolvedAnnotation r;
    r.page = annotations[a].page;
    r.source = source;
    const std::vector<Site>& sites = pages[a].sites;
    std::set<size_t> chosen;  // sites chosen for the annotation's values so far
    for (size_t v = 0; v < annotations[a].values.size(); ++v) {
      const std::vector<size_t>& hits = pages[a].hits[v];
      r.occurrences.push_back(hits.size());
      if (hits.empty()) {
        r.not_found.push_back(annotations[a].values[v]);
        continue;
      }
      const std::string folded_value = html::FoldText(annotations[a].values[v]);
      // Ties are broken by the key itself, never by position on the page,
      // so that every page picks the same structure when it can.
      const auto rank = [&](size_t i) {
        const Site& t = sites[i];
        return std::make_tuple(-static_cast<long>(pages_of_key[t.key].size()),
                               -static_cast<long>(values_of_key[t.key].size()),
                               -static_cast<long>(exact_pages_of_key[t.key].size()), nodes_of_key[t.key],
                               std::cref(t.key), t.folded != folded_value, t.folded.size(), i);
      };
      size_t best = *std::min_element(hits.begin(), hits.end(),
                                      [&](size_t x, size_t y) { return rank(x) < rank(y); });
      best = NextUnused(sites, hits, best, chosen);
      chosen.insert(best);
      r.nodes.push_back(sites[best].node);
      r.locations.push_back(sites[best].location);
    }
    r.repeats = RepeatsOf(sites, pages[a].hits, chosen);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vertex::learn
