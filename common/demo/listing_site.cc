#include "common/demo/listing_site.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "common/demo/markup_util.h"
#include "common/demo/text_util.h"
#include "common/util/file.h"
#include "common/util/random.h"
#include "common/util/status_macros.h"

namespace vertex::demo {
namespace {

using internal::Count;
using internal::Esc;
using internal::Html;
using internal::Pad;
using internal::Pick;
using internal::Slugify;
using util::Mix64;
using util::Rng;

constexpr int kMaxPages = 100000;
constexpr int kMaxRecords = 10000;

// ---------------------------------------------------------------------------
// Vocabulary.
// ---------------------------------------------------------------------------

constexpr const char* kPlaceRoots[] = {
    "Ash",   "Brad",  "Brom",   "Chel",   "Clay",  "Dun",    "Elm",   "Farn",  "Glen",  "Hart",
    "Hol",   "Kings", "Lang",   "Mar",    "Mil",   "Nor",    "Oak",   "Pen",   "Red",   "Rush",
    "Sal",   "Sand",  "Shep",   "Stan",   "Stock", "Thorn",  "Wal",   "Wey",   "Whit",  "Wood",
    "Ald",   "Bar",   "Black",  "Brook",  "Cam",   "Cold",   "Cran",  "Dart",  "Fair",  "Graves",
    "Hazel", "Holm",  "Kirk",   "Lind",   "Mel",   "Mor",    "Pres",  "Roth",  "Saxon", "Scar",
    "Silver", "Stam", "Swan",   "Tod",    "War",   "Wind",   "Wor",   "Ux",    "Yel",   "Bel"};
constexpr const char* kPlaceEndings[] = {
    "ford",  "bridge", "ton",  "ham",   "ley",    "field", "bury",  "worth",
    "wick",  "stead",  "combe", "mouth", "caster", "by",   "thorpe", "well",
    "dale",  "hurst",  "minster", "wood", "brook", "cote", "ing",   "haven"};
constexpr const char* kPlacePrefixes[] = {"Upper ", "Lower ", "Little ", "Great ", "North ",
                                          "South ", "East ",  "West ",   "Old ",   "New ",
                                          "Long ",  "Nether "};
constexpr const char* kPlaceSuffixes[] = {"-on-Sea", "-upon-Thames", " Green",  " Heath",
                                          " Common", "-in-the-Vale", " St Mary", " Magna"};
constexpr int kPlaceCount = 2000;

constexpr const char* kStreetWords[] = {"Mill",   "Church", "Station", "High",   "Park",
                                        "Victoria", "Queens", "Chestnut", "Oak",   "Meadow",
                                        "Orchard", "Manor",  "School",  "Bridge", "Castle",
                                        "Albert",  "Willow", "Beech",   "Priory", "Cedar"};
constexpr const char* kStreetTypes[] = {"Road",  "Lane", "Street",  "Avenue",   "Close",
                                        "Drive", "Way",  "Gardens", "Crescent", "Terrace"};
constexpr const char* kPostcodeAreas[] = {"N",  "E",  "W",  "SE", "SW", "NW", "TN", "GU", "RG",
                                          "OX", "CB", "BS", "LS", "M",  "B",  "CF", "EH", "G",
                                          "KT", "ME", "CT", "BN", "PO", "YO", "NR", "EX"};
constexpr char kInwardLetters[] = "ABDEFGHJLNPQRSTUWXYZ";
constexpr const char* kPropertyTypes[] = {
    "Detached house", "Semi-detached house", "Terraced house", "End of terrace house", "Flat",
    "Apartment",      "Bungalow",            "Maisonette",     "Cottage",              "Studio"};
constexpr const char* kPriceTags[] = {"span", "strong", "p"};
constexpr const char* kPriceQualifiers[] = {"Guide price ", "Offers over ", "Offers in region of "};

constexpr const char* kFuels[] = {"Petrol", "Diesel", "Petrol", "Diesel", "Hybrid", "Electric"};
constexpr const char* kTransmissions[] = {"Manual", "Automatic"};
constexpr const char* kColours[] = {"Black", "White", "Silver", "Grey",  "Blue",
                                    "Red",   "Green", "Orange", "Brown", "Yellow"};
constexpr const char* kBodyTypes[] = {"Hatchback", "Saloon", "Estate", "SUV",
                                      "Coupe",     "Convertible", "MPV", "Pickup"};
constexpr const char* kEngines[] = {"1.0L", "1.2L", "1.4L", "1.5L", "1.6L", "2.0L", "2.5L", "3.0L"};
constexpr const char* kTrims[] = {"SE",     "Sport",  "M Sport", "S line",  "Titanium",
                                  "Zetec",  "GT Line", "Tekna", "Design", "Limited Edition"};
constexpr const char* kDealerFamilies[] = {"Hargreaves", "Pendleton", "Ashcroft", "Whitmore",
                                           "Okafor",     "Brennan",   "Lindqvist", "Castellano"};
constexpr const char* kDealerSuffixes[] = {" Motors", " Car Centre", " Cars", " Autos",
                                           " Motor Company"};
constexpr const char* kRoads[] = {"A4", "A1", "M25", "A3", "M4", "A12", "M6", "A30"};

// Descriptions: without and with numbers. "{p}" is a place name, "{n}" a
// small number, "{k}" a price in thousands.
constexpr const char* kHomePlain[] = {
    "A bright and spacious home close to local shops.", "Offered with no onward chain.",
    "Well presented throughout with a private garden.", "Viewing is highly recommended.",
    "A short walk from the centre of {p}.", "Recently refurbished to a high standard."};
constexpr const char* kHomeNumbers[] = {
    "A 1 bedroom flat to sublet, ideal for a professional.",
    "Only {n} minutes walk from {p} station.", "Reduced by £{k},000 for a quick sale.",
    "Garden of {n}0 feet with a double garage.", "Built in 19{n}5 and extended in 2010.",
    "Council tax band D, EPC rating C, {n} parking spaces."};
constexpr const char* kCarPlain[] = {
    "Full service history, part exchange welcome.", "Excellent condition throughout.",
    "Finance available, call for details.", "One careful owner from new.",
    "Delivered to your door from {p}."};
constexpr const char* kCarNumbers[] = {
    "Full service history, {n} keys, {n} previous owners.", "12 months MOT and {n} months warranty.",
    "Finance from £{k}9 per month.", "Recently serviced at {n}0,000 miles.",
    "Was £{k},995, now reduced."};

constexpr const char* kHomeNav[] = {"Buy", "Rent", "House prices", "Find agents", "New homes",
                                    "Commercial", "Blog", "Sign in"};
constexpr const char* kCarNav[] = {"Used cars", "New cars", "Sell your car", "Car finance",
                                   "Reviews", "Dealers", "Sign in"};

// ---------------------------------------------------------------------------
// Site template.
// ---------------------------------------------------------------------------

// The per-site choices: one template for all the pages of a site.
struct Style {
  ListingDomain domain = ListingDomain::kRealEstate;
  RecordLayout layout = RecordLayout::kListItem;
  bool grid = false;
  int link_style = 0;     // 0 absolute, 1 root-relative, 2 document-relative
  int label_style = 0;    // "3 bedrooms" | "3 beds" | "Bedrooms: 3"
  bool fact_list = true;  // facts as <ul><li> (else <span>s in a <p>)
  bool address_block = false;  // real estate: "Ashford, TN23 4AB" in one element
  bool split_title = false;    // used cars: make and model in their own spans
  bool location_first = false;  // used cars: the seller line shows the location first
  const char* price_tag = "span";
  std::string record_class;
  int per_page = 10;
  bool short_pages = true;  // about one page in 5 has fewer records
  std::vector<std::string> fact_order;
  std::map<std::string, double> missing;  // optional attribute -> missing rate
  std::string site_name;
  std::string host;
};

std::vector<std::string> OptionalAttributes(ListingDomain domain) {
  if (domain == ListingDomain::kRealEstate) {
    return {"postcode", "bedrooms", "bathrooms", "receptions", "property_type", "legal_status"};
  }
  return {"year",   "mileage",   "fuel",     "transmission", "engine_size",
          "colour", "body_type", "location", "dealer"};
}

std::vector<std::string> FactAttributes(ListingDomain domain) {
  if (domain == ListingDomain::kRealEstate) {
    return {"bedrooms", "bathrooms", "receptions", "property_type", "legal_status"};
  }
  return {"year", "mileage", "fuel", "transmission", "engine_size", "colour", "body_type"};
}

int DrawPerPage(Rng& rng, bool* short_pages) {
  const double u = rng.UnitDouble();
  *short_pages = true;
  if (u < 0.35) return 5;
  if (u < 0.70) return 10;
  if (u < 0.80) return 20;
  if (u < 0.85) return 25;
  *short_pages = false;
  return static_cast<int>(rng.Range(3, 50));
}

Style DrawStyle(const ListingSiteOptions& options) {
  Rng rng(Mix64(options.seed ^ 0x5173e11e00000000ULL) + static_cast<uint64_t>(options.domain));
  Style s;
  s.domain = options.domain;
  s.layout = static_cast<RecordLayout>(options.layout >= 0 ? options.layout
                                                           : rng.Uniform(kRecordLayouts));
  s.grid = options.grid;
  s.link_style = static_cast<int>(rng.Uniform(3));
  s.label_style = static_cast<int>(rng.Uniform(3));
  s.fact_list = rng.Bernoulli(0.5);
  s.address_block = rng.Bernoulli(0.5);
  s.split_title = rng.Bernoulli(0.5);
  s.location_first = rng.Bernoulli(0.5);
  s.price_tag = Pick(rng, kPriceTags);
  static constexpr const char* kClasses[] = {"result", "listing", "property-card", "search-item",
                                             "advert", "vehicle"};
  s.record_class = Pick(rng, kClasses);
  s.per_page = DrawPerPage(rng, &s.short_pages);
  s.fact_order = FactAttributes(options.domain);
  for (size_t i = s.fact_order.size(); i > 1; --i) {
    std::swap(s.fact_order[i - 1], s.fact_order[rng.Uniform(i)]);
  }
  for (const std::string& a : OptionalAttributes(options.domain)) {
    s.missing[a] = options.missing_attributes ? 0.1 + 0.4 * rng.UnitDouble() : 0.0;
  }
  const std::string& place = ListingPlaceNames()[rng.Uniform(ListingPlaceNames().size())];
  const bool homes = options.domain == ListingDomain::kRealEstate;
  s.site_name = absl::StrCat(place, homes ? " Homes" : " Motors");
  s.host = options.host.empty()
               ? absl::StrCat("www.", Slugify(place), homes ? "-homes" : "-motors", ".test")
               : options.host;
  return s;
}

// ---------------------------------------------------------------------------
// Values.
// ---------------------------------------------------------------------------

// "£1,234,567" from 1234567.
std::string Pounds(int64_t pounds) {
  const std::string digits = std::to_string(pounds);
  std::string out = "£";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Thousands(int64_t n) { return Pounds(n).substr(2); }  // "£" is two bytes

// A UK-style postcode ("TN23 4AB"); its outward code ("TN23") in *district.
// (Each draw is its own statement: the order of evaluation of function
// arguments is unspecified, and the output must not depend on the compiler.)
std::string Postcode(Rng& rng, std::string* district) {
  const std::string area = Pick(rng, kPostcodeAreas);
  *district = absl::StrCat(area, rng.Range(1, 29));
  std::string out = absl::StrCat(*district, " ", rng.Range(0, 9));
  for (int i = 0; i < 2; ++i) out += kInwardLetters[rng.Uniform(sizeof(kInwardLetters) - 1)];
  return out;
}

const std::string& RandomPlace(Rng& rng) {
  return ListingPlaceNames()[rng.Uniform(ListingPlaceNames().size())];
}

// Fills {p}, {n} and {k}.
std::string FillDescription(Rng& rng, absl::string_view pattern) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}') {
      const char slot = pattern[i + 1];
      if (slot == 'p') absl::StrAppend(&out, RandomPlace(rng));
      if (slot == 'n') absl::StrAppend(&out, rng.Range(2, 9));
      if (slot == 'k') absl::StrAppend(&out, rng.Range(1, 30));
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Records.
// ---------------------------------------------------------------------------

// A record's markup in four parts that the layout places into its sibling
// elements, and its truth.
struct Parts {
  std::string head;   // title link (and image, badge)
  std::string price;  // price, old price
  std::string facts;  // address / seller and facts
  std::string desc;   // description and "more" link
  bool premium = false;
  eval::TruthRecord truth;
};

struct PageContext {
  const ListingSiteOptions* options;
  const Style* style;
  std::string page_url;
  std::string area;  // the searched place
  bool let = false;  // real estate: a search of lettings
};

class RecordBuilder {
 public:
  RecordBuilder(Rng& rng, const PageContext& page, int id)
      : rng_(rng), page_(page), style_(*page.style), options_(*page.options), id_(id) {}

