#include "common/annotate/annotator.h"

#include <cctype>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::annotate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Gazetteer MakeGazetteer(const std::vector<std::string>& terms) {
  Gazetteer g;
  for (const std::string& t : terms) EXPECT_TRUE(g.Add(t)) << t;
  return g;
}

// "term@begin-end" for each match.
std::vector<std::string> Found(const Gazetteer& g, std::string_view text) {
  std::vector<std::string> out;
  for (const Gazetteer::Match& m : g.Find(text)) out.push_back(absl::StrCat(m.term, "@", m.begin, "-", m.end));
  return out;
}

// ---- Gazetteer -----------------------------------------------------------------

TEST(Gazetteer, MatchesOnlyWholeWords) {
  const Gazetteer g = MakeGazetteer({"Bath", "Bathgate", "Ely"});
  const std::vector<std::tuple<std::string, std::vector<std::string>>> cases = {
      {"Bath", {"Bath@0-4"}},
      {"Bathgate", {"Bathgate@0-8"}},
      {"Bathgates", {}},
      {"near Bath, Somerset", {"Bath@5-9"}},
      {"(Bath)", {"Bath@1-5"}},
      {"Bath-based", {"Bath@0-4"}},
      {"2 bathrooms", {}},
      {"Bath2", {}},
      {"Bath\xC3\xA9", {}},   // "Bathé": a UTF-8 letter is a word character
      {"\xC3\xA9" "Ely", {}},    // and before the term too
      {"Ely\xC2\xA0", {}},    // a raw NBSP is not space: the text is not normalised
      {"Belying Ely", {"Ely@8-11"}},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(Found(g, text), expected) << text;
}

TEST(Gazetteer, LeftmostLongestNonOverlapping) {
  const Gazetteer g = MakeGazetteer({"Newport", "Newport Pagnell", "New York", "York", "a b", "b c"});
  EXPECT_THAT(Found(g, "Newport Pagnell"), ElementsAre("Newport Pagnell@0-15"));
  EXPECT_THAT(Found(g, "Newport, Wales"), ElementsAre("Newport@0-7"));
  // The longer term ends inside a word: the shorter one wins.
  EXPECT_THAT(Found(g, "Newport Pagnells"), ElementsAre("Newport@0-7"));
  EXPECT_THAT(Found(g, "New York and York"), ElementsAre("New York@0-8", "York@13-17"));
  EXPECT_THAT(Found(g, "a b c"), ElementsAre("a b@0-3"));
  EXPECT_THAT(Found(g, "x b c"), ElementsAre("b c@2-5"));
}

TEST(Gazetteer, CaseInsensitiveWithCanonicalSpelling) {
  Gazetteer g;
  ASSERT_TRUE(g.Add("  St   Albans "));
  ASSERT_TRUE(g.Add("ST ALBANS"));  // the same term: the first spelling stays
  EXPECT_EQ(g.size(), 1u);
  EXPECT_THAT(Found(g, "Flat, ST ALBANS, Herts"), ElementsAre("St Albans@6-15"));
  EXPECT_THAT(Found(g, "st albans"), ElementsAre("St Albans@0-9"));
  EXPECT_TRUE(g.Contains("st  ALBANS"));
  EXPECT_THAT(g.Terms(), ElementsAre("St Albans"));
}

TEST(Gazetteer, AddRemoveContains) {
  Gazetteer g;
  EXPECT_FALSE(g.Add(""));
  EXPECT_FALSE(g.Add(" \t\n"));
  EXPECT_FALSE(g.Add(std::string(201, 'x')));
  EXPECT_TRUE(g.Add(std::string(200, 'x')));
  EXPECT_TRUE(g.Add("Leeds"));
  EXPECT_TRUE(g.Add("Leek"));
  EXPECT_EQ(g.size(), 3u);
  EXPECT_THAT(g.Terms(), ElementsAre("Leeds", "Leek", std::string(200, 'x')));
  EXPECT_TRUE(g.Remove("LEEDS"));
  EXPECT_FALSE(g.Remove("Leeds"));
  EXPECT_FALSE(g.Contains("Leeds"));
  EXPECT_TRUE(g.Contains("leek"));
  EXPECT_TRUE(Found(g, "Leeds").empty());
  EXPECT_THAT(Found(g, "Leek"), ElementsAre("Leek@0-4"));
  EXPECT_TRUE(g.Add("leeds"));  // back, in its new spelling
  EXPECT_THAT(Found(g, "LEEDS"), ElementsAre("leeds@0-5"));
  EXPECT_TRUE(Gazetteer().Find("anything").empty());
  EXPECT_TRUE(g.Find("").empty());
}

TEST(Gazetteer, NonAsciiTerms) {
  const Gazetteer g = MakeGazetteer({"Citro\xC3\xABn", "\xC5\xA0koda"});
  EXPECT_THAT(Found(g, "2019 Citro\xC3\xABn C3"), ElementsAre("Citro\xC3\xABn@5-13"));
  EXPECT_THAT(Found(g, "\xC5\xA0koda Octavia"), ElementsAre("\xC5\xA0koda@0-6"));
}

// A megabyte of text whose every word starts a partial match of a long
// term: the scan is bounded by the longest term at each word start (no
// quadratic walk), and the result is exact.
TEST(Gazetteer, MegabyteTextNode) {
  std::string long_term;
  for (int i = 0; i < 20; ++i) long_term += "a ";
  long_term += "b";  // "a a ... a b", 41 bytes, never completes below
  Gazetteer g = MakeGazetteer({long_term, "a a a c"});
  std::string text;
  while (text.size() < (1u << 20)) text += "a ";
  EXPECT_TRUE(g.Find(text).empty());
  ASSERT_TRUE(g.Add("a"));
  // Every "a" is a match once the one-word term exists.
  EXPECT_EQ(g.Find(text).size(), text.size() / 2);
  text += "a a a c";
  const std::vector<Gazetteer::Match> found = g.Find(text);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found.back().term, "a a a c");
  EXPECT_EQ(found.back().end, text.size());
}

