#include "common/demo/site_generator.h"

#include <algorithm>
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
#include "common/util/file.h"
#include "common/demo/text_util.h"
#include "common/eval/list_truth.h"
#include "common/html/text.h"
#include "common/util/random.h"
#include "common/util/status_macros.h"

namespace vertex::demo {
namespace {

using util::Rng;
using internal::Count;
using internal::Money;
using internal::Pad;
using internal::Pick;
using internal::Tenths;

// ---------------------------------------------------------------------------
// Word lists. Everything the pages say comes from here.
// ---------------------------------------------------------------------------

struct SubcategoryData {
  const char* name;
  const char* nouns[4];
};
struct CategoryData {
  const char* name;
  SubcategoryData subs[3];
};

constexpr CategoryData kCategories[] = {
    {"Electronics",
     {{"Audio", {"Wireless Headphones", "Bluetooth Speaker", "Soundbar", "Turntable"}},
      {"Computers",
       {"15.6\" Laptop Sleeve", "Wireless Mouse", "Mechanical Keyboard", "27\" Monitor"}},
      {"Cameras", {"Mirrorless Camera", "Travel Tripod", "Camera Backpack", "50mm Prime Lens"}}}},
    {"Home & Kitchen",
     {{"Cookware", {"Cast Iron Skillet", "Dutch Oven", "Saucepan Set", "Crème Brûlée Torch"}},
      {"Coffee & Tea", {"Espresso Maker", "Café Mug Set", "Pour-Over Kettle", "French Press"}},
      {"Bedding", {"Duvet Cover", "Linen Pillowcases", "Wool Throw", "Mattress Topper"}}}},
    {"Outdoors",
     {{"Camping", {"Two-Person Tent", "Sleeping Bag", "LED Headlamp", "Camp Stove"}},
      {"Hiking", {"Merino Hiking Socks", "Trekking Poles", "Daypack", "Water Filter"}},
      {"Cycling", {"Bike Helmet", "Saddle Bag", "Floor Pump", "Rear Light"}}}},
    {"Clothing",
     {{"Men's", {"Oxford Shirt", "Chino Trousers", "Rain Jacket", "Leather Belt"}},
      {"Women's", {"Wrap Dress", "Cashmere Sweater", "Denim Jacket", "Silk Scarf"}},
      {"Shoes", {"Running Shoes", "Chelsea Boots", "Canvas Sneakers", "Trail Sandals"}}}},
    {"Toys & Games",
     {{"Board Games", {"Strategy Board Game", "Party Card Game", "Chess Set", "Jigsaw Puzzle"}},
      {"Building", {"Wooden Block Set", "Marble Run", "Magnetic Tiles", "Robot Kit"}},
      {"Outdoor Play", {"Kite", "Jump Rope", "Water Blaster", "Scooter"}}}},
    {"Sports & Fitness",
     {{"Yoga", {"Yoga Mat", "Cork Yoga Block", "Meditation Cushion", "Stretch Strap"}},
      {"Strength", {"Adjustable Dumbbells", "Kettlebell", "Resistance Bands", "Pull-Up Bar"}},
      {"Running", {"Running Belt", "Hydration Vest", "GPS Watch", "Reflective Vest"}}}},
    {"Beauty",
     {{"Skin Care", {"Face Serum", "Night Cream", "Clay Mask", "Lip Balm Trio"}},
      {"Hair Care", {"Argan Oil Shampoo", "Hair Dryer", "Wide-Tooth Comb", "Styling Paste"}},
      {"Fragrance", {"Eau de Parfum", "Scented Candle", "Reed Diffuser", "Solid Cologne"}}}},
    {"Books & Media",
     {{"Cookbooks",
       {"Baking Cookbook", "Vegetarian Cookbook", "Grilling Guide", "Pâtisserie Handbook"}},
      {"Travel Guides", {"City Guide", "Road Atlas", "Phrasebook", "Hiking Guide"}},
      {"Music", {"Vinyl Record", "Guitar Songbook", "Ukulele", "Harmonica"}}}},
    {"Garden",
     {{"Tools", {"Pruning Shears", "Garden Trowel", "Hose Reel", "Wheelbarrow"}},
      {"Planters", {"Ceramic Planter", "Raised Garden Bed", "Hanging Basket", "Self-Watering Pot"}},
      {"Outdoor Living", {"Hammock", "Patio Lantern", "Fire Pit", "Bistro Set"}}}},
    {"Office",
     {{"Desk Accessories", {"Desk Organizer", "Monitor Stand", "Desk Lamp", "Cable Tray"}},
      {"Paper", {"Dotted Notebook", "Planner 2011", "Sticky Notes", "Fountain Pen"}},
      {"Furniture", {"Ergonomic Chair", "Standing Desk", "Filing Cabinet", "Bookshelf"}}}},
};
constexpr int kTopCategories = sizeof(kCategories) / sizeof(kCategories[0]);
constexpr int kSubsPerTop = 3;

constexpr const char* kCollections[] = {"New Arrivals", "Best Sellers", "Clearance", "Gift Ideas"};

constexpr const char* kBrands[] = {
    "Acme",         "Barrow & Finch", "Northwind",  "Lumière",   "Kessler",
    "Bergström",    "Hale & Sons",    "Orbital",    "Pinecrest", "Vantage",
    "Müller & Co.", "Sierra Peak",    "Brightwell", "Corvid",    "Nakamura",
    "Tidewater",    "Ironbark",       "Halcyon",    "Zephyr",    "Café Mondo",
    "Redwood Labs", "Kinetic",        "Novus",      "Aurelia",   "Peña Outfitters"};

constexpr const char* kAdjectives[] = {
    "Premium",         "Compact",     "Ultra-Light", "Classic",  "Deluxe",       "Professional",
    "Vintage",         "Ergonomic",   "Heavy-Duty",  "Everyday", "Eco-Friendly", "Essential",
    "Signature",       "Modern",      "Rustic",      "Travel",   "Pro",          "Original",
    "Limited Edition", "Handcrafted", "Smart",       "Slim"};

constexpr const char* kColors[] = {"Black",    "Slate Grey", "Navy",         "Crimson",
                                   "Olive",    "Ivory",      "Sand",         "Teal",
                                   "Charcoal", "Rosé",       "Forest Green", "Mustard"};

constexpr const char* kSuffixes[] = {
    ", 2 Pack",   " – Large", " (2011 Edition)", " with Carrying Case",
    ", Set of 4", " XL",      " – Refurbished",  " Mini"};

constexpr const char* kFirstNames[] = {
    "Sarah", "James", "Maria", "David", "Aisha",  "Tom",   "Chen",   "Olivia", "Lucas",
    "Emma",  "Noah",  "Zoë",   "Raj",   "Hannah", "Diego", "Fatima", "Kevin",  "Ingrid",
    "Mateo", "Grace", "Yuki",  "Peter", "Amélie", "Sam",   "Nina",   "Omar",   "Laura"};

constexpr const char* kLastNames[] = {
    "Keller", "Nguyen", "Okafor", "Smith",  "García",  "Johansson", "Patel", "Brown",
    "Rossi",  "Kim",    "Murphy", "Novak",  "Silva",   "Dubois",    "Cohen", "Larsen",
    "Walker", "Ito",    "Moreau", "Hughes", "Fischer", "Ramírez",   "Baker", "Quinn"};

struct CityData {
  const char* name;
  const char* state;
  const char* area_code;
  int zip_base;
};
constexpr CityData kCities[] = {
    {"Springfield", "IL", "217", 62701},  {"Portland", "OR", "503", 97201},
    {"Austin", "TX", "512", 73301},       {"Madison", "WI", "608", 53703},
    {"Boulder", "CO", "303", 80301},      {"Asheville", "NC", "828", 28801},
    {"Santa Fe", "NM", "505", 87501},     {"Burlington", "VT", "802", 5401},
    {"Ann Arbor", "MI", "734", 48103},    {"Savannah", "GA", "912", 31401},
    {"Boise", "ID", "208", 83702},        {"Tucson", "AZ", "520", 85701},
    {"Des Moines", "IA", "515", 50309},   {"Eugene", "OR", "541", 97401},
    {"Fort Collins", "CO", "970", 80521}, {"Chattanooga", "TN", "423", 37402},
    {"Spokane", "WA", "509", 99201},      {"Lexington", "KY", "859", 40507},
    {"Omaha", "NE", "402", 68102},        {"Albany", "NY", "518", 12207},
    {"Duluth", "MN", "218", 55802},       {"Reno", "NV", "775", 89501},
    {"Baton Rouge", "LA", "225", 70801},  {"Cañon City", "CO", "719", 81212},
    {"San José", "CA", "408", 95112},     {"Providence", "RI", "401", 2903},
    {"Missoula", "MT", "406", 59802},     {"Charleston", "SC", "843", 29401}};
constexpr int kCityCount = sizeof(kCities) / sizeof(kCities[0]);

constexpr const char* kStreets[] = {
    "Maple",     "Oak",    "Main",      "Church",   "Elm",      "Washington", "Lake",
    "Hillside",  "Market", "Riverside", "Cedar",    "Franklin", "Pine",       "Union",
    "Jefferson", "Park",   "Chestnut",  "Highland", "Mill",     "Broad",      "Sunset"};
constexpr const char* kStreetTypes[] = {"Street", "Avenue", "Boulevard", "Road",
                                        "Lane",   "Drive",  "Way",       "Plaza"};
constexpr const char* kNeighbourhoods[] = {
    "Downtown",         "Riverside",    "Northgate Mall", "Old Town", "University District",
    "Westfield Plaza",  "Harbor Point", "Eastside",       "Midtown",  "Lakeview",
    "Crossroads Center"};
constexpr const char* kChains[] = {"Vertex Demo Shop", "Vertex Outlet", "Vertex Express"};
constexpr const char* kServices[] = {
    "In-store pickup",       "Free Wi-Fi",        "Gift wrapping",   "Repairs & alterations",
    "Price matching",        "Personal shopping", "Curbside pickup", "Returns & exchanges",
    "Electronics recycling", "Engraving",         "Bike tune-ups",   "Tech support",
    "Custom framing",        "Key cutting"};
constexpr const char* kEvents[] = {"Coffee tasting with our baristas",
                                   "Kids' craft morning",
                                   "Camping gear clinic",
                                   "Holiday open house",
                                   "Trail running meetup",
                                   "Photography walk",
                                   "Author book signing",
                                   "Knife sharpening day",
                                   "Yoga in the park",
                                   "Repair café"};
constexpr const char* kDays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                 "Friday", "Saturday", "Sunday"};
constexpr const char* kMonths[] = {"January",   "February", "March",    "April",
                                   "May",       "June",     "July",     "August",
                                   "September", "October",  "November", "December"};

constexpr const char* kDescriptionSentences[] = {
    "The {b} {p} combines everyday practicality with a {a} design.",
    "Built to last, this {p} is made from carefully selected materials and backed by our "
    "satisfaction guarantee.",
    "Whether you are at home or on the go, the {p} adapts to the way you live.",
    "Its {c} finish looks great in any setting and resists scratches and fading.",
    "We tested dozens of prototypes before settling on the shape you see here.",
    "Every {p} is inspected by hand before it leaves our warehouse.",
    "Designed in collaboration with professionals, it delivers reliable performance day after "
    "day.",
    "Cleaning is simple: wipe with a damp cloth and let it air dry.",
    "The compact footprint makes it easy to store when not in use.",
    "Customers love how lightweight it feels without sacrificing durability.",
    "Pair it with other {b} accessories for a complete setup.",
    "A thoughtful gift for friends, family or yourself.",
    "Note: colours may vary slightly from the photos due to screen settings.",
    "This model replaces last year's version with improved comfort and a longer service life.",
    "All packaging is recyclable and printed with soy-based inks.",
    "Please allow 1–2 business days for processing before shipment.",
    "It meets or exceeds all applicable safety standards.",
    "The included quick-start guide gets you up and running in minutes."};

constexpr const char* kReviewSentences[] = {
    "Exactly as described and arrived two days early.",
    "I have owned several of these over the years and this is by far the best one.",
    "The quality is much better than I expected for the price.",
    "After three months of daily use it still looks brand new.",
    "Setup took less than ten minutes, even without reading the manual.",
    "My only complaint is that the {c} colour is a little darker than in the pictures.",
    "It does the job, but I wish the instructions were clearer.",
    "Customer service was quick to answer my questions.",
    "I would definitely buy from {b} again.",
    "Not the cheapest option, but you get what you pay for.",
    "The packaging was damaged, but the {p} itself was fine.",
    "Works great, looks great, no regrets.",
    "I returned the first one because of a defect; the replacement has been perfect.",
    "Smaller than I imagined, so check the dimensions before ordering.",
    "My whole family uses it and everyone is happy.",
    "Compared to my old {p}, this one is a huge improvement.",
    "Five stars for the design, three for the durability.",
    "Shipping was fast and the tracking updates were accurate.",
    "I'm on my second one and would buy a third.",
    "Does what it says on the box — nothing more, nothing less.",
    "Great value for money.",
    "The {a} look gets compliments from everyone who sees it."};

constexpr const char* kReviewTitles[] = {"Great value",         "Exactly what I needed",
                                         "Solid and well made", "Not bad at all",
                                         "Could be better",     "Love it!",
                                         "Disappointed",        "Five stars",
                                         "Works as advertised", "Better than expected",
                                         "Good but pricey",     "Would buy again",
                                         "Perfect gift",        "Does the job",
                                         "Highly recommended",  "Sturdy & reliable",
                                         "Returned it",         "\"Best purchase this year\""};

constexpr const char* kFeatures[] = {
    "Durable {c} finish", "Lightweight and portable", "1-year limited warranty",
    "Easy to clean",      "Includes storage pouch",   "Energy efficient",
    "Ergonomic grip",     "Water-resistant",          "Made from recycled materials",
    "Tool-free assembly", "Dishwasher safe",          "Adjustable fit"};

// The value model's cases (issue 12). Collections a product is shown in;
// the first four are kCollections (the breadcrumb's third level).
constexpr const char* kCollectionNames[] = {
    "New Arrivals", "Best Sellers",  "Clearance",      "Gift Ideas",
    "Spring Edit",  "Home Office",   "Staff Picks",    "Outdoor Essentials",
    "Holiday Shop", "Eco Collection", "Back to School", "Weekend Projects"};

// How a product's designers are joined in their one text node: one
// separator per page (by product id), every one a value model must split on.
constexpr const char* kDesignerSeparators[] = {", ", "; ", " and ", " & ", " / ", " | "};

// Taglines: {w} is the emphasised word (the one <em> of the value), {b} the
// brand, {c} the colour.
constexpr const char* kTaglines[] = {"Simply the {w} one we make.",
                                     "{b} at its {w} — now in {c}.",
                                     "Our {w} design yet, made by {b}.",
                                     "Quite possibly the {w} thing you will buy this year.",
                                     "Meet the {w} member of the {b} family.",
                                     "Small, {c} and the {w} in its class."};
constexpr const char* kTaglineWords[] = {
    "lightest", "toughest",       "quietest",         "smartest",  "simplest",
    "finest",   "most versatile", "most comfortable", "brightest", "boldest"};

// A unit price in one of three currencies, the symbol glued to the amount
// and followed by text ("£12.00 (inc VAT)"); the bare "€13.00" too.
struct UnitPriceStyle {
  const char* currency;
  const char* suffixes[2];
};
constexpr UnitPriceStyle kUnitPriceStyles[] = {{"£", {" (inc VAT)", " per kg (inc VAT)"}},
                                               {"€", {"", " / kg (incl. VAT)"}},
                                               {"$", {" each", " / 100 g"}}};

constexpr const char* kStoreSentences[] = {
    "Our {n} store opened in {y} and has been serving the {city} community ever since.",
    "You will find the full range of home, outdoor and electronics products on two floors.",
    "Free parking is available behind the building.",
    "Our staff are happy to help you find the right product or order it for you.",
    "Orders placed online before noon can be picked up the same afternoon.",
    "The store is wheelchair accessible and has a family restroom.",
    "Ask about our loyalty program at the checkout.",
    "Follow us online for in-store events and workshops."};

struct SpecData {
  const char* name;
  const char* values[3];
};
constexpr SpecData kSpecs[] = {
    {"Weight", {"", "", ""}},  // the product's own weight (Product::weight)
    {"Dimensions", {"30 x 20 x 10 cm", "12 x 8 x 4 in", "45 x 45 x 12 cm"}},
    {"Material", {"Recycled polyester", "Stainless steel", "Solid oak"}},
    {"Color", {"Black", "Navy", "Natural"}},
    {"Warranty", {"1 year", "2 years", "Lifetime"}},
    {"Power", {"40 W", "Battery", "USB-C, 5 V"}},
    {"Battery life", {"12 hours", "30 hours", "Not applicable"}},
    {"Country of origin", {"Portugal", "Vietnam", "USA"}},
    {"Care", {"Machine washable", "Hand wash only", "Wipe clean"}},
    {"In the box", {"Unit, manual", "Unit, cable, pouch", "Unit only"}}};

constexpr const char* kNavLinks[][7] = {
    {"Customer service", "Help center", "Track your order", "Returns & refunds",
     "Shipping information", "Product recalls", "Contact us"},
    {"About us", "Our story", "Careers", "Press", "Investor relations", "Sustainability",
     "Affiliate program"},
    {"Shop", "Gift cards", "Deals of the week", "New arrivals", "Best sellers", "Clearance",
     "Store locator"},
    {"Connect", "Facebook", "Twitter", "Instagram", "Pinterest", "Newsletter", "Blog"}};

// Critical CSS inlined in every page's head.
constexpr const char kInlineCss[] =
    "body{margin:0;font:14px/1.45 \"Helvetica Neue\",Arial,sans-serif;color:#222;"
    "background:#fff}a{color:#0b5cad;text-decoration:none}a:hover{text-decoration:underline}"
    "#site-header{border-bottom:1px solid #e3e3e3}.topbar{display:flex;justify-content:"
    "flex-end;gap:16px;margin:0;padding:4px 24px;list-style:none;font-size:12px;background:"
    "#f5f5f5}.masthead{display:flex;align-items:center;gap:24px;padding:12px 24px}.search"
    "{flex:1;display:flex}.search input{flex:1;padding:8px;border:2px solid #0b5cad;border-"
    "right:0}.search button{padding:8px 16px;background:#0b5cad;color:#fff;border:0}#main-"
    "nav .menu{display:flex;gap:4px;margin:0;padding:0 24px;list-style:none}#main-nav a{"
    "display:block;padding:10px 12px;font-weight:600}.breadcrumb ol{display:flex;gap:6px;"
    "list-style:none;padding:0;font-size:12px}.breadcrumb li+li:before{content:\"\\203A\";"
    "margin-right:6px;color:#999}.stars{display:inline-flex}.star{width:14px;height:14px;"
    "background:url(/static/img/stars.svg) no-repeat}.star-full{background-position:0 0}"
    ".star-half{background-position:-14px 0}.star-empty{background-position:-28px 0}.price"
    "{font-weight:700;color:#b12704}.btn{display:inline-block;padding:8px 14px;border-radius"
    ":3px;background:#f0c14b;border:1px solid #a88734}.ad{margin:16px 0;text-align:center}"
    ".ad-label{display:block;font-size:10px;color:#999;text-transform:uppercase}#site-footer"
    "{margin-top:40px;padding:24px;background:#232f3e;color:#ddd}#site-footer a{color:#ddd}"
    ".footer-columns{display:grid;grid-template-columns:repeat(4,1fr);gap:24px}"
    "@media (max-width:768px){.masthead{flex-wrap:wrap}.footer-columns{grid-template-"
    "columns:1fr 1fr}#main-nav .menu{overflow-x:auto}}";

struct SortData {
  const char* key;
  const char* label;
};
constexpr SortData kSorts[] = {{"relevance", "Relevance"},
                               {"price_asc", "Price: low to high"},
                               {"price_desc", "Price: high to low"},
                               {"rating", "Customer rating"},
                               {"newest", "Newest"}};

// Random URLs are redrawn this many times to avoid a repeat before a
// disambiguating parameter is added.
constexpr int kMaxUrlAttempts = 64;

constexpr const char* kRefs[] = {"homepage", "search", "email", "banner", "related", "social"};


// ---------------------------------------------------------------------------
// Text helpers.
// ---------------------------------------------------------------------------

struct EntityData {
  const char* text;
  const char* entity;
};
// Named entities used for "rich" encoding (titles, names); the minimal
// escaping keeps these characters as UTF-8.
constexpr EntityData kEntities[] = {
    {"&", "&amp;"},    {"<", "&lt;"},   {">", "&gt;"},     {"\"", "&quot;"},  {"é", "&eacute;"},
    {"è", "&egrave;"}, {"ü", "&uuml;"}, {"ö", "&ouml;"},   {"ñ", "&ntilde;"}, {"â", "&acirc;"},
    {"û", "&ucirc;"},  {"ë", "&euml;"}, {"í", "&iacute;"}, {"–", "&ndash;"},  {"—", "&mdash;"}};

// Escapes &, < and, in text, > or, in a double-quoted attribute value, ";
// other characters stay UTF-8.
std::string EscapeMarkup(absl::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size() + 8);
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>' && !attribute) {
      out += "&gt;";
    } else if (c == '"' && attribute) {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

// Text content.
std::string Esc(absl::string_view s) { return EscapeMarkup(s, false); }
// A double-quoted attribute value.
std::string EscAttr(absl::string_view s) { return EscapeMarkup(s, true); }

// Encodes text with named entities for markup characters, quotes and the
// accented letters and dashes of the word lists.
std::string Ent(absl::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80 && c != '&' && c != '<' && c != '>' && c != '"') {
      out += s[i++];
      continue;
    }
    bool replaced = false;
    for (const EntityData& e : kEntities) {
      const absl::string_view t(e.text);
      if (s.substr(i, t.size()) == t) {
        out += e.entity;
        i += t.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

// Locale-independent ASCII classification (UTF-8 bytes are left alone).
char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Lower-case ASCII slug: letters and digits kept, accented letters folded,
// everything else becomes one '-'.
std::string Slugify(absl::string_view s) {
  static constexpr EntityData kFold[] = {{"é", "e"}, {"è", "e"}, {"ü", "u"}, {"ö", "o"},
                                         {"ñ", "n"}, {"â", "a"}, {"û", "u"}, {"ë", "e"},
                                         {"í", "i"}, {"ä", "a"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::string piece;
    size_t len = 1;
    if (c < 0x80) {
      if (IsAsciiAlnum(c)) piece = AsciiLower(static_cast<char>(c));
    } else {
      len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      for (const EntityData& f : kFold) {
        if (s.substr(i, len) == f.text) piece = f.entity;
      }
    }
    if (!piece.empty()) {
      out += piece;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    i += len;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string Lower(absl::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}


// Replaces each "{key}" of `pattern` by its value.
std::string Fill(absl::string_view pattern,
                 const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out(pattern);
  for (const auto& [key, value] : values) {
    const std::string token = absl::StrCat("{", key, "}");
    for (size_t pos = out.find(token); pos != std::string::npos;
         pos = out.find(token, pos + value.size())) {
      out.replace(pos, token.size(), value);
    }
  }
  return out;
}

struct Date {
  int year, month, day;  // month 1-12
};

Date RandomDate(Rng& rng) {
  return {static_cast<int>(rng.Range(2008, 2011)), static_cast<int>(rng.Range(1, 12)),
          static_cast<int>(rng.Range(1, 28))};
}
std::string LongDate(const Date& d) {
  return absl::StrCat(kMonths[d.month - 1], " ", d.day, ", ", d.year);
}
std::string IsoDate(const Date& d) {
  return absl::StrCat(d.year, "-", Pad(d.month, 2), "-", Pad(d.day, 2));
}

// ---------------------------------------------------------------------------
// HTML builder: indented markup, one element per line unless inline.
// ---------------------------------------------------------------------------

class Html {
 public:
  // Markup starts at indentation level `depth`.
  explicit Html(int depth = 0) : depth_(depth) {}

  // <tag attrs> on a new line; what follows is indented until Close().
  Html& Open(absl::string_view tag, absl::string_view attrs = {}) {
    Line();
    Start(tag, attrs);
    ++depth_;
    return *this;
  }
  Html& Close(absl::string_view tag) {
    --depth_;
    Line();
    absl::StrAppend(&out_, "</", tag, ">");
    return *this;
  }
  // <tag attrs>inner</tag> on one line; `inner` is markup.
  Html& Elem(absl::string_view tag, absl::string_view attrs, absl::string_view inner) {
    Line();
    Start(tag, attrs);
    absl::StrAppend(&out_, inner, "</", tag, ">");
    return *this;
  }
  // Like Elem, with `text` escaped.
  Html& Text(absl::string_view tag, absl::string_view attrs, absl::string_view text) {
    return Elem(tag, attrs, Esc(text));
  }
  // A void element <tag attrs>.
  Html& Void(absl::string_view tag, absl::string_view attrs) {
    Line();
    Start(tag, attrs);
    return *this;
  }
  // Markup built by another Html at the current depth, on the next line.
  Html& Block(absl::string_view markup) {
    out_ += '\n';
    out_.append(markup.data(), markup.size());
    return *this;
  }
  // Markup on its own line.
  Html& Raw(absl::string_view markup) {
    Line();
    out_.append(markup.data(), markup.size());
    return *this;
  }
  std::string Take() { return std::move(out_); }

 private:
  void Line() {
    if (!out_.empty()) out_ += '\n';
    out_.append(static_cast<size_t>(std::max(depth_, 0)) * 2, ' ');
  }
  void Start(absl::string_view tag, absl::string_view attrs) {
    absl::StrAppend(&out_, "<", tag, attrs.empty() ? "" : " ", attrs, ">");
  }

  std::string out_;
  int depth_ = 0;
};

// ` name="value"`-free helpers for the common dynamic attributes.
std::string Href(absl::string_view url) { return absl::StrCat("href=\"", EscAttr(url), "\""); }
std::string Link(absl::string_view url, absl::string_view text_markup,
                 absl::string_view attrs = {}) {
  return absl::StrCat("<a ", Href(url), attrs.empty() ? "" : " ", attrs, ">", text_markup, "</a>");
}

// ---------------------------------------------------------------------------
// The catalog: products, categories and their URLs.
// ---------------------------------------------------------------------------

// How a page links to itself: "/p/x-1.html", "x-1.html" (against the page's
// own URL) or "http://HOST/p/x-1.html".
enum class LinkForm { kRootRelative, kDocumentRelative, kAbsolute };

struct Product {
  int id = 0;
  int top = 0;
  int sub = 0;
  int noun = 0;
  int crumb_depth = 2;  // 1-3 breadcrumb levels after "Home"
  int collection = 0;   // third breadcrumb level when crumb_depth == 3
  std::string title;    // decoded
  std::string brand;    // decoded; empty when the page shows none
  std::string color;
  std::string slug;
  std::string sku;
  std::string model;
  int64_t price_cents = 0;
  int64_t old_price_cents = 0;  // > 0 when on sale
  bool price_hidden = false;    // "See price in cart"
  std::string availability;
  int review_count = 0;
  int rating_tenths = 0;

  // The value model's cases, drawn by AddValueCases from a generator of
  // their own, so that adding them left the catalog above unchanged.
  LinkForm link_form = LinkForm::kRootRelative;  // of the "Copy link" href
  bool srcset = false;                           // the main image has a srcset too
  Date available_since = {2010, 1, 1};           // <time datetime> in the meta block
  std::string tagline;                           // decoded plain text
  std::string tagline_markup;                    // the same with its <em>
  std::string weight;                            // the specs table's Weight row
  int weight_row = 0;  // where that row goes when the drawn rows lack it
  std::vector<std::string> designers;  // joined by kDesignerSeparators[id % 6]
  int collection_name = 0;             // index into kCollectionNames
  int64_t collection_from_cents = 0;   // printed right before the collection's name
  int unit_style = 0;                  // index into kUnitPriceStyles
  int unit_suffix = 0;
  int64_t unit_cents = 0;
  int features = 4;  // 4, or 5 on about a third of the pages
  int first_feature = 0;
};

struct Site {
  SiteOptions options;
  std::vector<Product> catalog;
  std::vector<std::vector<int>> products_by_sub;  // index top * kSubsPerTop + sub
};

std::string Url(const Site& site, absl::string_view path) {
  return absl::StrCat("http://", site.options.host, path);
}
std::string ProductPath(const Product& p) {
  return absl::StrCat("/p/", p.slug, "-", p.id, ".html");
}
std::string TopSlug(int top) { return Slugify(kCategories[top].name); }
std::string SubSlug(int top, int sub) {
  return absl::StrCat(TopSlug(top), "-", Slugify(kCategories[top].subs[sub].name));
}
std::string ImagePath(int id, absl::string_view kind, int k) {
  return absl::StrCat("/img/p/", id / 1000, "/", id, "-", k, "-", kind, ".jpg");
}
const char* Noun(const Product& p) { return kCategories[p.top].subs[p.sub].nouns[p.noun]; }

std::string MakeTitle(Rng& rng, const Product& p) {
  std::string title;
  if (!p.brand.empty() && rng.Bernoulli(0.4)) absl::StrAppend(&title, p.brand, " ");
  if (rng.Bernoulli(0.7)) absl::StrAppend(&title, Pick(rng, kAdjectives), " ");
  if (rng.Bernoulli(0.25)) absl::StrAppend(&title, p.color, " ");
  absl::StrAppend(&title, Noun(p));
  if (rng.Bernoulli(0.3)) absl::StrAppend(&title, Pick(rng, kSuffixes));
  return title;
}

int64_t RandomPrice(Rng& rng) {
  static constexpr int kDollars[] = {9,  14,  19,  24,  29,  34,  39,  49,  59,  69,  79,  89,
                                     99, 119, 129, 149, 179, 199, 249, 299, 349, 499, 899, 1299};
  static constexpr int kCents[] = {99, 99, 95, 49, 0};
  return int64_t{Pick(rng, kDollars)} * 100 + Pick(rng, kCents);
}

std::string RandomAvailability(Rng& rng) {
  const double r = rng.UnitDouble();
  if (r < 0.65) return "In stock";
  if (r < 0.80) return absl::StrCat("Only ", rng.Range(2, 9), " left in stock");
  if (r < 0.92) return "Out of stock";
  return "Pre-order";
}

int RandomReviewCount(Rng& rng) {
  const double r = rng.UnitDouble();
  if (r < 0.01) return 0;
  if (r < 0.02) return 1;
  if (r < 0.50) return static_cast<int>(rng.Range(2, 12));
  if (r < 0.75) return static_cast<int>(rng.Range(13, 99));
  return static_cast<int>(rng.Range(100, 420));
}

void PricePart(Rng& rng, Product& p) {
  p.price_cents = RandomPrice(rng);
  if (rng.Bernoulli(0.22)) {
    const int64_t markup = p.price_cents * rng.Range(110, 160) / 100;
    p.old_price_cents = markup / 100 * 100 + 99;
  }
  p.price_hidden = rng.Bernoulli(0.01);
}

Product MakeProduct(Rng& rng, int index) {
  Product p;
  p.id = 10000 + index * 37 + static_cast<int>(rng.Uniform(37));
  p.top = static_cast<int>(rng.Uniform(kTopCategories));
  p.sub = static_cast<int>(rng.Uniform(kSubsPerTop));
  p.noun = static_cast<int>(rng.Uniform(4));
  const double depth = rng.UnitDouble();
  p.crumb_depth = depth < 0.99 ? 2 : 3;
  p.collection = static_cast<int>(rng.Uniform(Count(kCollections)));
  p.brand = rng.Bernoulli(0.99) ? Pick(rng, kBrands) : "";
  p.color = Pick(rng, kColors);
  p.title = MakeTitle(rng, p);
  p.slug = Slugify(p.title);
  p.sku = absl::StrCat(std::string(1, static_cast<char>('A' + rng.Uniform(26))),
                       std::string(1, static_cast<char>('A' + rng.Uniform(26))), "-",
                       Pad(p.id * 7 % 100000, 5));
  p.model =
      absl::StrCat(std::string(1, static_cast<char>('A' + rng.Uniform(26))), rng.Range(100, 9900));
  PricePart(rng, p);
  p.availability = RandomAvailability(rng);
  p.review_count = RandomReviewCount(rng);
  p.rating_tenths = static_cast<int>(rng.Bernoulli(0.15) ? rng.Range(10, 30) : rng.Range(30, 50));
  return p;
}

// "450 g", "1.25 kg", "3 kg".
std::string WeightText(int grams) {
  if (grams < 1000) return absl::StrCat(grams, " g");
  std::string fraction = Pad(grams % 1000 / 10, 2);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return absl::StrCat(grams / 1000, fraction.empty() ? "" : ".", fraction, " kg");
}

// 1 to 3 distinct designers; two at most when they are joined by " and ".
std::vector<std::string> RandomDesigners(Rng& rng, int separator) {
  const double r = rng.UnitDouble();
  int count = r < 0.25 ? 1 : r < 0.7 ? 2 : 3;
  if (absl::string_view(kDesignerSeparators[separator]) == " and ") count = std::min(count, 2);
  std::vector<std::string> names;
  while (static_cast<int>(names.size()) < count) {
    std::string name = absl::StrCat(Pick(rng, kFirstNames), " ", Pick(rng, kLastNames));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

// The tagline's plain text and its markup, the emphasised word in <em>.
void RandomTagline(Rng& rng, Product& p) {
  const std::vector<std::pair<std::string, std::string>> slots = {
      {"b", p.brand.empty() ? "Vertex" : p.brand}, {"c", Lower(p.color)}};
  const absl::string_view pattern = Pick(rng, kTaglines);
  const std::string word = Pick(rng, kTaglineWords);
  const size_t at = pattern.find("{w}");
  const std::string before = Fill(pattern.substr(0, at), slots);
  const std::string after = Fill(pattern.substr(at + 3), slots);
  p.tagline = absl::StrCat(before, word, after);
  p.tagline_markup = absl::StrCat(Ent(before), "<em>", Ent(word), "</em>", Ent(after));
}

// Draws the value model's cases of `p` from a generator seeded by the site
// seed and the product id (see Product).
void AddValueCases(uint64_t seed, Product& p) {
  Rng rng(util::Mix64(seed ^ 0x7a1e0ca5e5000000ULL ^ static_cast<uint64_t>(p.id)));
  p.link_form = p.id % 5 == 0   ? LinkForm::kAbsolute
                : p.id % 5 == 1 ? LinkForm::kDocumentRelative
                                : LinkForm::kRootRelative;
  p.srcset = p.id % 3 == 0;
  p.available_since = RandomDate(rng);
  RandomTagline(rng, p);
  const int grams = rng.Bernoulli(0.4) ? static_cast<int>(rng.Range(8, 99)) * 10
                                       : static_cast<int>(rng.Range(20, 240)) * 50;
  p.weight = WeightText(grams);
  p.weight_row = static_cast<int>(rng.Range(0, 9));
  p.designers = RandomDesigners(rng, p.id % Count(kDesignerSeparators));
  p.collection_name = p.crumb_depth == 3 ? p.collection
                                         : static_cast<int>(rng.Uniform(Count(kCollectionNames)));
  p.collection_from_cents = RandomPrice(rng);
  p.unit_style = p.id % Count(kUnitPriceStyles);
  p.unit_suffix = static_cast<int>(rng.Uniform(2));
  p.unit_cents = rng.Bernoulli(0.05) ? rng.Range(100000, 250000) : rng.Range(19, 4999);
  p.features = rng.Bernoulli(1.0 / 3) ? 5 : 4;
  p.first_feature = static_cast<int>(rng.Uniform(Count(kFeatures)));
}

Site MakeSite(const SiteOptions& options) {
  Site site;
  site.options = options;
  Rng rng(util::Mix64(options.seed ^ 0x5eed0ca7a1090000ULL));
  const int size = std::max(options.product_pages, 300);
  site.products_by_sub.resize(kTopCategories * kSubsPerTop);
  for (int i = 0; i < size; ++i) {
    site.catalog.push_back(MakeProduct(rng, i));
    AddValueCases(options.seed, site.catalog.back());
    const Product& p = site.catalog.back();
    site.products_by_sub[p.top * kSubsPerTop + p.sub].push_back(i);
  }
  return site;
}

// The value model's cases as the page shows them and as the truth holds
// them.

std::string ProductUrl(const Site& site, const Product& p) { return Url(site, ProductPath(p)); }

// The "Copy link" href: the product's URL in the form of p.link_form.
std::string SelfHref(const Site& site, const Product& p) {
  switch (p.link_form) {
    case LinkForm::kAbsolute:
      return ProductUrl(site, p);
    case LinkForm::kDocumentRelative:
      return absl::StrCat(p.slug, "-", p.id, ".html");
    case LinkForm::kRootRelative:
      break;
  }
  return ProductPath(p);
}

// <meta property="og:title">: the title and the brand, found nowhere else.
std::string OgTitle(const Product& p) {
  return p.brand.empty() ? p.title : absl::StrCat(p.title, " | ", p.brand);
}

std::string DesignersText(const Product& p) {
  return absl::StrJoin(p.designers, kDesignerSeparators[p.id % Count(kDesignerSeparators)]);
}

// "£12.00 (inc VAT)", "€13.00", "$4.99 / 100 g".
std::string UnitPriceText(const Product& p) {
  const UnitPriceStyle& style = kUnitPriceStyles[p.unit_style];
  return absl::StrCat(style.currency, internal::Amount(p.unit_cents), style.suffixes[p.unit_suffix]);
}

std::vector<std::string> FeatureTexts(const Product& p) {
  std::vector<std::string> features;
  for (int i = 0; i < p.features; ++i) {
    features.push_back(
        Fill(kFeatures[(p.first_feature + i) % Count(kFeatures)], {{"c", Lower(p.color)}}));
  }
  return features;
}
// ---------------------------------------------------------------------------
// Shared components.
//
// Variation budget: shingle clustering (10-tag windows, 8 min-hashes, masks
// of 6 of 8, pruning threshold 20) keeps a template in one cluster only while
// its pages share nearly all their distinct tag windows, and while the pages
// sharing any one structural variant are too few to form a cluster of their
// own. So pages of one template vary in text, attributes and the length of
// lists whose items are long enough for the windows to saturate (two or more
// items of >= 10 tags, four or more of 3-4 tags). The one common structural
// option is the sale price (a single <s> element, about 1 page in 5); every
// other one (a missing section, an ad, one review, a missing brand...) is on
// about 1% of the pages. Shared components (tiles, reviews, pagination) keep
// the same markup on every page; templates use different markup for similar
// things, so that they share little beyond the chrome.
// ---------------------------------------------------------------------------

// Five star icons for a rating in tenths.
std::string Stars(int tenths) {
  std::string out = absl::StrCat("<span class=\"stars\" title=\"", Tenths(tenths), " out of 5\">");
  for (int i = 1; i <= 5; ++i) {
    const char* kind = tenths >= i * 10 ? "full" : tenths >= i * 10 - 5 ? "half" : "empty";
    absl::StrAppend(&out, "<i class=\"star star-", kind, "\"></i>");
  }
  return out + "</span>";
}

struct Crumb {
  std::string label;  // decoded
  std::string path;   // empty for the current page
};

void Breadcrumb(Html& h, const std::vector<Crumb>& crumbs) {
  h.Open("nav", "class=\"breadcrumb\" aria-label=\"Breadcrumb\"").Open("ol");
  h.Elem("li", "", Link("/", "Home"));
  for (const Crumb& c : crumbs) {
    if (c.path.empty()) {
      h.Elem("li", "class=\"current\"", absl::StrCat("<span>", Ent(c.label), "</span>"));
    } else {
      h.Elem("li", "", Link(c.path, Ent(c.label)));
    }
  }
  h.Close("ol").Close("nav");
}

// Page links: previous, a window of up to five page numbers around `current`
// (1-based) of `total`, next, and "Page n of N". Disabled links and the
// current page keep their <a> (without href), as many shops do.
void Pagination(Html& h, absl::string_view base, absl::string_view extra, int current, int total) {
  auto link = [&](int n, absl::string_view label, absl::string_view cls) {
    if (n == current) {
      return absl::StrCat("<a class=\"", cls, " current\" aria-current=\"page\">", label, "</a>");
    }
    if (n < 1 || n > total) return absl::StrCat("<a class=\"", cls, " disabled\">", label, "</a>");
    return absl::StrCat("<a class=\"", cls, "\" ", Href(absl::StrCat(base, "?page=", n, extra)),
                        ">", label, "</a>");
  };
  const int first = std::clamp(current - 2, 1, std::max(1, total - 4));
  const int last = std::min(total, first + 4);
  h.Open("nav", "class=\"pagination\" aria-label=\"Pages\"").Open("ul");
  h.Elem("li", "class=\"prev\"", link(current - 1, "&lsaquo; Previous", "page-prev"));
  for (int n = first; n <= last; ++n) h.Elem("li", "", link(n, std::to_string(n), "page"));
  h.Elem("li", "class=\"next\"", link(current + 1, "Next &rsaquo;", "page-next"));
  h.Close("ul");
  h.Text("p", "class=\"page-of\"", absl::StrCat("Page ", current, " of ", total));
  h.Close("nav");
}

// An advertisement: <div class="ad"> holding an iframe or an image link.
void AdBlock(Html& h, Rng& rng, absl::string_view slot, bool iframe) {
  const uint64_t cb = rng.Next() % 1000000000;
  h.Open("div", absl::StrCat("class=\"ad ad-", slot, "\""));
  if (iframe) {
    h.Elem("iframe",
           absl::StrCat("src=\"http://ads.adnet.test/serve?slot=", slot, "&amp;cb=", cb,
                        "\" width=\"728\" height=\"90\" frameborder=\"0\" scrolling=\"no\""),
           "");
  } else {
    h.Elem("a",
           absl::StrCat("href=\"http://ads.adnet.test/click?slot=", slot, "&amp;cb=", cb,
                        "\" rel=\"nofollow\""),
           absl::StrCat("<img src=\"http://ads.adnet.test/banner/", cb % 97,
                        ".gif\" alt=\"Advertisement\" width=\"300\" height=\"250\">"));
  }
  h.Text("span", "class=\"ad-label\"", "Advertisement");
  h.Close("div");
}

std::string Author(Rng& rng) {
  return absl::StrCat(Pick(rng, kFirstNames), " ", std::string(Pick(rng, kLastNames)).substr(0, 1),
                      ".");
}

// A product tile of a category listing. Every tile has the same elements; a
// sale shows only as text.
void Tile(Html& h, const Product& q) {
  static constexpr const char* kBadges[] = {"New", "Online only", "Free shipping", "Bestseller"};
  const std::string href = ProductPath(q);
  h.Open("li", "class=\"tile\"");
  h.Open("div", "class=\"tile-image\"");
  h.Elem("a", Href(href),
         absl::StrCat("<img src=\"", ImagePath(q.id, "medium", 1), "\" alt=\"", EscAttr(q.title),
                      "\" width=\"200\" height=\"200\">"));
  h.Text("span", "class=\"badge\"", q.old_price_cents > 0 ? "Sale" : kBadges[q.id % 4]);
  h.Close("div");
  h.Elem("h3", "class=\"tile-name\"", Link(href, Ent(q.title)));
  h.Elem(
      "div", "class=\"tile-price\"",
      absl::StrCat("<span class=\"price\">", Money(q.price_cents), "</span> <span class=\"was\">",
                   q.old_price_cents > 0 ? "Was " + Money(q.old_price_cents) : "", "</span>"));
  h.Elem("div", "class=\"tile-rating\"",
         absl::StrCat(Stars(q.review_count > 0 ? q.rating_tenths : 0), " <span class=\"count\">(",
                      q.review_count, ")</span>"));
  h.Open("form", "class=\"quick-add\" action=\"/cart/add\" method=\"post\"");
  h.Void("input", absl::StrCat("type=\"hidden\" name=\"pid\" value=\"", q.id, "\""));
  h.Text("button", "type=\"submit\"", "Add to cart");
  h.Close("form").Close("li");
}

std::string ReviewText(Rng& rng, const Product& p, int sentences) {
  const std::vector<std::pair<std::string, std::string>> slots = {
      {"p", Lower(Noun(p))},
      {"b", p.brand.empty() ? "this brand" : p.brand},
      {"c", Lower(p.color)},
      {"a", Lower(Pick(rng, kAdjectives))}};
  std::string text;
  for (int i = 0; i < sentences; ++i) {
    absl::StrAppend(&text, i ? " " : "", Fill(Pick(rng, kReviewSentences), slots));
  }
  return text;
}

std::string TimeTag(const Date& date) {
  return absl::StrCat("<time datetime=\"", IsoDate(date), "\">", LongDate(date), "</time>");
}

// A review as the product page shows it.
void ShortReview(Html& h, Rng& rng, const Product& p) {
  const int64_t votes = rng.Range(0, 40);
  h.Open("li", "class=\"review\"");
  h.Open("div", "class=\"review-head\"").Raw(Stars(static_cast<int>(rng.Range(1, 5)) * 10));
  h.Elem("strong", "class=\"review-title\"", Ent(Pick(rng, kReviewTitles))).Close("div");
  h.Elem("p", "class=\"byline\"",
         absl::StrCat("By <span class=\"author\">", Esc(Author(rng)), "</span> on ",
                      TimeTag(RandomDate(rng))));
  h.Text("p", "class=\"review-text\"", ReviewText(rng, p, static_cast<int>(rng.Range(1, 4))));
  h.Elem("p", "class=\"helpful\"",
         absl::StrCat(votes == 0 ? 0 : rng.Range(0, votes), " of ", votes,
                      " people found this helpful. ", Link("#vote-yes", "Yes"), " ",
                      Link("#vote-no", "No")));
  h.Close("li");
}

// A review as the reviews template shows it.
void DetailedReview(Html& h, Rng& rng, const Product& p) {
  static constexpr const char* kBadges[] = {"Verified purchase", "Verified purchase",
                                            "Early reviewer", "Top contributor"};
  h.Open("li", "class=\"review\"");
  h.Open("div", "class=\"review-head\"").Raw(Stars(static_cast<int>(rng.Range(1, 5)) * 10));
  h.Elem("h3", "class=\"review-title\"", Ent(Pick(rng, kReviewTitles))).Close("div");
  h.Open("div", "class=\"review-meta\"");
  h.Raw(absl::StrCat("<span class=\"author\">", Esc(Author(rng)), "</span>"));
  h.Text("span", "class=\"location\"", absl::StrCat("from ", Pick(rng, kCities).name));
  h.Raw(TimeTag(RandomDate(rng)));
  h.Text("span", "class=\"badge\"", Pick(rng, kBadges)).Close("div");
  h.Open("div", "class=\"review-text\"");
  h.Text("p", "", ReviewText(rng, p, static_cast<int>(rng.Range(1, 7))));
  h.Close("div");
  h.Open("div", "class=\"review-foot\"");
  h.Text("span", "class=\"votes\"", absl::StrCat(rng.Range(0, 60), " people found this helpful"));
  h.Raw(absl::StrCat("Helpful? ", Link("#vote-yes", "Yes", "class=\"vote\""), " ",
                     Link("#vote-no", "No", "class=\"vote\""), " ",
                     Link("#report", "Report abuse", "class=\"report\"")));
  h.Close("div").Close("li");
}

// A <ul> of links, one <li><a> per (label, path).
void LinkList(Html& h, absl::string_view ul_attrs, const std::vector<Crumb>& links) {
  h.Open("ul", ul_attrs);
  for (const Crumb& link : links) h.Elem("li", "", Link(link.path, Ent(link.label)));
  h.Close("ul");
}

// ---------------------------------------------------------------------------
// Site chrome.
// ---------------------------------------------------------------------------

struct PageHead {
  std::string template_name;
  std::string title;        // decoded, without the site suffix
  std::string description;  // decoded
  std::string url;          // canonical: a product's without tracking parameters
  std::string page_id;
  std::string og_title = {};  // decoded; empty: `title`
};

// The inline configuration script; its session fields differ on every page.
std::string ConfigScript(Rng& rng, const PageHead& page) {
  return absl::StrCat(
      "window.VX = window.VX || {}; VX.config = {\"site\": \"vertex-demo\", \"locale\": "
      "\"en-US\", \"currency\": \"USD\", \"cdn\": \"/static/\", \"session\": \"",
      absl::Hex(rng.Next(), absl::kZeroPad16), "\", \"requestId\": \"",
      absl::Hex(rng.Next(), absl::kZeroPad16),
      "\", \"features\": {\"quickView\": true, \"wishlist\": true, \"liveChat\": ",
      rng.Bernoulli(0.5) ? "true" : "false",
      ", \"recommendations\": \"v2\"}, \"messages\": {\"addedToCart\": \"Added to your "
      "cart\", \"outOfStock\": \"Sorry, this item is out of stock\", \"networkError\": "
      "\"Something went wrong. Please try again.\"}}; window.dataLayer = window.dataLayer || "
      "[]; dataLayer.push({\"pageType\": \"",
      page.template_name, "\", \"pageId\": \"", page.page_id, "\", \"siteSection\": \"shop\"});");
}

void Head(Html& h, Rng& rng, const PageHead& page) {
  h.Open("head");
  h.Void("meta", "charset=\"utf-8\"");
  h.Elem("title", "", absl::StrCat(Ent(page.title), " | Vertex Demo Shop"));
  h.Void("meta", "name=\"viewport\" content=\"width=device-width, initial-scale=1\"");
  h.Void("meta", absl::StrCat("name=\"description\" content=\"", EscAttr(page.description), "\""));
  h.Void("meta", absl::StrCat("property=\"og:title\" content=\"",
                              EscAttr(page.og_title.empty() ? page.title : page.og_title), "\""));
  h.Void("meta", absl::StrCat("property=\"og:url\" content=\"", EscAttr(page.url), "\""));
  h.Void("link", absl::StrCat("rel=\"canonical\" ", Href(page.url)));
  h.Void("link", "rel=\"stylesheet\" href=\"/static/css/site.4f9c2e1a.css\"");
  h.Void("link", "rel=\"icon\" href=\"/favicon.ico\" type=\"image/x-icon\"");
  h.Elem("script", "src=\"/static/js/vendor.8d1e0b.js\"", "");
  h.Elem("style", "", kInlineCss);
  h.Elem("script", "", ConfigScript(rng, page));
  h.Close("head");
}

void Masthead(Html& h, Rng& rng) {
  h.Open("div", "class=\"masthead\"");
  h.Elem("a", "class=\"logo\" href=\"/\"",
         "<img src=\"/static/img/logo.png\" alt=\"Vertex Demo Shop\" width=\"180\" height=\"48\">");
  h.Open("form", "class=\"search\" action=\"/search\" method=\"get\" role=\"search\"");
  h.Void("input", "type=\"text\" name=\"q\" placeholder=\"Search products, brands and more\"");
  h.Text("button", "type=\"submit\"", "Search");
  h.Close("form");
  h.Elem("div", "class=\"cart\"",
         absl::StrCat("<a href=\"/cart\"><span class=\"icon-cart\"></span> Cart (<span "
                      "class=\"count\">",
                      rng.Bernoulli(0.7) ? 0 : rng.Range(1, 4), "</span>)</a>"));
  h.Close("div");
}

// The category menu: each top category with a drop-down of its subcategories.
void MainMenu(Html& h) {
  h.Open("nav", "id=\"main-nav\"").Open("ul", "class=\"menu\"");
  for (int top = 0; top < kTopCategories; ++top) {
    h.Open("li", "class=\"has-dropdown\"");
    h.Raw(Link(absl::StrCat("/c/", TopSlug(top)), Ent(kCategories[top].name)));
    h.Open("div", "class=\"dropdown\"");
    std::vector<Crumb> subs;
    for (int sub = 0; sub < kSubsPerTop; ++sub) {
      subs.push_back({kCategories[top].subs[sub].name, absl::StrCat("/c/", SubSlug(top, sub))});
    }
    LinkList(h, "", subs);
    h.Close("div").Close("li");
  }
  h.Close("ul").Close("nav");
}

void Header(Html& h, Rng& rng) {
  h.Open("header", "id=\"site-header\"");
  h.Open("ul", "class=\"topbar\"");
  h.Elem("li", "", Link("/help", "Help"));
  h.Elem("li", "", Link("/orders", "Track order"));
  h.Elem("li", "", Link("/stores", "Find a store"));
  h.Elem("li", "", Link("/account/login", "Sign in"));
  h.Close("ul");
  Masthead(h, rng);
  MainMenu(h);
  h.Close("header");
  static constexpr const char* kPromos[] = {"Free shipping on orders over $50",
                                            "Spring sale: up to 40% off outdoor gear",
                                            "New: buy online, pick up in store in 2 hours"};
  h.Elem(
      "div", "class=\"promo-banner\"",
      absl::StrCat("<p>", Pick(rng, kPromos), " &mdash; <a href=\"/promotions\">details</a></p>"));
}

void Footer(Html& h, const PageHead& page) {
  h.Open("footer", "id=\"site-footer\"").Open("div", "class=\"footer-columns\"");
  for (const auto& column : kNavLinks) {
    h.Open("div", "class=\"col\"").Text("h4", "", column[0]).Open("ul");
    for (int i = 1; i < 7; ++i) {
      h.Elem("li", "", Link(absl::StrCat("/info/", Slugify(column[i])), Esc(column[i])));
    }
    h.Close("ul").Close("div");
  }
  h.Close("div");
  h.Open("form", "class=\"newsletter\" action=\"/newsletter\" method=\"post\"");
  h.Text("label", "for=\"nl-email\"", "Get deals in your inbox");
  h.Void("input", "id=\"nl-email\" type=\"email\" name=\"email\"");
  h.Text("button", "type=\"submit\"", "Subscribe");
  h.Close("form");
  h.Open("ul", "class=\"trust\"");
  for (const char* badge : {"Secure checkout", "Free returns", "Price match"}) {
    h.Elem("li", "",
           absl::StrCat("<img src=\"/static/img/badge-", Slugify(badge),
                        ".svg\" alt=\"\" width=\"24\" height=\"24\"> ", badge));
  }
  h.Close("ul");
  h.Elem("p", "class=\"copyright\"", "&copy; 2011 Vertex Demo Shop, Inc. All rights reserved.");
  h.Close("footer");
  h.Elem("script", "",
         absl::StrCat("var _vq = _vq || []; _vq.push(['setAccount', 'VX-20417-1']); "
                      "_vq.push(['trackPageview', '",
                      page.page_id,
                      "']); (function() { var s = document.createElement('script'); s.async = "
                      "true; s.src = '/static/js/vq.js'; document.body.appendChild(s); })();"));
}

// Indentation level of a template's <main> element (inside <div id="page">).
constexpr int kBodyDepth = 1;

// The whole page: chrome around `body` (the template's <main> element, built
// by an Html starting at kBodyDepth).
std::string RenderPage(Rng& rng, const PageHead& page, const std::string& body) {
  Html h;
  h.Raw("<!DOCTYPE html>");
  h.Raw("<html lang=\"en\">");
  Head(h, rng, page);
  h.Raw(absl::StrCat("<body class=\"tpl-", page.template_name, "\">"));
  h.Open("div", "id=\"page\"");
  Header(h, rng);
  h.Block(body);
  Footer(h, page);
  h.Close("div");
  h.Raw("</body>");
  h.Raw("</html>");
  std::string out = h.Take();
  out += '\n';
  return out;
}

// ---------------------------------------------------------------------------
// Template "product".
// ---------------------------------------------------------------------------

// Structural options of one product page, drawn before rendering.
struct ProductLayout {
  int ad_slot = -1;  // -1: no ad; 0: under the breadcrumb; 1: in the summary; 2: after the tabs
  int thumbs = 4;
  int paragraphs = 3;
  bool specs = true;
  bool also_bought = true;
};

ProductLayout RandomProductLayout(Rng& rng) {
  ProductLayout layout;
  const double ad = rng.UnitDouble();
  layout.ad_slot = ad < 0.01 ? 0 : ad < 0.02 ? 1 : ad < 0.03 ? 2 : -1;
  const double thumbs = rng.UnitDouble();
  layout.thumbs = thumbs < 0.01 ? 1 : static_cast<int>(rng.Range(3, 6));
  layout.paragraphs = rng.Bernoulli(0.01) ? 4 : 3;
  layout.specs = rng.Bernoulli(0.99);
  layout.also_bought = rng.Bernoulli(0.99);
  return layout;
}

std::vector<Crumb> ProductCrumbs(const Product& p) {
  std::vector<Crumb> crumbs = {{kCategories[p.top].name, absl::StrCat("/c/", TopSlug(p.top))}};
  if (p.crumb_depth >= 2) {
    crumbs.push_back(
        {kCategories[p.top].subs[p.sub].name, absl::StrCat("/c/", SubSlug(p.top, p.sub))});
  }
  if (p.crumb_depth >= 3) {
    crumbs.push_back({kCollections[p.collection],
                      absl::StrCat("/c/", SubSlug(p.top, p.sub),
                                   "?collection=", Slugify(kCollections[p.collection]))});
  }
  return crumbs;
}

void Gallery(Html& h, const Product& p, int thumbs) {
  const std::string alt = EscAttr(p.title);
  // A srcset's first candidate is the src: both give the image's URL.
  const std::string srcset =
      p.srcset ? absl::StrCat(" srcset=\"", ImagePath(p.id, "large", 1), " 1x, ",
                              ImagePath(p.id, "zoom", 1), " 2x\"")
               : "";
  h.Open("div", "class=\"gallery\"");
  h.Elem("div", "class=\"main-image\"",
         absl::StrCat("<a class=\"zoom\" href=\"", ImagePath(p.id, "zoom", 1), "\"><img src=\"",
                      ImagePath(p.id, "large", 1), "\"", srcset, " alt=\"", alt,
                      "\" width=\"500\" height=\"500\" itemprop=\"image\"></a><span "
                      "class=\"zoom-hint\">Roll over image to zoom in</span>"));
  h.Open("ul", "class=\"thumbs\"");
  for (int k = 1; k <= thumbs; ++k) {
    h.Elem("li", k == 1 ? "class=\"thumb selected\"" : "class=\"thumb\"",
           absl::StrCat("<a href=\"", ImagePath(p.id, "large", k), "\"><img src=\"",
                        ImagePath(p.id, "thumb", k), "\" alt=\"", alt, " view ", k,
                        "\" width=\"64\" height=\"64\"><span class=\"sr-only\">Image ", k, " of ",
                        thumbs, "</span><i class=\"icon-zoom\"></i></a>"));
  }
  h.Close("ul");
  h.Elem("p", "class=\"gallery-links\"",
         absl::StrCat(Link("#video", "Watch the video", "class=\"video\""), " ",
                      Link(ImagePath(p.id, "zoom", 1), "View larger image", "class=\"larger\"")));
  h.Close("div");
}

// The mixed-content block: "<b>SKU:</b> AB-12345<br><b>Brand:</b> <a>..</a><br>...".
void MetaBlock(Html& h, Rng& rng, const Product& p) {
  std::string meta = absl::StrCat("<b>SKU:</b> ", Esc(p.sku), "<br>");
  if (!p.brand.empty()) {
    absl::StrAppend(
        &meta, "<b>Brand:</b> ",
        Link(absl::StrCat("/brand/", Slugify(p.brand)), Ent(p.brand), "itemprop=\"brand\""),
        "<br>");
  }
  absl::StrAppend(&meta, "<b>Model:</b> ", Esc(p.model), "<br><b>Ships:</b> within ",
                  rng.Range(1, 3), " business days<br><b>Available since:</b> ",
                  TimeTag(p.available_since));
  h.Elem("div", "class=\"meta\"", meta);
}

void RatingBlock(Html& h, const Product& p) {
  if (p.review_count == 0) {
    h.Elem(
        "div", "class=\"rating no-rating\"",
        absl::StrCat(Stars(0), " ", Link("#write-review", "Be the first to review this product")));
    return;
  }
  h.Elem("div", "class=\"rating\" itemprop=\"aggregateRating\"",
         absl::StrCat(
             Stars(p.rating_tenths), " <span class=\"rating-value\">", Tenths(p.rating_tenths),
             "</span> out of 5 ",
             Link("#reviews",
                  absl::StrCat("(", p.review_count, p.review_count == 1 ? " review)" : " reviews)"),
                  "class=\"review-count\"")));
}

// Regular, sale (the old price struck through and a "You save" line) or
// hidden ("see price in cart") price.
void PriceBlock(Html& h, Rng& rng, const Product& p) {
  static constexpr const char* kNotes[] = {"Price match guarantee", "Free returns within 30 days",
                                           "Lowest price in 30 days"};
  h.Open("div", "class=\"price-box\" itemprop=\"offers\"");
  if (p.old_price_cents > 0 && !p.price_hidden) {
    h.Text("s", "class=\"price-old\"", Money(p.old_price_cents));
  }
  if (p.price_hidden) {
    h.Text("span", "class=\"price-hidden\"", "Add to cart to see our price");
  } else {
    h.Text("span",
           p.old_price_cents > 0 ? "class=\"price price-sale\" itemprop=\"price\""
                                 : "class=\"price\" itemprop=\"price\"",
           Money(p.price_cents));
  }
  if (p.old_price_cents > 0 && !p.price_hidden) {
    const int64_t saved = p.old_price_cents - p.price_cents;
    h.Text("p", "class=\"you-save\"",
           absl::StrCat("You save ", Money(saved), " (", saved * 100 / p.old_price_cents, "%)"));
  } else {
    h.Text("p", "class=\"price-note\"", Pick(rng, kNotes));
  }
  h.Elem("p", "class=\"unit-price\"",
         absl::StrCat("Unit price: <span class=\"amount\">", Esc(UnitPriceText(p)), "</span>"));
  h.Close("div");
}

// The collection the product is shown in, its "from" price right before its
// name: a data value next to the value (it must not anchor a rule).
void CollectionBox(Html& h, const Product& p) {
  const char* name = kCollectionNames[p.collection_name];
  h.Open("div", "class=\"collection-box\"").Text("h3", "", "From the collection");
  h.Elem("p", "",
         absl::StrCat("<span class=\"from-price\">", Money(p.collection_from_cents), "</span> ",
                      Link(absl::StrCat("/collections/", Slugify(name)), Esc(name),
                           "class=\"collection-name\"")));
  h.Close("div");
}

void Promotions(Html& h, Rng& rng, const Product& p) {
  static constexpr const char* kCardOffers[] = {"5% back with the Vertex card",
                                                "No interest if paid in full in 6 months"};
  h.Open("ul", "class=\"promotions\"");
  h.Elem("li", "",
         absl::StrCat("<span class=\"icon icon-truck\"></span> ",
                      p.price_cents >= 5000 ? "Free shipping on this item"
                                            : "Free shipping on orders over $50",
                      " ", Link("/info/shipping-information", "Details")));
  h.Elem("li", "",
         absl::StrCat("<span class=\"icon icon-store\"></span> Pick up in store ",
                      Link("/stores", "Check availability")));
  h.Elem("li", "",
         absl::StrCat("<span class=\"icon icon-card\"></span> ", Pick(rng, kCardOffers), " ",
                      Link("/card", "Apply now")));
  h.Close("ul");
}

void Swatches(Html& h, Rng& rng, const Product& p) {
  h.Open("div", "class=\"swatches\"").Text("span", "class=\"option-label\"", "Color:");
  h.Open("ul");
  const int colors = static_cast<int>(rng.Range(4, 8));
  const int first = static_cast<int>(rng.Uniform(Count(kColors)));
  for (int i = 0; i < colors; ++i) {
    const std::string color = i == 0 ? p.color : kColors[(first + i) % Count(kColors)];
    const std::string slug = Slugify(color);
    h.Elem("li", i == 0 ? "class=\"selected\"" : "",
           absl::StrCat("<a href=\"?color=", slug, "\"><img src=\"/static/img/swatch/", slug,
                        ".png\" alt=\"\" width=\"24\" height=\"24\"><span>", Esc(color),
                        "</span></a>"));
  }
  h.Close("ul").Close("div");
}

void CartForm(Html& h, Rng& rng, const Product& p) {
  const bool buyable = p.availability != "Out of stock";
  h.Open("form", "class=\"add-to-cart\" action=\"/cart/add\" method=\"post\"");
  h.Void("input", absl::StrCat("type=\"hidden\" name=\"pid\" value=\"", p.id, "\""));
  h.Void("input", absl::StrCat("type=\"hidden\" name=\"token\" value=\"",
                               absl::Hex(rng.Next(), absl::kZeroPad16), "\""));
  h.Text("label", "for=\"qty\"", "Quantity");
  h.Open("select", "id=\"qty\" name=\"qty\"");
  for (int q = 1; q <= 5; ++q)
    h.Elem("option", absl::StrCat("value=\"", q, "\""), std::to_string(q));
  h.Close("select");
  h.Text("button", "type=\"submit\" class=\"btn btn-primary\"",
         buyable ? "Add to cart" : "Notify me when available");
  h.Close("form");
}

// Delivery estimate, store stock lookup and the row of small actions.
void BuyBoxTools(Html& h, const Product& p) {
  h.Open("form", "class=\"delivery\" action=\"/delivery-estimate\" method=\"get\"");
  h.Void("input", absl::StrCat("type=\"hidden\" name=\"pid\" value=\"", p.id, "\""));
  h.Text("label", "for=\"zip-estimate\"", "Delivery to");
  h.Void("input", "id=\"zip-estimate\" type=\"text\" name=\"zip\" size=\"5\"");
  h.Text("button", "type=\"submit\"", "Check");
  h.Close("form");
  h.Open("div", "class=\"store-stock\"").Text("h3", "", "Find it in a store");
  h.Open("form", "action=\"/stores/stock\" method=\"get\"");
  h.Text("label", "for=\"stock-zip\"", "ZIP code");
  h.Void("input", "id=\"stock-zip\" type=\"text\" name=\"zip\"");
  h.Text("button", "type=\"submit\"", "Search");
  h.Close("form");
  h.Elem("p", "class=\"small\"", Link("/stores", "See all stores"));
  h.Close("div");
  h.Open("div", "class=\"product-actions\"");
  h.Elem("label", "", "<input type=\"checkbox\" name=\"compare\"> Compare");
  h.Raw(Link("#print", "Print", "class=\"print\""));
  h.Raw(Link("#modal-email", "Email a friend", "class=\"email-friend\""));
  h.Raw(Link("/account/wishlist/add", "Add to wish list", "class=\"wishlist\""));
  h.Close("div");
}

void Summary(Html& h, Rng& rng, const Site& site, const Product& p, const ProductLayout& layout) {
  h.Open("div", "class=\"summary\"");
  h.Elem("h1", "class=\"product-title\" itemprop=\"name\"", Ent(p.title));
  h.Elem("p", "class=\"tagline\"", p.tagline_markup);
  h.Elem("p", "class=\"designers\"", Ent(absl::StrCat("Designed by ", DesignersText(p))));
  MetaBlock(h, rng, p);
  RatingBlock(h, p);
  PriceBlock(h, rng, p);
  const char* stock_class = p.availability == "Out of stock" ? "out-of-stock" : "in-stock";
  h.Elem("p", "class=\"availability\"",
         absl::StrCat("<span class=\"", stock_class, "\">", Esc(p.availability), "</span>"));
  CollectionBox(h, p);
  Promotions(h, rng, p);
  if (layout.ad_slot == 1) AdBlock(h, rng, "sidebar", /*iframe=*/false);
  Swatches(h, rng, p);
  CartForm(h, rng, p);
  BuyBoxTools(h, p);
  h.Open("ul", "class=\"share\"");
  for (const char* net : {"Facebook", "Twitter", "Pinterest", "Email"}) {
    h.Elem("li", "", Link(absl::StrCat("/share/", Lower(net), "?pid=", p.id), net));
  }
  h.Elem("li", "", Link(SelfHref(site, p), "Copy link", "class=\"copy-link\""));
  h.Close("ul").Close("div");
}

void Benefits(Html& h) {
  static constexpr const char* kBenefits[][2] = {
      {"Free returns", "Return any item within 30 days, no questions asked."},
      {"Secure checkout", "Your payment details are encrypted end to end."},
      {"Expert help", "Call us seven days a week at 1-800-555-0199."}};
  h.Open("div", "class=\"benefits\"").Open("dl");
  for (const auto& benefit : kBenefits) {
    h.Elem("dt", "",
           absl::StrCat("<img src=\"/static/img/benefit-", Slugify(benefit[0]),
                        ".svg\" alt=\"\" width=\"32\" height=\"32\"> ", benefit[0]));
    h.Text("dd", "", benefit[1]);
  }
  h.Close("dl").Close("div");
}

void TabNav(Html& h, bool specs) {
  std::vector<Crumb> tabs = {{"Description", "#description"}};
  if (specs) tabs.push_back({"Specifications", "#specs"});
  tabs.push_back({"Shipping & returns", "#shipping"});
  tabs.push_back({"Reviews", "#reviews"});
  LinkList(h, "class=\"tab-nav\" role=\"tablist\"", tabs);
}

void Description(Html& h, Rng& rng, const Product& p, int paragraphs) {
  const std::vector<std::pair<std::string, std::string>> slots = {
      {"p", Lower(Noun(p))},
      {"b", p.brand.empty() ? "Vertex" : p.brand},
      {"c", Lower(p.color)},
      {"a", Lower(Pick(rng, kAdjectives))}};
  h.Open("section", "id=\"description\" class=\"tab-panel\"").Text("h2", "", "Product description");
  h.Open("div", "class=\"description\" itemprop=\"description\"");
  for (int i = 0; i < paragraphs; ++i) {
    std::string text;
    const int sentences = static_cast<int>(rng.Range(2, 7));
    for (int s = 0; s < sentences; ++s) {
      absl::StrAppend(&text, s ? " " : "", Fill(Pick(rng, kDescriptionSentences), slots));
    }
    h.Text("p", "", text);
  }
  h.Open("ul", "class=\"features\"");
  for (const std::string& feature : FeatureTexts(p)) {
    h.Elem("li", "",
           absl::StrCat("<img src=\"/static/img/check.svg\" alt=\"\" width=\"12\" height=\"12\"> "
                        "<span>",
                        Esc(feature), "</span>"));
  }
  h.Close("ul").Close("div").Close("section");
}

// th/td rows, 4 to 10 of kSpecs from a random one on. The Weight row (the
// product's weight) is on every table, at a row that varies between pages.
void SpecsTable(Html& h, Rng& rng, const Product& p) {
  h.Open("section", "id=\"specs\" class=\"tab-panel\"").Text("h2", "", "Specifications");
  h.Open("table", "class=\"specs\"").Open("tbody");
  const int rows = static_cast<int>(rng.Range(4, Count(kSpecs)));
  const int first = static_cast<int>(rng.Uniform(Count(kSpecs)));
  std::vector<int> specs;
  for (int i = 0; i < rows; ++i) specs.push_back((first + i) % Count(kSpecs));
  constexpr int kWeight = 0;  // kSpecs[0]
  if (std::find(specs.begin(), specs.end(), kWeight) == specs.end()) {
    specs.insert(specs.begin() + p.weight_row % (rows + 1), kWeight);
  }
  for (int spec : specs) {
    const std::string value = spec == kWeight ? p.weight : Pick(rng, kSpecs[spec].values);
    h.Open("tr").Text("th", "scope=\"row\"", kSpecs[spec].name).Text("td", "", value);
    h.Close("tr");
  }
  h.Close("tbody").Close("table").Close("section");
}

void ShippingSection(Html& h, const Product& p) {
  static constexpr const char* kMethods[][3] = {{"Standard", "5–7 business days", "$5.99"},
                                                {"Expedited", "2–3 business days", "$12.99"},
                                                {"Overnight", "Next business day", "$24.99"},
                                                {"Store pickup", "Ready in 2 hours", "Free"}};
  h.Open("section", "id=\"shipping\" class=\"tab-panel\"").Text("h2", "", "Shipping & returns");
  h.Open("table", "class=\"shipping\"").Open("thead").Open("tr");
  h.Text("th", "", "Method").Text("th", "", "Delivery").Text("th", "", "Cost");
  h.Close("tr").Close("thead").Open("tbody");
  for (int m = 0; m < Count(kMethods); ++m) {
    const bool free = m == 0 && p.price_cents >= 5000;
    h.Open("tr").Text("td", "", kMethods[m][0]).Elem("td", "", Ent(kMethods[m][1]));
    h.Text("td", "", free ? "Free" : kMethods[m][2]).Close("tr");
  }
  h.Close("tbody").Close("table");
  h.Elem("p", "",
         absl::StrCat("Not completely satisfied? Return it within 30 days. ",
                      Link("/info/returns-refunds", "Read our return policy")));
  h.Close("section");
}

void AlsoBought(Html& h, Rng& rng, const Site& site) {
  h.Open("section", "class=\"also-bought\"")
      .Text("h2", "", "Customers who bought this also bought");
  h.Open("ul", "class=\"carousel\"");
  const int items = static_cast<int>(rng.Range(3, 8));
  for (int i = 0; i < items; ++i) {
    const Product& q = site.catalog[rng.Uniform(site.catalog.size())];
    h.Open("li", "class=\"carousel-item\"");
    h.Elem("a", absl::StrCat(Href(ProductPath(q)), " class=\"thumb\""),
           absl::StrCat("<img src=\"", ImagePath(q.id, "small", 1),
                        "\" alt=\"\" width=\"120\" "
                        "height=\"120\">"));
    h.Elem("a", absl::StrCat(Href(ProductPath(q)), " class=\"name\""), Ent(q.title));
    h.Text("span", "class=\"price\"", Money(q.price_cents));
    h.Raw(Stars(q.review_count > 0 ? q.rating_tenths : 0));
    h.Close("li");
  }
  h.Close("ul").Close("section");
}

void ReviewsSection(Html& h, Rng& rng, const Product& p) {
  h.Open("section", "id=\"reviews\"").Text("h2", "", "Customer reviews");
  const int shown = std::min(p.review_count, 5);
  if (shown == 0) {
    h.Text("p", "class=\"no-reviews\"", "There are no reviews yet.");
  } else {
    h.Elem("div", "class=\"reviews-summary\"",
           absl::StrCat("<span class=\"big\">", Tenths(p.rating_tenths), "</span> ",
                        Stars(p.rating_tenths), " <p>Based on ", p.review_count,
                        p.review_count == 1 ? " review" : " reviews", "</p>"));
    h.Open("ol", "class=\"reviews\"");
    for (int i = 0; i < shown; ++i) ShortReview(h, rng, p);
    h.Close("ol");
    h.Elem("p", "class=\"all-reviews\"",
           Link(absl::StrCat("/reviews/", p.id, "?page=1"),
                absl::StrCat("See all ", p.review_count, " reviews &raquo;")));
  }
  h.Elem("p", "id=\"write-review\"",
         Link(absl::StrCat("/reviews/write?pid=", p.id), "Write a review", "class=\"btn\""));
  h.Close("section");
}

void Questions(Html& h, Rng& rng, const Product& p) {
  static constexpr const char* kQuestions[][2] = {
      {"Is this compatible with the previous model?", "Yes, all accessories fit both."},
      {"Does it come with a warranty?", "It has a manufacturer warranty; see Specifications."},
      {"What are the exact dimensions?", "Please check the Specifications tab."},
      {"Can I buy replacement parts?", "Replacement parts are available from customer service."},
      {"Is it available in other colors?", "Available colors are shown above the cart button."},
      {"How heavy is it?", "It is lighter than it looks, easy to carry with one hand."}};
  h.Open("section", "id=\"questions\"").Text("h2", "", "Questions & answers").Open("dl");
  const int count = static_cast<int>(rng.Range(3, 5));
  const int first = static_cast<int>(rng.Uniform(Count(kQuestions)));
  for (int i = 0; i < count; ++i) {
    const auto& qa = kQuestions[(first + i) % Count(kQuestions)];
    h.Elem("dt", "", absl::StrCat("<span class=\"q\">Q:</span> ", Esc(qa[0])));
    h.Elem("dd", "",
           absl::StrCat("<span class=\"a\">A:</span> ", Esc(qa[1]), " <small>&mdash; ",
                        Esc(Author(rng)), "</small>"));
  }
  h.Close("dl");
  h.Elem("p", "", Link(absl::StrCat("/questions/ask?pid=", p.id), "Ask a question"));
  h.Close("section");
}

void RelatedAndRecent(Html& h, Rng& rng, const Product& p) {
  h.Open("section", "class=\"related-categories\"").Text("h2", "", "Shop related categories");
  std::vector<Crumb> links;
  const int count = static_cast<int>(rng.Range(6, 8));
  for (int i = 0; i < count; ++i) {
    const int top = (p.top + i / kSubsPerTop) % kTopCategories;
    const int sub = (p.sub + i) % kSubsPerTop;
    links.push_back({kCategories[top].subs[sub].name, absl::StrCat("/c/", SubSlug(top, sub))});
  }
  LinkList(h, "", links);
  h.Close("section");
  h.Open("section", "class=\"recently-viewed\"").Text("h2", "", "Recently viewed");
  h.Elem("div", "class=\"rv-list\" data-source=\"/api/recently-viewed\"", "");
  h.Elem("noscript", "", "<p>Enable JavaScript to see your recently viewed items.</p>");
  h.Close("section");
}

// Hidden dialogs that scripts open: "email a friend" and "added to cart".
void Dialogs(Html& h, const Product& p) {
  h.Open("div", "id=\"modal-email\" class=\"modal\" hidden").Open("div", "class=\"modal-dialog\"");
  h.Elem("div", "class=\"modal-header\"",
         "<h3>Email a friend</h3><button type=\"button\" class=\"close\">&times;</button>");
  h.Open("form", "class=\"modal-body\" action=\"/share/email\" method=\"post\"");
  h.Text("label", "for=\"to\"", "Friend's email")
      .Void("input", "id=\"to\" type=\"email\" name=\"to\"");
  h.Text("label", "for=\"from\"", "Your name")
      .Void("input", "id=\"from\" type=\"text\" name=\"from\"");
  h.Text("label", "for=\"msg\"", "Message").Elem("textarea", "id=\"msg\" name=\"msg\"", "");
  h.Elem("div", "class=\"modal-footer\"",
         "<button type=\"submit\">Send</button><button type=\"button\">Cancel</button>");
  h.Close("form").Close("div").Close("div");
  h.Open("div", "id=\"modal-cart\" class=\"modal\" hidden").Open("div", "class=\"modal-dialog\"");
  h.Text("h3", "", "Added to your cart");
  h.Elem("div", "class=\"mini-cart\"",
         absl::StrCat("<img src=\"", ImagePath(p.id, "small", 1),
                      "\" alt=\"\" width=\"80\" height=\"80\"><div><p class=\"name\">",
                      Ent(p.title), "</p><p class=\"qty\">Quantity: 1</p></div>"));
  h.Elem("div", "class=\"actions\"",
         absl::StrCat(Link("/cart", "View cart", "class=\"btn\""), " ",
                      Link("/checkout", "Checkout", "class=\"btn btn-primary\"")));
  h.Close("div").Close("div");
}

std::string ProductJsonLd(const Product& p) {
  std::string name;
  for (char c : p.title) {
    if (c == '"' || c == '\\') name += '\\';
    name += c;
  }
  return absl::StrCat("{\"@context\": \"http://schema.org\", \"@type\": \"Product\", \"name\": \"",
                      name, "\", \"sku\": \"", p.sku, "\", \"productID\": \"", p.id, "\"}");
}

void ProductTabs(Html& h, Rng& rng, const Product& p, const ProductLayout& layout) {
  h.Open("div", "class=\"tabs\"");
  TabNav(h, layout.specs);
  Description(h, rng, p, layout.paragraphs);
  if (layout.specs) SpecsTable(h, rng, p);
  ShippingSection(h, p);
  h.Close("div");
}

std::string ProductBody(Rng& rng, const Site& site, const Product& p,
                        const ProductLayout& layout) {
  Html h(kBodyDepth);
  h.Open("main", "id=\"content\" class=\"page-product\"");
  Breadcrumb(h, ProductCrumbs(p));
  if (layout.ad_slot == 0) AdBlock(h, rng, "leaderboard", /*iframe=*/true);
  h.Open("div", "class=\"product\" itemscope itemtype=\"http://schema.org/Product\"");
  Gallery(h, p, layout.thumbs);
  Summary(h, rng, site, p, layout);
  h.Close("div");
  Benefits(h);
  ProductTabs(h, rng, p, layout);
  if (layout.ad_slot == 2) AdBlock(h, rng, "inline", /*iframe=*/true);
  if (layout.also_bought) AlsoBought(h, rng, site);
  ReviewsSection(h, rng, p);
  Questions(h, rng, p);
  RelatedAndRecent(h, rng, p);
  Dialogs(h, p);
  h.Elem("script", "type=\"application/ld+json\"", ProductJsonLd(p));
  h.Close("main");
  return h.Take();
}

std::map<std::string, std::vector<std::string>> ProductTruth(const Site& site, const Product& p,
                                                             const ProductLayout& layout) {
  std::map<std::string, std::vector<std::string>> truth;
  truth["title"] = {p.title};
  truth["brand"] = p.brand.empty() ? std::vector<std::string>{} : std::vector{p.brand};
  truth["price"] = p.price_hidden ? std::vector<std::string>{} : std::vector{Money(p.price_cents)};
  truth["sku"] = {p.sku};
  truth["availability"] = {p.availability};
  truth["rating"] =
      p.review_count == 0 ? std::vector<std::string>{} : std::vector{Tenths(p.rating_tenths)};
  for (const Crumb& c : ProductCrumbs(p)) truth["category"].push_back(c.label);
  // The value model's cases: what a user expects, not what the markup holds
  // (absolute URLs, the ISO date, the price's number, the plain text).
  truth["link"] = {ProductUrl(site, p)};
  truth["image"] = {Url(site, ImagePath(p.id, "large", 1))};
  truth["og_title"] = {OgTitle(p)};
  truth["published"] = {IsoDate(p.available_since)};
  truth["unit_price"] = {internal::Amount(p.unit_cents)};
  truth["tagline"] = {p.tagline};
  truth["weight"] = layout.specs ? std::vector{p.weight} : std::vector<std::string>{};
  truth["designers"] = p.designers;
  truth["collection"] = {kCollectionNames[p.collection_name]};
  truth["features"] = FeatureTexts(p);
  return truth;
}

GeneratedPage ProductPage(Rng& rng, const Site& site, int index) {
  const Product& p = site.catalog[index];
  GeneratedPage page;
  page.template_name = "product";
  page.url = Url(site, ProductPath(p));
  if (rng.Bernoulli(0.3)) {
    absl::StrAppend(&page.url, "?ref=", Pick(rng, kRefs), "&color=", Slugify(p.color));
  }
  const ProductLayout layout = RandomProductLayout(rng);
  const std::string body = ProductBody(rng, site, p, layout);
  page.html =
      RenderPage(rng,
                 {"product", p.title, absl::StrCat("Buy ", p.title, " at Vertex Demo Shop."),
                  ProductUrl(site, p), absl::StrCat("p", p.id), OgTitle(p)},
                 body);
  page.truth = ProductTruth(site, p, layout);
  return page;
}

// ---------------------------------------------------------------------------
// Template "category".
// ---------------------------------------------------------------------------

struct Listing {
  int top = 0;
  int sub = 0;
  int page = 1;
  int pages = 1;
  int per_page = 24;
  int total = 0;
  int sort = 0;
  bool list_view = false;
};

Listing RandomListing(Rng& rng) {
  Listing l;
  l.top = static_cast<int>(rng.Uniform(kTopCategories));
  l.sub = static_cast<int>(rng.Uniform(kSubsPerTop));
  l.list_view = rng.Bernoulli(0.2);
  l.per_page = l.list_view ? 12 : 24;
  l.total = static_cast<int>(rng.Range(5 * l.per_page, 600));
  l.pages = (l.total + l.per_page - 1) / l.per_page;
  l.page = static_cast<int>(rng.Bernoulli(0.3) ? 1 : rng.Range(1, l.pages));
  // The last page holds at least 5 tiles.
  if (l.total - (l.pages - 1) * l.per_page < 5) l.total = (l.pages - 1) * l.per_page + 5;
  l.sort = static_cast<int>(rng.Uniform(Count(kSorts)));
  return l;
}

std::string CategoryPath(const Listing& l) { return absl::StrCat("/c/", SubSlug(l.top, l.sub)); }

void FilterList(Html& h, absl::string_view legend, absl::string_view name,
                const std::vector<std::string>& labels, Rng& rng) {
  h.Open("fieldset").Text("legend", "", legend).Open("ul");
  for (const std::string& label : labels) {
    h.Elem("li", "",
           absl::StrCat("<label><input type=\"checkbox\" name=\"", name, "\" value=\"",
                        Slugify(label), "\"> ", Ent(label), " <span class=\"count\">(",
                        rng.Range(1, 60), ")</span></label>"));
  }
  h.Close("ul").Close("fieldset");
}

void Filters(Html& h, Rng& rng, const Listing& l) {
  h.Open("aside", "class=\"filters\"").Text("h2", "", "Refine results");
  h.Open("form", absl::StrCat("action=\"", CategoryPath(l), "\" method=\"get\""));
  std::vector<std::string> brands;
  const int brand_count = static_cast<int>(rng.Range(4, 8));
  const int first = static_cast<int>(rng.Uniform(Count(kBrands)));
  for (int i = 0; i < brand_count; ++i) brands.push_back(kBrands[(first + i * 3) % Count(kBrands)]);
  FilterList(h, "Brand", "brand", brands, rng);
  FilterList(h, "Price", "price",
             {"Under $25", "$25 to $50", "$50 to $100", "$100 to $200", "$200 & above"}, rng);
  FilterList(h, "Customer rating", "rating", {"4 stars & up", "3 stars & up", "2 stars & up"}, rng);
  FilterList(h, "Availability", "stock", {"In stock online", "Available in stores"}, rng);
  h.Text("button", "type=\"submit\"", "Apply filters");
  h.Elem("p", "", Link(CategoryPath(l), "Clear all filters", "class=\"clear\""));
  h.Close("form").Close("aside");
}

void SortSelect(Html& h, const Listing& l) {
  h.Text("label", "for=\"sort\"", "Sort by");
  h.Open("select", "id=\"sort\" name=\"sort\"");
  for (int s = 0; s < Count(kSorts); ++s) {
    h.Text("option", absl::StrCat("value=\"", kSorts[s].key, "\"", s == l.sort ? " selected" : ""),
           kSorts[s].label);
  }
  h.Close("select");
  h.Text("label", "for=\"per-page\"", "Show");
  h.Open("select", "id=\"per-page\" name=\"per_page\"");
  for (int n : {12, 24, 48}) {
    h.Text("option", absl::StrCat("value=\"", n, "\"", n == l.per_page ? " selected" : ""),
           std::to_string(n));
  }
  h.Close("select");
}

void Toolbar(Html& h, const Listing& l) {
  const int from = (l.page - 1) * l.per_page + 1;
  const int to = std::min(l.total, l.page * l.per_page);
  h.Open("div", "class=\"toolbar\"");
  h.Text("p", "class=\"result-count\"",
         absl::StrCat("Showing ", from, "–", to, " of ", l.total, " results"));
  h.Open("form", "class=\"sort\" method=\"get\"");
  SortSelect(h, l);
  h.Elem("span", "class=\"views\"",
         absl::StrCat(Link("?view=grid", "Grid", l.list_view ? "" : "class=\"on\""), " ",
                      Link("?view=list", "List", l.list_view ? "class=\"on\"" : "")));
  h.Close("form").Close("div");
}

// Renders the tiles and appends each as a record to `area`: title (the
// name link's text), price and link (the product URL).
void ProductGrid(Html& h, const Site& site, const Listing& l, eval::TruthArea* area) {
  const std::vector<int>& pool = site.products_by_sub[l.top * kSubsPerTop + l.sub];
  const int tiles = std::min(l.per_page, l.total - (l.page - 1) * l.per_page);
  h.Open("ul", absl::StrCat("class=\"products ", l.list_view ? "list" : "grid", "\""));
  for (int i = 0; i < tiles; ++i) {
    const size_t k = static_cast<size_t>(l.page) * 7 + l.sort * 3 + i;
    const int index =
        pool.empty() ? static_cast<int>(k % site.catalog.size()) : pool[k % pool.size()];
    const Product& q = site.catalog[index];
    Tile(h, q);
    eval::TruthRecord record;
    record.link = Url(site, ProductPath(q));
    const std::string title = html::NormalizeSpace(q.title);
    record.attributes["title"] = {title, title};
    record.attributes["price"] = {Money(q.price_cents), Money(q.price_cents)};
    record.attributes["link"] = {record.link, title};
    area->records.push_back(std::move(record));
  }
  h.Close("ul");
}

void CategoryHeader(Html& h, const Listing& l) {
  const std::string sub_name = kCategories[l.top].subs[l.sub].name;
  h.Open("div", "class=\"category-banner\"");
  h.Void("img", absl::StrCat("src=\"/img/c/", SubSlug(l.top, l.sub),
                             "-banner.jpg\" alt=\"\" width=\"960\" height=\"120\""));
  h.Open("div", "class=\"banner-text\"");
  h.Elem("h1", "class=\"category-title\"", Ent(sub_name));
  h.Text("p", "class=\"category-intro\"",
         absl::StrCat("Discover our selection of ", Lower(sub_name), " in ",
                      Lower(kCategories[l.top].name),
                      " from the brands you love, with free returns on every order."));
  h.Close("div").Close("div");
}

// Fixed editorial blocks under the listing: a buying guide and top brands.
void CategoryExtras(Html& h, const Listing& l) {
  static constexpr const char* kGuide[][2] = {
      {"How to choose", "Think about how often you will use it and where."},
      {"What to look for", "Check the materials, the warranty and the reviews."},
      {"Caring for it", "Follow the care instructions to make it last for years."}};
  const std::string sub_name = kCategories[l.top].subs[l.sub].name;
  h.Open("section", "class=\"buying-guide\"")
      .Elem("h2", "", absl::StrCat(Ent(sub_name), " buying guide"));
  for (const auto& entry : kGuide) {
    h.Open("div", "class=\"guide-entry\"").Text("h3", "", entry[0]).Text("p", "", entry[1]);
    h.Close("div");
  }
  h.Close("section");
  h.Open("section", "class=\"top-brands\"").Text("h2", "", "Top brands").Open("ul");
  for (int i = 0; i < 6; ++i) {
    const std::string brand = kBrands[(l.top * 5 + l.sub * 3 + i * 4) % Count(kBrands)];
    h.Elem("li", "",
           Link(absl::StrCat("/brand/", Slugify(brand)),
                absl::StrCat("<img src=\"/img/brands/", Slugify(brand), ".png\" alt=\"",
                             EscAttr(brand), "\" width=\"100\" height=\"40\">")));
  }
  h.Close("ul").Close("section");
}

// An expert-advice box and a stock-alert signup form.
void CategoryHelp(Html& h, const Listing& l) {
  h.Open("aside", "class=\"expert\"");
  h.Void("img", "src=\"/static/img/expert.jpg\" alt=\"\" width=\"64\" height=\"64\"");
  h.Open("div").Text("h3", "", "Need help choosing?");
  h.Text("p", "", "Our product experts answer your questions by phone or chat.");
  h.Elem("p", "class=\"phone\"",
         "Call <span class=\"tel\">1-800-555-0199</span> or "
         "<a href=\"/chat\" class=\"btn\">start a chat</a>");
  h.Close("div").Close("aside");
  h.Open("form", "class=\"category-alerts\" action=\"/alerts\" method=\"post\"");
  h.Open("fieldset").Text("legend", "", "Get new arrivals by email");
  h.Void("input",
         absl::StrCat("type=\"hidden\" name=\"category\" value=\"", SubSlug(l.top, l.sub), "\""));
  h.Elem("label", "", "Email <input type=\"email\" name=\"email\">");
  h.Open("select", "name=\"frequency\"");
  for (const char* f : {"Weekly", "Monthly"}) h.Text("option", "", f);
  h.Close("select");
  h.Text("button", "type=\"submit\"", "Sign up");
  h.Close("fieldset").Close("form");
}

// A promotional hero and questions with collapsible answers.
void HeroAndFaq(Html& h, const Listing& l) {
  const std::string sub_name = kCategories[l.top].subs[l.sub].name;
  h.Open("div", "class=\"hero\"").Open("picture");
  h.Void("source", absl::StrCat("srcset=\"/img/c/", SubSlug(l.top, l.sub),
                                "-hero.webp\" type=\"image/webp\""));
  h.Void("img", absl::StrCat("src=\"/img/c/", SubSlug(l.top, l.sub),
                             "-hero.jpg\" alt=\"\" width=\"960\" height=\"240\""));
  h.Close("picture");
  h.Elem("div", "class=\"hero-text\"",
         absl::StrCat("<h2>New season ", Ent(Lower(sub_name)),
                      "</h2><p>Fresh picks from the "
                      "brands you love.</p><a class=\"btn\" href=\"?sort=newest\">Shop new</a>"));
  h.Close("div");
  h.Open("section", "class=\"faq\"").Text("h2", "", "Frequently asked questions");
  for (const char* q : {"Can I return an item bought online in a store?",
                        "Do you offer price matching?", "How long does delivery take?"}) {
    h.Elem("details", "",
           absl::StrCat("<summary>", Esc(q), "</summary><p>Yes &mdash; see our ",
                        Link("/help", "help center"), " for details.</p>"));
  }
  h.Close("section");
}

// The hidden "quick view" dialog that scripts fill for a tile.
void QuickView(Html& h) {
  h.Open("div", "id=\"quick-view\" class=\"modal\" hidden").Open("div", "class=\"modal-dialog\"");
  h.Elem("div", "class=\"qv-gallery\"", "<img src=\"/static/img/blank.gif\" alt=\"\">");
  h.Open("div", "class=\"qv-info\"");
  h.Elem("h3", "class=\"qv-title\"", "").Elem("p", "class=\"qv-price\"", "");
  h.Open("form", "action=\"/cart/add\" method=\"post\"");
  h.Void("input", "type=\"number\" name=\"qty\" value=\"1\" min=\"1\"");
  h.Text("button", "type=\"submit\"", "Add to cart").Close("form");
  h.Elem("a", "class=\"qv-details\" href=\"#\"", "View full details");
  h.Close("div");
  h.Elem("button", "type=\"button\" class=\"close\" aria-label=\"Close\"", "&times;");
  h.Close("div").Close("div");
}

// The hidden product comparison bar that scripts fill.
void CompareBar(Html& h) {
  h.Open("div", "id=\"compare-bar\" class=\"compare-bar\" hidden");
  h.Elem("p", "", "<strong>Compare</strong> up to 4 products <span class=\"count\">0</span>");
  h.Elem("ol", "class=\"compare-slots\"", "");
  h.Elem("div", "class=\"compare-actions\"",
         "<button type=\"button\" class=\"btn\">Compare now</button> <a href=\"#clear\">"
         "Clear</a>");
  h.Close("div");
}

std::string CategoryBody(Rng& rng, const Site& site, const Listing& l, eval::TruthArea* area) {
  const std::string sub_name = kCategories[l.top].subs[l.sub].name;
  Html h(kBodyDepth);
  h.Open("main", "id=\"content\" class=\"page-category\"");
  Breadcrumb(h, {{kCategories[l.top].name, absl::StrCat("/c/", TopSlug(l.top))}, {sub_name, ""}});
  CategoryHeader(h, l);
  HeroAndFaq(h, l);
  h.Open("div", "class=\"category-layout\"");
  Filters(h, rng, l);
  h.Open("section", "class=\"listing\"");
  Toolbar(h, l);
  ProductGrid(h, site, l, area);
  Pagination(h, CategoryPath(l), absl::StrCat("&sort=", kSorts[l.sort].key), l.page, l.pages);
  h.Close("section").Close("div");
  CategoryExtras(h, l);
  CategoryHelp(h, l);
  CompareBar(h);
  QuickView(h);
  h.Close("main");
  return h.Take();
}

GeneratedPage CategoryPage(Rng& rng, const Site& site, std::set<std::string>& urls) {
  Listing l;
  GeneratedPage page;
  page.template_name = "category";
  for (int attempt = 0;; ++attempt) {
    l = RandomListing(rng);
    page.url =
        Url(site, absl::StrCat(CategoryPath(l), "?page=", l.page, "&sort=", kSorts[l.sort].key,
                               l.list_view ? "&view=list" : ""));
    if (attempt >= kMaxUrlAttempts) absl::StrAppend(&page.url, "&v=", attempt);
    if (urls.insert(page.url).second) break;
  }
  const std::string name = kCategories[l.top].subs[l.sub].name;
  eval::TruthArea area;
  const std::string body = CategoryBody(rng, site, l, &area);
  page.list_truth.url = page.url;
  page.list_truth.areas.push_back(std::move(area));
  page.html = RenderPage(
      rng,
      {"category", absl::StrCat(name, " - ", kCategories[l.top].name, " - Page ", l.page),
       absl::StrCat("Shop ", name, " at Vertex Demo Shop."), page.url,
       absl::StrCat("c-", SubSlug(l.top, l.sub))},
      body);
  return page;
}

// ---------------------------------------------------------------------------
// Template "reviews".
// ---------------------------------------------------------------------------

constexpr int kReviewsPerPage = 20;
// Only products with this many reviews get review pages, so the pagination
// always shows its full window of five page numbers.
constexpr int kMinReviewsForPages = 100;

void ProductMini(Html& h, const Product& p) {
  h.Open("div", "class=\"product-mini\"");
  h.Elem("a", absl::StrCat(Href(ProductPath(p)), " class=\"thumb\""),
         absl::StrCat("<img src=\"", ImagePath(p.id, "small", 1), "\" alt=\"", EscAttr(p.title),
                      "\" width=\"120\" height=\"120\">"));
  h.Open("div", "class=\"info\"");
  h.Elem("h1", "", absl::StrCat("Customer reviews for ", Link(ProductPath(p), Ent(p.title))));
  if (!p.brand.empty()) {
    h.Elem("p", "class=\"brand\"",
           absl::StrCat("by ", Link(absl::StrCat("/brand/", Slugify(p.brand)), Ent(p.brand))));
  }
  h.Text("p", "class=\"price\"", Money(p.price_cents));
  h.Close("div").Close("div");
}

void Histogram(Html& h, Rng& rng, const Product& p) {
  h.Open("div", "class=\"rating-summary\"");
  h.Elem("div", "class=\"average\"",
         absl::StrCat("<span class=\"big\">", Tenths(p.rating_tenths), "</span> ",
                      Stars(p.rating_tenths), " <p>Based on ", p.review_count, " reviews</p>"));
  h.Open("table", "class=\"histogram\"").Open("tbody");
  int left = 100;
  for (int stars = 5; stars >= 1; --stars) {
    const int share = stars == 1 ? left : static_cast<int>(rng.Range(0, left));
    left -= share;
    h.Open("tr").Text("td", "class=\"label\"",
                      absl::StrCat(stars, stars == 1 ? " star" : " stars"));
    h.Elem("td", "class=\"bar\"",
           absl::StrCat("<div class=\"bar-bg\"><div class=\"bar-fill\" style=\"width:", share,
                        "%\"></div></div>"));
    h.Text("td", "class=\"pct\"", absl::StrCat(share, "%")).Close("tr");
  }
  h.Close("tbody").Close("table").Close("div");
}

void ReviewTools(Html& h, const Product& p) {
  h.Open("form",
         absl::StrCat("class=\"review-tools\" action=\"/reviews/", p.id, "\" method=\"get\""));
  h.Text("label", "for=\"rsort\"", "Sort by");
  h.Open("select", "id=\"rsort\" name=\"sort\"");
  for (const char* option : {"Most recent", "Most helpful", "Highest rating", "Lowest rating"}) {
    h.Text("option", absl::StrCat("value=\"", Slugify(option), "\""), option);
  }
  h.Close("select");
  h.Elem("label", "",
         "<input type=\"checkbox\" name=\"verified\" value=\"1\"> Verified purchases only");
  h.Text("button", "type=\"submit\"", "Apply");
  h.Close("form");
}

void ReviewGuidelines(Html& h) {
  h.Open("aside", "class=\"review-guidelines\"").Text("h2", "", "Review guidelines").Open("ul");
  for (const char* rule :
       {"Describe what you liked and what you did not.",
        "Keep it about the product, not the delivery.", "No prices, links or personal details.",
        "Reviews are checked before they appear."}) {
    h.Text("li", "", rule);
  }
  h.Close("ul");
  h.Elem("p", "", Link("/info/review-guidelines", "Read the full guidelines"));
  h.Close("aside");
}

// Ratings of single aspects, as <meter> bars.
void FeatureRatings(Html& h, Rng& rng) {
  h.Open("table", "class=\"feature-ratings\"").Text("caption", "", "Rated by customers");
  h.Open("tbody");
  for (const char* aspect : {"Quality", "Value", "Ease of use"}) {
    const int64_t tenths = rng.Range(25, 50);
    h.Open("tr").Text("th", "scope=\"row\"", aspect);
    h.Elem("td", "",
           absl::StrCat("<meter min=\"0\" max=\"5\" value=\"", Tenths(static_cast<int>(tenths)),
                        "\"></meter>"));
    h.Text("td", "class=\"score\"", Tenths(static_cast<int>(tenths))).Close("tr");
  }
  h.Close("tbody").Close("table");
}

// Customer photos, a review search box and a link to questions.
void ReviewExtras(Html& h, Rng& rng, const Product& p) {
  h.Open("div", "class=\"review-photos\"").Text("h3", "", "Customer photos").Open("ul");
  for (int i = 1; i <= 4; ++i) {
    h.Elem("li", "",
           absl::StrCat("<a href=\"/img/r/", p.id, "-", i, ".jpg\"><img src=\"/img/r/", p.id, "-",
                        i, "-thumb.jpg\" alt=\"Customer photo ", i,
                        "\" width=\"80\" height=\"80\"></a>"));
  }
  h.Close("ul");
  h.Elem("p", "", Link(absl::StrCat("/reviews/", p.id, "/photos"), "See all customer photos"));
  h.Close("div");
  h.Open("form", "class=\"review-search\" action=\"/reviews/search\" method=\"get\"");
  h.Text("label", "for=\"rq\"", "Search reviews");
  h.Void("input", "id=\"rq\" type=\"search\" name=\"q\" placeholder=\"e.g. battery\"");
  h.Text("button", "type=\"submit\"", "Go").Close("form");
  h.Elem("aside", "class=\"qa-teaser\"",
         absl::StrCat("<h3>Have a question?</h3><p>", rng.Range(2, 30),
                      " questions answered by owners.</p>",
                      Link(absl::StrCat("/questions?pid=", p.id), "Browse questions")));
}

// The hidden "write a review" dialog.
void WriteReviewDialog(Html& h, const Product& p) {
  h.Open("div", "id=\"modal-write\" class=\"modal\" hidden");
  h.Open("form", "class=\"modal-dialog\" action=\"/reviews/submit\" method=\"post\"");
  h.Elem("h3", "", absl::StrCat("Review ", Ent(p.title)));
  h.Void("input", absl::StrCat("type=\"hidden\" name=\"pid\" value=\"", p.id, "\""));
  h.Open("fieldset", "class=\"rating-input\"").Text("legend", "", "Your rating");
  for (int i = 1; i <= 5; ++i) {
    h.Elem("label", "",
           absl::StrCat("<input type=\"radio\" name=\"stars\" value=\"", i, "\"> ", i));
  }
  h.Close("fieldset");
  h.Text("label", "for=\"rtitle\"", "Title").Void("input", "id=\"rtitle\" name=\"title\"");
  h.Text("label", "for=\"rbody\"", "Review").Elem("textarea", "id=\"rbody\" name=\"body\"", "");
  h.Elem("p", "class=\"terms\"",
         "<input type=\"checkbox\" name=\"terms\"> I agree to the <a href=\"/terms\">terms</a>");
  h.Text("button", "type=\"submit\"", "Submit review");
  h.Close("form").Close("div");
}

void TopReviewers(Html& h, Rng& rng) {
  h.Open("aside", "class=\"top-reviewers\"").Text("h3", "", "Top reviewers").Open("ol");
  for (int i = 0; i < 3; ++i) {
    const std::string name = Author(rng);
    h.Elem("li", "",
           absl::StrCat("<img src=\"/static/img/avatar.png\" alt=\"\" width=\"24\" "
                        "height=\"24\"> ",
                        Link(absl::StrCat("/profile/", Slugify(name)), Esc(name)), " <small>",
                        rng.Range(20, 400), " reviews</small>"));
  }
  h.Close("ol").Close("aside");
}

std::string ReviewsBody(Rng& rng, const Product& p, int page, int pages) {
  const int shown = std::min(kReviewsPerPage, p.review_count - (page - 1) * kReviewsPerPage);
  Html h(kBodyDepth);
  h.Open("main", "id=\"content\" class=\"page-reviews\"");
  Breadcrumb(h, {{kCategories[p.top].name, absl::StrCat("/c/", TopSlug(p.top))},
                 {p.title, ProductPath(p)},
                 {"Reviews", ""}});
  h.Open("div", "class=\"reviews-header\"");
  ProductMini(h, p);
  Histogram(h, rng, p);
  FeatureRatings(h, rng);
  h.Elem("p", "class=\"write\"",
         Link(absl::StrCat("/reviews/write?pid=", p.id), "Write a review", "class=\"btn\""));
  h.Close("div");
  ReviewExtras(h, rng, p);
  ReviewTools(h, p);
  const int from = (page - 1) * kReviewsPerPage + 1;
  h.Text("p", "class=\"showing\"",
         absl::StrCat("Showing ", from, "–", from + shown - 1, " of ", p.review_count, " reviews"));
  h.Open("ol", "class=\"review-list\"");
  for (int i = 0; i < shown; ++i) DetailedReview(h, rng, p);
  h.Close("ol");
  Pagination(h, absl::StrCat("/reviews/", p.id), "", page, pages);
  ReviewGuidelines(h);
  TopReviewers(h, rng);
  WriteReviewDialog(h, p);
  h.Close("main");
  return h.Take();
}

struct ReviewPageChoice {
  const Product* product = nullptr;
  int page = 1;   // 1-based
  int pages = 1;  // pages of reviews the product has
  std::string url;
};

// A product with enough reviews and a page of its reviews whose URL is not
// in `urls` yet (it is added).
ReviewPageChoice PickReviewPage(Rng& rng, const Site& site, std::set<std::string>& urls) {
  ReviewPageChoice c;
  for (int attempt = 0;; ++attempt) {
    c.product = &site.catalog[rng.Uniform(site.catalog.size())];
    const int reviews = c.product->review_count;
    if (reviews < (attempt < 100 * kMaxUrlAttempts ? kMinReviewsForPages : 3)) continue;
    c.pages = (reviews + kReviewsPerPage - 1) / kReviewsPerPage;
    c.page = static_cast<int>(rng.Range(1, c.pages));
    // Every page shows at least 3 reviews.
    if (c.page > 1 && reviews - (c.page - 1) * kReviewsPerPage < 3) --c.page;
    c.url = Url(site, absl::StrCat("/reviews/", c.product->id, "?page=", c.page));
    if (attempt >= kMaxUrlAttempts) absl::StrAppend(&c.url, "&v=", attempt);
    if (urls.insert(c.url).second) return c;
  }
}

GeneratedPage ReviewsPage(Rng& rng, const Site& site, std::set<std::string>& urls) {
  const ReviewPageChoice c = PickReviewPage(rng, site, urls);
  const Product& p = *c.product;
  GeneratedPage out;
  out.template_name = "reviews";
  out.url = c.url;
  const std::string body = ReviewsBody(rng, p, c.page, c.pages);
  out.html = RenderPage(rng,
                        {"reviews", absl::StrCat("Customer reviews: ", p.title),
                         absl::StrCat("Read ", p.review_count, " reviews of ", p.title, "."),
                         out.url, absl::StrCat("r", p.id)},
                        body);
  return out;
}

// ---------------------------------------------------------------------------
// Template "store".
// ---------------------------------------------------------------------------

constexpr const char* kStoreReviewSentences[] = {
    "Friendly staff who actually know the products.",
    "Parking can be tricky on weekends.",
    "Clean, well organised and never too crowded in the morning.",
    "They price-matched an online offer without any fuss.",
    "Checkout lines were long, but they opened a second register quickly.",
    "Great selection of outdoor gear.",
    "Picked up my online order in five minutes.",
    "The repair desk fixed my bike the same day."};

struct StoreInfo {
  int id = 0;
  int city = 0;
  std::string name;
  std::string street;
  std::string zip;
  std::string phone;  // empty when the page shows none
  bool fax = false;
  bool events = false;
  std::vector<std::pair<std::string, std::string>> hours;  // day, hours (decoded)
};

std::string HoursRange(Rng& rng) {
  static constexpr const char* kOpen[] = {"8:00 AM", "9:00 AM", "9:30 AM", "10:00 AM"};
  static constexpr const char* kClose[] = {"6:00 PM", "7:00 PM", "8:00 PM", "9:00 PM"};
  return absl::StrCat(Pick(rng, kOpen), " – ", Pick(rng, kClose));
}

std::vector<std::pair<std::string, std::string>> RandomHours(Rng& rng) {
  std::vector<std::pair<std::string, std::string>> hours;
  const int days = static_cast<int>(rng.Range(5, 7));
  const std::string weekday = HoursRange(rng);
  for (int d = 0; d < days; ++d) {
    std::string range = d < 5 ? weekday : HoursRange(rng);
    if (d == 6 && rng.Bernoulli(0.3)) range = "Closed";
    hours.emplace_back(kDays[d], range);
  }
  return hours;
}

StoreInfo MakeStore(Rng& rng, int index) {
  StoreInfo s;
  s.id = 100 + index * 11 + static_cast<int>(rng.Uniform(11));
  s.city = static_cast<int>(rng.Uniform(kCityCount));
  const CityData& city = kCities[s.city];
  s.name = absl::StrCat(Pick(rng, kChains), " ", city.name);
  if (rng.Bernoulli(0.7)) absl::StrAppend(&s.name, " – ", Pick(rng, kNeighbourhoods));
  s.street =
      absl::StrCat(rng.Range(2, 4999), " ", Pick(rng, kStreets), " ", Pick(rng, kStreetTypes));
  if (rng.Bernoulli(0.25)) absl::StrAppend(&s.street, ", Suite ", rng.Range(1, 40) * 10);
  s.zip = Pad(city.zip_base + rng.Range(0, 40), 5);
  if (rng.Bernoulli(0.95)) {
    s.phone = absl::StrCat("(", city.area_code, ") 555-", Pad(rng.Range(100, 9999), 4));
  }
  s.fax = rng.Bernoulli(0.1);
  s.events = rng.Bernoulli(0.12);
  s.hours = RandomHours(rng);
  return s;
}

void AddressBlock(Html& h, const StoreInfo& s) {
  const CityData& city = kCities[s.city];
  h.Open("div",
         "class=\"address\" itemprop=\"address\" itemscope "
         "itemtype=\"http://schema.org/PostalAddress\"");
  h.Text("h2", "", "Address");
  h.Elem("p", "",
         absl::StrCat("<span class=\"street\" itemprop=\"streetAddress\">", Esc(s.street),
                      "</span><br><span class=\"locality\" itemprop=\"addressLocality\">",
                      Ent(city.name), "</span>, <span class=\"region\">", city.state,
                      "</span> <span class=\"zip\" itemprop=\"postalCode\">", s.zip, "</span>"));
  h.Close("div");
}

// Mixed content: "<b>Phone:</b> (217) 555-0143<br><b>Email:</b> <a>..</a>".
void ContactBlock(Html& h, Rng& rng, const StoreInfo& s) {
  h.Open("div", "class=\"contact\"").Text("h2", "", "Contact");
  std::string lines;
  if (!s.phone.empty()) absl::StrAppend(&lines, "<b>Phone:</b> ", s.phone, "<br>");
  if (s.fax) {
    absl::StrAppend(&lines, "<b>Fax:</b> (", kCities[s.city].area_code, ") 555-",
                    Pad(rng.Range(100, 9999), 4), "<br>");
  }
  const std::string email = absl::StrCat("store", s.id, "@vertex-demo.test");
  absl::StrAppend(&lines, "<b>Email:</b> ", Link(absl::StrCat("mailto:", email), email));
  h.Elem("p", "", lines);
  h.Close("div");
}

void HoursBlock(Html& h, Rng& rng, const StoreInfo& s) {
  h.Open("div", "class=\"hours\"").Text("h2", "", "Opening hours");
  h.Open("table", "class=\"hours-table\"").Open("tbody");
  for (const auto& [day, hours] : s.hours) {
    h.Open("tr").Text("th", "scope=\"row\"", day).Elem("td", "", Ent(hours)).Close("tr");
  }
  h.Close("tbody").Close("table");
  h.Text("p", "class=\"note\"",
         absl::StrCat(s.hours.size() < 7 ? "Closed on days not listed. " : "Open seven days. ",
                      rng.Bernoulli(0.4) ? "Holiday hours may vary." : "Call ahead to confirm."));
  h.Close("div");
}

void MapBlock(Html& h, Rng& rng) {
  const std::string lat = absl::StrCat(rng.Range(30, 47), ".", Pad(rng.Range(0, 9999), 4));
  const std::string lng = absl::StrCat("-", rng.Range(71, 123), ".", Pad(rng.Range(0, 9999), 4));
  h.Open("div", "class=\"map\"");
  h.Elem("div", absl::StrCat("id=\"map-canvas\" data-lat=\"", lat, "\" data-lng=\"", lng, "\""),
         absl::StrCat("<img src=\"http://maps.vertex-demo.test/static?center=", lat, ",", lng,
                      "&amp;zoom=15&amp;size=400x300\" alt=\"Map\" width=\"400\" height=\"300\">"));
  h.Elem("p", "",
         Link(absl::StrCat("http://maps.vertex-demo.test/dir?to=", lat, ",", lng), "Get directions",
              "class=\"directions\""));
  h.Close("div");
}

void PhotosAndServices(Html& h, Rng& rng, const StoreInfo& s) {
  h.Open("div", "class=\"store-photos\"").Open("ul");
  const int photos = static_cast<int>(rng.Range(4, 6));
  for (int i = 1; i <= photos; ++i) {
    h.Elem("li", "",
           absl::StrCat("<a href=\"/img/stores/", s.id, "-", i,
                        "-large.jpg\"><img src=\"/img/stores/", s.id, "-", i,
                        ".jpg\" alt=\"Store photo ", i, "\" width=\"160\" height=\"120\"></a>"));
  }
  h.Close("ul").Close("div");
  h.Open("section", "class=\"services\"").Text("h2", "", "Services").Open("ul");
  const int services = static_cast<int>(rng.Range(5, 9));
  const int first = static_cast<int>(rng.Uniform(Count(kServices)));
  for (int i = 0; i < services; ++i) {
    const char* service = kServices[(first + i * 5) % Count(kServices)];
    h.Elem("li", "",
           absl::StrCat("<img src=\"/static/img/service-", Slugify(service),
                        ".svg\" alt=\"\" width=\"20\" height=\"20\"> <span>", Ent(service),
                        "</span>"));
  }
  h.Close("ul").Close("section");
}

// The departments the store carries, with their aisles and subcategories.
void Departments(Html& h, Rng& rng) {
  h.Open("section", "class=\"departments\"").Text("h2", "", "Departments in this store");
  h.Open("dl");
  const int first = static_cast<int>(rng.Uniform(kTopCategories));
  const int departments = static_cast<int>(rng.Range(6, kTopCategories));
  for (int i = 0; i < departments; ++i) {
    const int top = (first + i) % kTopCategories;
    h.Elem("dt", "", Link(absl::StrCat("/c/", TopSlug(top)), Ent(kCategories[top].name)));
    h.Open("dd").Text("span", "class=\"aisle\"", absl::StrCat("Aisle ", rng.Range(1, 30)));
    std::vector<Crumb> subs;
    for (int sub = 0; sub < kSubsPerTop; ++sub) {
      subs.push_back({kCategories[top].subs[sub].name, absl::StrCat("/c/", SubSlug(top, sub))});
    }
    LinkList(h, "", subs);
    h.Close("dd");
  }
  h.Close("dl").Close("section");
}

void Events(Html& h, Rng& rng) {
  h.Open("section", "class=\"events\"").Text("h2", "", "Upcoming events").Open("ul");
  const int events = static_cast<int>(rng.Range(1, 4));
  for (int i = 0; i < events; ++i) {
    h.Open("li").Raw(TimeTag(RandomDate(rng)));
    h.Text("strong", "", Pick(rng, kEvents)).Text("p", "", "Free entry; no registration needed.");
    h.Close("li");
  }
  h.Close("ul").Close("section");
}

// Products the staff recommend, each with a quote.
void StaffPicks(Html& h, Rng& rng, const Site& site) {
  static constexpr const char* kQuotes[] = {
      "I use mine every single day.", "The best value in the store right now.",
      "Customers keep coming back for this one.", "Perfect for gifts."};
  h.Open("section", "class=\"staff-picks\"").Text("h2", "", "Staff picks").Open("ol");
  const int picks = static_cast<int>(rng.Range(3, 6));
  for (int i = 0; i < picks; ++i) {
    const Product& q = site.catalog[rng.Uniform(site.catalog.size())];
    h.Open("li");
    h.Elem("a", Href(ProductPath(q)),
           absl::StrCat("<img src=\"", ImagePath(q.id, "small", 1), "\" alt=\"", EscAttr(q.title),
                        "\" width=\"120\" height=\"120\">"));
    h.Elem("blockquote", "",
           absl::StrCat("<p>", Pick(rng, kQuotes), "</p><cite>", Esc(Pick(rng, kFirstNames)),
                        ", sales associate</cite>"));
    h.Close("li");
  }
  h.Close("ol").Close("section");
}

// This week's in-store deals as cards (a different markup from tiles).
void WeeklyDeals(Html& h, Rng& rng, const Site& site) {
  h.Open("section", "class=\"weekly-deals\"").Text("h2", "", "This week's deals at this store");
  h.Open("div", "class=\"deal-cards\"");
  const int deals = static_cast<int>(rng.Range(4, 8));
  for (int i = 0; i < deals; ++i) {
    const Product& q = site.catalog[rng.Uniform(site.catalog.size())];
    h.Open("article", "class=\"deal\"");
    h.Elem("a", Href(ProductPath(q)),
           absl::StrCat("<img src=\"", ImagePath(q.id, "small", 1),
                        "\" alt=\"\" width=\"96\" "
                        "height=\"96\">"));
    h.Elem("div", "class=\"deal-info\"",
           absl::StrCat("<p class=\"deal-name\">", Link(ProductPath(q), Ent(q.title)),
                        "</p><p class=\"deal-price\"><b>", Money(q.price_cents * 9 / 10),
                        "</b> <em>in store only</em></p>"));
    h.Text("footer", "class=\"valid\"", "Valid until Sunday while stocks last.");
    h.Close("article");
  }
  h.Close("div").Close("section");
}

// The store manager and a form to book a service appointment.
void ManagerAndBooking(Html& h, Rng& rng) {
  h.Open("figure", "class=\"manager\"");
  h.Void("img", "src=\"/img/stores/manager.jpg\" alt=\"\" width=\"80\" height=\"80\"");
  h.Elem("figcaption", "",
         absl::StrCat("<strong>",
                      Esc(absl::StrCat(Pick(rng, kFirstNames), " ", Pick(rng, kLastNames))),
                      "</strong> <span>Store manager</span>"));
  h.Close("figure");
  h.Open("form", "class=\"book-service\" action=\"/stores/book\" method=\"post\"");
  h.Text("label", "for=\"svc\"", "Book a service");
  h.Open("select", "id=\"svc\" name=\"service\"");
  for (const char* svc : {"Bike tune-up", "Tech support", "Personal shopping"})
    h.Text("option", "", svc);
  h.Close("select");
  h.Void("input", "type=\"date\" name=\"date\"");
  h.Text("button", "type=\"submit\"", "Book");
  h.Close("form");
}

void StoreReviews(Html& h, Rng& rng) {
  h.Open("section", "class=\"store-reviews\"").Text("h2", "", "What shoppers say").Open("ul");
  const int reviews = static_cast<int>(rng.Range(3, 6));
  for (int i = 0; i < reviews; ++i) {
    h.Open("li", "class=\"store-review\"").Raw(Stars(static_cast<int>(rng.Range(2, 5)) * 10));
    h.Text("p", "", Pick(rng, kStoreReviewSentences));
    h.Elem("p", "class=\"byline\"",
           absl::StrCat("<span class=\"author\">", Esc(Author(rng)), "</span>, ",
                        TimeTag(RandomDate(rng))));
    h.Close("li");
  }
  h.Close("ul").Close("section");
}

void GettingHere(Html& h, Rng& rng) {
  h.Open("section", "class=\"getting-here\"").Text("h2", "", "Getting here").Open("dl");
  h.Text("dt", "", "Parking")
      .Text("dd", "",
            rng.Bernoulli(0.6) ? "Free parking lot behind the store"
                               : "Street parking and a garage nearby");
  h.Text("dt", "", "Public transit")
      .Text("dd", "",
            absl::StrCat("Bus lines ", rng.Range(1, 40), " and ", rng.Range(41, 90),
                         " stop at the corner"));
  h.Text("dt", "", "Bicycles")
      .Text("dd", "", rng.Bernoulli(0.5) ? "Bike racks at the main entrance" : "No bike racks");
  h.Close("dl").Close("section");
}

void AboutAndNearby(Html& h, Rng& rng, const StoreInfo& s) {
  const std::vector<std::pair<std::string, std::string>> slots = {
      {"n", kCities[s.city].name},
      {"y", std::to_string(rng.Range(1985, 2010))},
      {"city", kCities[s.city].name}};
  std::string about;
  const int sentences = static_cast<int>(rng.Range(2, 5));
  for (int i = 0; i < sentences; ++i) {
    absl::StrAppend(&about, i ? " " : "", Fill(kStoreSentences[(i * 3 + s.id) % 8], slots));
  }
  h.Open("section", "class=\"store-about\"")
      .Text("h2", "", "About this store")
      .Text("p", "", about);
  h.Close("section");
  h.Open("section", "class=\"nearby\"").Text("h2", "", "Nearby stores").Open("ul");
  const int nearby = static_cast<int>(rng.Range(5, 8));
  for (int i = 0; i < nearby; ++i) {
    const int other = static_cast<int>(rng.Uniform(900)) + 100;
    h.Elem("li", "",
           absl::StrCat(Link(absl::StrCat("/stores/", Slugify(kCities[s.city].name), "/", other),
                             absl::StrCat("Store #", other)),
                        " <span class=\"distance\">", rng.Range(2, 40), " mi</span>"));
  }
  h.Close("ul").Close("section");
}

void StoreHeader(Html& h, Rng& rng, const StoreInfo& s) {
  const std::string city_slug = Slugify(kCities[s.city].name);
  Breadcrumb(h, {{"Stores", "/stores"},
                 {kCities[s.city].name, absl::StrCat("/stores/", city_slug)},
                 {s.name, ""}});
  h.Open("div", "class=\"store-header\"");
  h.Elem("h1", "itemprop=\"name\"", Ent(s.name));
  h.Text("p", "class=\"tagline\"", "Everything for home, outdoors and more.");
  h.Elem("p", "class=\"status\"",
         rng.Bernoulli(0.7) ? "<span class=\"open-now\">Open now</span>"
                            : "<span class=\"closed-now\">Closed now</span>");
  h.Close("div");
}

std::string StoreBody(Rng& rng, const Site& site, const StoreInfo& s) {
  Html h(kBodyDepth);
  h.Open("main",
         "id=\"content\" class=\"page-store\" itemscope "
         "itemtype=\"http://schema.org/Store\"");
  StoreHeader(h, rng, s);
  h.Open("div", "class=\"store-grid\"").Open("div", "class=\"store-info\"");
  AddressBlock(h, s);
  ContactBlock(h, rng, s);
  HoursBlock(h, rng, s);
  h.Close("div");
  MapBlock(h, rng);
  h.Close("div");
  PhotosAndServices(h, rng, s);
  Departments(h, rng);
  if (s.events) Events(h, rng);
  StaffPicks(h, rng, site);
  WeeklyDeals(h, rng, site);
  StoreReviews(h, rng);
  GettingHere(h, rng);
  ManagerAndBooking(h, rng);
  AboutAndNearby(h, rng, s);
  h.Close("main");
  return h.Take();
}

std::map<std::string, std::vector<std::string>> StoreTruth(const StoreInfo& s) {
  std::map<std::string, std::vector<std::string>> truth;
  truth["name"] = {s.name};
  truth["phone"] = s.phone.empty() ? std::vector<std::string>{} : std::vector{s.phone};
  truth["street"] = {s.street};
  truth["city"] = {kCities[s.city].name};
  truth["zip"] = {s.zip};
  for (const auto& row : s.hours) truth["hours"].push_back(row.second);
  // The address block's text, its two lines (split by a <br> with no space
  // around it) read as one line.
  const CityData& city = kCities[s.city];
  truth["address"] = {absl::StrCat(s.street, " ", city.name, ", ", city.state, " ", s.zip)};
  return truth;
}

GeneratedPage StorePage(Rng& rng, const Site& site, int index) {
  const StoreInfo s = MakeStore(rng, index);
  GeneratedPage page;
  page.template_name = "store";
  page.url = Url(site, absl::StrCat("/stores/", Slugify(kCities[s.city].name), "/", s.id));
  const std::string body = StoreBody(rng, site, s);
  page.html = RenderPage(rng,
                         {"store", absl::StrCat(s.name, " - Store details"),
                          absl::StrCat("Address, phone and opening hours of ", s.name, "."),
                          page.url, absl::StrCat("s", s.id)},
                         body);
  page.truth = StoreTruth(s);
  return page;
}

// ---------------------------------------------------------------------------
// Site assembly.
// ---------------------------------------------------------------------------

enum class Template { kProduct = 0, kCategory = 1, kReviews = 2, kStore = 3 };

struct PageSlot {
  Template kind;
  int index;  // within its template
};

// All page slots, shuffled (Fisher-Yates) into site order.
std::vector<PageSlot> SiteOrder(const SiteOptions& options) {
  std::vector<PageSlot> slots;
  const std::pair<Template, int> counts[] = {{Template::kProduct, options.product_pages},
                                             {Template::kCategory, options.category_pages},
                                             {Template::kReviews, options.review_pages},
                                             {Template::kStore, options.store_pages}};
  for (const auto& [kind, count] : counts) {
    for (int i = 0; i < count; ++i) slots.push_back({kind, i});
  }
  Rng rng(util::Mix64(options.seed ^ 0x0dde5a1e00000000ULL));
  for (size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[rng.Uniform(i)]);
  return slots;
}

// A generator per page, seeded from the site seed, template and index, so a
// page does not depend on the pages generated before it of other templates.
Rng PageRng(uint64_t seed, const PageSlot& slot) {
  return Rng(util::Mix64(seed * 0x9e3779b97f4a7c15ULL + (static_cast<uint64_t>(slot.kind) << 40) +
                         slot.index));
}

// The SWDE counts line: pages, pages with a value, values, distinct values.
std::string CountsLine(const std::vector<std::vector<std::string>>& values) {
  size_t with_value = 0;
  size_t total = 0;
  std::set<std::string> distinct;
  for (const auto& v : values) {
    with_value += v.empty() ? 0 : 1;
    total += v.size();
    distinct.insert(v.begin(), v.end());
  }
  return absl::StrCat(values.size(), "\t", with_value, "\t", total, "\t", distinct.size(), "\n");
}

// The SWDE ground-truth file of one attribute of one template.
std::string GroundTruthFile(const std::vector<GeneratedPage>& pages,
                            absl::string_view template_name, absl::string_view vertical,
                            const std::string& attribute) {
  const std::string header = absl::StrCat(vertical, "\tvertexdemo\t", attribute, "\n");
  std::vector<std::vector<std::string>> values;
  std::string lines;
  for (const GeneratedPage& page : pages) {
    if (page.template_name != template_name) continue;
    const auto it = page.truth.find(attribute);
    values.push_back(it == page.truth.end() ? std::vector<std::string>{} : it->second);
    std::string id = page.file_name;
    if (id.size() > 4 && id.compare(id.size() - 4, 4, ".htm") == 0) id.resize(id.size() - 4);
    absl::StrAppend(&lines, id, "\t", values.back().size());
    if (values.back().empty()) absl::StrAppend(&lines, "\t<NULL>");
    for (const std::string& v : values.back()) absl::StrAppend(&lines, "\t", v);
    lines += '\n';
  }
  return absl::StrCat(header, CountsLine(values), lines);
}

// File names must be plain, unique names; truth values must fit on one
// tab-separated line.
absl::Status CheckPages(const std::vector<GeneratedPage>& pages) {
  std::set<std::string> seen;
  for (const GeneratedPage& page : pages) {
    for (const auto& [attribute, values] : page.truth) {
      for (const std::string& v : values) {
        if (v.find_first_of("\t\n\r") != std::string::npos) {
          return absl::InvalidArgumentError("truth value of '" + attribute + "' on '" +
                                            page.file_name + "' holds a tab or line break");
        }
      }
    }
    if (page.file_name.empty() || page.file_name.find('/') != std::string::npos ||
        page.file_name == "." || page.file_name == "..") {
      return absl::InvalidArgumentError("invalid page file name '" + page.file_name + "'");
    }
    if (!seen.insert(page.file_name).second) {
      return absl::InvalidArgumentError("duplicate page file name '" + page.file_name + "'");
    }
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<std::string>& ProductAttributes() {
  static const auto* const kAttributes = new std::vector<std::string>{
      "title",     "brand",      "price",   "sku",    "availability", "rating",
      "category",  "link",       "image",   "og_title", "published",  "unit_price",
      "tagline",   "weight",     "designers", "collection", "features"};
  return *kAttributes;
}

const std::vector<std::string>& StoreAttributes() {
  static const auto* const kAttributes =
      new std::vector<std::string>{"name", "phone", "street", "city", "zip", "hours", "address"};
  return *kAttributes;
}

std::vector<GeneratedPage> GenerateSite(const SiteOptions& options) {
  const Site site = MakeSite(options);
  const std::vector<PageSlot> order = SiteOrder(options);
  std::set<std::string> urls;  // category and reviews URLs drawn so far
  std::vector<GeneratedPage> pages;
  pages.reserve(order.size());
  const int width = std::max<int>(4, std::to_string(order.empty() ? 0 : order.size() - 1).size());
  for (const PageSlot& slot : order) {
    Rng rng = PageRng(options.seed, slot);
    switch (slot.kind) {
      case Template::kProduct:
        pages.push_back(ProductPage(rng, site, slot.index));
        break;
      case Template::kCategory:
        pages.push_back(CategoryPage(rng, site, urls));
        break;
      case Template::kReviews:
        pages.push_back(ReviewsPage(rng, site, urls));
        break;
      case Template::kStore:
        pages.push_back(StorePage(rng, site, slot.index));
        break;
    }
    pages.back().file_name = Pad(static_cast<int64_t>(pages.size() - 1), width) + ".htm";
    if (!pages.back().list_truth.areas.empty()) pages.back().list_truth.file = pages.back().file_name;
  }
  return pages;
}

absl::Status WriteSite(const std::vector<GeneratedPage>& pages, const std::string& dir) {
  VERTEX_RETURN_IF_ERROR(CheckPages(pages));
  for (const GeneratedPage& page : pages) {
    VERTEX_RETURN_IF_ERROR(util::WriteFile(
        dir + "/" + page.file_name, absl::StrCat("<base href=\"", page.url, "\"/>\n", page.html)));
  }
  const std::pair<const char*, const char*> verticals[] = {{"product", "product"},
                                                           {"store", "business"}};
  for (const auto& [template_name, vertical] : verticals) {
    const auto& attributes =
        absl::string_view(template_name) == "product" ? ProductAttributes() : StoreAttributes();
    for (const std::string& attribute : attributes) {
      const std::string path = absl::StrCat(dir, "/groundtruth/", vertical, "/", vertical,
                                            "-vertexdemo-", attribute, ".txt");
      VERTEX_RETURN_IF_ERROR(
          util::WriteFile(path, GroundTruthFile(pages, template_name, vertical, attribute)));
    }
  }
  std::vector<eval::ListTruthPage> lists;
  for (const GeneratedPage& page : pages) {
    if (!page.list_truth.areas.empty()) lists.push_back(page.list_truth);
  }
  return eval::WriteListTruth(lists, dir + "/list_truth.jsonl");
}

std::string SchemaJson(const std::string& vertical) {
  if (vertical == "product") {
    return R"json({
  "vertical": "product",
  "attributes": [
    {"name": "title", "mandatory": true, "constant": true},
    {"name": "brand", "constant": true},
    {"name": "price", "type": "price", "mandatory": true},
    {"name": "sku", "constant": true},
    {"name": "availability"},
    {"name": "rating", "type": "number"},
    {"name": "category", "multi_valued": true},
    {"name": "link", "type": "url", "constant": true},
    {"name": "image", "type": "image", "constant": true},
    {"name": "og_title", "constant": true},
    {"name": "published", "type": "date", "constant": true},
    {"name": "unit_price", "type": "price"},
    {"name": "tagline", "constant": true},
    {"name": "weight", "constant": true},
    {"name": "designers", "multi_valued": true, "constant": true},
    {"name": "collection"},
    {"name": "features", "multi_valued": true}
  ]
}
)json";
  }
  if (vertical == "business") {
    return R"json({
  "vertical": "business",
  "attributes": [
    {"name": "name", "mandatory": true, "constant": true},
    {"name": "phone", "type": "phone", "constant": true},
    {"name": "street", "constant": true},
    {"name": "city", "constant": true},
    {"name": "zip", "type": "zip", "constant": true},
    {"name": "hours", "multi_valued": true},
    {"name": "address", "constant": true}
  ]
}
)json";
  }
  return "";
}

}  // namespace vertex::demo
