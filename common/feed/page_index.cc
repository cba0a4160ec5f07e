#include "common/feed/page_index.h"

#include <algorithm>
#include <string_view>

#include "absl/container/flat_hash_map.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/feed/feed_matcher.h"
#include "common/feed/matcher_internal.h"
#include "common/html/rendered_text.h"
#include "common/html/text.h"
#include "common/rule/url.h"

namespace vertex::feed {
namespace {

bool Skipped(std::string_view tag) {
  return tag == "head" || tag == "script" || tag == "style" || tag == "noscript" || tag == "template";
}

// The first node after `n`'s subtree in document order under `root`.
html::Node NextAfterSubtree(html::Node n, html::Node root) {
  for (; n && !(n == root); n = n.parent()) {
    if (html::Node s = n.next_sibling()) return s;
  }
  return html::Node();
}

}  // namespace

std::string PageIndex::StructuralKey(html::Node n) {
  std::vector<std::string> steps;
  for (html::Node e = ElementOf(n); e; e = e.parent()) {
    steps.push_back(std::string(e.tag()) + "." + std::string(e.attribute_view("class")));
  }
  std::reverse(steps.begin(), steps.end());
  return absl::StrJoin(steps, "/");
}

PageIndex PageIndex::Build(const html::Page& page) {
  PageIndex index;
  index.page_ = &page;
  index.base_url_ = rule::PageBaseUrl(page);
  const html::Node root = page.root();
  size_t rank = 0;
  for (html::Node n = root; n; ++rank) {
    if (n.is_element() && Skipped(n.tag())) {
      n = NextAfterSubtree(n, root);
      continue;
    }
    if (n.is_text()) index.AddText(n, rank);
    if (n.is_element()) index.AddElement(n, rank);
    n = n.NextInDocument(root);
  }
  index.SetSubtreeEnds();
  return index;
}

void PageIndex::AddText(html::Node n, size_t rank) {
  std::string raw = n.RawText();
  if (html::IsBlank(raw)) return;
  MatchText m = NormalizeForMatch(raw);
  texts_.push_back({n, rank, rank, std::move(raw), std::move(m)});
}

void PageIndex::AddElement(html::Node n, size_t rank) {
  std::string rendered = absl::StrJoin(html::RenderedLines(n), " ");
  if (!rendered.empty()) {
    MatchText m = NormalizeForMatch(rendered, /*with_offsets=*/false);  // values are whole elements
    elements_.push_back({n, rank, rank, std::move(rendered), std::move(m)});
  }
  if (n.tag() == "a" && n.has_attribute("href")) {
    IndexedAnchor a{n, rank, rule::AttributeSourceText(n, "href", base_url_), n.attribute("href"), {}};
    const std::string norm = NormalizeUrl(a.href);
    if (!norm.empty()) {
      a.forms.push_back(norm);
      const std::string stripped = internal::StripTrackingParameters(norm);
      if (stripped != norm) a.forms.push_back(stripped);
    }
    anchors_.push_back(std::move(a));
  }
  if (n.tag() == "time" && n.has_attribute("datetime")) times_.push_back({n, rank, n.attribute("datetime")});
}

// Subtree ends: the last rank of a text node inside each element (an
// element with rendered text has one); each text node extends its
// ancestors' (depth-bounded, no recursion).
void PageIndex::SetSubtreeEnds() {
  absl::flat_hash_map<const void*, size_t> element_at;
  for (size_t i = 0; i < elements_.size(); ++i) element_at[elements_[i].node.raw()] = i;
  for (const IndexedNode& t : texts_) {
    for (html::Node p = t.node.parent(); p; p = p.parent()) {
      auto it = element_at.find(p.raw());
      if (it != element_at.end() && elements_[it->second].end_rank < t.rank) elements_[it->second].end_rank = t.rank;
    }
  }
}

}  // namespace vertex::feed