// The naive definition: at each start after a non-word byte (or the text's
// start), the longest term whose folded bytes follow and end before a
// non-word byte (or the end); the scan resumes after it.
std::vector<std::string> NaiveFind(const std::vector<std::string>& terms, const std::string& text) {
  const auto word = [](unsigned char c) { return std::isalnum(c) || c >= 0x80; };
  const auto fold = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string folded = fold(text);
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    size_t best = 0;
    std::string best_term;
    if (i == 0 || !word(static_cast<unsigned char>(text[i - 1]))) {
      for (const std::string& t : terms) {
        const std::string ft = fold(t);
        const size_t end = i + ft.size();
        if (ft.size() > best && folded.compare(i, ft.size(), ft) == 0 &&
            (end == text.size() || !word(static_cast<unsigned char>(text[end])))) {
          best = ft.size();
          best_term = t;
        }
      }
    }
    if (best == 0) {
      ++i;
      continue;
    }
    out.push_back(absl::StrCat(best_term, "@", i, "-", i + best));
    i += best;
  }
  return out;
}

// Differential: random terms and texts over a small alphabet (letters of
// both cases, a digit, space, comma, a two-byte letter) give the same
// matches as the naive definition.
TEST(Gazetteer, AgreesWithTheNaiveDefinitionOnRandomInputs) {
  const std::vector<std::string> alphabet = {"a", "b", "A", "B", "1", " ", ",", "\xC3\xA9"};
  std::mt19937 rng(13);
  const auto random_string = [&](int max_symbols, bool term) {
    std::string s;
    const int n = 1 + static_cast<int>(rng() % max_symbols);
    for (int k = 0; k < n; ++k) s += alphabet[rng() % alphabet.size()];
    if (term) {
      // Terms are whitespace-normalised and non-empty, as Add stores them.
      std::string normal;
      for (char c : s) {
        if (c == ' ' && (normal.empty() || normal.back() == ' ')) continue;
        normal.push_back(c);
      }
      while (!normal.empty() && normal.back() == ' ') normal.pop_back();
      return normal.empty() ? std::string("a") : normal;
    }
    return s;
  };
  int matches = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> terms;
    Gazetteer g;
    for (int k = 0; k < 6; ++k) {
      const std::string t = random_string(5, /*term=*/true);
      if (g.Contains(t)) continue;  // first spelling wins in both
      ASSERT_TRUE(g.Add(t));
      terms.push_back(t);
    }
    for (int k = 0; k < 20; ++k) {
      const std::string text = random_string(40, /*term=*/false);
      const std::vector<std::string> expected = NaiveFind(terms, text);
      matches += static_cast<int>(expected.size());
      ASSERT_EQ(Found(g, text), expected) << "text \"" << text << "\", terms " << testing::PrintToString(terms);
    }
  }
  EXPECT_GT(matches, 1000);  // the inputs do exercise matching
}

