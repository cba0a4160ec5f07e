// A deterministic generator of result-list sites ("search results" pages
// with many records each) for two verticals, with record-level ground truth:
// the test bed of AMBER and of record-level rules (issue 13; the digest's
// section 3.4).
//
// A site is one template: its record layout, markup of the attributes,
// label style, link style and class names are drawn once from the seed (or
// set in the options); its pages differ in their records, record counts
// and noise. Each page is a search in one area:
//   http://<host>/search?page=N&area=<place-slug>
// with, inside <main>: a heading, a result count, an average price (outside
// the records), a refinement menu (places with counts, price selects), an
// optional featured block (a second data area of 3-4 cards: link, price,
// location, and bedrooms and property type or make and model in the card's
// title "3 bed Cottage" / "BMW X5"), the main list,
// pagination; navigation in the header and popular towns in the footer.
//
// Record layouts (RecordLayout): one child per record (li, div, tr), records
// of several siblings (dt + dd; two tr; h3 + div + div; h3 + div + div + p)
// and, as a stress option, a grid of 3 records per table row.
//
// Verticals and attributes (ListingAttributes):
//   real_estate  price (regular, pivot), location (regular), postcode,
//                bedrooms, bathrooms, receptions, property_type,
//                legal_status, link
//   used_cars    make (regular), model, price (regular, pivot), year,
//                mileage, fuel, transmission, engine_size, colour,
//                body_type, location, dealer, link
// Used-car dealers are named after a town ("Ashford Motors": a false
// location inside the record) or a family, and the seller line shows the
// location before or after the dealer (per site).
// Truth values (eval::TruthValue::value) are what an extractor should
// return: the price as shown ("£250,000", without "Guide price" or "pcm"),
// the place name, the postcode, the number of bedrooms, bathrooms,
// receptions ("3" of "3 bedrooms"), the year ("2017" of "2017 (17 reg)"),
// the mileage's number ("45,210" of "45,210 miles"), the engine size as
// shown ("2.0L"), the words of the other attributes, and for link the
// details URL resolved against the page URL. TruthValue::text is the whole
// whitespace-normalised text of the element that holds the value. Every
// link and value is also text or an href of the page.
//
// The generator never uses <random>: equal options give byte-identical
// pages on every platform.
//
// Thread-safety: pure functions; may run concurrently with themselves.
// WriteListingSite writes only under its `dir`.
#ifndef VERTEX_COMMON_DEMO_LISTING_SITE_H_
#define VERTEX_COMMON_DEMO_LISTING_SITE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/eval/list_truth.h"

