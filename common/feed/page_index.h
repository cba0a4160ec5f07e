// One page as the feed matcher searches it (feed_matcher.h): its text nodes
// and elements outside <head>, <script>, <style>, <noscript> and
// <template>, each with its document-order rank, its subtree's last rank and
// its text normalised for matching (match_text.h); its anchors with their
// hrefs resolved and normalised; its <time datetime> elements. Built once per
// page and shared by every item looked for on it.
//
// Thread-safety: immutable after Build(); the Page must outlive it.
#ifndef VERTEX_COMMON_FEED_PAGE_INDEX_H_
#define VERTEX_COMMON_FEED_PAGE_INDEX_H_

#include <cstddef>
#include <string>
#include <vector>

#include "common/feed/match_text.h"
#include "common/html/page.h"

namespace vertex::feed {

struct IndexedNode {
  html::Node node;
  size_t rank = 0;      // preorder rank
  size_t end_rank = 0;  // rank of the subtree's last node (== rank for text)
  // A text node's text, or an element's rendered text (html::RenderedLines
  // joined by a space): what values are reported from.
  std::string original;
  MatchText m;  // `original` normalised (an element's without offsets:
                // its values are its whole text)
};

struct IndexedAnchor {
  html::Node node;
  size_t rank = 0;
  std::string href;      // resolved against the page's base (absolute)
  std::string raw_href;  // as written
  std::vector<std::string> forms;  // NormalizeUrl(href) and it without tracking parameters
};

struct IndexedTime {
  html::Node node;
  size_t rank = 0;
  std::string datetime;
};

class PageIndex {
 public:
  static PageIndex Build(const html::Page& page);

  const html::Page& page() const { return *page_; }
  const std::string& base_url() const { return base_url_; }
  const std::vector<IndexedNode>& texts() const { return texts_; }
  // Elements whose rendered text is not blank, in document order.
  const std::vector<IndexedNode>& elements() const { return elements_; }
  const std::vector<IndexedAnchor>& anchors() const { return anchors_; }
  const std::vector<IndexedTime>& times() const { return times_; }
  // The element holding `n` (itself for an element).
  static html::Node ElementOf(html::Node n) { return n.is_element() ? n : n.parent(); }
  // The tag path with classes of `n`'s element, root first: nodes with the
  // same key are one template slot.
  static std::string StructuralKey(html::Node n);

 private:
  // Index `n` (of preorder rank `rank`) when it has text; elements also as
  // anchors and <time>s.
  void AddText(html::Node n, size_t rank);
  void AddElement(html::Node n, size_t rank);
  void SetSubtreeEnds();

  const html::Page* page_ = nullptr;
  std::string base_url_;
  std::vector<IndexedNode> texts_;
  std::vector<IndexedNode> elements_;
  std::vector<IndexedAnchor> anchors_;
  std::vector<IndexedTime> times_;
};

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_PAGE_INDEX_H_
