// A deterministic generator of a realistic multi-template e-commerce web site
// ("Vertex Demo Shop"), used by the demo, tests and benchmarks in place of
// third-party pages the project cannot ship.
//
// The site has four templates that share a site chrome (head with inline
// CSS and scripts, header with logo, search form and a ten-category menu,
// footer with link columns; about 25-36% of a page's tags) and differ in
// their bodies the way real templates do:
//   "product"  - a detail page: breadcrumb, gallery (1-6 thumbnails), title,
//                tagline, designers, SKU/brand/model/date in mixed content,
//                rating, price (a sale on about 1 page in 5: old price struck
//                through and a "You save" line), unit price, availability,
//                collection, swatches, cart and store forms, share links,
//                description with 4-5 features, specs table (optional),
//                shipping table, "customers also bought" (optional), 0-5
//                reviews, questions, hidden dialogs; on a few pages an ad
//                block at one of three places.
//   "category" - a product listing: banner, filters, sort form, 5-24 product
//                tiles, pagination, buying guide.
//   "reviews"  - all reviews of one product, paginated: summary, rating
//                histogram, 3-20 reviews, pagination.
//   "store"    - a physical store: name, address, phone, opening-hours table,
//                map, services, departments, deals, optional events.
// Pages of one template vary in texts, attributes and list lengths; structural
// options other than the sale are rare (about 1% of pages each), so that the
// Vertex shingle clustering (10-tag windows, 8 min-hashes, masks of 6/8,
// pruning threshold 20) finds exactly one cluster per template on sites up to
// about twice the default size. On much larger sites the rare variants
// exceed the threshold and may form small clusters of their own (about 1% of
// the product pages at five times the default), as on real sites.
// Texts use HTML entities in places (&amp;, &quot;, &eacute;, &ndash;...).
// The pages hold every hard case of the value model (issue 12), with ground
// truth: see GeneratedPage::truth.
// The generator never uses <random>, so the same SiteOptions produce
// byte-identical pages on every platform.
//
// Thread-safety: pure functions; GenerateSite may run concurrently with
// itself. WriteSite writes only under its `dir`.
#ifndef VERTEX_COMMON_DEMO_SITE_GENERATOR_H_
#define VERTEX_COMMON_DEMO_SITE_GENERATOR_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "common/eval/list_truth.h"