// ---- Built-in gazetteers --------------------------------------------------------

TEST(BuiltinGazetteer, ListsAreLargeAndHoldKnownTerms) {
  const std::vector<std::tuple<std::string, size_t, std::vector<std::string>>> cases = {
      {"uk_places", 600, {"Bath", "Bathgate", "Newport", "Newport Pagnell", "Newcastle upon Tyne", "Clapham",
                          "King's Lynn", "Stoke-on-Trent", "Aberystwyth", "Enniskillen", "Notting Hill"}},
      {"car_makes", 50, {"Ford", "Vauxhall", "Volkswagen", "VW", "Mercedes-Benz", "Land Rover", "Citroen", "Kia"}},
      {"car_models", 250, {"X5", "A4", "3 Series", "Golf", "Fiesta", "Qashqai", "C-Class", "308", "MX-5"}},
  };
  for (const auto& [name, min_size, terms] : cases) {
    absl::StatusOr<std::shared_ptr<const Gazetteer>> g = BuiltinGazetteer(name);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    EXPECT_GE((*g)->size(), min_size) << name;
    for (const std::string& t : terms) EXPECT_TRUE((*g)->Contains(t)) << name << ": " << t;
  }
  // Words that are mostly something else in listings are left out.
  absl::StatusOr<std::shared_ptr<const Gazetteer>> places = BuiltinGazetteer("uk_places");
  ASSERT_TRUE(places.ok());
  EXPECT_TRUE((*places)->Find("3 bed house for sale on Walton Street in March").empty());
}

TEST(BuiltinGazetteer, UnknownNameIsNotFoundListingTheNames) {
  absl::StatusOr<std::shared_ptr<const Gazetteer>> g = BuiltinGazetteer("us_places");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("\"us_places\""));
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("uk_places, car_makes, car_models"));
}

// ---- Annotator ------------------------------------------------------------------

schema::CompiledSchema MakeSchema(const std::string& json) {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(json, "test");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return *std::move(s);
}

// A real-estate-like schema: price (pivot), location (gazetteer "places"),
// bedrooms (regex with a group), link (url), photo (image).
const char kListingSchema[] = R"js({"vertical":"re","record_level":true,"attributes":[
  {"name":"price","type":"price","regular":true,"pivot":true},
  {"name":"location","regular":true,"gazetteer":"places"},
  {"name":"bedrooms","regex":"(?i)\\b(\\d+) ?bed(?:room)?s?\\b"},
  {"name":"link","type":"url"},
  {"name":"photo","type":"image"}]})js";

GazetteerSet Places(const std::vector<std::string>& terms) {
  GazetteerSet set;
  set["places"] = std::make_shared<const Gazetteer>(MakeGazetteer(terms));
  return set;
}

html::Page Parse(const std::string& html, const std::string& url = "http://agent.test/list?page=2") {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, url);
  EXPECT_TRUE(page.ok()) << page.status().ToString();
  return *std::move(page);
}