  Parts Build();

 private:
  bool Present(const std::string& attribute) {
    const auto it = style_.missing.find(attribute);
    return it == style_.missing.end() || !rng_.Bernoulli(it->second);
  }
  // <tag class="cls">text</tag> (<em> for the record's differently wrapped
  // attribute), recording the truth when `attribute` is not empty.
  std::string Field(absl::string_view tag, absl::string_view cls, const std::string& text,
                    const std::string& attribute, const std::string& value);
  std::string Label(const std::string& attribute, const std::string& value);
  void Head(const std::string& title_markup, const std::string& title_text);
  void Price(int64_t pounds, bool let);
  void Facts(const std::map<std::string, std::string>& values);
  void Description();
  void HomeRecord();
  void CarRecord();

  Rng& rng_;
  const PageContext& page_;
  const Style& style_;
  const ListingSiteOptions& options_;
  const int id_;
  std::string em_attribute_;
  Parts parts_;
};

std::string RecordBuilder::Field(absl::string_view tag, absl::string_view cls,
                                 const std::string& text, const std::string& attribute,
                                 const std::string& value) {
  if (!attribute.empty()) parts_.truth.attributes[attribute] = {value, text};
  if (!attribute.empty() && attribute == em_attribute_) tag = "em";
  return absl::StrCat("<", tag, " class=\"", cls, "\">", Esc(text), "</", tag, ">");
}

// The shown text of a fact in the site's label style.
std::string RecordBuilder::Label(const std::string& attribute, const std::string& value) {
  static const std::map<std::string, std::vector<std::string>> kUnits = {
      {"bedrooms", {"bedroom", "bed", "Bedrooms"}},
      {"bathrooms", {"bathroom", "bath", "Bathrooms"}},
      {"receptions", {"reception room", "reception", "Receptions"}},
  };
  const int s = style_.label_style;
  if (attribute == "mileage") {
    return absl::StrCat(s == 2 ? "Mileage: " : "", value, " miles");
  }
  const auto unit = kUnits.find(attribute);
  if (unit != kUnits.end()) {
    if (s == 2) return absl::StrCat(unit->second[2], ": ", value);
    return absl::StrCat(value, " ", unit->second[s], value != "1" ? "s" : "");
  }
  if (attribute == "year" && s == 1) {
    return absl::StrCat(value, " (", value.substr(2), " reg)");
  }
  static const std::map<std::string, std::string> kLabels = {
      {"year", "Year"},      {"fuel", "Fuel"},     {"transmission", "Gearbox"},
      {"engine_size", "Engine"}, {"colour", "Colour"}, {"body_type", "Body"}};
  const auto label = kLabels.find(attribute);
  if (s == 2 && label != kLabels.end()) return absl::StrCat(label->second, ": ", value);
  return value;
}

void RecordBuilder::Head(const std::string& title_markup, const std::string& title_text) {
  const bool homes = style_.domain == ListingDomain::kRealEstate;
  const std::string path = absl::StrCat(homes ? "/property/" : "/car/", id_);
  const std::string absolute = absl::StrCat("http://", style_.host, path);
  const std::string href = style_.link_style == 0   ? absolute
                           : style_.link_style == 1 ? path
                                                    : path.substr(1);
  parts_.truth.link = absolute;
  parts_.truth.attributes["link"] = {absolute, title_text};
  const std::string a = internal::Link(href, title_markup, "class=\"title\"");
  const bool inline_head = style_.layout == RecordLayout::kDefinition ||
                           style_.layout == RecordLayout::kHeading3 ||
                           style_.layout == RecordLayout::kHeading4;
  std::string head;
  if (parts_.premium) head += "<span class=\"badge\">Premium</span> ";
  if (inline_head && !style_.grid) {
    absl::StrAppend(&head, a);
  } else {
    absl::StrAppend(&head, internal::Link(href, absl::StrCat("<img src=\"/img/", id_,
                                                             ".jpg\" alt=\"\" width=\"160\">"),
                                          "class=\"thumb\""),
                    "<h3>", a, "</h3>");
  }
  parts_.head = std::move(head);
}

void RecordBuilder::Price(int64_t pounds, bool let) {
  std::string text = Pounds(pounds);
  const std::string value = text;
  if (let) {
    absl::StrAppend(&text, " pcm");
  } else if (style_.domain == ListingDomain::kRealEstate && rng_.Bernoulli(0.2)) {
    text = absl::StrCat(Pick(rng_, kPriceQualifiers), text);
  }
  std::string markup = Field(style_.price_tag, "price", text, "price", value);
  if (options_.old_prices && rng_.Bernoulli(0.15)) {
    // Reduced by a round step or a few.
    const int64_t step = let ? 25 : style_.domain == ListingDomain::kRealEstate ? 5000 : 500;
    const int64_t old = pounds + step * rng_.Range(1, 6);
    markup = absl::StrCat("<del class=\"was\">", Pounds(old), "</del> ", markup);
  }
  parts_.price = std::move(markup);
}

void RecordBuilder::Facts(const std::map<std::string, std::string>& values) {
  std::vector<std::string> items;
  for (const std::string& attribute : style_.fact_order) {
    const auto it = values.find(attribute);
    if (it == values.end() || !Present(attribute)) continue;
    const std::string text = Label(attribute, it->second);
    const std::string cls = Slugify(attribute);
    if (style_.fact_list) {
      const bool em = attribute == em_attribute_;
      parts_.truth.attributes[attribute] = {it->second, text};
      items.push_back(absl::StrCat("<li class=\"", cls, "\">", em ? "<em>" : "", Esc(text),
                                   em ? "</em>" : "", "</li>"));
    } else {
      items.push_back(Field("span", cls, text, attribute, it->second));
    }
  }
  if (items.empty()) return;
  absl::StrAppend(&parts_.facts, parts_.facts.empty() ? "" : " ",
                  style_.fact_list ? "<ul class=\"facts\">" : "<p class=\"facts\">",
                  absl::StrJoin(items, style_.fact_list ? "" : " | "),
                  style_.fact_list ? "</ul>" : "</p>");
}

void RecordBuilder::Description() {
  const bool homes = style_.domain == ListingDomain::kRealEstate;
  std::string text;
  if (options_.description_numbers && rng_.Bernoulli(0.4)) {
    text = FillDescription(rng_, homes ? Pick(rng_, kHomeNumbers) : Pick(rng_, kCarNumbers));
  } else {
    text = FillDescription(rng_, homes ? Pick(rng_, kHomePlain) : Pick(rng_, kCarPlain));
  }
  if (homes && options_.ambiguous_codes && rng_.Bernoulli(0.25)) {
    absl::StrAppend(&text, " Easy access to the ", Pick(rng_, kRoads), ".");
  }
  parts_.desc = absl::StrCat("<p class=\"description\">", Esc(text), "</p>");
}

void RecordBuilder::HomeRecord() {
  const int64_t number = rng_.Range(1, 120);
  const std::string word = Pick(rng_, kStreetWords);
  const std::string street = absl::StrCat(number, " ", word, " ", Pick(rng_, kStreetTypes));
  Head(Esc(street), street);
  int64_t pounds = page_.let ? rng_.Range(18, 140) * 25 : rng_.Range(15, 300) * 5000;
  if (!page_.let && rng_.Bernoulli(0.3)) pounds -= 50;
  Price(pounds, page_.let);
  const std::string place = rng_.Bernoulli(0.5) ? page_.area : RandomPlace(rng_);
  std::string district;
  const std::string postcode = Postcode(rng_, &district);
  const bool with_postcode = Present("postcode");
  if (style_.address_block) {
    const std::string text = with_postcode ? absl::StrCat(place, ", ", postcode) : place;
    parts_.facts = Field("p", "address", text, "location", place);
    if (with_postcode) parts_.truth.attributes["postcode"] = {postcode, text};
  } else {
    parts_.facts = Field("span", "location", place, "location", place);
    if (with_postcode) absl::StrAppend(&parts_.facts, " ", Field("span", "postcode", postcode,
                                                                 "postcode", postcode));
  }
  const int beds = static_cast<int>(rng_.Range(1, 6));
  Facts({{"bedrooms", std::to_string(beds)},
         {"bathrooms", std::to_string(rng_.Range(1, std::max(1, beds - 1)))},
         {"receptions", std::to_string(rng_.Range(1, 3))},
         {"property_type", Pick(rng_, kPropertyTypes)},
         {"legal_status", page_.let ? "To let" : "For sale"}});
}

void RecordBuilder::CarRecord() {
  const CarMake& make = ListingCarMakes()[rng_.Uniform(ListingCarMakes().size())];
  const std::string& model = make.models[rng_.Uniform(make.models.size())];
  const std::string trim = rng_.Bernoulli(0.5) ? Pick(rng_, kTrims) : "";
  std::string title = absl::StrCat(make.make, " ", model, trim.empty() ? "" : " ", trim);
  std::string markup;
  if (style_.split_title) {
    markup = absl::StrCat(Field("span", "make", make.make, "make", make.make), " ",
                          Field("span", "model", model, "model", model),
                          trim.empty() ? "" : absl::StrCat(" <span class=\"trim\">", trim, "</span>"));
  } else {
    markup = Esc(title);
    parts_.truth.attributes["make"] = {make.make, title};
    parts_.truth.attributes["model"] = {model, title};
  }
  Head(markup, title);
  Price(rng_.Range(20, 650) * 100 - 5, false);
  const std::string fuel = Pick(rng_, kFuels);
  const int64_t miles = rng_.Range(3, 150) * 1000;
  std::map<std::string, std::string> facts = {
      {"year", std::to_string(rng_.Range(2008, 2024))},
      {"mileage", Thousands(miles + rng_.Range(0, 999))},
      {"fuel", fuel},
      {"transmission", Pick(rng_, kTransmissions)},
      {"colour", Pick(rng_, kColours)},
      {"body_type", Pick(rng_, kBodyTypes)}};
  if (fuel != "Electric") facts["engine_size"] = Pick(rng_, kEngines);
  Facts(facts);
  std::vector<std::string> seller;
  const std::string place = rng_.Bernoulli(0.5) ? page_.area : RandomPlace(rng_);
  if (Present("dealer")) {
    // Named after a town (a false location inside the record) or a family.
    const std::string name =
        rng_.Bernoulli(0.5) ? RandomPlace(rng_) : std::string(Pick(rng_, kDealerFamilies));
    const std::string dealer = absl::StrCat(name, Pick(rng_, kDealerSuffixes));
    seller.push_back(Field("span", "dealer", dealer, "dealer", dealer));
  }
  if (Present("location")) {
    std::string district;
    Postcode(rng_, &district);
    const bool code = options_.ambiguous_codes && rng_.Bernoulli(0.5);
    const std::string text = code ? absl::StrCat(place, " (", district, ")") : place;
    seller.push_back(Field("span", "location", text, "location", place));
  }
  if (style_.location_first) std::reverse(seller.begin(), seller.end());
  if (!seller.empty()) {
    absl::StrAppend(&parts_.facts, parts_.facts.empty() ? "" : " ", "<p class=\"seller\">",
                    absl::StrJoin(seller, " - "), "</p>");
  }
}

Parts RecordBuilder::Build() {
  parts_.premium = rng_.Bernoulli(options_.premium_fraction);
  if (options_.wrapper_variation && rng_.Bernoulli(1.0 / 12)) {
    const std::vector<std::string> candidates = FactAttributes(style_.domain);
    em_attribute_ = candidates[rng_.Uniform(candidates.size())];
  }
  if (style_.domain == ListingDomain::kRealEstate) {
    HomeRecord();
  } else {
    CarRecord();
  }
  Description();
  return std::move(parts_);
}

// ---------------------------------------------------------------------------
// Data areas.
// ---------------------------------------------------------------------------

// A noise element of the data area, the same tag as a record's first
// element.
struct NoiseItem {
  std::string cls;
  std::string markup;
};

NoiseItem Advert(Rng& rng) {
  const uint64_t cb = rng.Next() % 1000000;
  return {"ad", absl::StrCat("<a href=\"http://ads.adnet.test/click?cb=", cb,
                             "\" rel=\"nofollow\"><img src=\"http://ads.adnet.test/b/", cb % 31,
                             ".gif\" alt=\"Advertisement\"></a> <span>Advertisement</span>")};
}

// Renders the main list: `items` holds the records and noise in order.
class ListRenderer {
 public:
  ListRenderer(Html& h, const Style& style) : h_(h), style_(style) {}

