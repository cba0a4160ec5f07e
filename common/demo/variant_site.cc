#include "common/demo/variant_site.h"

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
#include "common/util/random.h"

namespace vertex::demo {
namespace {

using internal::Count;
using internal::Esc;
using internal::Html;
using internal::Link;
using internal::Money;
using internal::Pad;
using internal::Pick;
using internal::Slugify;
using util::Mix64;
using util::Rng;

constexpr int kMaxTinyPages = 50;

// ---------------------------------------------------------------------------
// Word lists. Everything the pages say comes from here.
// ---------------------------------------------------------------------------

constexpr const char* kTitleAdjectives[] = {
    "Silent", "Last",   "Hidden", "Broken",  "Golden", "Distant", "Forgotten", "Burning",
    "Secret", "Winter", "Little", "Crimson", "Hollow", "Endless", "Northern",  "Quiet"};
constexpr const char* kTitleNouns[] = {
    "Garden",   "River",   "Orchard", "Lighthouse",   "Kingdom",  "Archive", "Harbour", "Library",
    "Mountain", "Station", "Island",  "Cartographer", "Daughter", "Machine", "Letters", "Hours"};
constexpr const char* kTitlePatterns[] = {"The {a} {n}",         "{a} {n}",
                                          "A {n} of {a} Things", "The {n}'s Promise",
                                          "Beyond the {a} {n}",  "{n}: A Novel"};
constexpr const char* kFirstNames[] = {"Margaret", "Jonas",  "Elena",  "Samuel", "Priya",
                                       "Tobias",   "Aoife",  "Marcus", "Helen",  "Kenji",
                                       "Lucia",    "Oliver", "Nadia",  "Ruth",   "Felix"};
constexpr const char* kLastNames[] = {"Whitfield", "Okafor",   "Lindqvist", "Moreau", "Castellano",
                                      "Hargreave", "Nakagawa", "Brennan",   "Petrov", "Adeyemi",
                                      "Sinclair",  "Vasquez",  "Holloway",  "Kaur",   "Ashby"};
constexpr const char* kPublishers[] = {
    "Harbor & Vine",  "Blue Lantern Press", "Meridian Books",     "Northgate Publishing",
    "Quill & Ash",    "Riverbend House",    "Saltmarsh Editions", "Tallow Street Press",
    "Penrose & Hale", "Oakleaf Media"};
constexpr const char* kGenres[] = {"Fiction",   "Mystery", "Science Fiction", "History",
                                   "Biography", "Cooking", "Travel",          "Poetry"};
constexpr const char* kFormats[] = {"Hardcover", "Paperback", "Mass Market Paperback"};
constexpr const char* kLanguages[] = {"English", "English", "English", "Spanish", "French"};
constexpr const char* kMonths[] = {"January",   "February", "March",    "April",
                                   "May",       "June",     "July",     "August",
                                   "September", "October",  "November", "December"};
constexpr const char* kSentences[] = {
    "A sweeping story of loss and renewal told across three generations.",
    "Critics have called it the most ambitious work of the author's career.",
    "Set against the backdrop of a changing coastline, it asks what we owe the places we leave.",
    "The prose is spare, the characters unforgettable, and the ending earned.",
    "Part mystery, part love letter to the written word.",
    "An international bestseller, now available in a new edition with a reader's guide.",
    "Readers will recognise the quiet humour of the earlier books.",
    "Each chapter opens with a letter that was never sent.",
    "It began as a series of short stories & grew into a novel."};
constexpr const char* kReviewSources[] = {"Kirkus Reviews", "Publishers Weekly", "Booklist",
                                          "The Morning Ledger", "Library Journal"};
constexpr const char* kQuotes[] = {
    "Luminous and deeply felt.", "A triumph of quiet storytelling.", "Impossible to put down.",
    "Sharp, funny and finally heartbreaking.", "A book to press into the hands of friends."};
constexpr const char* kSeries[] = {"The Saltmarsh Chronicles", "Winter Court", "The Cartographers",
                                   "Harbour Lights", "The Quiet Hours Trilogy"};
constexpr const char* kPromos[] = {"Summer Reading Sale: 3 for 2 on paperbacks",
                                   "Free delivery on orders over $25",
                                   "Book club picks: 20% off this week"};
constexpr const char* kRichHeadings[] = {"About the book",     "Praise",   "Inside you'll find",
                                         "From the publisher", "Contents", "Awards"};

// ---------------------------------------------------------------------------
// Books.
// ---------------------------------------------------------------------------

struct Book {
  int id = 0;
  std::string title, publisher, date, isbn, isbn10, format, language, genre;
  std::vector<std::string> authors;
  int64_t cents = 0;
  int pages = 0;
};

// Replaces {a} and {n}.
std::string FillTitle(absl::string_view pattern, absl::string_view adjective,
                      absl::string_view noun) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}') {
      absl::StrAppend(&out, pattern[i + 1] == 'a' ? adjective : noun);
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// "978-1-2345-6789-7": a valid ISBN-13 and its ISBN-10 digits.
std::pair<std::string, std::string> MakeIsbn(Rng& rng) {
  std::string digits = absl::StrCat("978", rng.Range(0, 1), Pad(rng.Range(0, 99999999), 8));
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (digits[i] - '0') * (i % 2 == 0 ? 1 : 3);
  digits += static_cast<char>('0' + (10 - sum % 10) % 10);
  std::string ten = digits.substr(3, 9);
  int sum10 = 0;
  for (int i = 0; i < 9; ++i) sum10 += (ten[i] - '0') * (10 - i);
  const int check = (11 - sum10 % 11) % 11;
  ten += check == 10 ? 'X' : static_cast<char>('0' + check);
  return {absl::StrCat(digits.substr(0, 3), "-", digits.substr(3, 1), "-", digits.substr(4, 4), "-",
                       digits.substr(8, 4), "-", digits.substr(12, 1)),
          ten};
}

Book MakeBook(Rng& rng, int id, int authors) {
  Book b;
  b.id = id;
  b.title =
      FillTitle(Pick(rng, kTitlePatterns), Pick(rng, kTitleAdjectives), Pick(rng, kTitleNouns));
  std::set<std::string> names;
  while (static_cast<int>(names.size()) < authors) {
    const std::string name = absl::StrCat(Pick(rng, kFirstNames), " ", Pick(rng, kLastNames));
    if (names.insert(name).second) b.authors.push_back(name);
  }
  b.publisher = Pick(rng, kPublishers);
  b.date = absl::StrCat(Pick(rng, kMonths), " ", rng.Range(1, 28), ", ", rng.Range(1998, 2023));
  std::tie(b.isbn, b.isbn10) = MakeIsbn(rng);
  b.format = Pick(rng, kFormats);
  b.language = Pick(rng, kLanguages);
  b.genre = Pick(rng, kGenres);
  b.cents = rng.Range(499, 3999);
  b.pages = static_cast<int>(rng.Range(96, 720));
  return b;
}

// ---------------------------------------------------------------------------
// Variants.
// ---------------------------------------------------------------------------

// The layout and blocks of a page; `rare` is decided by the caller.
PageVariant DrawVariant(Rng& rng, const VariantSiteOptions& options) {
  PageVariant v;
  v.breadcrumb = true;
  if (options.layout_variants) {
    // The details list belongs to the newer layout, which always shows a
    // breadcrumb.
    v.details_list = rng.Bernoulli(0.30);
    v.breadcrumb = v.details_list || rng.Bernoulli(0.75);
    v.wrapper = rng.Bernoulli(0.10);
  }
  if (options.optional_blocks) {
    v.series = rng.Bernoulli(0.20);
    v.editorial = rng.Bernoulli(0.35);
    v.promo = rng.Bernoulli(0.10);
    v.also_bought = rng.Bernoulli(0.2) ? 0 : static_cast<int>(rng.Range(2, 8));
    const double a = rng.UnitDouble();
    v.authors = a < 0.80 ? 1 : a < 0.95 ? 2 : 3;
  }
  return v;
}

// ---------------------------------------------------------------------------
// Rendering.
// ---------------------------------------------------------------------------

struct PageInput {
  const VariantSiteOptions* options;
  const Book* book;
  PageVariant variant;
  uint64_t key;                     // seeds the page's texts
  std::vector<const Book*> others;  // for tiles and series
};

class Renderer {
 public:
  explicit Renderer(const PageInput& in) : in_(in), b_(*in.book), rng_(in.key) {}

