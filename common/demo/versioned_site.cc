#include "common/demo/versioned_site.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "common/demo/text_util.h"
#include "common/util/random.h"

namespace vertex::demo {
namespace {

using util::Mix64;
using util::Rng;
using internal::Count;
using internal::Money;
using internal::Pad;
using internal::Pick;
using internal::Tenths;

constexpr int kMaxTemplates = 40;
constexpr int kShownReviews = 5;
constexpr int kRelatedTiles = 4;
constexpr int kRecentItems = 3;

// ---------------------------------------------------------------------------
// Word lists. Everything the pages say comes from here.
// ---------------------------------------------------------------------------

struct CategoryData {
  const char* name;
  const char* nouns[6];
};
// Template t sells products of category t % 10.
constexpr CategoryData kCategories[] = {
    {"Audio",
     {"Wireless Headphones", "Bluetooth Speaker", "Soundbar", "Turntable", "Earbuds",
      "Studio Monitor"}},
    {"Kitchen",
     {"Cast Iron Skillet", "Dutch Oven", "Crème Brûlée Torch", "Chef's Knife", "Stand Mixer",
      "Espresso Maker"}},
    {"Camping",
     {"Two-Person Tent", "Sleeping Bag", "LED Headlamp", "Camp Stove", "Daypack", "Water Filter"}},
    {"Footwear",
     {"Running Shoes", "Chelsea Boots", "Canvas Sneakers", "Trail Sandals", "Hiking Boots",
      "Loafers"}},
    {"Toys & Games",
     {"Strategy Board Game", "Chess Set", "Jigsaw Puzzle", "Marble Run", "Robot Kit", "Kite"}},
    {"Fitness",
     {"Yoga Mat", "Kettlebell", "Resistance Bands", "Pull-Up Bar", "GPS Watch", "Foam Roller"}},
    {"Beauty",
     {"Face Serum", "Night Cream", "Hair Dryer", "Eau de Parfum", "Lip Balm Trio", "Clay Mask"}},
    {"Garden",
     {"Pruning Shears", "Garden Trowel", "Hose Reel", "Raised Garden Bed", "Patio Lantern",
      "Fire Pit"}},
    {"Office",
     {"Desk Organizer", "Monitor Stand", "Desk Lamp", "Fountain Pen", "Ergonomic Chair",
      "Standing Desk"}},
    {"Photo & Video",
     {"Mirrorless Camera", "Travel Tripod", "Camera Backpack", "50mm Prime Lens", "Ring Light",
      "Action Camera"}},
};

constexpr const char* kBrands[] = {"Acme",     "Barrow & Finch", "Northwind",   "Lumière",
                                   "Kessler",  "Hale & Sons",    "Orbital",     "Pinecrest",
                                   "Vantage",  "Müller & Co.",   "Sierra Peak", "Brightwell",
                                   "Nakamura", "Tidewater",      "Ironbark",    "Café Mondo"};

constexpr const char* kAdjectives[] = {"Premium",    "Compact",      "Ultra-Light",  "Classic",
                                       "Deluxe",     "Professional", "Vintage",      "Ergonomic",
                                       "Heavy-Duty", "Everyday",     "Eco-Friendly", "Signature",
                                       "Modern",     "Smart"};

constexpr const char* kColors[] = {"Black",    "Slate Grey", "Navy",        "Crimson",
                                   "Olive",    "Ivory",      "Sand",        "Teal",
                                   "Charcoal", "Rosé",       "Forest Green"};

constexpr const char* kSuffixes[] = {
    ", 2 Pack", " – Large", " (2011 Edition)", " with Carrying Case", ", Set of 4", " XL", " Mini"};

constexpr const char* kFirstNames[] = {"Sarah", "James",  "Maria",  "David",  "Aisha", "Tom",
                                       "Chen",  "Olivia", "Lucas",  "Zoë",    "Raj",   "Hannah",
                                       "Diego", "Fatima", "Ingrid", "Amélie", "Omar",  "Laura"};
constexpr const char* kLastNames[] = {"K.", "N.", "O.", "S.", "G.", "J.", "P.", "B.", "R.", "M."};

constexpr const char* kDescriptionSentences[] = {
    "The {b} {p} combines everyday practicality with a clean, modern design.",
    "Built to last, this {p} is made from carefully selected materials and backed by our "
    "satisfaction guarantee.",
    "Whether you are at home or on the go, the {p} adapts to the way you live.",
    "Its {c} finish looks great in any setting and resists scratches and fading.",
    "We tested dozens of prototypes before settling on the shape you see here.",
    "Every {p} is inspected by hand before it leaves our warehouse.",
    "Designed with professionals, it delivers reliable performance day after day.",
    "Cleaning is simple: wipe with a damp cloth and let it air dry.",
    "The compact footprint makes it easy to store when not in use.",
    "Pair it with other {b} accessories for a complete setup.",
    "Note: colours may vary slightly from the photos due to screen settings.",
    "This model replaces last year's version with improved comfort and a longer service life.",
    "All packaging is recyclable & printed with soy-based inks.",
    "Please allow 1–2 business days for processing before shipment."};

constexpr const char* kFeatures[] = {
    "Durable {c} finish", "Lightweight and portable",     "1-year limited warranty",
    "Easy to clean",      "Includes storage pouch",       "Water-resistant",
    "Ergonomic grip",     "Made from recycled materials", "Tool-free assembly"};

constexpr const char* kReviewTitles[] = {"Great value",         "Exactly what I needed",
                                         "Solid and well made", "Not bad at all",
                                         "Could be better",     "Love it!",
                                         "Disappointed",        "Five stars",
                                         "Works as advertised", "Better than expected",
                                         "Good but pricey",     "Would buy again"};

constexpr const char* kReviewSentences[] = {
    "Exactly as described and arrived two days early.",
    "The quality is much better than I expected for the price.",
    "After three months of daily use it still looks brand new.",
    "Setup took less than ten minutes, even without reading the manual.",
    "My only complaint is that the {c} colour is darker than in the pictures.",
    "It does the job, but I wish the instructions were clearer.",
    "I would definitely buy from {b} again.",
    "Not the cheapest option, but you get what you pay for.",
    "The packaging was damaged, but the {p} itself was fine.",
    "Compared to my old {p}, this one is a huge improvement.",
    "Shipping was fast & the tracking updates were accurate.",
    "Does what it says on the box — nothing more, nothing less."};

constexpr const char* kQuestions[] = {
    "Does it come with a warranty?", "Is the {c} version still available?",
    "Can I use it outdoors?",        "How heavy is it?",
    "Is it suitable as a gift?",     "Does the box include spare parts?"};
constexpr const char* kAnswers[] = {"Yes, every {b} product comes with a one-year warranty.",
                                    "It is, although stock changes quickly.",
                                    "Yes, but keep it out of heavy rain.",
                                    "See the specifications tab for the exact weight.",
                                    "Absolutely, and we offer free gift wrapping.",
                                    "Spare parts are sold separately."};

struct SpecData {
  const char* name;
  const char* values[3];
};
constexpr SpecData kSpecs[] = {
    {"Weight", {"0.4 kg", "1.2 kg", "3.5 kg"}},
    {"Dimensions", {"30 x 20 x 10 cm", "12 x 8 x 4 in", "45 x 45 x 12 cm"}},
    {"Material", {"Recycled polyester", "Stainless steel", "Solid oak"}},
    {"Warranty", {"1 year", "2 years", "Lifetime"}},
    {"Power", {"40 W", "Battery", "USB-C, 5 V"}},
    {"Country of origin", {"Portugal", "Vietnam", "USA"}},
    {"Care", {"Machine washable", "Hand wash only", "Wipe clean"}},
    {"In the box", {"Unit, manual", "Unit, cable, pouch", "Unit only"}}};

constexpr const char* kMonths[] = {"January",   "February", "March",    "April",
                                   "May",       "June",     "July",     "August",
                                   "September", "October",  "November", "December"};

constexpr const char* kSponsored[] = {"Compare insurance quotes", "Cheap flights to Lisbon",
                                      "Learn Spanish in 3 weeks", "Refinance your mortgage",
                                      "Hotels near you",          "Free credit score"};

// Class namespaces: originals, and those of a redesign (never equal to an
// original, so a redesign renames every class).
constexpr const char* kNamespaces[] = {"product", "item",    "prod",  "detail",  "goods",
                                       "listing", "article", "offer", "catalog", "entry"};
constexpr const char* kRedesignNamespaces[] = {"pdp",  "x-item", "v2",   "rd-prod", "nx",
                                               "card", "px",     "shop", "tile",    "pg"};

constexpr char kInlineCss[] =
    "body{margin:0;font:14px/1.45 Arial,sans-serif;color:#222}a{color:#0b5cad;text-decoration:"
    "none}#site-header{border-bottom:1px solid #e3e3e3}.masthead{display:flex;align-items:center;"
    "gap:24px;padding:12px 24px}.search{flex:1;display:flex}.search input{flex:1;padding:8px}"
    "#main-nav .menu{display:flex;gap:4px;margin:0;padding:0 24px;list-style:none}#main-nav a{"
    "display:block;padding:10px 12px;font-weight:600}.star{width:14px;height:14px;background:"
    "url(/static/img/stars.svg) no-repeat}.star-full{background-position:0 0}.star-empty{"
    "background-position:-28px 0}.ad-slot{margin:16px 0;text-align:center}#site-footer{margin-top"
    ":40px;padding:24px;background:#232f3e;color:#ddd}#site-footer a{color:#ddd}";


// Fisher-Yates with `rng`.
template <typename T>
void Shuffle(Rng& rng, std::vector<T>* v) {
  for (size_t i = v->size(); i > 1; --i) std::swap((*v)[i - 1], (*v)[rng.Uniform(i)]);
}

// ---------------------------------------------------------------------------
// Text helpers.
// ---------------------------------------------------------------------------

// Escapes &, < and > (and " in an attribute value); keeps other UTF-8.
std::string Esc(absl::string_view s, bool attribute = false) {
  std::string out;
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"' && attribute) {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

// Like Esc, also writing the accented letters and dashes of the word lists
// as named entities, as shops' content systems often do.
std::string Ent(absl::string_view s) {
  static constexpr std::pair<absl::string_view, absl::string_view> kNamed[] = {
      {"é", "&eacute;"}, {"è", "&egrave;"}, {"ü", "&uuml;"}, {"ë", "&euml;"},
      {"û", "&ucirc;"},  {"–", "&ndash;"},  {"—", "&mdash;"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool replaced = false;
    for (const auto& [text, entity] : kNamed) {
      if (s.substr(i, text.size()) == text) {
        absl::StrAppend(&out, entity);
        i += text.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) out += Esc(s.substr(i++, 1));
  }
  return out;
}

// Lower-case ASCII slug: letters and digits kept, accented letters folded,
// runs of anything else become one '-'.
std::string Slugify(absl::string_view s) {
  static constexpr std::pair<absl::string_view, char> kFold[] = {
      {"é", 'e'}, {"è", 'e'}, {"ü", 'u'}, {"ë", 'e'}, {"û", 'u'}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char piece = 0;
    size_t len = 1;
    if (c < 0x80) {
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) piece = static_cast<char>(c);
      if (c >= 'A' && c <= 'Z') piece = static_cast<char>(c - 'A' + 'a');
    } else {
      len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      for (const auto& [text, folded] : kFold) {
        if (s.substr(i, len) == text) piece = folded;
      }
    }
    if (piece != 0) {
      out += piece;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    i += len;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}


// Replaces {p}, {b} and {c} by the product noun, brand and colour.
std::string Fill(absl::string_view pattern, absl::string_view noun, absl::string_view brand,
                 absl::string_view color) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}') {
      const char key = pattern[i + 1];
      absl::StrAppend(&out, key == 'p' ? noun : key == 'b' ? brand : color);
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// "March 3, 2011" for a day number counted from January 1, 2009 (a calendar
// of 365-day years is close enough for review dates).
std::string DateOfDay(int day) {
  static constexpr int kLengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const int year = 2009 + day / 365;
  int rest = day % 365, month = 0;
  while (rest >= kLengths[month]) rest -= kLengths[month++];
  return absl::StrCat(kMonths[month], " ", rest + 1, ", ", year);
}

// ---------------------------------------------------------------------------
// HTML builder: indented markup, one element per line unless inline.
// ---------------------------------------------------------------------------

class Html {
 public:
  // <tag attrs> on a new line; what follows is indented until Close().
  Html& Open(absl::string_view tag, absl::string_view attrs = {}) {
    Line();
    Start(tag, attrs);
    open_.emplace_back(tag);
    return *this;
  }
  // Closes the innermost open element.
  Html& Close() {
    const std::string tag = std::move(open_.back());
    open_.pop_back();
    Line();
    absl::StrAppend(&out_, "</", tag, ">");
    return *this;
  }
  // Closes open elements until `depth` remain.
  Html& CloseTo(size_t depth) {
    while (open_.size() > depth) Close();
    return *this;
  }
  size_t depth() const { return open_.size(); }
  // <tag attrs>inner</tag> on one line; `inner` is markup.
  Html& Elem(absl::string_view tag, absl::string_view attrs, absl::string_view inner) {
    Line();
    Start(tag, attrs);
    absl::StrAppend(&out_, inner, "</", tag, ">");
    return *this;
  }
  // A void element <tag attrs>.
  Html& Void(absl::string_view tag, absl::string_view attrs) {
    Line();
    Start(tag, attrs);
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
    out_.append(open_.size() * 2, ' ');
  }
  void Start(absl::string_view tag, absl::string_view attrs) {
    absl::StrAppend(&out_, "<", tag, attrs.empty() ? "" : " ", attrs, ">");
  }

  std::string out_;
  std::vector<std::string> open_;
};

std::string Link(absl::string_view href, absl::string_view inner, absl::string_view attrs = {}) {
  return absl::StrCat("<a href=\"", Esc(href, true), "\"", attrs.empty() ? "" : " ", attrs, ">",
                      inner, "</a>");
}

// ---------------------------------------------------------------------------
// Products and their daily state.
// ---------------------------------------------------------------------------

// Independent random streams, so that (say) the ads option or a new epoch
// never shifts the draws of a product's constants.
enum Stream : uint64_t {
  kConstantsStream = 1,
  kEpochStream = 2,
  kReviewStream = 3,
  kGrowthStream = 4,
  kExtrasStream = 5,
};

Rng StreamRng(uint64_t key, uint64_t stream, uint64_t index = 0) {
  return Rng(Mix64(key ^ Mix64(stream * 0x9e3779b97f4a7c15ULL + index)));
}

// A review, or a question (title) with its answer (text); both are shown
// by the same "post" component.
struct Review {
  int stars = 5;
  std::string author, title, text, date;
};

struct Product {
  int template_index = 0;
  int index = 0;  // within the template
  int id = 0;
  uint64_t key = 0;  // seeds the product's streams
  std::string noun, brand, color, title, slug, sku, model, url, path;
  int64_t base_cents = 0;
  int base_reviews = 0;
  int launch_day = 0;  // first review's day number
  int thumbs = 4;
  std::vector<std::pair<std::string, std::string>> specs;  // 3-8 rows
  std::vector<std::string> paragraphs;                     // 2
  std::vector<std::string> features;                       // 3-5, as many as the template has
  std::vector<Review> questions;                           // 2, shown as posts like reviews
};

std::string MakeTitle(Rng& rng, const Product& p) {
  std::string title;
  if (rng.Bernoulli(0.4)) absl::StrAppend(&title, p.brand, " ");
  if (rng.Bernoulli(0.7)) absl::StrAppend(&title, Pick(rng, kAdjectives), " ");
  if (rng.Bernoulli(0.25)) absl::StrAppend(&title, p.color, " ");
  absl::StrAppend(&title, p.noun);
  if (rng.Bernoulli(0.3)) absl::StrAppend(&title, Pick(rng, kSuffixes));
  return title;
}

int BaseReviews(Rng& rng) {
  const double r = rng.UnitDouble();
  if (r < 0.10) return 0;
  if (r < 0.18) return 1;
  if (r < 0.35) return static_cast<int>(rng.Range(2, 4));
  if (r < 0.85) return static_cast<int>(rng.Range(5, 60));
  return static_cast<int>(rng.Range(61, 300));
}

// The texts of a product page that never change.
void AddTexts(Rng& rng, Product& p) {
  std::vector<int> rows(Count(kSpecs));
  for (int i = 0; i < Count(kSpecs); ++i) rows[i] = i;
  Shuffle(rng, &rows);
  rows.resize(rng.Range(3, Count(kSpecs)));
  std::sort(rows.begin(), rows.end());
  for (int r : rows) p.specs.emplace_back(kSpecs[r].name, Pick(rng, kSpecs[r].values));
  for (int i = 0; i < 2; ++i) {
    std::string paragraph;
    for (int n = static_cast<int>(rng.Range(1, 4)); n > 0; --n) {
      absl::StrAppend(&paragraph, paragraph.empty() ? "" : " ",
                      Fill(Pick(rng, kDescriptionSentences), p.noun, p.brand, p.color));
    }
    p.paragraphs.push_back(std::move(paragraph));
  }
  for (int i = 0; i < 3 + p.template_index % 3; ++i) {
    p.features.push_back(
        Fill(kFeatures[(p.id + i * 4) % Count(kFeatures)], p.noun, p.brand, p.color));
  }
  for (int i = 0; i < 2; ++i) {
    const int q = static_cast<int>(rng.Uniform(Count(kQuestions)));
    Review post;
    post.title = Fill(kQuestions[q], p.noun, p.brand, p.color);
    post.text = Fill(kAnswers[q], p.noun, p.brand, p.color);
    post.author = absl::StrCat(Pick(rng, kFirstNames), " ", Pick(rng, kLastNames));
    post.date = DateOfDay(static_cast<int>(rng.Range(0, 900)));
    p.questions.push_back(std::move(post));
  }
}

Product MakeProduct(const VersionedSiteOptions& options, int t, int j) {
  Product p;
  p.template_index = t;
  p.index = j;
  p.key = Mix64(options.seed ^
                Mix64((uint64_t{static_cast<uint32_t>(t)} << 32) | static_cast<uint32_t>(j)));
  Rng rng = StreamRng(p.key, kConstantsStream);
  p.id = 10000 + (t * options.pages_per_template + j) * 3 + static_cast<int>(rng.Uniform(3));
  p.noun = Pick(rng, kCategories[t % Count(kCategories)].nouns);
  p.brand = Pick(rng, kBrands);
  p.color = Pick(rng, kColors);
  p.title = MakeTitle(rng, p);
  p.slug = Slugify(p.title);
  p.sku = absl::StrCat("SKU-", Pad(static_cast<int64_t>(p.id) * 7919 % 100000, 5));
  p.model =
      absl::StrCat(std::string(1, static_cast<char>('A' + rng.Uniform(26))), rng.Range(100, 9900));
  p.path = absl::StrCat("/t", t, "/", p.slug, "-", p.id, ".html");
  p.url = absl::StrCat("http://", options.host, p.path);
  static constexpr int kDollars[] = {9,   14,  19,  24,  29,  39,  49,  59,   79,  99,
                                     129, 149, 199, 249, 349, 499, 899, 1299, 2499};
  p.base_cents = int64_t{Pick(rng, kDollars)} * 100;
  p.base_reviews = BaseReviews(rng);
  p.launch_day = static_cast<int>(rng.Range(0, 500));
  p.thumbs = static_cast<int>(rng.Range(4, 7));
  AddTexts(rng, p);
  return p;
}

int ReviewStars(const Product& p, int i) {
  static constexpr int kStars[] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 3, 3, 2, 1, 1};
  return kStars[Mix64(p.key ^ Mix64(0x57a25 + static_cast<uint64_t>(i))) % Count(kStars)];
}

// Review i (0 = the first ever written) of `p`: the same in every epoch.
Review MakeReview(const Product& p, int i) {
  Rng rng = StreamRng(p.key, kReviewStream, static_cast<uint64_t>(i));
  Review r;
  r.stars = ReviewStars(p, i);
  r.author = absl::StrCat(Pick(rng, kFirstNames), " ", Pick(rng, kLastNames));
  r.title = Pick(rng, kReviewTitles);
  for (int n = static_cast<int>(rng.Range(1, 3)); n > 0; --n) {
    absl::StrAppend(&r.text, r.text.empty() ? "" : " ",
                    Fill(Pick(rng, kReviewSentences), p.noun, p.brand, p.color));
  }
  r.date = DateOfDay(p.launch_day + i * 6 + static_cast<int>(rng.Uniform(6)));
  return r;
}

// What a product page shows on one day.
struct EpochState {
  int64_t price_cents = 0;
  int64_t was_cents = 0;  // > 0: on sale, the old price struck through
  std::string availability;
  bool in_stock = true;
  int reviews = 0;
  int rating_tenths = 0;  // meaningful when reviews > 0
};

// Reviews grow by 0-3 a day.
int ReviewsAt(const Product& p, int epoch) {
  int n = p.base_reviews;
  for (int e = 1; e <= epoch; ++e)
    n += static_cast<int>(StreamRng(p.key, kGrowthStream, e).Uniform(4));
  return n;
}

EpochState MakeEpoch(const Product& p, int epoch) {
  Rng rng = StreamRng(p.key, kEpochStream, static_cast<uint64_t>(epoch));
  EpochState s;
  static constexpr int kPercent[] = {85, 90, 95, 100, 105, 110, 115, 120};
  static constexpr int kCents[] = {99, 99, 95, 49, 0};
  s.price_cents = p.base_cents * Pick(rng, kPercent) / 10000 * 100 + Pick(rng, kCents);
  if (rng.Bernoulli(0.2)) s.was_cents = s.price_cents * rng.Range(115, 150) / 10000 * 100 + 99;
  const double a = rng.UnitDouble();
  s.in_stock = a < 0.85;
  s.availability = a < 0.65     ? "In stock"
                   : s.in_stock ? absl::StrCat("Only ", rng.Range(2, 9), " left")
                                : "Out of stock";
  s.reviews = ReviewsAt(p, epoch);
  int64_t stars = 0;
  for (int i = 0; i < s.reviews; ++i) stars += ReviewStars(p, i);
  if (s.reviews > 0) s.rating_tenths = static_cast<int>((stars * 20 + s.reviews) / (2 * s.reviews));
  return s;
}

// ---------------------------------------------------------------------------
// Template skeletons.
//
// Shingle clustering sees only the sequence of tag names. Templates share the
// site chrome (about 60 of a page's 400 distinct 10-tag windows), so their
// bodies must share few windows: each template draws its layout, buy box,
// section order and wrappers, and picks the tag of nearly every element of
// its body from a few equivalent ones (Renderer::Tag), so that two templates
// rarely agree on ten consecutive tags. Within a template, lists vary in
// length only where their items are long enough (>= 5 tags, >= 3 items, or
// >= 2 items of >= 10 tags) for the set of windows not to depend on the
// length. Reviews and questions share one component, so a page showing no
// review loses only the windows around the empty list: it changes one or two
// bytes of the vector, 1-5 reviews none. A sale price is in <s>, which the
// shingler skips.
// ---------------------------------------------------------------------------

enum class Section {
  kGallery,
  kBuyBox,
  kDescription,
  kSpecs,
  kShipping,
  kReviews,
  kQuestions,
  kRelated,
  kPromo,
  kCategories,
};
constexpr const char* kSectionRoles[] = {"gallery",  "buybox",    "description", "specs",
                                         "shipping", "reviews",   "questions",   "related",
                                         "promo",    "categories"};
enum class Field { kBrand, kMeta, kRating, kPrice, kAvailability };

constexpr int kLayouts = 5;   // two columns, table, one column, left sidebar, grid rows
constexpr int kBuyBoxes = 4;  // divs, table, dl, list
constexpr int kLists = 3;     // table, dl, ul (specs and shipping rows)
constexpr int kKinds = 3;     // variants of reviews, tiles, crumbs and the gallery

struct Style {
  uint64_t salt = 0;  // picks the tags of the body (Renderer::Tag)
  int naming = 0;     // 0 "ns-role", 1 "ns__role", 2 "ns_role"
  std::string ns;
  int layout = 0;
  bool crumbs_in_column = false;  // the breadcrumb heads the main column
  std::vector<Section> main, side;
  std::map<Section, std::vector<std::string>> wrap;  // wrapper tags, outermost first
  int buybox = 0;
  std::vector<Field> fields;  // buy box order after the title
  int specs = 0, shipping = 0, review = 0, tile = 0, crumbs = 0, gallery = 0;
};

int Other(Rng& rng, int value, int kinds) {
  return static_cast<int>((value + 1 + rng.Uniform(kinds - 1)) % kinds);
}

std::vector<std::string> DrawChain(Rng& rng, int min, int max) {
  static constexpr const char* kTags[] = {"div", "section", "div", "article", "div", "aside"};
  std::vector<std::string> chain(rng.Range(min, max));
  for (std::string& tag : chain) tag = Pick(rng, kTags);
  return chain;
}

// Sections and their order: gallery and buy box first (either way round),
// then the others shuffled; shipping and related products may go to the
// sidebar (or, in layouts without one, after the main sections).
void DrawSections(Rng& rng, Style& s) {
  s.main = {Section::kGallery, Section::kBuyBox};
  if (rng.Bernoulli(0.5)) std::swap(s.main[0], s.main[1]);
  std::vector<Section> rest = {Section::kDescription, Section::kSpecs,     Section::kShipping,
                               Section::kReviews,     Section::kQuestions, Section::kRelated};
  Shuffle(rng, &rest);
  s.side = {Section::kPromo, Section::kCategories};
  if (rng.Bernoulli(0.5)) std::swap(s.side[0], s.side[1]);
  for (Section x : rest) {
    const bool aside = (x == Section::kShipping || x == Section::kRelated) && rng.Bernoulli(0.5);
    (aside ? s.side : s.main).push_back(x);
  }
  s.wrap.clear();
  for (Section x : s.main) s.wrap[x] = DrawChain(rng, 1, 2);
  for (Section x : s.side) s.wrap[x] = DrawChain(rng, 1, 2);
}

// The skeleton of template t, spread so that the first 20 templates differ
// in layout or buy box at least.
Style OriginalStyle(int t) {
  Rng rng(Mix64(0x7e3b1a7e5ULL + static_cast<uint64_t>(t)));
  Style s;
  s.salt = rng.Next();
  s.naming = t % 3;
  s.ns = kNamespaces[t % Count(kNamespaces)];
  s.layout = t % kLayouts;
  s.buybox = (t / kLayouts) % kBuyBoxes;
  s.crumbs_in_column = rng.Bernoulli(0.3);
  s.specs = static_cast<int>(rng.Uniform(kLists));
  s.shipping = static_cast<int>(rng.Uniform(kLists));
  s.review = static_cast<int>(rng.Uniform(kKinds));
  s.tile = static_cast<int>(rng.Uniform(kKinds));
  s.crumbs = static_cast<int>(rng.Uniform(kKinds));
  s.gallery = static_cast<int>(rng.Uniform(kKinds));
  s.fields = {Field::kBrand, Field::kMeta, Field::kRating, Field::kPrice, Field::kAvailability};
  Shuffle(rng, &s.fields);
  DrawSections(rng, s);
  return s;
}

// A redesign of template t: new class names, layout, buy box, lists, tags
// and section order; the content stays.
Style RedesignedStyle(int t) {
  const Style old = OriginalStyle(t);
  Rng rng(Mix64(0x2ede5195ULL + static_cast<uint64_t>(t)));
  Style s = old;
  s.salt = rng.Next();
  s.naming = Other(rng, old.naming, 3);
  s.ns = kRedesignNamespaces[t % Count(kRedesignNamespaces)];
  s.layout = Other(rng, old.layout, kLayouts);
  s.buybox = Other(rng, old.buybox, kBuyBoxes);
  s.crumbs_in_column = !old.crumbs_in_column;
  s.specs = Other(rng, old.specs, kLists);
  s.shipping = Other(rng, old.shipping, kLists);
  s.review = Other(rng, old.review, kKinds);
  s.tile = Other(rng, old.tile, kKinds);
  s.crumbs = Other(rng, old.crumbs, kKinds);
  s.gallery = Other(rng, old.gallery, kKinds);
  Shuffle(rng, &s.fields);
  DrawSections(rng, s);
  if (s.main == old.main) std::rotate(s.main.begin() + 2, s.main.begin() + 3, s.main.end());
  return s;
}

// ---------------------------------------------------------------------------
// Rendering.
// ---------------------------------------------------------------------------

struct PageInput {
  const VersionedSiteOptions* options = nullptr;
  const Style* style = nullptr;
  const Product* product = nullptr;
  EpochState state;
  std::vector<Review> reviews;          // shown, newest first
  std::vector<const Product*> related;  // tiles
  std::vector<EpochState> related_state;
  std::vector<const Product*> recent;  // "Recently viewed"; empty: no such section
};

// A list element and its item element.
struct ListTags {
  const char* list;
  const char* item;
};

class Renderer {
 public:
  explicit Renderer(const PageInput& in) : in_(in), s_(*in.style), p_(*in.product) {}

  std::string Render();

 private:
  // A class name of the template's main content, e.g. "product-title".
  std::string Name(absl::string_view role) const;
  // A `class="..."` attribute for `role`.
  std::string Cls(absl::string_view role) const {
    return absl::StrCat("class=\"", Name(role), "\"");
  }
  // The template's tag for element `role`, one of `options` ("" = none).
  const char* Tag(absl::string_view role, std::initializer_list<const char*> options) const;
  ListTags List(absl::string_view role) const;
  // Opens <tag class=role> unless tag is ""; returns whether it did.
  bool OpenIf(const char* tag, absl::string_view role);

  void Head();
  void Header();
  void Footer();
  void MainContent();
  void Sections(absl::string_view tag, absl::string_view role, const std::vector<Section>& sections,
                bool is_main);
  void Column(const std::vector<Section>& sections);
  void RenderSection(Section section);
  void Heading(absl::string_view role, absl::string_view text);
  void Crumbs();
  void Ad();
  void Recent();
  void Gallery();
  void BuyBox();
  void BuyBoxDivs();
  void BuyBoxTable();
  void BuyBoxDl();
  void BuyBoxList();
  void Cart();
  void Delivery();
  void Description();
  void Specs();
  void Shipping();
  void Rows(int kind, absl::string_view role,
            const std::vector<std::pair<std::string, std::string>>& rows);
  void Reviews();
  void Posts(absl::string_view role, const std::vector<Review>& posts, bool questions);
  void Post(const Review& r, bool question);
  void Questions();
  void Related();
  void Tile(const Product& other, const EpochState& state);
  void Promo();
  void Categories();

  std::string Stars(int tenths) const;
  std::string Span(absl::string_view role, absl::string_view markup) const {
    return absl::StrCat("<span ", Cls(role), ">", markup, "</span>");
  }
  std::string BrandLink() const {
    return Link(absl::StrCat("/brand/", Slugify(p_.brand)), Ent(p_.brand), Cls("brand"));
  }
  std::string PriceMarkup() const;
  std::string RatingMarkup(absl::string_view between) const;
  std::string AvailabilityMarkup() const { return Span("availability", in_.state.availability); }

  const PageInput& in_;
  const Style& s_;
  const Product& p_;
  Html h_;
};

std::string Renderer::Name(absl::string_view role) const {
  std::string r(role);
  if (s_.naming == 2) std::replace(r.begin(), r.end(), '-', '_');
  static constexpr const char* kJoin[] = {"-", "__", "_"};
  return absl::StrCat(s_.ns, kJoin[s_.naming], r);
}

// 64-bit FNV-1a: a hash that is the same on every platform.
uint64_t Fnv(absl::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

const char* Renderer::Tag(absl::string_view role,
                          std::initializer_list<const char*> options) const {
  return options.begin()[Mix64(s_.salt ^ Fnv(role)) % options.size()];
}

ListTags Renderer::List(absl::string_view role) const {
  static constexpr ListTags kLists[] = {
      {"ul", "li"}, {"ol", "li"}, {"div", "div"}, {"div", "p"}, {"section", "div"}};
  const uint64_t pick = Mix64(s_.salt ^ Fnv(role) ^ 0x1157);
  return kLists[pick % Count(kLists)];
}

bool Renderer::OpenIf(const char* tag, absl::string_view role) {
  if (*tag == '\0') return false;
  h_.Open(tag, Cls(role));
  return true;
}

std::string Renderer::Stars(int tenths) const {
  std::string out =
      absl::StrCat("<span ", Cls("stars"), " title=\"", Tenths(tenths), " out of 5\">");
  for (int i = 1; i <= 5; ++i) {
    absl::StrAppend(&out, "<i class=\"", Name("star"), " ",
                    Name(tenths >= i * 10 - 5 ? "star-full" : "star-empty"), "\"></i>");
  }
  return out + "</span>";
}

std::string Renderer::PriceMarkup() const {
  std::string out = Span("price", Money(in_.state.price_cents));
  if (in_.state.was_cents > 0) {
    absl::StrAppend(&out, " <s ", Cls("was-price"), ">", Money(in_.state.was_cents), "</s>");
  }
  return out;
}

// Stars, the rating ("Not yet rated" without reviews) and a link to the
// reviews with their count.
std::string Renderer::RatingMarkup(absl::string_view between) const {
  const std::string value =
      in_.state.reviews == 0 ? std::string("Not yet rated") : Tenths(in_.state.rating_tenths);
  return absl::StrCat(Stars(in_.state.rating_tenths), " ", Span("rating-value", value), between,
                      "<a href=\"#", Name("reviews"), "\" ", Cls("review-link"), ">",
                      Span("review-count", std::to_string(in_.state.reviews)), " reviews</a>");
}

std::string Renderer::Render() {
  h_.Raw("<!DOCTYPE html>");
  h_.Open("html", "lang=\"en\"");
  Head();
  h_.Open("body", absl::StrCat("class=\"site page-product ", Name("page"), "\""));
  Header();
  h_.Open("main", "id=\"content\" role=\"main\"");
  MainContent();
  h_.Close();
  Footer();
  h_.Elem("script", "src=\"/static/js/site.js\" defer", "");
  h_.CloseTo(0);
  return h_.Take() + "\n";
}

void Renderer::Head() {
  h_.Open("head");
  h_.Void("meta", "charset=\"utf-8\"");
  h_.Void("meta", "name=\"viewport\" content=\"width=device-width, initial-scale=1\"");
  h_.Elem("title", "", absl::StrCat(Ent(p_.title), " | Vertex Demo Shop"));
  h_.Void("meta", absl::StrCat("name=\"description\" content=\"", Esc(p_.title, true), " by ",
                               Esc(p_.brand, true), ". Free shipping over $50.\""));
  h_.Void("link", absl::StrCat("rel=\"canonical\" href=\"", Esc(p_.url, true), "\""));
  h_.Void("link", "rel=\"stylesheet\" href=\"/static/css/site.css\"");
  h_.Elem("style", "", kInlineCss);
  h_.Elem("script", "",
          absl::StrCat("window.dataLayer=window.dataLayer||[];dataLayer.push({pageType:'product',"
                       "sku:'",
                       p_.sku, "'});"));
  h_.Close();
}

void Renderer::Header() {
  static constexpr const char* kMenu[] = {"Audio", "Kitchen", "Camping", "Footwear",
                                          "Toys",  "Fitness", "Beauty",  "Garden"};
  h_.Open("header", "id=\"site-header\"").Open("div", "class=\"masthead\"");
  h_.Elem(
      "a", "class=\"logo\" href=\"/\"",
      "<img src=\"/static/img/logo.svg\" alt=\"Vertex Demo Shop\" width=\"160\" height=\"40\">");
  h_.Open("form", "class=\"search\" action=\"/search\" method=\"get\" role=\"search\"");
  h_.Void("input",
          "type=\"search\" name=\"q\" placeholder=\"Search the shop\" aria-label=\"Search\"");
  h_.Elem("button", "type=\"submit\"", "Search").Close();
  h_.Elem("a", "class=\"account\" href=\"/account\"", "Sign in");
  h_.Elem("a", "class=\"cart-link\" href=\"/cart\"", "Cart (<span class=\"cart-count\">0</span>)");
  h_.Close().Open("nav", "id=\"main-nav\" aria-label=\"Categories\"").Open("ul", "class=\"menu\"");
  for (const char* item : kMenu) h_.Elem("li", "", Link(absl::StrCat("/c/", Slugify(item)), item));
  h_.CloseTo(h_.depth() - 3);
}

void Renderer::Footer() {
  static constexpr const char* kLinks[] = {"Help center", "Track your order", "Returns & refunds",
                                           "Shipping",    "About us",         "Careers",
                                           "Gift cards",  "Store locator"};
  h_.Open("footer", "id=\"site-footer\"").Open("ul", "class=\"footer-links\"");
  for (const char* item : kLinks) {
    h_.Elem("li", "", Link(absl::StrCat("/help/", Slugify(item)), Esc(item)));
  }
  h_.Close();
  h_.Elem("p", "class=\"legal\"", "&copy; 2011 Vertex Demo Shop. All rights reserved.");
  h_.Close();
}

void Renderer::MainContent() {
  if (!s_.crumbs_in_column) Crumbs();
  if (in_.options->ads) Ad();
  const size_t depth = h_.depth();
  switch (s_.layout) {
    case 0:  // two columns
      h_.Open("div", Cls("page-cols"));
      Sections("div", "col-main", s_.main, true);
      Sections("aside", "col-side", s_.side, false);
      break;
    case 1:  // a layout table
      h_.Open("table", absl::StrCat(Cls("layout"), " width=\"100%\"")).Open("tbody").Open("tr");
      Sections("td", "col-main", s_.main, true);
      Sections("td", "col-side", s_.side, false);
      break;
    case 2:  // one column
      h_.Open("div", Cls("container"));
      Sections("div", "content", s_.main, true);
      Sections("div", "more", s_.side, false);
      break;
    case 3:  // sidebar on the left
      h_.Open("div", Cls("wrap"));
      Sections("aside", "sidebar", s_.side, false);
      Sections("div", "primary", s_.main, true);
      break;
    default:  // grid rows
      h_.Open("div", Cls("grid"));
      Sections("div", "row", s_.main, true);
      Sections("div", "row-secondary", s_.side, false);
      break;
  }
  h_.CloseTo(depth);
}

// Sections in an element <tag class=role>; the main column may also hold the
// breadcrumb, and "Recently viewed" ends the sidebar.
void Renderer::Sections(absl::string_view tag, absl::string_view role,
                        const std::vector<Section>& sections, bool is_main) {
  h_.Open(tag, Cls(role));
  if (s_.crumbs_in_column && is_main) Crumbs();
  Column(sections);
  if (!in_.recent.empty() && !is_main) Recent();
  h_.Close();
}

void Renderer::Column(const std::vector<Section>& sections) {
  for (Section x : sections) {
    const size_t depth = h_.depth();
    const std::vector<std::string>& chain = s_.wrap.at(x);
    const std::string role = kSectionRoles[static_cast<int>(x)];
    for (size_t i = 0; i < chain.size(); ++i) {
      std::string attrs = Cls(i == 0 ? role : absl::StrCat(role, "-inner"));
      if (i == 0 && x == Section::kReviews)
        absl::StrAppend(&attrs, " id=\"", Name("reviews"), "\"");
      h_.Open(chain[i], attrs);
    }
    RenderSection(x);
    h_.CloseTo(depth);
  }
}

void Renderer::RenderSection(Section section) {
  switch (section) {
    case Section::kGallery:
      return Gallery();
    case Section::kBuyBox:
      return BuyBox();
    case Section::kDescription:
      return Description();
    case Section::kSpecs:
      return Specs();
    case Section::kShipping:
      return Shipping();
    case Section::kReviews:
      return Reviews();
    case Section::kQuestions:
      return Questions();
    case Section::kRelated:
      return Related();
    case Section::kPromo:
      return Promo();
    case Section::kCategories:
      return Categories();
  }
}

void Renderer::Heading(absl::string_view role, absl::string_view text) {
  const bool wrapped =
      OpenIf(Tag(absl::StrCat(role, "/head"), {"", "", "header", "div"}), "section-head");
  h_.Elem(Tag(absl::StrCat(role, "/h"), {"h2", "h3", "h4", "h5", "div", "p"}), Cls("heading"),
          Esc(text));
  if (wrapped) h_.Close();
}

void Renderer::Crumbs() {
  const CategoryData& category = kCategories[p_.template_index % Count(kCategories)];
  const std::string category_link =
      Link(absl::StrCat("/c/", Slugify(category.name)), Esc(category.name));
  const std::string noun_link =
      Link(absl::StrCat("/c/", Slugify(category.name), "/", Slugify(p_.noun)), Ent(p_.noun));
  const std::string here = Span("crumb-current", Ent(p_.title));
  if (s_.crumbs == 1) {
    const std::string sep = absl::StrCat(" <span ", Cls("sep"), ">&rsaquo;</span> ");
    h_.Elem(Tag("crumbs", {"div", "p", "nav"}), Cls("crumbs"),
            absl::StrCat(Link("/", "Home"), sep, category_link, sep, noun_link, sep, here));
    return;
  }
  h_.Open("nav", absl::StrCat(Cls("breadcrumb"), " aria-label=\"Breadcrumb\""));
  h_.Open(s_.crumbs == 0 ? "ol" : "ul");
  for (const std::string& item : {Link("/", "Home"), category_link, noun_link, here}) {
    h_.Elem("li", s_.crumbs == 0 ? "" : Cls("crumb"), item);
  }
  h_.Close().Close();
}

// The ad network's markup: the same on every template.
void Renderer::Ad() {
  const uint64_t cb = Mix64(p_.key ^ 0xadadULL) % 1000000;
  h_.Open("div", "class=\"ad-slot\" id=\"ad-top\" data-slot=\"leaderboard\"");
  h_.Elem("span", "class=\"ad-label\"", "Advertisement");
  h_.Elem("a",
          absl::StrCat("href=\"http://ads.adnet.test/click?slot=top&amp;cb=", cb,
                       "\" rel=\"nofollow sponsored\""),
          absl::StrCat("<img src=\"http://ads.adnet.test/banner/", cb % 97,
                       ".gif\" alt=\"Advertisement\" width=\"728\" height=\"90\">"));
  h_.Elem("iframe",
          absl::StrCat("src=\"http://ads.adnet.test/frame?slot=top&amp;cb=", cb,
                       "\" width=\"300\" height=\"50\" title=\"Advertisement\""),
          "");
  h_.Elem("script", "", absl::StrCat("(adnet=window.adnet||[]).push({slot:'top',cb:", cb, "});"));
  std::string links;
  for (uint64_t i = 0; i < 3; ++i) {
    const uint64_t ad = (cb + i) % Count(kSponsored);
    absl::StrAppend(&links, i ? " &middot; " : "",
                    Link(absl::StrCat("http://ads.adnet.test/go?ad=", ad), kSponsored[ad],
                         "rel=\"nofollow sponsored\""));
  }
  h_.Elem("p", "class=\"ad-links\"", links);
  h_.Close();
}

void Renderer::Recent() {
  h_.Open("div", Cls("recently-viewed"));
  Heading("recent", "Recently viewed");
  const ListTags tags = List("recent");
  h_.Open(tags.list, Cls("recent-list"));
  for (const Product* other : in_.recent)
    h_.Elem(tags.item, "", Link(other->path, Ent(other->title)));
  h_.Close().Close();
}

void Renderer::Gallery() {
  const std::string alt = Esc(p_.title, true);
  const auto image = [&](int k, absl::string_view size) {
    return absl::StrCat("/img/p/", p_.id, "-", k, "-", size, ".jpg");
  };
  const auto img = [&](int k, absl::string_view size, absl::string_view alt_text) {
    return absl::StrCat("<img src=\"", image(k, size), "\" alt=\"", alt_text, "\">");
  };
  if (s_.gallery == 0) {
    h_.Open("figure", Cls("figure")).Raw(img(0, "large", alt));
    h_.Elem("figcaption", "", "Click to zoom").Close();
    const ListTags tags = List("thumbs");
    h_.Open(tags.list, Cls("thumbs"));
    for (int k = 0; k < p_.thumbs; ++k) {
      h_.Elem(tags.item, "", Link(image(k, "large"), img(k, "thumb", "")));
    }
  } else if (s_.gallery == 1) {
    h_.Open("div", Cls("stage"))
        .Elem("a", absl::StrCat("href=\"", image(0, "zoom"), "\""), img(0, "large", alt));
    h_.Close().Open(Tag("strip", {"div", "nav", "p"}), Cls("thumb-strip"));
    for (int k = 0; k < p_.thumbs; ++k) {
      h_.Elem("button", absl::StrCat("type=\"button\" data-image=\"", image(k, "large"), "\""),
              absl::StrCat("<span>", img(k, "thumb", ""), "</span>"));
    }
  } else {
    h_.Open("div", Cls("carousel")).Open("ul", Cls("slides"));
    for (int k = 0; k < p_.thumbs; ++k) {
      h_.Elem("li", Cls("slide"),
              absl::StrCat(img(k, "large", alt), "<p>", k + 1, " / ", p_.thumbs, "</p>"));
    }
    h_.Close().Elem("button", absl::StrCat("type=\"button\" ", Cls("prev")), "&lsaquo;");
    h_.Elem("button", absl::StrCat("type=\"button\" ", Cls("next")), "&rsaquo;");
  }
  h_.Close();
}

void Renderer::BuyBox() {
  switch (s_.buybox) {
    case 0:
      BuyBoxDivs();
      break;
    case 1:
      BuyBoxTable();
      break;
    case 2:
      BuyBoxDl();
      break;
    default:
      BuyBoxList();
      break;
  }
  Cart();
  Delivery();
}

void Renderer::BuyBoxDivs() {
  h_.Elem("h1", Cls("title"), Ent(p_.title));
  for (Field f : s_.fields) {
    switch (f) {
      case Field::kBrand:
        h_.Elem(Tag("byline", {"div", "p"}), Cls("byline"), absl::StrCat("by ", BrandLink()));
        break;
      case Field::kMeta: {
        const ListTags tags = List("meta");
        h_.Open(tags.list, Cls("meta"));
        h_.Elem(tags.item, "", absl::StrCat("SKU: ", Span("sku", p_.sku)));
        h_.Elem(tags.item, "", absl::StrCat("Model: ", Span("model", p_.model)));
        h_.Close();
        break;
      }
      case Field::kRating:
        h_.Elem(Tag("rating", {"div", "p"}), Cls("rating"), RatingMarkup(" "));
        break;
      case Field::kPrice:
        h_.Elem(Tag("price-box", {"div", "p"}), Cls("price-box"),
                absl::StrCat(Span("label", "Price:"), " ", PriceMarkup()));
        break;
      case Field::kAvailability:
        h_.Elem(Tag("stock", {"div", "p"}), Cls("stock"),
                absl::StrCat("Availability: ", AvailabilityMarkup()));
        break;
    }
  }
}

void Renderer::BuyBoxTable() {
  h_.Elem("h1", Cls("title"), Ent(p_.title));
  h_.Open("table", Cls("facts")).Open("tbody");
  const char* label = Tag("facts-label", {"th", "td"});
  const auto row = [&](absl::string_view name, absl::string_view value_markup) {
    h_.Elem("tr", "",
            absl::StrCat("<", label, ">", name, "</", label, "><td>", value_markup, "</td>"));
  };
  for (Field f : s_.fields) {
    switch (f) {
      case Field::kBrand:
        row("Brand", BrandLink());
        break;
      case Field::kMeta:
        row("SKU", p_.sku);
        row("Model", p_.model);
        break;
      case Field::kRating:
        row("Rating", RatingMarkup(" "));
        break;
      case Field::kPrice:
        row("Price", PriceMarkup());
        break;
      case Field::kAvailability:
        row("Availability", AvailabilityMarkup());
        break;
    }
  }
  h_.Close().Close();
}

void Renderer::BuyBoxDl() {
  const bool head = OpenIf(Tag("head", {"div", "header", ""}), "head");
  h_.Elem("h1", Cls("title"), Ent(p_.title));
  if (head) h_.Close();
  h_.Open("dl", Cls("facts"));
  const auto pair = [&](absl::string_view name, absl::string_view value_markup) {
    h_.Elem("div", "", absl::StrCat("<dt>", name, "</dt><dd>", value_markup, "</dd>"));
  };
  for (Field f : s_.fields) {
    switch (f) {
      case Field::kBrand:
        pair("Brand:", BrandLink());
        break;
      case Field::kMeta:
        pair("Item #:", Span("sku", p_.sku));
        break;
      case Field::kRating:
        pair("Customer rating:", RatingMarkup(" "));
        break;
      case Field::kPrice:
        pair("Our price:", PriceMarkup());
        break;
      case Field::kAvailability:
        pair("Availability:", AvailabilityMarkup());
        break;
    }
  }
  h_.Close();
}

void Renderer::BuyBoxList() {
  const bool head = OpenIf(Tag("head", {"header", "div", "hgroup"}), "head");
  h_.Elem("h1", Cls("title"), Ent(p_.title));
  if (head) h_.Close();
  const ListTags tags = List("facts");
  h_.Open(tags.list, Cls("facts"));
  for (Field f : s_.fields) {
    switch (f) {
      case Field::kBrand:
        h_.Elem(tags.item, Cls("brand-row"), absl::StrCat("Brand: ", BrandLink()));
        break;
      case Field::kMeta:
        h_.Elem(tags.item, Cls("sku-row"), absl::StrCat("SKU: <span>", p_.sku, "</span>"));
        break;
      case Field::kRating:
        h_.Elem(tags.item, Cls("rating-row"), RatingMarkup(" &middot; "));
        break;
      case Field::kPrice:
        h_.Elem(tags.item, Cls("price-row"), absl::StrCat("Price: ", PriceMarkup()));
        break;
      case Field::kAvailability:
        h_.Elem(tags.item, Cls("stock-row"), absl::StrCat("Availability: ", AvailabilityMarkup()));
        break;
    }
  }
  h_.Close();
}

void Renderer::Cart() {
  h_.Open("form", absl::StrCat(Cls("cart"), " action=\"/cart/add\" method=\"post\""));
  h_.Void("input", absl::StrCat("type=\"hidden\" name=\"sku\" value=\"", p_.sku, "\""));
  const bool group = OpenIf(Tag("qty-group", {"", "div", "p", "fieldset"}), "qty");
  if (absl::string_view(Tag("qty-label", {"label", "span"})) == "label") {
    h_.Elem("label", absl::StrCat("for=\"", Name("qty"), "\""), "Quantity");
  } else {
    h_.Elem("span", Cls("qty-label"), "Quantity");
  }
  if (absl::string_view(Tag("qty", {"select", "input"})) == "select") {
    h_.Open("select", absl::StrCat("id=\"", Name("qty"), "\" name=\"qty\""));
    for (int q = 1; q <= 5; ++q)
      h_.Elem("option", absl::StrCat("value=\"", q, "\""), std::to_string(q));
    h_.Close();
  } else {
    h_.Void("input", absl::StrCat("type=\"number\" id=\"", Name("qty"),
                                  "\" name=\"qty\" value=\"1\" min=\"1\""));
  }
  if (group) h_.Close();
  const std::string disabled = in_.state.in_stock ? "" : " disabled";
  const char* label = in_.state.in_stock ? "Add to cart" : "Sold out";
  if (absl::string_view(Tag("add", {"button", "input"})) == "button") {
    h_.Elem("button", absl::StrCat("type=\"submit\" ", Cls("add-to-cart"), disabled), label);
  } else {
    h_.Void("input", absl::StrCat("type=\"submit\" ", Cls("add-to-cart"), " value=\"", label, "\"",
                                  disabled));
  }
  if (OpenIf(Tag("wish", {"", "p", "div"}), "wish")) {
    h_.Elem("a", absl::StrCat("href=\"/wishlist/add?sku=", p_.sku, "\""), "Add to wish list")
        .Close();
  }
  h_.Close();
}

// Delivery estimate, ZIP check, payment methods and sharing links.
void Renderer::Delivery() {
  static constexpr const char* kPayments[] = {"Visa", "Mastercard", "PayPal", "Apple Pay"};
  static constexpr const char* kShare[] = {"Facebook", "Pinterest", "Email"};
  const size_t depth = h_.depth();
  h_.Open(Tag("delivery", {"div", "section", "aside"}), Cls("delivery"));
  h_.Elem(Tag("delivery-estimate", {"p", "div"}), Cls("delivery-estimate"),
          absl::StrCat("Order within <span>", 1 + p_.id % 9, " h</span> for delivery by <time>",
                       DateOfDay(700 + p_.id % 30), "</time>"));
  h_.Open("form", absl::StrCat(Cls("zip-check"), " action=\"/delivery\" method=\"get\""));
  const bool row = OpenIf(Tag("zip-row", {"", "div", "p"}), "zip-row");
  h_.Elem(Tag("zip-label", {"label", "span"}), "", "ZIP code");
  h_.Void("input", "type=\"text\" name=\"zip\" size=\"5\"");
  if (row) h_.Close();
  h_.Elem("button", "type=\"submit\"", "Check").Close();
  const ListTags pay = List("payments");
  h_.Open(pay.list, Cls("payments"));
  for (const char* method : kPayments) {
    h_.Elem(pay.item, "",
            absl::StrCat("<img src=\"/static/img/pay/", Slugify(method), ".svg\" alt=\"", method,
                         "\">"));
  }
  h_.Close().Open(Tag("share", {"div", "p", "nav"}), Cls("share"));
  h_.Elem("span", "", "Share:");
  for (const char* network : kShare) {
    h_.Elem("a", absl::StrCat("href=\"/share/", Slugify(network), "?u=", p_.path, "\""), network);
  }
  h_.CloseTo(depth);
}

void Renderer::Description() {
  Heading("description", "Product description");
  const char* paragraph_tag = Tag("paragraph", {"p", "div", "p"});
  const bool text =
      OpenIf(Tag("description-text", {"div", "section", "", "article"}), "description-text");
  for (const std::string& paragraph : p_.paragraphs) h_.Elem(paragraph_tag, "", Ent(paragraph));
  if (text) h_.Close();
  const char* features_head = Tag("features-head", {"", "h4", "h5", "p"});
  if (*features_head) h_.Elem(features_head, Cls("features-head"), "Features");
  const ListTags tags = List("features");
  h_.Open(tags.list, Cls("features"));
  for (const std::string& feature : p_.features) h_.Elem(tags.item, "", Ent(feature));
  h_.Close();
}

void Renderer::Specs() {
  Heading("specs", "Specifications");
  Rows(s_.specs, "spec-table", p_.specs);
}

void Renderer::Shipping() {
  Heading("shipping", "Shipping & returns");
  Rows(s_.shipping, "shipping-table",
       {{"Standard", "3–5 business days, free over $50"},
        {"Express", "1–2 business days, $12.99"},
        {"Returns", "Free returns within 30 days"}});
}

// Name/value rows as a table, a dl (each pair in a div) or a list of spans;
// each row has at least five tags.
void Renderer::Rows(int kind, absl::string_view role,
                    const std::vector<std::pair<std::string, std::string>>& rows) {
  const size_t depth = h_.depth();
  const char* label = Tag(absl::StrCat(role, "/label"), {"th", "td"});
  const char* value = Tag(absl::StrCat(role, "/value"), {"", "span"});
  const auto wrap = [&](const std::string& text) {
    return *value ? absl::StrCat("<", value, ">", Ent(text), "</", value, ">") : Ent(text);
  };
  if (kind == 0) h_.Open("table", Cls(role)).Open("tbody");
  if (kind == 1) h_.Open("dl", Cls(role));
  if (kind == 2) h_.Open(Tag(absl::StrCat(role, "/list"), {"ul", "ol"}), Cls(role));
  for (const auto& [name, text] : rows) {
    if (kind == 0) {
      h_.Elem("tr", "",
              absl::StrCat("<", label, ">", Ent(name), "</", label, "><td>", wrap(text), "</td>"));
    } else if (kind == 1) {
      h_.Elem("div", "", absl::StrCat("<dt>", Ent(name), "</dt><dd>", wrap(text), "</dd>"));
    } else {
      h_.Elem("li", "",
              absl::StrCat(Span("row-name", Ent(name)), " ", Span("row-value", Ent(text))));
    }
  }
  h_.CloseTo(depth);
}

void Renderer::Reviews() {
  Heading("reviews", "Customer reviews");
  h_.Elem(Tag("review-summary", {"p", "div"}), Cls("review-summary"),
          in_.state.reviews == 0
              ? std::string("No reviews yet. Be the first to review this product.")
              : absl::StrCat("Rated ", Tenths(in_.state.rating_tenths), " out of 5 from ",
                             in_.state.reviews, in_.state.reviews == 1 ? " review" : " reviews"));
  Posts("review-list", in_.reviews, false);
  const bool wrapped = OpenIf(Tag("write-review", {"", "p", "div"}), "write-review");
  h_.Elem("a", absl::StrCat("href=\"", p_.path, "/write-review\""), "Write a review");
  if (wrapped) h_.Close();
}

void Renderer::Questions() {
  Heading("questions", "Questions & answers");
  Posts("qa-list", p_.questions, true);
  const bool wrapped = OpenIf(Tag("ask", {"", "p", "div"}), "ask");
  h_.Elem("a", absl::StrCat("href=\"", p_.path, "/ask\""), "Ask a question");
  if (wrapped) h_.Close();
}

// Reviews and questions share one component, as on shops whose reviews and
// Q&A come from the same community platform.
void Renderer::Posts(absl::string_view role, const std::vector<Review>& posts, bool questions) {
  static constexpr const char* kListTags[] = {"ol", "div", "ul"};
  h_.Open(kListTags[s_.review], Cls(role));
  for (const Review& r : posts) Post(r, questions);
  h_.Close();
}

void Renderer::Post(const Review& r, bool question) {
  const size_t depth = h_.depth();
  const std::string badge = question ? Span("post-badge", "Q") : Stars(r.stars * 10);
  const std::string title = question ? Ent(r.title) : Esc(r.title);
  const char* meta = Tag("post-meta", {"span", "div", "p"});
  if (s_.review == 0) {
    h_.Open("li", Cls("post")).Open("div", Cls("post-head"));
    h_.Elem(meta, Cls("author"), Ent(r.author)).Elem(meta, Cls("date"), r.date).Close();
    h_.Raw(badge).Elem(Tag("post-title", {"h4", "h5", "p"}), Cls("post-title"), title);
  } else if (s_.review == 1) {
    h_.Open("article", Cls("post")).Open("header");
    h_.Elem(Tag("post-title", {"h3", "h4", "div"}), Cls("post-title"),
            absl::StrCat(badge, " ", title));
    h_.Elem(meta, Cls("byline"),
            absl::StrCat("By <span>", Ent(r.author), "</span> on <time>", r.date, "</time>"));
    h_.Close();
  } else {
    h_.Open("li", Cls("post")).Open(Tag("post-side", {"div", "aside"}), Cls("post-side"));
    h_.Raw(badge).Elem(meta, Cls("author"), Ent(r.author)).Elem(meta, Cls("date"), r.date);
    h_.Close().Elem(Tag("post-title", {"h5", "h4", "p"}), Cls("post-title"), title);
  }
  OpenIf(Tag("post-body", {"", "div", "blockquote"}), "post-body");
  h_.Elem(Tag("post-text", {"p", "div"}), Cls("post-text"), Ent(r.text));
  h_.CloseTo(depth + 1);
  h_.Elem(s_.review == 1 ? "footer" : Tag("post-actions", {"div", "p"}), Cls("post-actions"),
          "<button type=\"button\">Helpful</button> <a href=\"#report\">Report</a>");
  h_.CloseTo(depth);
}

void Renderer::Related() {
  Heading("related", "Customers also bought");
  h_.Open(s_.tile == 1 ? "ul" : Tag("tiles", {"div", "section"}), Cls("tiles"));
  for (size_t i = 0; i < in_.related.size(); ++i) Tile(*in_.related[i], in_.related_state[i]);
  h_.Close();
}

void Renderer::Tile(const Product& other, const EpochState& state) {
  const std::string img = absl::StrCat("<img src=\"/img/p/", other.id, "-0-thumb.jpg\" alt=\"\">");
  const std::string href = absl::StrCat("href=\"", other.path, "\"");
  const std::string price = Span("tile-price", Money(state.price_cents));
  const char* name = Tag("tile-name", {"h3", "h4", "p", "div"});
  if (s_.tile == 0) {
    h_.Open("div", Cls("tile")).Elem("a", href, img);
    h_.Elem(name, Cls("tile-name"), Link(other.path, Ent(other.title))).Raw(price).Close();
  } else if (s_.tile == 1) {
    h_.Open("li", Cls("tile")).Open("figure").Elem("a", href, img);
    h_.Elem("figcaption", "", absl::StrCat(Link(other.path, Ent(other.title)), " ", price));
    h_.Close().Close();
  } else {
    h_.Open("article", Cls("tile")).Elem("a", href, img);
    h_.Elem(name, Cls("tile-name"), Link(other.path, Ent(other.title)));
    h_.Elem(Tag("tile-price", {"p", "div"}), "", price).Close();
  }
}

void Renderer::Promo() {
  Heading("promo", "Free shipping");
  h_.Elem(Tag("promo-text", {"p", "div"}), Cls("promo-text"),
          "On every order over $50. Returns are free for 30 days.");
  h_.Elem("a", absl::StrCat("href=\"/help/shipping\" ", Cls("promo-link")), "Learn more");
}

void Renderer::Categories() {
  const CategoryData& category = kCategories[p_.template_index % Count(kCategories)];
  Heading("categories", absl::StrCat("More in ", category.name));
  const ListTags tags = List("categories");
  h_.Open(tags.list, Cls("category-links"));
  for (const char* noun : category.nouns) {
    h_.Elem(tags.item, "",
            Link(absl::StrCat("/c/", Slugify(category.name), "/", Slugify(noun)), Ent(noun)));
  }
  h_.Close();
}

// ---------------------------------------------------------------------------
// The site.
// ---------------------------------------------------------------------------

std::map<std::string, std::vector<std::string>> Truth(const Product& p, const EpochState& s) {
  std::map<std::string, std::vector<std::string>> truth;
  truth["title"] = {p.title};
  truth["brand"] = {p.brand};
  truth["sku"] = {p.sku};
  truth["price"] = {Money(s.price_cents)};
  truth["availability"] = {s.availability};
  truth["rating"] = s.reviews > 0 ? std::vector<std::string>{Tenths(s.rating_tenths)}
                                  : std::vector<std::string>{};
  truth["reviews_count"] = {std::to_string(s.reviews)};
  return truth;
}

VersionedPage MakePage(const VersionedSiteOptions& options, const Style& style,
                       const std::vector<Product>& products, const std::vector<EpochState>& states,
                       int j) {
  const Product& p = products[j];
  PageInput in{&options, &style, &p, states[j], {}, {}, {}, {}};
  for (int i = in.state.reviews - 1; i >= 0 && i >= in.state.reviews - kShownReviews; --i) {
    in.reviews.push_back(MakeReview(p, i));
  }
  const int n = static_cast<int>(products.size());
  for (int k = 1; k <= kRelatedTiles; ++k) {
    const int other = (j + k) % n;
    in.related.push_back(&products[other]);
    in.related_state.push_back(states[other]);
  }
  if (options.optional_section && StreamRng(p.key, kExtrasStream).Bernoulli(0.5)) {
    for (int k = 1; k <= kRecentItems; ++k) in.recent.push_back(&products[(j + n - k) % n]);
  }
  VersionedPage page;
  page.url = p.url;
  page.template_index = p.template_index;
  page.html = Renderer(in).Render();
  page.truth = Truth(p, in.state);
  return page;
}

}  // namespace

std::vector<VersionedPage> GenerateVersionedSite(const VersionedSiteOptions& input) {
  VersionedSiteOptions options = input;
  options.templates = std::clamp(options.templates, 1, kMaxTemplates);
  options.pages_per_template = std::max(options.pages_per_template, 0);
  options.epoch = std::max(options.epoch, 0);
  std::vector<VersionedPage> pages;
  for (int t = 0; t < options.templates; ++t) {
    const Style style = options.restyled.count(t) ? RedesignedStyle(t) : OriginalStyle(t);
    std::vector<Product> products;
    std::vector<EpochState> states;
    for (int j = 0; j < options.pages_per_template; ++j) {
      products.push_back(MakeProduct(options, t, j));
      states.push_back(MakeEpoch(products.back(), options.epoch));
    }
    for (int j = 0; j < options.pages_per_template; ++j) {
      pages.push_back(MakePage(options, style, products, states, j));
    }
  }
  return pages;
}

std::string VersionedSiteSchemaJson() {
  return R"json({
  "vertical": "product",
  "attributes": [
    {"name": "title", "mandatory": true, "constant": true},
    {"name": "brand", "constant": true},
    {"name": "sku", "mandatory": true, "constant": true},
    {"name": "price", "type": "price", "mandatory": true},
    {"name": "availability"},
    {"name": "rating", "type": "number"},
    {"name": "reviews_count", "type": "number"}
  ]
}
)json";
}

}  // namespace vertex::demo