  void Open() {
    if (style_.grid) {
      h_.Open("table", "class=\"results grid\"").Open("tbody");
      return;
    }
    switch (style_.layout) {
      case RecordLayout::kListItem: h_.Open("ul", "class=\"results\""); break;
      case RecordLayout::kDiv:
      case RecordLayout::kHeading3:
      case RecordLayout::kHeading4: h_.Open("div", "class=\"results\""); break;
      case RecordLayout::kTableRow:
      case RecordLayout::kTwoRows: h_.Open("table", "class=\"results\"").Open("tbody"); break;
      case RecordLayout::kDefinition: h_.Open("dl", "class=\"results\""); break;
    }
  }
  void Close() {
    FlushGridRow();
    while (h_.depth() > depth_at_open_) h_.Close();
  }
  void AddNoise(const NoiseItem& n);
  void Record(const Parts& p);
  void SetDepth() { depth_at_open_ = h_.depth(); }

 private:
  std::string RecordClass(const Parts& p) const {
    return absl::StrCat("class=\"", style_.record_class, p.premium ? " premium" : "", "\"");
  }
  void FlushGridRow() {
    if (grid_row_.empty()) return;
    h_.Open("tr");
    for (const std::string& cell : grid_row_) h_.Raw(cell);
    h_.Close();
    grid_row_.clear();
  }