  std::string Detail();

 private:
  void Head(absl::string_view title);
  void Header();
  void Footer();
  void Promo();
  void Crumbs();
  void BookBox();
  void Byline();
  void Buy();
  void DetailsTable();
  void DetailsList();
  void Series();
  void Description();
  void RichDescription();
  void RichBlock(int depth, int* budget);
  void Editorial();
  void AlsoBought();

  const PageInput& in_;
  const Book& b_;
  Rng rng_;
  Html h_;
};

void Renderer::Head(absl::string_view title) {
  h_.Raw("<!DOCTYPE html>");
  h_.Open("html", "lang=\"en\"").Open("head");
  h_.Void("meta", "charset=\"utf-8\"");
  h_.Elem("title", "", Esc(title));
  h_.Void("meta", "name=\"viewport\" content=\"width=device-width, initial-scale=1\"");
  h_.Void("link", "rel=\"stylesheet\" href=\"/static/books.css\"");
  h_.Elem("script", "src=\"/static/app.js\" defer", "");
  h_.Close();
}

void Renderer::Header() {
  h_.Open("header", "id=\"top\"").Open("div", "class=\"bar\"");
  h_.Elem("a", "class=\"logo\" href=\"/\"", "<img src=\"/static/logo.png\" alt=\"Pageturner\">");
  h_.Open("form", "class=\"search\" action=\"/search\"");
  h_.Void("input", "type=\"text\" name=\"q\" placeholder=\"Title, author or ISBN\"");
  h_.Elem("button", "type=\"submit\"", "Search").Close();
  h_.Open("ul", "class=\"account\"");
  h_.Elem("li", "", Link("/account", "Sign in"));
  h_.Elem("li", "", Link("/wishlist", "Wish list"));
  if (in_.variant.rare) {
    h_.Elem("li", "class=\"gift\"",
            Link("/gift-cards", "Gift cards <span class=\"new\">New</span>"));
  }
  h_.Elem("li", "class=\"basket\"", Link("/basket", "Basket <span class=\"count\">0</span>"));
  h_.Close().Close();
  h_.Open("nav").Open("ul", "class=\"genres\"");
  for (const char* g : kGenres) {
    h_.Elem("li", "", Link(absl::StrCat("/category/", Slugify(g), ".html"), Esc(g)));
  }
  h_.Close().Close().Close();
}

void Renderer::Promo() {
  h_.Open("div", "class=\"promo\"");
  h_.Elem("a", "href=\"/offers\"", "<img src=\"/static/promo.jpg\" alt=\"\">");
  h_.Open("div", "class=\"promo-text\"");
  h_.Elem("h2", "", Esc(Pick(rng_, kPromos)));
  h_.Elem("p", "", "Offer ends Sunday. Terms apply.");
  h_.Elem("a", "class=\"button\" href=\"/offers\"", "Shop the sale");
  h_.Close().Close();
}

void Renderer::Crumbs() {
  h_.Open("ol", "class=\"crumbs\"");
  h_.Elem("li", "", Link("/", "Home"));
  h_.Elem("li", "", Link("/books.html", "Books"));
  h_.Elem("li", "", Link(absl::StrCat("/category/", Slugify(b_.genre), ".html"), Esc(b_.genre)));
  h_.Close();
}

void Renderer::Byline() {
  h_.Open("div", "class=\"byline\"");
  h_.Elem("span", "class=\"by\"", "by");
  h_.Open("ul", "class=\"authors\"");
  for (const std::string& a : b_.authors) {
    h_.Elem("li", "",
            Link(absl::StrCat("/author/", Slugify(a), ".html"), Esc(a), "class=\"author\""));
  }
  h_.Close().Close();
}

void Renderer::Buy() {
  h_.Open("div", "class=\"buy\"");
  h_.Elem("span", "class=\"price\"", Money(b_.cents));
  h_.Elem("span", "class=\"stock\"", "In stock");
  h_.Open("form", "class=\"cart\" action=\"/basket/add\" method=\"post\"");
  h_.Void("input", absl::StrCat("type=\"hidden\" name=\"id\" value=\"", b_.id, "\""));
  h_.Elem("button", "type=\"submit\"", "Add to basket");
  h_.Close().Close();
}

void Renderer::DetailsTable() {
  h_.Open("table", "class=\"details\"").Open("tbody");
  auto row = [&](absl::string_view label, absl::string_view cell) {
    h_.Elem("tr", "", absl::StrCat("<th>", label, "</th><td>", cell, "</td>"));
  };
  row("ISBN-13", b_.isbn);
  row("ISBN-10", b_.isbn10);
  row("Publisher",
      Link(absl::StrCat("/publisher/", Slugify(b_.publisher), ".html"), Esc(b_.publisher)));
  row("Publication date", absl::StrCat("<time>", b_.date, "</time>"));
  row("Format", Esc(b_.format));
  row("Pages", std::to_string(b_.pages));
  row("Language", b_.language);
  h_.Close().Close();
}

void Renderer::DetailsList() {
  h_.Open("ul", "class=\"details\"");
  auto item = [&](absl::string_view label, absl::string_view value) {
    h_.Elem("li", "",
            absl::StrCat("<span class=\"label\">", label, ":</span> <span class=\"value\">", value,
                         "</span>"));
  };
  item("ISBN-13", b_.isbn);
  item("Publisher", Esc(b_.publisher));
  item("Published", b_.date);
  item("Format", absl::StrCat(Esc(b_.format), ", ", b_.pages, " pages"));
  h_.Close();
}

void Renderer::BookBox() {
  h_.Open("div", "class=\"book\"");
  h_.Open("div", "class=\"cover\"");
  h_.Void("img", absl::StrCat("src=\"/covers/", b_.id, ".jpg\" alt=\"", Esc(b_.title, true), "\""));
  h_.Close();
  h_.Open("div", "class=\"info\"");
  h_.Elem("h1", "class=\"title\"", Esc(b_.title));
  Byline();
  Buy();
  if (in_.variant.details_list) {
    DetailsList();
  } else {
    DetailsTable();
  }
  if (in_.variant.series) Series();
  h_.Close().Close();
}

void Renderer::Series() {
  h_.Open("div", "class=\"series\"");
  h_.Elem("h3", "", "Part of a series");
  h_.Elem("p", "",
          absl::StrCat(Link("/series.html", Esc(Pick(rng_, kSeries)), "class=\"series-name\""),
                       ", book ", rng_.Range(1, 5)));
  h_.Close();
}

void Renderer::Description() {
  h_.Open("section", "class=\"description\"");
  h_.Elem("h2", "", "Description");
  if (in_.variant.rare) {
    RichDescription();
  } else {
    std::vector<std::string> sentences;
    const int n = static_cast<int>(rng_.Range(2, 5));
    for (int i = 0; i < n; ++i) sentences.push_back(Esc(Pick(rng_, kSentences)));
    h_.Elem("div", "class=\"blurb\"", absl::StrJoin(sentences, "<br><br>"));
  }
  h_.Close();
}

// The publisher's own markup, as a publisher's feed delivers it: nested
// blocks drawn per page from a wide set of elements, about 120-200 elements in
// all, so that rare pages share no tag sequence with the common pages or with
// each other beyond a few windows.
void Renderer::RichDescription() {
  h_.Open("div", "class=\"publisher-copy\"");
  int budget = static_cast<int>(rng_.Range(120, 200));
  while (budget > 0) RichBlock(0, &budget);
  h_.Close();
}

// One element of the publisher's markup with its subtree; counts elements
// against `budget`.
void Renderer::RichBlock(int depth, int* budget) {
  static constexpr const char* kContainers[] = {"div",        "section", "article", "aside",
                                                "blockquote", "figure",  "details", "header"};
  static constexpr const char* kLeaves[] = {"p",    "h3",   "h4", "h5",  "cite",
                                            "code", "abbr", "q",  "pre", "address"};
  --*budget;
  const uint64_t kind = rng_.Uniform(depth >= 3 ? 3 : 6);
  if (kind == 0 || kind == 1) {
    h_.Elem(Pick(rng_, kLeaves), "", Esc(Pick(rng_, kQuotes)));
  } else if (kind == 2) {
    const bool image = rng_.Bernoulli(0.5);
    if (image) {
      h_.Void("img", absl::StrCat("src=\"/static/inside-", rng_.Range(1, 9), ".jpg\" alt=\"\""));
    } else {
      h_.Elem("span", "", Link("/reading-guides.html", "Reading guide"));
    }
  } else if (kind == 3) {
    const bool ordered = rng_.Bernoulli(0.5);
    h_.Open(ordered ? "ol" : "ul");
    for (int k = static_cast<int>(rng_.Range(1, 3)); k > 0 && *budget > 0; --k) {
      --*budget;
      h_.Open("li");
      RichBlock(depth + 1, budget);
      h_.Close();
    }
    h_.Close();
  } else if (kind == 4) {
    h_.Open("dl");
    for (int k = static_cast<int>(rng_.Range(1, 3)); k > 0 && *budget > 0; --k) {
      *budget -= 2;
      h_.Elem("dt", "", Esc(Pick(rng_, kTitleNouns)));
      h_.Open("dd");
      RichBlock(depth + 1, budget);
      h_.Close();
    }
    h_.Close();
  } else {
    h_.Open(Pick(rng_, kContainers));
    for (int k = static_cast<int>(rng_.Range(1, 4)); k > 0 && *budget > 0; --k) {
      RichBlock(depth + 1, budget);
    }
    h_.Close();
  }
}

void Renderer::Editorial() {
  h_.Open("section", "class=\"editorial\"");
  h_.Elem("h2", "", "Editorial reviews");
  const int n = static_cast<int>(rng_.Range(2, 4));
  for (int i = 0; i < n; ++i) {
    h_.Open("blockquote");
    h_.Elem("p", "", Esc(Pick(rng_, kQuotes)));
    h_.Elem("footer", "", absl::StrCat("<cite>", Esc(Pick(rng_, kReviewSources)), "</cite>"));
    h_.Close();
  }
  h_.Close();
}

void Renderer::AlsoBought() {
  h_.Open("section", "class=\"also\"");
  h_.Elem("h2", "", "Customers also bought");
  h_.Open("ul", "class=\"tiles\"");
  for (int i = 0; i < in_.variant.also_bought; ++i) {
    const Book& o = *in_.others[i % in_.others.size()];
    const std::string href = absl::StrCat("/book/", o.id, ".html");
    h_.Open("li");
    h_.Elem("a", absl::StrCat("href=\"", href, "\""),
            absl::StrCat("<img src=\"/covers/", o.id, "-s.jpg\" alt=\"\">"));
    h_.Elem("a", absl::StrCat("class=\"t\" href=\"", href, "\""), Esc(o.title));
    h_.Elem("span", "class=\"p\"", Money(o.cents));
    h_.Close();
  }
  h_.Close().Close();
}

void Renderer::Footer() {
  h_.Open("footer", "id=\"bottom\"").Open("div", "class=\"cols\"");
  static constexpr const char* kColumns[][4] = {
      {"About us", "Careers", "Press", "Our shops"},
      {"Help", "Delivery", "Returns", "Contact"},
      {"Gift cards", "Book clubs", "Events", "Newsletter"}};
  for (const auto& column : kColumns) {
    h_.Open("div", "class=\"col\"").Open("ul");
    for (const char* item : column) {
      h_.Elem("li", "", Link(absl::StrCat("/info/", Slugify(item), ".html"), item));
    }
    h_.Close().Close();
  }
  h_.Close();
  h_.Elem("p", "class=\"legal\"", "&copy; 2024 Pageturner Books Ltd.");
  h_.Close();
}

std::string Renderer::Detail() {
  const PageVariant& v = in_.variant;
  Head(absl::StrCat(b_.title, " by ", absl::StrJoin(b_.authors, ", "), " | Pageturner Books"));
  h_.Open("body", "class=\"book-page\"");
  Header();
  if (v.promo) Promo();
  h_.Open("main", "id=\"content\"");
  if (v.wrapper) h_.Open("div", "class=\"page-wrap\"");
  if (v.breadcrumb) Crumbs();
  BookBox();
  Description();
  if (v.editorial) Editorial();
  if (v.also_bought > 0) AlsoBought();
  if (v.wrapper) h_.Close();
  h_.Close();
  Footer();
  return h_.Take();
}

// A category page: a different template (results list, filters, pager).
std::string RenderCategory(const VariantSiteOptions& options, absl::string_view genre, int page,
                           const std::vector<Book>& books) {
  Html h;
  h.Raw("<!DOCTYPE html>");
  h.Open("html", "lang=\"en\"").Open("head");
  h.Void("meta", "charset=\"utf-8\"");
  h.Elem("title", "", absl::StrCat(Esc(genre), " books, page ", page, " | Pageturner Books"));
  h.Close().Open("body", "class=\"category-page\"");
  h.Open("div", "id=\"layout\"").Open("aside", "class=\"filters\"");
  h.Elem("h3", "", "Refine");
  h.Open("form", "action=\"\"").Open("select", "name=\"format\"");
  for (const char* f : kFormats) h.Elem("option", "", f);
  h.Close().Elem("button", "", "Apply").Close().Close();
  h.Open("section", "class=\"results\"");
  h.Elem("h1", "", absl::StrCat(Esc(genre), " <em>page ", page, "</em>"));
  h.Open("table", "class=\"grid\"");
  for (size_t i = 0; i < books.size(); ++i) {
    const Book& b = books[i];
    h.Elem("tr", "",
           absl::StrCat("<td>", Link(absl::StrCat("/book/", b.id, ".html"), Esc(b.title)),
                        "</td><td>", Esc(b.authors[0]), "</td><td>", Money(b.cents), "</td>"));
  }
  h.Close();
  h.Open("div", "class=\"pager\"");
  h.Elem("a",
         absl::StrCat("href=\"https://", options.host, "/category/", Slugify(genre),
                      ".html?page=", page + 1, "\""),
         "Next");
  h.Close().Close().Close();
  return h.Take();
}

// ---------------------------------------------------------------------------
// The site.
// ---------------------------------------------------------------------------

std::map<std::string, std::vector<std::string>> Truth(const Book& b) {
  return {{"title", {b.title}},        {"author", b.authors},
          {"isbn", {b.isbn}},          {"publisher", {b.publisher}},
          {"price", {Money(b.cents)}}, {"publication_date", {b.date}}};
}

VariantSiteOptions Clamped(const VariantSiteOptions& input) {
  VariantSiteOptions o = input;
  o.tiny_templates = std::clamp(o.tiny_templates, 0, 2);
  o.pages = o.tiny_templates == 0 ? std::max(o.pages, 0) : std::clamp(o.pages, 1, kMaxTinyPages);
  o.rare_fraction = std::isnan(o.rare_fraction) ? 0 : std::clamp(o.rare_fraction, 0.0, 1.0);
  return o;
}

bool IsDetail(const VariantSiteOptions& o, int i) { return o.tiny_templates != 2 || i % 2 == 0; }

// Exactly round(fraction * n) of the n detail pages (by detail index).
std::vector<bool> DrawRare(Rng& rng, int n, double fraction) {
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n; i > 1; --i) std::swap(order[i - 1], order[rng.Uniform(i)]);
  std::vector<bool> rare(n, false);
  const int count = static_cast<int>(std::lround(fraction * n));
  for (int i = 0; i < count; ++i) rare[order[i]] = true;
  return rare;
}