namespace vertex::demo {

// What to generate. Negative page counts are treated as 0.
struct SiteOptions {
  // Two runs with equal options give byte-identical sites; different seeds
  // give different sites.
  uint64_t seed = 1;
  // Host name used in every absolute URL ("http://<host>/...").
  std::string host = "shop.vertex-demo.test";
  int product_pages = 600;   // detail pages, template "product"
  int category_pages = 250;  // list pages, template "category"
  int review_pages = 150;    // template "reviews": all reviews of one product, paginated
  int store_pages = 100;     // template "store": a physical store / business page
};

// One page of the generated site.
struct GeneratedPage {
  // "0000.htm", "0001.htm", ... in site order (templates interleaved and
  // shuffled deterministically); at least four digits.
  std::string file_name;
  // Absolute http URL, unique within the site. Per template:
  //   product  http://HOST/p/<slug>-<id>.html, sometimes ?ref=<r>&color=<c>
  //   category http://HOST/c/<category-slug>?page=<n>&sort=<s>[&view=list]
  //   reviews  http://HOST/reviews/<product-id>?page=<n>
  //   store    http://HOST/stores/<city-slug>/<store-id>
  std::string url;
  // "product" | "category" | "reviews" | "store".
  std::string template_name;
  // The page (UTF-8), NOT including the SWDE <base> line.
  std::string html;
  // True values of the record on this page, by attribute; an empty vector
  // means the attribute is absent from the page. Only templates that carry a
  // record have entries, and then every attribute of the template is a key:
  //   product: title, brand, price, sku, availability, rating,
  //            category (multi-valued: the breadcrumb trail after "Home")
  //   store:   name, phone, street, city, zip,
  //            hours (multi-valued: one value per row of the hours table)
  // Each of these values is exactly the text of one element or text node of
  // the page after HTML entity decoding and whitespace normalisation (runs
  // of whitespace collapsed to one space, both ends trimmed).
  // The value model's cases (issue 12) hold the value a user expects,
  // which is not one text node:
  //   product: link       the "Copy link" href resolved against the page URL
  //                       (root-relative, document-relative on 1 page in 5,
  //                       absolute on 1 in 5)
  //            image      the main image's src resolved (relative; a srcset
  //                       whose first candidate is the src on 1 page in 3)
  //            og_title   <meta property="og:title" content> in <head>
  //                       ("<title> | <brand>")
  //            published  the ISO date of <time datetime> ("Available since")
  //            unit_price the number of "£12.00 (inc VAT)", "€13.00",
  //                       "$4.99 / 100 g" (currency by product id)
  //            tagline    the plain text of a <p> with an <em> inside
  //            weight     the <td> after <th>Weight</th> in the specs table,
  //                       whose row order varies (absent without the table)
  //            designers  (multi-valued) 1-3 names in one text node after
  //                       "Designed by ", joined by one of ", " "; " " and "
  //                       " & " " / " " | " (by product id)
  //            collection the collection's link text, right after a price
  //                       (a data value that must not anchor a rule)
  //            features   (multi-valued) the features list, 4 items or 5
  //   store:   address    the address block's two lines (split by a <br>)
  //                       joined by a space
  std::map<std::string, std::vector<std::string>> truth;
  // Record-level truth of a "category" page (issue 13): one area, the
  // product tiles in page order as records, each with its link (the product
  // URL, absolute) and attributes title (the name link's text), price (the
  // tile's price, e.g. "$12.99", text of <span class="price">) and link
  // (value the product URL, text the name). `file` and `url` are the page's.
  // Other templates leave it empty (no areas).
  eval::ListTruthPage list_truth;
};

// The attributes of the "product" template's record, in ground-truth order.
const std::vector<std::string>& ProductAttributes();
// The attributes of the "store" template's record, in ground-truth order.
const std::vector<std::string>& StoreAttributes();

// Generates the whole site in site order. Deterministic in `options`.
std::vector<GeneratedPage> GenerateSite(const SiteOptions& options);

// Writes each page as DIR/<file_name> whose first line is
// `<base href="URL"/>` followed by "\n" and then the html (the SWDE
// convention), plus ground truth in SWDE format under
// DIR/groundtruth/<vertical>/<vertical>-vertexdemo-<attribute>.txt, where
// <vertical> is "product" for the product template and "business" for the
// store template. Each ground-truth file holds:
//   line 1: "<vertical>\tvertexdemo\t<attribute>"
//   line 2: "<pages>\t<pages with a value>\t<values>\t<distinct values>"
//   then, per page of that template in site order:
//     "<file name without .htm>\t<number of values>\t<v1>\t<v2>..."
//     or "<id>\t0\t<NULL>" when the attribute is absent.
// Ground-truth files are written for both verticals even when the site has
// no page of that template (then they hold only the two header lines).
// The category pages' list truth goes to DIR/list_truth.jsonl (JSON Lines,
// common/eval/list_truth.h; empty without category pages).
// Returns InvalidArgument (writing nothing) when a file name is empty,
// contains '/', or repeats, or when a truth value holds a tab or line break;
// otherwise the first error of writing a file (e.g. PermissionDenied when
// `dir` cannot be created), leaving the files written so far in place.
absl::Status WriteSite(const std::vector<GeneratedPage>& pages, const std::string& dir);

// The schema (JSON, as v1::Schema's JSON mapping) of the demo site's
// vertical "product" or "business", the same as deploy/schemas/<vertical>.json
// (a test keeps them equal); "" for another vertical.
std::string SchemaJson(const std::string& vertical);

}  // namespace vertex::demo

#endif  // VERTEX_COMMON_DEMO_SITE_GENERATOR_H_