  Html& h_;
  const Style& style_;
  size_t depth_at_open_ = 0;
  std::vector<std::string> grid_row_;
};

void ListRenderer::AddNoise(const NoiseItem& n) {
  const std::string cls = absl::StrCat("class=\"", n.cls, "\"");
  if (style_.grid) {
    FlushGridRow();
    h_.Open("tr", cls).Elem("td", "colspan=\"3\"", n.markup).Close();
    return;
  }
  switch (style_.layout) {
    case RecordLayout::kListItem: h_.Elem("li", cls, n.markup); break;
    case RecordLayout::kDiv:
    case RecordLayout::kHeading3:
    case RecordLayout::kHeading4: h_.Elem("div", cls, n.markup); break;
    case RecordLayout::kTableRow:
    case RecordLayout::kTwoRows:
      h_.Open("tr", cls).Elem("td", "colspan=\"3\"", n.markup).Close();
      break;
    case RecordLayout::kDefinition: h_.Elem("dd", cls, n.markup); break;
  }
}

void ListRenderer::Record(const Parts& p) {
  const std::string cls = RecordClass(p);
  if (style_.grid) {
    grid_row_.push_back(absl::StrCat("<td ", cls, ">", p.head, " ", p.price, " ", p.facts, " ",
                                     p.desc, "</td>"));
    if (grid_row_.size() == 3) FlushGridRow();
    return;
  }
  switch (style_.layout) {
    case RecordLayout::kListItem: h_.Elem("li", cls, absl::StrCat(p.head, " ", p.price, " ", p.facts, " ", p.desc)); break;
    case RecordLayout::kDiv: h_.Elem("div", cls, absl::StrCat(p.head, " ", p.price, " ", p.facts, " ", p.desc)); break;
    case RecordLayout::kTableRow:
      h_.Open("tr", cls).Elem("td", "class=\"head\"", p.head).Elem("td", "", p.price);
      h_.Elem("td", "", absl::StrCat(p.facts, " ", p.desc)).Close();
      break;
    case RecordLayout::kDefinition:
      h_.Elem("dt", cls, p.head).Elem("dd", "", absl::StrCat(p.price, " ", p.facts, " ", p.desc));
      break;
    case RecordLayout::kTwoRows:
      h_.Open("tr", cls).Elem("td", "class=\"head\"", p.head).Elem("td", "", p.price).Close();
      h_.Open("tr", "class=\"details\"")
          .Elem("td", "colspan=\"2\"", absl::StrCat(p.facts, " ", p.desc))
          .Close();
      break;
    case RecordLayout::kHeading3:
      h_.Elem("h3", cls, p.head).Elem("div", "class=\"price-box\"", p.price);
      h_.Elem("div", "class=\"details\"", absl::StrCat(p.facts, " ", p.desc));
      break;
    case RecordLayout::kHeading4:
      h_.Elem("h3", cls, p.head).Elem("div", "class=\"price-box\"", p.price);
      h_.Elem("div", "class=\"details\"", p.facts).Elem("p", "class=\"summary\"", p.desc);
      break;
  }
}

// ---------------------------------------------------------------------------
// Pages.
// ---------------------------------------------------------------------------

class PageBuilder {
 public:
  PageBuilder(Rng& rng, const PageContext& page, int* next_id)
      : rng_(rng), page_(page), style_(*page.style), options_(*page.options), next_id_(next_id) {}