// "attribute=value@begin-end in <tag of the node or its parent>", in output order.
std::vector<std::string> Describe(const Annotator& annotator, const html::Page& page) {
  std::vector<std::string> out;
  for (const Annotation& a : annotator.Annotate(page)) {
    const html::Node element = a.node.is_element() ? a.node : a.node.parent();
    out.push_back(absl::StrCat(annotator.schema().attribute(a.attribute).name(), "=", a.value, "@", a.begin, "-",
                               a.end, " in ", std::string(element.tag()), a.from_gazetteer ? " (gaz)" : ""));
  }
  return out;
}

TEST(Annotator, TextAnnotationsInDocumentThenSpanThenSchemaOrder) {
  absl::StatusOr<Annotator> annotator = Annotator::Create(MakeSchema(kListingSchema), Places({"Bath", "Oxford"}));
  ASSERT_TRUE(annotator.ok()) << annotator.status().ToString();
  const html::Page page = Parse(
      "<html><head><title>Homes in Bath \xC2\xA3" "1</title><style>b{}/* Oxford */</style></head><body>"
      "<script>var p = '\xC2\xA3" "5 Bath';</script><noscript>Oxford \xC2\xA3" "7</noscript>"
      "<div><span>\xC2\xA3" "250,000 or \xC2\xA3" "1,200 pcm</span><em>3 bed flat, Bath (BATH)</em></div>"
      "<p>Oxford, 2 bedrooms</p></body></html>");
  EXPECT_THAT(Describe(*annotator, page),
              ElementsAre("price=\xC2\xA3" "250,000@0-9 in span", "price=\xC2\xA3" "1,200@13-20 in span",
                          "bedrooms=3@0-1 in em", "location=Bath@12-16 in em (gaz)",
                          "location=Bath@18-22 in em (gaz)", "location=Oxford@0-6 in p (gaz)",
                          "bedrooms=2@8-9 in p"));
}

TEST(Annotator, EntitiesAndWhitespaceAreNormalisedBeforeMatching) {
  absl::StatusOr<Annotator> annotator =
      Annotator::Create(MakeSchema(kListingSchema), Places({"Brighton", "Brighton & Hove", "Milton Keynes"}));
  ASSERT_TRUE(annotator.ok());
  const html::Page page = Parse(
      "<html><body><p>  Brighton &amp; Hove</p><p>Milton\n\t Keynes&nbsp;&pound;9,995</p></body></html>");
  EXPECT_THAT(Describe(*annotator, page),
              ElementsAre("location=Brighton & Hove@0-15 in p (gaz)", "location=Milton Keynes@0-13 in p (gaz)",
                          "price=\xC2\xA3" "9,995@14-21 in p"));
}

TEST(Annotator, LinksAndImagesResolveAgainstTheBase) {
  absl::StatusOr<Annotator> annotator = Annotator::Create(MakeSchema(kListingSchema), Places({}));
  ASSERT_TRUE(annotator.ok());
  const html::Page with_base = Parse(
      "<html><head><base href=\"http://cdn.test/agents/\"></head><body>"
      "<a href=\"p/1?x=1\">one</a><a href=\"#top\">top</a><a href=\"javascript:void(0)\">js</a>"
      "<a href=\"  \">blank</a><a>no href</a><a href=\"mailto:a@b.test\">mail</a>"
      "<img src=\"../img/1.jpg\"><img srcset=\"/s-1x.jpg 1x, /s-2x.jpg 2x\"><img alt=\"none\"></body></html>");
  EXPECT_THAT(Describe(*annotator, with_base),
              ElementsAre("link=http://cdn.test/agents/p/1?x=1@0-0 in a", "photo=http://cdn.test/img/1.jpg@0-0 in img",
                          "photo=http://cdn.test/s-1x.jpg@0-0 in img"));
  const html::Page no_base = Parse("<html><body><a href=\"/property/42\">Bath</a></body></html>");
  EXPECT_THAT(Describe(*annotator, no_base), ElementsAre("link=http://agent.test/property/42@0-0 in a"));
}

