// A deterministic generator of a book shop whose detail pages are ONE page
// type rendered with small variations, for tests of what Vertex's clustering
// does to such a site (routing, coverage, rule transfer, tiny sites).
//
// Every detail page (https://HOST/book/<id>.html) shows one book: title,
// authors (1-3, each its own element), price, and a details block with the
// ISBN-13, publisher and publication date. What varies per page, drawn from
// the seed:
//   layout variants  - the details as a table (70%) or as a list (30%, the
//                      newer layout, always with a breadcrumb), a breadcrumb
//                      or none (25% of table pages), an extra wrapper div
//                      around the content (10%);
//   optional blocks  - a series box (20%), an editorial review block (35%,
//                      2-4 quotes), a "customers also bought" list (80%, 2-8
//                      tiles; no section otherwise), a promotion banner
//                      (10%); 1 author (80%), 2 (15%) or 3.
// The hard cases this reproduces (seen on a real book site):
//   * One page type, several clusters. With Algorithm 1's default options
//     (6/8 masks, pruning threshold 20) the site splits along the variants
//     (mainly details table/list x breadcrumb x also-bought section) into
//     clusters that all share one URL pattern, so URL regexes cannot route
//     between them. Measured on seeds 1-3: 5 clusters at 1,000 and 2,000
//     pages (largest about 51%, smallest 3%); 4 at 500 pages.
//   * Pages no signature covers. A fraction of the pages (rare_fraction,
//     default 7%) carry a rare structural variant: the publisher's
//     description in its own markup (120-200 nested elements drawn per page:
//     headings, lists, quotes, figures...) instead of plain text, plus one
//     more item early in the account menu. Algorithm 1 leaves almost all of
//     them unassigned (seeds 1-3 at 1,000 pages: 68-69 of 70; 7.1-7.2% of
//     the pages unassigned; 2,000 pages: 7.2-7.5%). At 500 pages the rarer
//     combinations of common variants fall under the threshold as well:
//     about 10-11% unassigned, two thirds of them rare pages (the test's
//     DISABLED_PrintClusterings prints these numbers). The rare markup comes
//     after the record's values and adds no element before them in <main>, so the
//     values keep the positions (XPaths) they have on a common page of the
//     same variant and a rule learnt there extracts them.
//   * Tiny sites. tiny_templates = 1 or 2 gives 1..50 pages of the detail
//     template alone, or alternating with a clearly different category
//     (list) template; pages too few for the pruning threshold.
// The generator never uses <random>: equal options give byte-identical pages
// on every platform.
//
// Thread-safety: pure functions; may run concurrently with themselves.
#ifndef VERTEX_COMMON_DEMO_VARIANT_SITE_H_
#define VERTEX_COMMON_DEMO_VARIANT_SITE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vertex::demo {

// What to generate. Out-of-range values are clamped: pages to >= 0 (1..50 in
// tiny mode), rare_fraction to [0, 1], tiny_templates to 0..2.
struct VariantSiteOptions {
  // Books, texts and every per-page draw (variants, rare pages, ids).
  uint64_t seed = 1;
  // URLs are https://HOST/...
  std::string host = "books.example";
  // Number of pages.
  int pages = 1000;
  // Fraction of the detail pages with the rare variant: exactly
  // round(rare_fraction * detail pages) of them, chosen from the seed.
  double rare_fraction = 0.07;
  // Layout variants (details table/list, breadcrumb, wrapper div) drawn per
  // page; when false every page has the common layout (table, breadcrumb,
  // no wrapper).
  bool layout_variants = true;
  // Optional blocks (series, editorial reviews, also-bought list, promotion)
  // drawn per page; when false no page has any, and every book has one
  // author.
  bool optional_blocks = true;
  // 0: the full site. 1: a tiny site of detail pages only. 2: a tiny site
  // whose even pages (0, 2, ...) are detail pages and odd ones category
  // pages. In tiny mode `pages` is clamped to 1..50; the other knobs still
  // apply (turn them off for pages of one skeleton).
  int tiny_templates = 0;
};

// Which variant a page was rendered with. Category pages leave it default.
struct PageVariant {
  bool details_list = false;  // details as <ul> instead of a <table>
  bool breadcrumb = false;
  bool wrapper = false;  // content inside an extra <div class="page-wrap">
  bool series = false;
  bool editorial = false;  // editorial review block
  bool promo = false;      // promotion banner above the content
  int also_bought = 0;     // tiles in "Customers also bought" (2-8); 0: no section
  int authors = 1;
  // The rare variant: publisher-markup description and one more account
  // menu item.
  bool rare = false;

  // "list+crumbs+wrap+series+editorial+promo+also3+authors2+RARE" style
  // summary, for test messages.
  std::string ToString() const;
  // The layout and blocks, without authors, tile count and rarity: pages
  // with equal keys differ only in lists' lengths and texts.
  std::string Key() const;
};

struct VariantPage {
  // Absolute and unique. detail: https://HOST/book/<id>.html with a 7-digit
  // id; category: https://HOST/category/<genre-slug>.html?page=<n>.
  std::string url;
  // "book" or "category".
  std::string template_name;
  // The page, UTF-8 (no SWDE <base> line).
  std::string html;
  // The record of a detail page: every attribute of VariantSiteAttributes()
  // is a key, with one value each except author (1-3 values, in page order).
  // Values are as the page shows them after entity decoding and whitespace
  // normalisation, each exactly the text of one element. Empty for
  // category pages (they hold no record).
  std::map<std::string, std::vector<std::string>> truth;
  PageVariant variant;
};

// The pages in site order. Deterministic in `options`.
std::vector<VariantPage> GenerateVariantSite(const VariantSiteOptions& options);

// title, author, isbn, publisher, price, publication_date (schema order).
const std::vector<std::string>& VariantSiteAttributes();

// The schema (v1::Schema's JSON mapping), vertical "book":
//   title (mandatory, constant), author (multi_valued, constant),
//   isbn (type "isbn", mandatory, constant), publisher (constant),
//   price (type "price", mandatory), publication_date (type "date", constant).
std::string VariantSiteSchemaJson();

}  // namespace vertex::demo

#endif  // VERTEX_COMMON_DEMO_VARIANT_SITE_H_
