// Annotation sample selection (Vertex paper, Section III-B, Algorithm 2):
// which pages of one cluster human editors should annotate, and in what order.
//
// A page is viewed as the set of XPaths (root-to-text tag paths) it contains,
// with the normalised text found at each. Every XPath X of the cluster gets a
// weight
//
//   w(X) = F(X) * I(X),   I(X) = 1 - (sum over t in T_X of F(X,t)) / (M * |T_X|)
//
// where M is the number of pages, F(X) the number of pages containing X, T_X
// the distinct contents seen at X and F(X,t) the number of pages having
// content t at X. Navigation, headers and footers repeat the same content on
// every page (I close to 0); attribute values differ from page to page (I
// close to 1). A weighted greedy maximum coverage then picks at most K pages
// covering the heaviest XPaths; editors annotate them in that order and stop
// as soon as the rule learnt so far extracts the rest of the sample.
//
// Thread-safety: pure functions of their arguments; safe to call from many
// threads at once.
#ifndef VERTEX_COMMON_SAMPLE_ANNOTATION_SAMPLE_H_
#define VERTEX_COMMON_SAMPLE_ANNOTATION_SAMPLE_H_

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/html/page.h"

namespace vertex::sample {

// One (XPath, content) occurrence on a page. `path` identifies the XPath and
// `content` the normalised text found there, both as 64-bit hashes (see
// PathHash and ContentHash) so that 20,000-page samples stay small. Ordered by
// path, then content.
struct PathContent {
  uint64_t path = 0;
  uint64_t content = 0;

  friend auto operator<=>(const PathContent&, const PathContent&) = default;
};

// The XPath set of one page with the contents at each XPath: `items` sorted
// and without duplicates. A page may hold several contents at one XPath (the
// rows of a list, say). Empty for a page without text.
struct PageXPaths {
  std::vector<PathContent> items;
};

// The hash ExtractXPaths gives the XPath written as its element steps joined
// by '/', each step the tag name followed by the class tokens of the element,
// each after a '.': "html/body/div.main/span.price.big" for
// <span class=" price  big"> in <div class="main"> in <body>. The hash is
// 64-bit FNV-1a of that string, stable across processes.
uint64_t PathHash(std::string_view path);

// The hash ExtractXPaths gives text whose NormalizeSpace form is
// `normalized_text` (64-bit FNV-1a, stable across processes).
uint64_t ContentHash(std::string_view normalized_text);

// Builds the XPath set of `page`: one item per non-blank text node, its path
// that of the node's parent element (see PathHash; an element without a class
// attribute, or with a blank one, is its bare tag name) and its content the
// hash of its NormalizeSpace'd text. Text inside <script>, <style> and
// <noscript> is skipped. One iterative pass over the DOM: no recursion, so
// pages at the parser's depth limit are fine. Empty for a page without text.
PageXPaths ExtractXPaths(const html::Page& page);

// The statistics and weight of one XPath of a cluster.
struct XPathWeight {
  uint64_t path = 0;
  size_t pages = 0;            // F(X): pages containing X.
  size_t contents = 0;         // |T_X|: distinct contents at X.
  size_t content_pages = 0;    // Sum over t in T_X of F(X,t).
  double informativeness = 0;  // I(X), in [0, 1).
  double weight = 0;           // w(X) = F(X) * I(X); exactly 0 when I(X) is.
};

// The weight of every XPath occurring in `pages` (one cluster), ordered by
// path hash. Empty when no page has an item. Pages whose items are unsorted or
// repeated are accepted: they are sorted and deduplicated first (a copy).
std::vector<XPathWeight> ComputeXPathWeights(const std::vector<PageXPaths>& pages);

// One selected page.
struct SamplePick {
  size_t page = 0;          // Index into the input of SelectAnnotationSample.
  double added_weight = 0;  // Summed weight of the XPaths it newly covered.
};

struct SampleOptions {
  // K: the most pages to select. 0 selects none.
  size_t max_pages = 20;
};

// Algorithm 2 over one cluster's pages: repeatedly takes the page maximising
// the summed weight of its still-uncovered XPaths and marks its XPaths
// covered. Ties go to the lowest page index, so the result is deterministic.
//
// Stops after options.max_pages picks (the paper's loop test |S| <= K would
// allow K+1), or when the best page adds zero weight: a page that adds
// nothing is not worth an editor's time. After the first pick this is the
// same as the paper's "no uncovered XPaths remain": a zero-weight XPath has
// every one of its contents on every page, so the first pick covers it and
// any XPath still uncovered weighs more than zero. The first pick is the one
// exception: when every XPath weighs zero (a one-page cluster, or pages with
// identical text) page 0 is still picked, with added_weight 0, since the
// cluster gets no extraction rule unless an editor annotates some page.
//
// Returns the picks in selection order; empty for empty input, K = 0, or
// pages without any item. Weights are summed in fixed point (units of 2^-30,
// a nonzero weight never rounding to zero), so ties are exact and independent
// of summation order; added_weight is exact to within 2^-31 per XPath.
// Unsorted pages are accepted as by ComputeXPathWeights.
//
// Cost: O(N) expected time to weigh the XPaths (hashing) and O(N + K * M) to
// select them, with N the total number of items and M the number of pages;
// memory O(N). Measured: ~45 ms for 2,000 pages of ~675 items, 0.4-0.8 s for
// 20,000 (one core of a shared 2-core VM).
std::vector<SamplePick> SelectAnnotationSample(const std::vector<PageXPaths>& pages,
                                               const SampleOptions& options = {});

}  // namespace vertex::sample

#endif  // VERTEX_COMMON_SAMPLE_ANNOTATION_SAMPLE_H_