TEST(Annotator, UrlAttributeWithARegexSelectsFromTheUrl) {
  absl::StatusOr<Annotator> annotator = Annotator::Create(
      MakeSchema(R"js({"vertical":"v","attributes":[{"name":"details","type":"url","regex":"/property/(\\d+)"}]})js"),
      {});
  ASSERT_TRUE(annotator.ok());
  const html::Page page =
      Parse("<html><body><a href=\"/property/42\">a</a><a href=\"/about\">b</a></body></html>");
  EXPECT_THAT(Describe(*annotator, page), ElementsAre("details=42@0-0 in a"));
}

const char kCarSchema[] = R"js({"vertical":"cars","record_level":true,"attributes":[
  {"name":"price","type":"price","regular":true,"pivot":true},
  {"name":"model","gazetteer":"models"},
  {"name":"postcode","regex":"\\b([A-Z]{1,2}\\d{1,2})\\b"},
  {"name":"location","gazetteer":"places"}],
  "disjoint":[{"first":"model","second":"postcode"}]})js";

TEST(Annotator, DisjointAttributesOnTheSameSpanCancel) {
  GazetteerSet set = Places({"Bath", "Golf"});
  set["models"] = std::make_shared<const Gazetteer>(MakeGazetteer({"X5", "Golf", "3 Series"}));
  absl::StatusOr<Annotator> annotator = Annotator::Create(MakeSchema(kCarSchema), set);
  ASSERT_TRUE(annotator.ok()) << annotator.status().ToString();
  // X5 is both a model and a postcode district: neither. N5 is a postcode
  // only. Golf is a model and (here) a place, which are not disjoint: both.
  const html::Page page = Parse("<html><body><p>BMW X5 near N5</p><p>Golf</p></body></html>");
  EXPECT_THAT(Describe(*annotator, page),
              ElementsAre("postcode=N5@12-14 in p", "model=Golf@0-4 in p (gaz)", "location=Golf@0-4 in p (gaz)"));
}

TEST(Annotator, BuiltinGazetteersFillInAndGivenOnesWin) {
  const schema::CompiledSchema schema = MakeSchema(
      R"js({"vertical":"v","attributes":[{"name":"location","gazetteer":"uk_places"},{"name":"make","gazetteer":"car_makes"}]})js");
  absl::StatusOr<Annotator> builtin = Annotator::Create(schema, {});
  ASSERT_TRUE(builtin.ok()) << builtin.status().ToString();
  EXPECT_EQ(builtin->gazetteers().size(), 2u);
  const html::Page page = Parse("<html><body><p>Ford Focus, Newport Pagnell</p></body></html>");
  EXPECT_THAT(Describe(*builtin, page),
              ElementsAre("make=Ford@0-4 in p (gaz)", "location=Newport Pagnell@12-27 in p (gaz)"));
  GazetteerSet own;
  own["uk_places"] = std::make_shared<const Gazetteer>(MakeGazetteer({"Focus"}));
  absl::StatusOr<Annotator> given = Annotator::Create(schema, own);
  ASSERT_TRUE(given.ok());
  EXPECT_THAT(Describe(*given, page), ElementsAre("make=Ford@0-4 in p (gaz)", "location=Focus@5-10 in p (gaz)"));
}

TEST(Annotator, UnknownGazetteerIsInvalidArgumentNamingAttributeAndGazetteer) {
  absl::StatusOr<Annotator> annotator = Annotator::Create(
      MakeSchema(R"js({"vertical":"v","attributes":[{"name":"a"},{"name":"town","gazetteer":"fr_places"}]})js"), {});
  ASSERT_FALSE(annotator.ok());
  EXPECT_EQ(annotator.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(annotator.status().message()), HasSubstr("attribute 1 (\"town\")"));
  EXPECT_THAT(std::string(annotator.status().message()), HasSubstr("gazetteer \"fr_places\""));
}

TEST(Annotator, PagesWithNothingToAnnotate) {
  absl::StatusOr<Annotator> annotator = Annotator::Create(MakeSchema(kListingSchema), Places({"Bath"}));
  ASSERT_TRUE(annotator.ok());
  EXPECT_TRUE(annotator->Annotate(Parse("<html></html>")).empty());
  EXPECT_TRUE(annotator->Annotate(Parse("<html><body><p>Nothing here</p></body></html>")).empty());
  EXPECT_TRUE(annotator->Annotate(Parse("<html><head><title>Bath</title></head></html>")).empty());
}