namespace vertex::demo {

enum class ListingDomain { kRealEstate, kUsedCars };

// "real_estate" or "used_cars"; InvalidArgument naming `name` otherwise.
absl::StatusOr<ListingDomain> ParseListingDomain(absl::string_view name);
// "real_estate" or "used_cars".
std::string ListingDomainName(ListingDomain domain);
// The vertical's attributes, in the order above.
const std::vector<std::string>& ListingAttributes(ListingDomain domain);

// How a record sits in its data area.
enum class RecordLayout {
  kListItem = 0,     // <ul> of <li>, one per record
  kDiv = 1,          // <div> of <div>, one per record
  kTableRow = 2,     // <table> of <tr>, one per record, a <td> per part
  kDefinition = 3,   // <dl>: <dt> (title) + <dd> (the rest): length 2
  kTwoRows = 4,      // <table>: <tr> (title, price) + <tr> (facts): length 2
  kHeading3 = 5,     // <h3> + <div> (price) + <div> (facts): length 3
  kHeading4 = 6,     // <h3> + <div> + <div> + <p> (description): length 4
};
inline constexpr int kRecordLayouts = 7;

// Sibling elements per record of `layout` (the grid's is 1: one <td>).
int RecordLength(RecordLayout layout);
// "li", "div", "tr", "dt+dd", "tr+tr", "h3+div+div", "h3+div+div+p".
std::string RecordLayoutName(RecordLayout layout);

// What to generate. GenerateListingSite rejects out-of-range values.
struct ListingSiteOptions {
  uint64_t seed = 1;
  ListingDomain domain = ListingDomain::kRealEstate;
  // Pages of the site, 0..100,000.
  int pages = 20;
  // "" draws "www.<place>-<homes|motors>.test" from the seed.
  std::string host;
  // The site's record layout, 0..kRecordLayouts-1; -1 draws it from the seed.
  int layout = -1;
  // Records of the main list per page. 0/0: the default distribution (3-50;
  // a site shows 5, 10, 20 or 25 per page, mostly 5 or 10, or any count in
  // 3-50 on a few sites; about one page in 5 is a last page with fewer,
  // at least 3). Otherwise uniform in [min_records, max_records], 1..10,000.
  int min_records = 0;
  int max_records = 0;
  // Fraction of the pages with a featured block (a second data area of 3-4
  // records above the main list), 0..1.
  double featured_fraction = 0.3;
  // Fraction of the records highlighted as premium (a class and a badge
  // element more), 0..1.
  double premium_fraction = 0.1;
  // Stress: the main list as a grid of 3 records per table row (overrides
  // `layout`).
  bool grid = false;
  // Each optional attribute is missing from 10-50% of the records (a rate
  // per attribute drawn per site); when false every record has every
  // attribute (electric cars still have no engine size).
  bool missing_attributes = true;
  // About 1 record in 12 has one attribute in <em> instead of <span>.
  bool wrapper_variation = true;
  // Noise. ads: 1-3 advertisements between records on about 60% of pages.
  bool ads = true;
  // "Average asking price in <area>: £..." above the list.
  bool average_price = true;
  // A struck-through old price (<del>) in about 15% of the records.
  bool old_prices = true;
  // Numbers (and prices) in about 40% of descriptions ("1 bedroom flat to
  // sublet"); off: descriptions hold no digit.
  bool description_numbers = true;
  // A refinement menu: 10-16 places with counts, min/max price selects of
  // 10 prices each. With the footer, the average price, old prices and
  // descriptions: about 25 false prices and 50 false locations per page (the
  // paper's corpus: about 22 and more than 50).
  bool refinement_menu = true;
  bool pagination = true;
  // The header's navigation menu.
  bool navigation = true;
  // "Popular searches": 24-34 towns in the footer.
  bool footer_towns = true;
  // Fraction of pages with a noise sibling at the head or the tail of the
  // main list (same tag as a record), 0..1.
  double area_noise_fraction = 0.5;
  // Postcode-district codes ("N5") in used-car locations ("Ashford (N5)")
  // that collide with model codes ("X5"), and road numbers ("A4", "M25") in
  // property descriptions. Off: no such code outside the model names.
  bool ambiguous_codes = true;
};

struct ListingPage {
  // "0000.htm", "0001.htm", ... (at least four digits).
  std::string file_name;
  // http://<host>/search?page=N&area=<slug>, unique within the site.
  std::string url;
  // The page, UTF-8 (no SWDE <base> line).
  std::string html;
  // Areas in document order (the featured block first when present).
  eval::ListTruthPage truth;
};

struct ListingSite {
  std::string host;
  ListingDomain domain = ListingDomain::kRealEstate;
  RecordLayout layout = RecordLayout::kListItem;
  bool grid = false;
  std::vector<ListingPage> pages;
};

// Generates the site. InvalidArgument naming the option for out-of-range
// options (pages, layout, records, fractions).
absl::StatusOr<ListingSite> GenerateListingSite(const ListingSiteOptions& options);

// Writes each page as DIR/<file_name> (first line `<base href="URL"/>`, the
// SWDE convention) and the truth as DIR/truth.jsonl. Errors of writing a
// file (naming it); files written so far stay.
absl::Status WriteListingSite(const ListingSite& site, const std::string& dir);

// About 2,000 distinct UK-like place names ("Ashford", "Little Kingsbridge",
// "Thornwick-on-Sea"), sorted; the same on every call and platform.
const std::vector<std::string>& ListingPlaceNames();

// A car make and its models (real names, codes like "X5", "A4" included).
struct CarMake {
  std::string make;
  std::vector<std::string> models;
};
// 28 makes.
const std::vector<CarMake>& ListingCarMakes();

// A deterministic subset of round(fraction * names.size()) of `names` (fraction
// clamped to [0, 1]), chosen by `seed`, in the order of `names`. Samples of one
// seed are nested: a smaller fraction gives a subset of a larger one.
std::vector<std::string> GazetteerSample(const std::vector<std::string>& names, double fraction,
                                         uint64_t seed);

}  // namespace vertex::demo

#endif  // VERTEX_COMMON_DEMO_LISTING_SITE_H_
