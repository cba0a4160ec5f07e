// A deterministic generator of a synthetic shop whose detail-page templates
// move through versions, for template-monitoring tests and benchmarks.
//
// The site has `templates` detail-page templates (a template sells products
// of one category). Every page shares a site chrome (head with inline CSS,
// header with logo, search form and menu, footer), and each template has its
// own skeleton built from its index alone (never from the seed): a layout
// (two columns, a table, one column, a left sidebar, grid rows), its own
// order of sections, wrapper elements around them, and its own markup for
// the buy box, specifications, reviews, gallery and tiles. With the project's
// shingle clustering (10-tag windows, 8 min-hashes, masks of 6/8, pruning
// threshold 20) each template forms one cluster, even at 20 templates of 20
// pages each.
//
// Pages of one template vary in text lengths, the number of reviews shown
// (0-5, newest first), the specification rows (3-8), the thumbnails (4-7) and
// a sale price; the skeleton stays the same. Three kinds of change can be
// asked for:
//   epoch      - content that changes daily: price, sale, availability,
//                review count, shown reviews and rating. Title, brand and sku
//                of a URL never change; neither does the markup skeleton.
//   ads, optional_section - small additions to every page (an ad block near
//                the top of the main content) or to about half of them (a
//                "Recently viewed" list); the record on the page is unchanged.
//   restyled   - a redesign of the listed templates: every class and id of
//                the template's markup in the main content renamed (an ad
//                block keeps the ad network's), sections moved and reordered,
//                the layout wrapper replaced, different markup for the buy
//                box, lists and tables. Values stay the same per URL and each
//                is still the text of one element. Other templates' pages are
//                byte-identical to the not restyled site.
// The generator never uses <random>: equal options give byte-identical pages
// on every platform.
//
// Thread-safety: pure functions; may run concurrently with themselves.
#ifndef VERTEX_COMMON_DEMO_VERSIONED_SITE_H_
#define VERTEX_COMMON_DEMO_VERSIONED_SITE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace vertex::demo {

// What to generate. Out-of-range values are clamped: templates to 1..40,
// pages_per_template and epoch to >= 0; restyled entries outside
// 0..templates-1 are ignored.
struct VersionedSiteOptions {
  // Content (titles, brands, prices, reviews...) and URLs; not the skeletons.
  uint64_t seed = 1;
  // URLs are http://HOST/...; tests pass "127.0.0.1:PORT".
  std::string host = "shop.vertex-demo.test";
  // Number of distinct detail-page templates (1..40).
  int templates = 3;
  int pages_per_template = 20;
  // Content epoch: 0, 1, 2... Changes what changes daily on a real site
  // (price, sale, availability, rating, number and text of the reviews shown)
  // and never the constant attributes of a URL (title, brand, sku).
  int epoch = 0;
  // An ad block (a div with a label, an image link, an iframe, a script and
  // three sponsored links) on every page, near the top of the main content.
  bool ads = false;
  // An extra "Recently viewed" section (a short list) on about half the pages,
  // the same half in every epoch.
  bool optional_section = false;
  // Templates (0-based) restyled: every class renamed, main sections moved
  // and reordered, the layout wrapper changed, as a redesign does.
  std::set<int> restyled;
};

struct VersionedPage {
  // Absolute and unique: http://HOST/t<t>/<slug>-<id>.html. The URL set
  // depends only on seed, host, templates and pages_per_template.
  std::string url;
  int template_index = 0;
  // The page, UTF-8 (no SWDE <base> line).
  std::string html;
  // The record on the page: every attribute of VersionedSiteSchemaJson() is
  // a key; an empty vector means absent (rating when there is no review).
  // Values are as the page shows them after entity decoding and whitespace
  // normalisation, each exactly the text of one element or text node.
  std::map<std::string, std::vector<std::string>> truth;
};

// The pages, template by template (template 0's pages first), each template's
// in a fixed order. Deterministic in `options`.
std::vector<VersionedPage> GenerateVersionedSite(const VersionedSiteOptions& options);

// The schema of the versioned site (v1::Schema's JSON mapping, as
// deploy/schemas/product.json), vertical "product":
//   title (mandatory, constant), brand (constant), sku (mandatory, constant),
//   price (mandatory, type "price"), availability, rating (type "number"),
//   reviews_count (type "number").
std::string VersionedSiteSchemaJson();

}  // namespace vertex::demo

#endif  // VERTEX_COMMON_DEMO_VERSIONED_SITE_H_