  // The page's html; fills `truth`'s areas.
  std::string Build(int records, int search_page, int search_pages, eval::ListTruthPage* truth);

 private:
  bool homes() const { return style_.domain == ListingDomain::kRealEstate; }
  Parts NextRecord() {
    *next_id_ += static_cast<int>(rng_.Range(1, 7));
    return RecordBuilder(rng_, page_, *next_id_).Build();
  }
  void Header();
  void Refinement();
  void Featured(eval::ListTruthPage* truth);
  void MainList(int records, eval::ListTruthPage* truth);
  void Pagination(int search_page, int search_pages);
  void Footer();

  Rng& rng_;
  const PageContext& page_;
  const Style& style_;
  const ListingSiteOptions& options_;
  int* next_id_;
  Html h_;
};

void PageBuilder::Header() {
  h_.Open("header").Elem("a", "class=\"logo\" href=\"/\"", Esc(style_.site_name));
  if (options_.navigation) {
    h_.Open("nav").Open("ul");
    for (const char* item : homes() ? std::vector<const char*>(std::begin(kHomeNav), std::end(kHomeNav))
                                    : std::vector<const char*>(std::begin(kCarNav), std::end(kCarNav))) {
      h_.Elem("li", "", internal::Link(absl::StrCat("/", Slugify(item)), Esc(item)));
    }
    h_.Close().Close();
  }
  h_.Close();
}

void PageBuilder::Refinement() {
  h_.Open("aside", "class=\"refine\"").Elem("h2", "", "Refine your search");
  h_.Elem("h3", "", "Location").Open("ul", "class=\"places\"");
  const int places = static_cast<int>(rng_.Range(10, 16));
  for (int i = 0; i < places; ++i) {
    const std::string& place = RandomPlace(rng_);
    h_.Elem("li", "",
            absl::StrCat(internal::Link(absl::StrCat("/search?area=", Slugify(place)), Esc(place)),
                         " <span class=\"count\">(", rng_.Range(1, 240), ")</span>"));
  }
  h_.Close();
  const int64_t step = homes() ? (page_.let ? 250 : 50000) : 2000;
  for (const char* name : {"min_price", "max_price"}) {
    h_.Open("select", absl::StrCat("name=\"", name, "\""));
    h_.Elem("option", "value=\"\"", name[1] == 'i' ? "No min" : "No max");
    for (int i = 1; i <= 10; ++i) {
      h_.Elem("option", absl::StrCat("value=\"", i * step, "\""), Pounds(i * step));
    }
    h_.Close();
  }
  h_.Close();
}

void PageBuilder::Featured(eval::ListTruthPage* truth) {
  h_.Open("div", "class=\"featured\"")
      .Elem("h2", "", homes() ? "Featured properties" : "Featured cars")
      .Open("div", "class=\"cards\"");
  eval::TruthArea area;
  const int cards = static_cast<int>(rng_.Range(3, 4));
  for (int i = 0; i < cards; ++i) {
    *next_id_ += static_cast<int>(rng_.Range(1, 7));
    const std::string url =
        absl::StrCat("http://", style_.host, homes() ? "/property/" : "/car/", *next_id_);
    eval::TruthRecord r;
    r.link = url;
    std::string title;
    if (homes()) {
      // "3 bed Cottage": the card's bedrooms and property type.
      const std::string beds = std::to_string(rng_.Range(1, 6));
      const std::string type = Pick(rng_, kPropertyTypes);
      title = absl::StrCat(beds, " bed ", type);
      r.attributes["bedrooms"] = {beds, title};
      r.attributes["property_type"] = {type, title};
    } else {
      const CarMake& make = ListingCarMakes()[rng_.Uniform(ListingCarMakes().size())];
      const std::string& model = make.models[rng_.Uniform(make.models.size())];
      title = absl::StrCat(make.make, " ", model);
      r.attributes["make"] = {make.make, title};
      r.attributes["model"] = {model, title};
    }
    r.attributes["link"] = {url, title};
    const int64_t pounds = homes() ? (page_.let ? rng_.Range(18, 140) * 25 : rng_.Range(15, 300) * 5000)
                                   : rng_.Range(20, 650) * 100 - 5;
    const std::string price = Pounds(pounds);
    const std::string price_text = page_.let && homes() ? price + " pcm" : price;
    r.attributes["price"] = {price, price_text};
    const std::string place = rng_.Bernoulli(0.5) ? page_.area : RandomPlace(rng_);
    r.attributes["location"] = {place, place};
    h_.Elem("div", "class=\"card\"",
            absl::StrCat(internal::Link(url, absl::StrCat("<img src=\"/img/f", *next_id_,
                                                          ".jpg\" alt=\"\">")),
                         "<h4>", internal::Link(url, Esc(title)), "</h4><p class=\"card-price\">",
                         Esc(price_text), "</p><p class=\"card-location\">", Esc(place), "</p>"));
    area.records.push_back(std::move(r));
  }
  h_.Close().Close();
  truth->areas.push_back(std::move(area));
}

void PageBuilder::MainList(int records, eval::ListTruthPage* truth) {
  ListRenderer list(h_, style_);
  list.SetDepth();
  list.Open();
  const bool edge_noise = rng_.Bernoulli(options_.area_noise_fraction);
  const bool at_head = rng_.Bernoulli(0.5);
  if (edge_noise && at_head) {
    list.AddNoise({"notice", absl::StrCat("<strong>", records, " new</strong> results since your "
                                       "last visit")});
  }
  std::set<int> ad_slots;
  if (options_.ads && records > 2 && rng_.Bernoulli(0.6)) {
    const int ads = static_cast<int>(rng_.Range(1, 3));
    for (int i = 0; i < ads; ++i) ad_slots.insert(static_cast<int>(rng_.Range(1, records - 1)));
  }
  eval::TruthArea area;
  for (int i = 0; i < records; ++i) {
    if (ad_slots.count(i) > 0) list.AddNoise(Advert(rng_));
    Parts p = NextRecord();
    list.Record(p);
    area.records.push_back(std::move(p.truth));
  }
  if (edge_noise && !at_head) {
    list.AddNoise({"save-search", "<a href=\"#save\">Save this search</a> and get email alerts"});
  }
  list.Close();
  truth->areas.push_back(std::move(area));
}

void PageBuilder::Pagination(int search_page, int search_pages) {
  h_.Open("div", "class=\"pagination\"");
  const std::string base = absl::StrCat("/search?area=", Slugify(page_.area), "&page=");
  if (search_page > 1) h_.Raw(internal::Link(absl::StrCat(base, search_page - 1), "Previous"));
  for (int p = std::max(1, search_page - 2); p <= std::min(search_pages, search_page + 2); ++p) {
    h_.Raw(p == search_page ? absl::StrCat("<span class=\"current\">", p, "</span>")
                            : internal::Link(absl::StrCat(base, p), std::to_string(p)));
  }
  if (search_page < search_pages) h_.Raw(internal::Link(absl::StrCat(base, search_page + 1), "Next"));
  h_.Close();
}

void PageBuilder::Footer() {
  h_.Open("footer");
  if (options_.footer_towns) {
    h_.Elem("h3", "", "Popular searches").Open("ul", "class=\"towns\"");
    const int towns = static_cast<int>(rng_.Range(24, 34));
    for (int i = 0; i < towns; ++i) {
      const std::string& town = RandomPlace(rng_);
      h_.Elem("li", "", internal::Link(absl::StrCat("/search?area=", Slugify(town)),
                                       absl::StrCat(homes() ? "Property in " : "Used cars in ",
                                                    Esc(town))));
    }
    h_.Close();
  }
  h_.Elem("p", "class=\"legal\"", absl::StrCat("&copy; ", Esc(style_.site_name), " Ltd"));
  h_.Close();
}

std::string PageBuilder::Build(int records, int search_page, int search_pages,
                               eval::ListTruthPage* truth) {
  const std::string what = homes() ? (page_.let ? "Property to rent" : "Property for sale")
                                   : "Used cars";
  const std::string heading = absl::StrCat(what, homes() ? " in " : " near ", page_.area);
  h_.Raw("<!DOCTYPE html>");
  h_.Open("html", "lang=\"en-GB\"").Open("head").Void("meta", "charset=\"utf-8\"");
  h_.Elem("title", "", Esc(absl::StrCat(heading, " | ", style_.site_name)));
  h_.Void("link", "rel=\"stylesheet\" href=\"/static/site.css\"").Close();
  h_.Open("body");
  Header();
  h_.Open("main").Elem("h1", "", Esc(heading));
  const int total = search_pages * style_.per_page;
  h_.Elem("p", "class=\"result-count\"",
          absl::StrCat("Showing ", (search_page - 1) * style_.per_page + 1, " to ",
                       (search_page - 1) * style_.per_page + records, " of ", total, " results"));
  if (options_.average_price) {
    const int64_t average = homes() ? (page_.let ? rng_.Range(40, 120) * 25 : rng_.Range(30, 160) * 2500)
                                    : rng_.Range(40, 300) * 50;
    h_.Elem("p", "class=\"market\"",
            absl::StrCat("Average ", homes() ? "asking price" : "price", " in ", Esc(page_.area),
                         ": <b>", Pounds(average), "</b>"));
  }
  h_.Open("div", "class=\"layout\"");
  if (options_.refinement_menu) Refinement();
  h_.Open("section", "class=\"search-results\"");
  if (rng_.Bernoulli(options_.featured_fraction)) Featured(truth);
  MainList(records, truth);
  if (options_.pagination) Pagination(search_page, search_pages);
  h_.Close().Close().Close();  // section, layout, main
  Footer();
  return h_.Take() + "\n";
}

absl::Status CheckOptions(const ListingSiteOptions& o) {
  const auto bad = [](const std::string& what) { return absl::InvalidArgumentError(what); };
  if (o.pages < 0 || o.pages > kMaxPages) {
    return bad(absl::StrCat("listing site: pages ", o.pages, " is outside 0..", kMaxPages));
  }
  if (o.layout < -1 || o.layout >= kRecordLayouts) {
    return bad(absl::StrCat("listing site: layout ", o.layout, " is outside -1..",
                            kRecordLayouts - 1));
  }
  const bool default_records = o.min_records == 0 && o.max_records == 0;
  if (!default_records && (o.min_records < 1 || o.max_records > kMaxRecords ||
                           o.min_records > o.max_records)) {
    return bad(absl::StrCat("listing site: records ", o.min_records, "..", o.max_records,
                            " is not a range within 1..", kMaxRecords));
  }
  for (const auto& [name, value] : {std::pair<const char*, double>{"featured_fraction",
                                                                   o.featured_fraction},
                                    {"premium_fraction", o.premium_fraction},
                                    {"area_noise_fraction", o.area_noise_fraction}}) {
    if (!(value >= 0 && value <= 1)) {
      return bad(absl::StrCat("listing site: ", name, " ", value, " is outside 0..1"));
    }
  }
  return absl::OkStatus();
}

int DrawRecords(Rng& rng, const ListingSiteOptions& o, const Style& s) {
  if (o.min_records > 0) return static_cast<int>(rng.Range(o.min_records, o.max_records));
  if (s.short_pages && rng.Bernoulli(0.2)) return static_cast<int>(rng.Range(3, s.per_page));
  return s.per_page;
}

}  // namespace

absl::StatusOr<ListingDomain> ParseListingDomain(absl::string_view name) {
  if (name == "real_estate") return ListingDomain::kRealEstate;
  if (name == "used_cars") return ListingDomain::kUsedCars;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown listing domain '", std::string(name), "' (expected real_estate or used_cars)"));
}

std::string ListingDomainName(ListingDomain domain) {
  return domain == ListingDomain::kRealEstate ? "real_estate" : "used_cars";
}

const std::vector<std::string>& ListingAttributes(ListingDomain domain) {
  static const auto* const kHomes = new std::vector<std::string>{
      "price",     "location",   "postcode",      "bedrooms",     "bathrooms",
      "receptions", "property_type", "legal_status", "link"};
  static const auto* const kCars = new std::vector<std::string>{
      "make",        "model",  "price",     "year",     "mileage", "fuel", "transmission",
      "engine_size", "colour", "body_type", "location", "dealer",  "link"};
  return domain == ListingDomain::kRealEstate ? *kHomes : *kCars;
}

int RecordLength(RecordLayout layout) {
  switch (layout) {
    case RecordLayout::kDefinition:
    case RecordLayout::kTwoRows: return 2;
    case RecordLayout::kHeading3: return 3;
    case RecordLayout::kHeading4: return 4;
    default: return 1;
  }
}

std::string RecordLayoutName(RecordLayout layout) {
  static constexpr const char* kNames[] = {"li",    "div",        "tr",          "dt+dd",
                                           "tr+tr", "h3+div+div", "h3+div+div+p"};
  return kNames[static_cast<int>(layout)];
}

absl::StatusOr<ListingSite> GenerateListingSite(const ListingSiteOptions& options) {
  VERTEX_RETURN_IF_ERROR(CheckOptions(options));
  const Style style = DrawStyle(options);
  ListingSite site;
  site.host = style.host;
  site.domain = options.domain;
  site.layout = style.layout;
  site.grid = style.grid;
  Rng rng(Mix64(options.seed * 0x9e3779b97f4a7c15ULL + 0x11571e5ULL) +
          static_cast<uint64_t>(options.domain));
  std::set<std::string> urls;
  int next_id = static_cast<int>(rng.Range(100000, 200000));
  const int width = std::max<int>(4, std::to_string(std::max(0, options.pages - 1)).size());
  for (int i = 0; i < options.pages; ++i) {
    PageContext context{&options, &style, "", RandomPlace(rng), false};
    context.let = options.domain == ListingDomain::kRealEstate && rng.Bernoulli(0.25);
    const int search_pages = static_cast<int>(rng.Range(1, 12));
    int search_page = static_cast<int>(rng.Range(1, search_pages));
    do {
      context.page_url = absl::StrCat("http://", style.host, "/search?page=", search_page,
                                      "&area=", Slugify(context.area), context.let ? "&let=1" : "");
      ++search_page;
    } while (!urls.insert(context.page_url).second);
    --search_page;
    ListingPage page;
    page.file_name = Pad(i, width) + ".htm";
    page.url = context.page_url;
    page.truth.file = page.file_name;
    page.truth.url = page.url;
    const int records = DrawRecords(rng, options, style);
    page.html = PageBuilder(rng, context, &next_id)
                    .Build(records, search_page, std::max(search_pages, search_page), &page.truth);
    site.pages.push_back(std::move(page));
  }
  return site;
}

absl::Status WriteListingSite(const ListingSite& site, const std::string& dir) {
  std::vector<eval::ListTruthPage> truth;
  for (const ListingPage& page : site.pages) {
    VERTEX_RETURN_IF_ERROR(util::WriteFile(
        dir + "/" + page.file_name, absl::StrCat("<base href=\"", page.url, "\"/>\n", page.html)));
    truth.push_back(page.truth);
  }
  return eval::WriteListTruth(truth, dir + "/truth.jsonl");
}

const std::vector<std::string>& ListingPlaceNames() {
  static const auto* const kNames = [] {
    std::set<std::string> names;
    Rng rng(0x9a2e77e5ULL);
    // Most plain compounds, then decorated ones until there are enough.
    for (const char* root : kPlaceRoots) {
      for (const char* ending : kPlaceEndings) {
        if (rng.Bernoulli(0.8)) names.insert(absl::StrCat(root, ending));
      }
    }
    while (static_cast<int>(names.size()) < kPlaceCount) {
      const std::string root = Pick(rng, kPlaceRoots);
      const std::string base = absl::StrCat(root, Pick(rng, kPlaceEndings));
      names.insert(rng.Bernoulli(0.6) ? absl::StrCat(Pick(rng, kPlacePrefixes), base)
                                      : absl::StrCat(base, Pick(rng, kPlaceSuffixes)));
    }
    return new std::vector<std::string>(names.begin(), names.end());
  }();
  return *kNames;
}

const std::vector<CarMake>& ListingCarMakes() {
  static const auto* const kMakes = new std::vector<CarMake>{
      {"Audi", {"A1", "A3", "A4", "A6", "Q3", "Q5", "Q7", "TT"}},
      {"BMW", {"1 Series", "3 Series", "5 Series", "X1", "X3", "X5", "Z4"}},
      {"Ford", {"Fiesta", "Focus", "Kuga", "Mondeo", "Puma", "Ranger"}},
      {"Vauxhall", {"Corsa", "Astra", "Insignia", "Mokka", "Zafira"}},
      {"Volkswagen", {"Polo", "Golf", "Passat", "Tiguan", "T-Roc", "Up"}},
      {"Mercedes-Benz", {"A-Class", "C-Class", "E-Class", "GLA", "GLC"}},
      {"Toyota", {"Aygo", "Yaris", "Corolla", "C-HR", "RAV4", "Prius"}},
      {"Nissan", {"Micra", "Juke", "Qashqai", "X-Trail", "Leaf"}},
      {"Honda", {"Jazz", "Civic", "CR-V", "HR-V"}},
      {"Peugeot", {"108", "208", "308", "2008", "3008", "5008"}},
      {"Renault", {"Clio", "Captur", "Megane", "Kadjar", "Zoe"}},
      {"Citroen", {"C1", "C3", "C4", "C5 Aircross", "Berlingo"}},
      {"Kia", {"Picanto", "Rio", "Ceed", "Sportage", "Niro"}},
      {"Hyundai", {"i10", "i20", "i30", "Tucson", "Kona"}},
      {"Skoda", {"Fabia", "Octavia", "Superb", "Kodiaq", "Karoq"}},
      {"Seat", {"Ibiza", "Leon", "Arona", "Ateca"}},
      {"Mazda", {"Mazda2", "Mazda3", "CX-3", "CX-5", "MX-5"}},
      {"Fiat", {"500", "Panda", "Tipo"}},
      {"Mini", {"Hatch", "Clubman", "Countryman"}},
      {"Volvo", {"V40", "V60", "XC40", "XC60", "XC90"}},
      {"Land Rover", {"Defender", "Discovery", "Discovery Sport", "Range Rover Evoque"}},
      {"Jaguar", {"XE", "XF", "F-Pace", "E-Pace"}},
      {"Suzuki", {"Swift", "Vitara", "Ignis"}},
      {"Mitsubishi", {"Outlander", "ASX", "L200"}},
      {"Dacia", {"Sandero", "Duster", "Logan"}},
      {"Lexus", {"CT", "NX", "RX", "IS"}},
      {"Porsche", {"911", "Cayenne", "Macan"}},
      {"Tesla", {"Model 3", "Model S", "Model Y"}},
  };
  return *kMakes;
}

std::vector<std::string> GazetteerSample(const std::vector<std::string>& names, double fraction,
                                         uint64_t seed) {
  fraction = std::clamp(std::isnan(fraction) ? 0.0 : fraction, 0.0, 1.0);
  const size_t keep = static_cast<size_t>(std::llround(fraction * names.size()));
  // A seeded permutation; its first `keep` indices are the sample, so
  // samples of one seed are nested.
  std::vector<size_t> order(names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  Rng rng(Mix64(seed ^ 0x6a2e77ee7ULL));
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Uniform(i)]);
  order.resize(keep);
  std::sort(order.begin(), order.end());
  std::vector<std::string> out;
  out.reserve(keep);
  for (size_t i : order) out.push_back(names[i]);
  return out;
}

}  // namespace vertex::demo
