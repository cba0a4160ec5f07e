// Link discovery from hot-lists (issue 14, deliverable 6): the detail-page
// URLs that the hot-lists a list model finds on a site's category pages
// point to, so that the site's sample can be extended with them.
//
// Which hot-lists are the "items" of a category page, rather than its menu,
// footer, pagination or breadcrumb? The model scores nodes (SuggestLists),
// and the site's category pages share their structure: a hot-list whose
// structure recurs on most of the
// given pages with links that differ from page to page is content; one
// whose links repeat on most of the pages holding it is navigation. A
// structure is the path of the items' parent, each step its tag and first
// class token (the block name; later tokens are often modifiers such as
// "grid" / "list"), then the items' tag. Among
// the content structures the one(s) holding the most expected items (sum
// over pages of mean probability x items) are kept. With one page only the
// model's ranking decides.
//
// Thread-safety: pure functions of their inputs.
#ifndef VERTEX_COMMON_LISTS_LINK_DISCOVERY_H_
#define VERTEX_COMMON_LISTS_LINK_DISCOVERY_H_

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "vertex/v1/list_model.pb.h"

namespace vertex::lists {

struct DiscoveryOptions {
  // Lists SuggestLists may return per page (the hot-lists among them are
  // candidates).
  size_t max_lists_per_page = 10;
  // Keep links to hosts other than their page's.
  bool other_hosts = false;
  // Drop links whose path is their page's own path (pagination, sorting,
  // "view as list": the same listing with another query).
  bool drop_same_path = true;
  // The cross-page rule applies when the model finds hot-lists on at least
  // this many pages.
  size_t min_pages_for_cross_page = 2;
  // Support: a structure must appear on at least this fraction of the
  // pages on which the model found a hot-list (when there are at least
  // min_pages_for_cross_page of them): a list seen on one page of many is
  // not the site's listing. Measured against those pages, not all given
  // pages, so that other templates' pages (a product page with no hot-list)
  // do not dilute it.
  double min_page_fraction = 0.3;
  // A link repeats when it appears (in one structure) on at least 2 pages
  // and on more than this fraction of the pages holding that structure.
  double repeat_page_fraction = 0.5;
  // A structure on 2 or more pages whose link occurrences repeat more often
  // than this fraction is navigation and left out (a breadcrumb's "Home" on
  // every page is half its links; a listing's repeats are a product shown
  // on most pages of its category, rare).
  double max_repeated_link_fraction = 0.3;
  // The content structures kept, best first by expected items; 0 keeps all.
  size_t max_item_structures = 1;
  // URLs left out of the result (as NormalizeUrl gives them; the caller
  // normalises), e.g. the pages already in the sample.
  std::set<std::string> known;
};

// One discovered URL.
struct DiscoveredLink {
  std::string url;        // NormalizeUrl'd, absolute, no fragment
  // The anchor text, whitespace-normalised; for an image link its image's
  // alt, else the anchor's title; may be "".
  std::string text;
  std::string from_page;  // the URL of the first page it was found on
  double score = 0;       // the hot-list's mean positive probability there
  std::string structure;  // the hot-list's structure (see Structure below)
};

// What the cross-page rule made of one hot-list structure.
struct StructureReport {
  // "/html/body/main.page-category/div.category-layout/section.listing/ul.products/li".
  std::string structure;
  size_t pages = 0;             // given pages holding it
  size_t link_occurrences = 0;  // (page, URL) pairs after the URL filters
  size_t repeated = 0;          // of which URLs that repeat (see above)
  double expected_items = 0;    // sum over pages of score x items
  // "items" (kept), "navigation", "rare" (below min_page_fraction), "no
  // links" (nothing left after the URL filters) or "outranked".
  std::string verdict;
};

struct Discovery {
  // Distinct URLs, in the order first found (pages in the given order).
  std::vector<DiscoveredLink> links;
  // Every hot-list structure seen, best first by expected_items.
  std::vector<StructureReport> structures;
};

// The URLs the model's hot-lists give on `pages` (parsed with their URLs;
// give one template's pages, a site's category pages, for the cross-page
// rule to compare like with like),
// filtered as the options say: http(s) only, same host unless other_hosts,
// fragments dropped, the pages themselves and `known` left out.
// InvalidArgument for a null page or a model that does not load
// (SuggestLists' error, naming the page).
absl::StatusOr<Discovery> DiscoverLinks(const v1::ListModel& model, const std::vector<const html::Page*>& pages,
                                        const DiscoveryOptions& options = {});

// DiscoverLinks a page at a time, so that a large sample need not be held
// parsed: AddPage every page, in order, then Finish. Not thread-safe.
class LinkDiscoverer {
 public:
  LinkDiscoverer(v1::ListModel model, DiscoveryOptions options = {});
  LinkDiscoverer(const LinkDiscoverer&) = delete;
  LinkDiscoverer& operator=(const LinkDiscoverer&) = delete;
  ~LinkDiscoverer();

  // Collects the hot-lists of `page` (which need not outlive the call).
  // InvalidArgument naming the page for a model that does not load; the
  // page is then not counted.
  absl::Status AddPage(const html::Page& page);

  // Pages added so far.
  size_t pages() const;

  // The discovery over the pages added so far (DiscoverLinks' result).
  Discovery Finish() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// `url` normalised for comparison: scheme and host lower-cased, the default
// port (80 for http, 443 for https) dropped, an empty path made "/", the
// fragment dropped. "" for anything that is not an absolute http(s) URL
// with a host.
std::string NormalizeUrl(std::string_view url);

// The host (lower-cased, with a non-default port) of an absolute http(s)
// URL; "" otherwise.
std::string UrlHost(std::string_view url);

// The path of an absolute http(s) URL ("/" when empty; no query).
std::string UrlPath(std::string_view url);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_LINK_DISCOVERY_H_