// The shipped schemas with the built-in gazetteers on one listing each:
// every attribute the listing states is annotated, with its value.
TEST(Annotator, ShippedSchemasOnListings) {
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
      {"deploy/schemas/used_cars.json",
       "<li><a href=\"/used/123\">2015 BMW X5 xDrive30d M Sport</a>"
       "<p>45,000 miles | Diesel | Automatic | 3.0L | Black | SUV</p>"
       "<p>\xC2\xA3" "18,995</p><p>Smith Motors, Leeds</p></li>",
       {"link=http://dealer.test/used/123@0-0 in a", "year=2015@0-4 in a", "make=BMW@5-8 in a (gaz)",
        "model=X5@9-11 in a (gaz)", "mileage=45,000@0-6 in p", "fuel=Diesel@15-21 in p",
        "transmission=Automatic@24-33 in p", "engine_size=3.0L@36-40 in p", "colour=Black@43-48 in p",
        "body_type=SUV@51-54 in p", "price=\xC2\xA3" "18,995@0-8 in p", "dealer=Smith Motors@0-12 in p",
        "location=Leeds@14-19 in p (gaz)"}},
      {"deploy/schemas/real_estate.json",
       "<li><h3><a href=\"/property/9\">3 bedroom semi-detached house for sale</a></h3>"
       "<p>Guide price \xC2\xA3" "325,000</p><p>Walton Street, Oxford OX2 6AE</p>"
       "<p>2 bathrooms, 1 reception room</p></li>",
       {"link=http://dealer.test/property/9@0-0 in a", "bedrooms=3@0-1 in a",
        "property_type=semi-detached@10-23 in a", "property_type=house@24-29 in a",
        "legal_status=for sale@30-38 in a", "price=\xC2\xA3" "325,000@12-21 in p",
        "location=Oxford@15-21 in p (gaz)", "postcode=OX2 6AE@22-29 in p", "bathrooms=2@0-1 in p",
        "receptions=1@13-14 in p"}},
  };
  for (const auto& [file, body, expected] : cases) {
    absl::StatusOr<schema::CompiledSchema> schema =
        schema::CompiledSchema::FromFile(std::string(VERTEX_SOURCE_DIR) + "/" + file);
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    absl::StatusOr<Annotator> annotator = Annotator::Create(*schema, {});
    ASSERT_TRUE(annotator.ok()) << annotator.status().ToString();
    const html::Page page = Parse("<html><body><ul>" + body + "</ul></body></html>", "http://dealer.test/list");
    EXPECT_EQ(Describe(*annotator, page), expected) << file;
  }
}

// 100,000 records, each two text nodes (price, location): every one is
// annotated once, and the walk is linear (no step revisits the page).
TEST(Annotator, HundredThousandTextNodes) {
  absl::StatusOr<Annotator> annotator = Annotator::Create(MakeSchema(kListingSchema), Places({"Bath", "Leeds"}));
  ASSERT_TRUE(annotator.ok());
  std::string html = "<html><body><ul>";
  constexpr int kRecords = 100000;
  for (int i = 0; i < kRecords; ++i) {
    absl::StrAppend(&html, "<li><b>\xC2\xA3", 100 + i % 900, ",000</b><i>", i % 2 == 0 ? "Bath" : "Leeds",
                    "</i></li>");
  }
  html += "</ul></body></html>";
  html::Parser parser(html::ParseOptions{.max_page_bytes = 16u << 20});
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://agent.test/");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  const std::vector<Annotation> found = annotator->Annotate(*page);
  ASSERT_EQ(found.size(), 2u * kRecords);
  for (int i = 0; i < kRecords; i += 9973) {
    EXPECT_EQ(found[2 * i].value, absl::StrCat("\xC2\xA3", 100 + i % 900, ",000"));
    EXPECT_EQ(found[2 * i + 1].value, i % 2 == 0 ? "Bath" : "Leeds");
  }
}

}  // namespace
}  // namespace vertex::annotate