// Distinct 7-digit ids.
std::vector<int> DrawIds(Rng& rng, int n) {
  std::set<int> seen;
  std::vector<int> ids;
  while (static_cast<int>(ids.size()) < n) {
    const int id = static_cast<int>(rng.Range(1000000, 9999999));
    if (seen.insert(id).second) ids.push_back(id);
  }
  return ids;
}

}  // namespace

std::string PageVariant::ToString() const {
  return absl::StrCat(Key(), "+also", also_bought, "+authors", authors, rare ? "+RARE" : "");
}

std::string PageVariant::Key() const {
  return absl::StrCat(details_list ? "list" : "table", breadcrumb ? "+crumbs" : "",
                      wrapper ? "+wrap" : "", series ? "+series" : "",
                      editorial ? "+editorial" : "", promo ? "+promo" : "",
                      also_bought > 0 ? "+also" : "");
}

std::vector<VariantPage> GenerateVariantSite(const VariantSiteOptions& input) {
  const VariantSiteOptions o = Clamped(input);
  Rng site_rng(Mix64(o.seed ^ 0x5eed0f7a11b00c5ULL));
  int details = 0;
  for (int i = 0; i < o.pages; ++i) details += IsDetail(o, i);
  const std::vector<int> ids = DrawIds(site_rng, details);
  const std::vector<bool> rare = DrawRare(site_rng, details, o.rare_fraction);
  std::vector<PageVariant> variants;
  std::vector<Book> books;
  for (int d = 0; d < details; ++d) {
    Rng rng(Mix64(o.seed * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(d)));
    variants.push_back(DrawVariant(rng, o));
    variants.back().rare = rare[d];
    books.push_back(MakeBook(rng, ids[d], variants.back().authors));
  }
  std::vector<VariantPage> pages;
  for (int i = 0, d = 0, c = 0; i < o.pages; ++i) {
    VariantPage page;
    if (!IsDetail(o, i)) {
      const char* genre = kGenres[c % Count(kGenres)];
      const int number = c / Count(kGenres) + 1;
      ++c;
      page.template_name = "category";
      page.url =
          absl::StrCat("https://", o.host, "/category/", Slugify(genre), ".html?page=", number);
      std::vector<Book> listed;
      Rng rng(Mix64(o.seed ^ Mix64(0xca7 + static_cast<uint64_t>(c))));
      const int rows = static_cast<int>(rng.Range(8, 20));
      for (int k = 0; k < rows; ++k) listed.push_back(MakeBook(rng, 1000000 + k, 1));
      page.html = RenderCategory(o, genre, number, listed);
      pages.push_back(std::move(page));
      continue;
    }
    std::vector<const Book*> others;
    for (int k = 1; k <= 8; ++k) others.push_back(&books[(d + k) % details]);
    const PageInput in{&o, &books[d], variants[d], Mix64(o.seed ^ Mix64(0xb00c + d)), others};
    page.template_name = "book";
    page.url = absl::StrCat("https://", o.host, "/book/", books[d].id, ".html");
    page.html = Renderer(in).Detail();
    page.truth = Truth(books[d]);
    page.variant = variants[d];
    pages.push_back(std::move(page));
    ++d;
  }
  return pages;
}

const std::vector<std::string>& VariantSiteAttributes() {
  static const std::vector<std::string> kNames = {"title",     "author", "isbn",
                                                  "publisher", "price",  "publication_date"};
  return kNames;
}

std::string VariantSiteSchemaJson() {
  return R"json({
  "vertical": "book",
  "attributes": [
    {"name": "title", "mandatory": true, "constant": true},
    {"name": "author", "multi_valued": true, "constant": true},
    {"name": "isbn", "type": "isbn", "mandatory": true, "constant": true},
    {"name": "publisher", "constant": true},
    {"name": "price", "type": "price", "mandatory": true},
    {"name": "publication_date", "type": "date", "constant": true}
  ]
}
)json";
}

}  // namespace vertex::demo
