#include "common/learn/annotation.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/ascii.h"
#include "common/html/text.h"

namespace vertex::learn {
namespace {

struct TextNode {
  html::Node node;
  std::string folded;  // NormalizeSpace + ASCII lowercase
  std::string key;     // parent's tag path with classes
};

std::string Step(html::Node e) {
  std::string s(e.tag());
  const std::string cls = html::NormalizeSpace(e.attribute("class"));
  if (!cls.empty()) s += "." + cls;
  return s;
}

// Text no editor sees: the document head (its <title> repeats the page's
// values), scripts and styles.
bool IsHidden(std::string_view tag) {
  return tag == "head" || tag == "script" || tag == "style" || tag == "noscript";
}

// The page's non-blank text nodes outside script/style/noscript, in
// document order, with their keys. Iterative walk.
std::vector<TextNode> TextNodes(const html::Page& page) {
  std::vector<TextNode> out;
  std::vector<std::string> path;  // steps of the open elements
  html::Node n = page.root();
  int skipping = 0;               // depth inside skipped elements
  while (n) {
    if (n.is_element()) {
      path.push_back(Step(n));
      const bool skip = IsHidden(n.tag());
      skipping += skip;
      if (html::Node c = n.first_child()) {
        n = c;
        continue;
      }
      skipping -= skip;
      path.pop_back();
    } else if (n.is_text() && skipping == 0) {
      std::string folded = html::FoldText(n.RawText());
      if (!folded.empty()) {
        std::string key;
        for (const std::string& s : path) key += "/" + s;
        out.push_back({n, std::move(folded), std::move(key)});
      }
    }
    // Next node: a sibling, or climb (closing elements) until one.
    while (n && !n.next_sibling()) {
      n = n.parent();
      if (n) {
        const bool skip = IsHidden(n.tag());
        skipping -= skip;
        path.pop_back();
      }
    }
    if (n) n = n.next_sibling();
  }
  return out;
}

}  // namespace

std::vector<ResolvedAnnotation> ResolveValues(const std::vector<ValueAnnotation>& annotations) {
  // Occurrences per annotation and value: indices into that page's nodes.
  std::vector<std::vector<TextNode>> nodes(annotations.size());
  std::vector<std::vector<std::vector<size_t>>> found(annotations.size());
  std::map<std::string, std::set<size_t>> pages_of_key;
  std::map<std::string, std::set<size_t>> exact_pages_of_key;  // whole text = value
  std::map<std::string, std::set<std::pair<size_t, size_t>>> values_of_key;  // (annotation, value)
  for (size_t a = 0; a < annotations.size(); ++a) {
    nodes[a] = TextNodes(*annotations[a].page);
    for (const std::string& value : annotations[a].values) {
      const std::string v = html::FoldText(value);
      std::vector<size_t> hits;
      for (size_t i = 0; i < nodes[a].size() && !v.empty(); ++i) {
        if (nodes[a][i].folded.find(v) != std::string::npos) {
          hits.push_back(i);
          pages_of_key[nodes[a][i].key].insert(a);
          values_of_key[nodes[a][i].key].emplace(a, found[a].size());
          if (nodes[a][i].folded == v) exact_pages_of_key[nodes[a][i].key].insert(a);
        }
      }
      found[a].push_back(std::move(hits));
    }
  }
  // Text nodes per key holding a value, over the annotated pages: a list's
  // structure (related products, say) holds many, an attribute's few.
  std::map<std::string, size_t> nodes_of_key;
  for (const std::vector<TextNode>& page_nodes : nodes) {
    for (const TextNode& t : page_nodes) {
      if (pages_of_key.count(t.key) > 0) ++nodes_of_key[t.key];
    }
  }
  std::vector<ResolvedAnnotation> out;
  for (size_t a = 0; a < annotations.size(); ++a) {
    ResolvedAnnotation r;
    r.page = annotations[a].page;
    for (size_t v = 0; v < annotations[a].values.size(); ++v) {
      const std::vector<size_t>& hits = found[a][v];
      r.occurrences.push_back(hits.size());
      if (hits.empty()) {
        r.not_found.push_back(annotations[a].values[v]);
        continue;
      }
      const std::string folded_value = html::FoldText(annotations[a].values[v]);
      // Ties are broken by the key itself, never by position on the page,
      // so that every page picks the same structure when it can.
      const auto rank = [&](size_t i) {
        const TextNode& t = nodes[a][i];
        return std::make_tuple(-static_cast<long>(pages_of_key[t.key].size()),
                               -static_cast<long>(values_of_key[t.key].size()),
                               -static_cast<long>(exact_pages_of_key[t.key].size()), nodes_of_key[t.key],
                               std::cref(t.key),
                               t.folded != folded_value, t.folded.size(), i);
      };
      const size_t best = *std::min_element(hits.begin(), hits.end(),
                                            [&](size_t x, size_t y) { return rank(x) < rank(y); });
      r.nodes.push_back(nodes[a][best].node);
      for (size_t i : hits) {
        if (i != best && nodes[a][i].key == nodes[a][best].key && nodes[a][i].folded == nodes[a][best].folded) {
          r.repeats.push_back(nodes[a][i].node);
        }
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vertex::learn
