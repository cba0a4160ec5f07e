#include "common/annotate/gazetteer_learner.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::annotate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(TermComponents, SplitsAsTheDigestProposes) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"Oxford, Walton Street, ground-floor apartment", {"Oxford", "Walton Street", "ground-floor", "apartment"}},
      {"Newcastle upon Tyne; Brighton & Hove | St. Albans", {"Newcastle upon Tyne", "Brighton & Hove", "St. Albans"}},
      {"Flat 2 - Kensington (W8)", {"Flat", "Kensington", "W8"}},
      {"Stoke-on-Trent/Leek", {"Stoke-on-Trent", "Leek"}},
      {"upon Tyne", {"upon", "Tyne"}},
      {"Bath, BATH, bath.", {"Bath"}},
      {"'Oxford'  ", {"Oxford"}},
      {"\xC2\xA3" "250,000 - 3 beds", {"beds"}},
      {"", {}},
      {" , ; - ", {}},
      {std::string(201, 'x') + ", York", {"York"}},
      {"\xC5\xA0koda Octavia", {"\xC5\xA0koda Octavia"}},
      {"12 Green Lane, Council tax band A", {"Green Lane", "Council", "tax", "band"}},
      {"3-5 High Street", {"High Street"}},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(TermComponents(text), expected) << text;
}

// A result page, its annotations with the learner's current gazetteer, and
// a typing of the <i> elements of its <li> records as the attribute.
class LearnerTest : public ::testing::Test {
 protected:
  static constexpr int kLocation = 1;

  void SetUp() override {
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(
        R"js({"vertical":"re","record_level":true,"attributes":[
              {"name":"price","type":"price","regular":true,"pivot":true},
              {"name":"location","regular":true,"gazetteer":"places"},
              {"name":"postcode","regex":"\\b[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}\\b"}]})js",
        "test");
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    schema_ = std::make_unique<schema::CompiledSchema>(*std::move(schema));
  }

  // Records: one <li> per entry of `locations` (its <i> text); `noise`:
  // one <p> per entry, in the last record after its location (outside the
  // records when there is none); `outside`: one <p> per entry after the list.
  void Observe(GazetteerLearner& learner, const std::vector<std::string>& locations,
               const std::vector<std::string>& noise, const std::vector<std::string>& outside = {}) {
    std::string paragraphs;
    for (const std::string& n : noise) absl::StrAppend(&paragraphs, "<p>", n, "</p>");
    std::string html = "<html><body><ul>";
    for (size_t i = 0; i < locations.size(); ++i) {
      absl::StrAppend(&html, "<li><b>\xC2\xA3", i + 1, "00,000</b><i>", locations[i], "</i>",
                      i + 1 == locations.size() ? paragraphs : "", "</li>");
    }
    html += "</ul>";
    if (locations.empty()) html += paragraphs;
    for (const std::string& n : outside) absl::StrAppend(&html, "<p>", n, "</p>");
    html += "</body></html>";
    html::Parser parser;
    absl::StatusOr<html::Page> page = parser.Parse(html, "http://agent.test/");
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    GazetteerSet set;
    set["places"] = std::make_shared<const Gazetteer>(learner.gazetteer());
    absl::StatusOr<Annotator> annotator = Annotator::Create(*schema_, set);
    ASSERT_TRUE(annotator.ok()) << annotator.status().ToString();
    const std::vector<Annotation> annotations = annotator->Annotate(*page);
    amber::Typing typing;
    amber::DataArea& area = typing.areas.emplace_back();
    for (html::Node n = page->root(); n; n = n.NextInDocument(page->root())) {
      if (n.tag() == "ul") area.root = n;
      if (n.tag() != "li") continue;
      amber::Record& record = area.records.emplace_back();
      record.nodes.push_back(n);
      const html::Node price = n.first_child();
      record.attributes.push_back(amber::AttributeMatch{0, price, price.Text(), 1.0, true, "self::li/*[1]"});
      const html::Node location = price.next_sibling();
      record.attributes.push_back(
          amber::AttributeMatch{kLocation, location, location.Text(), 1.0, false, "self::li/*[2]"});
    }
    learner.Observe(typing, annotations);
  }

  static Gazetteer Terms(const std::vector<std::string>& terms) {
    Gazetteer g;
    for (const std::string& t : terms) g.Add(t);
    return g;
  }

  std::unique_ptr<schema::CompiledSchema> schema_;
};

TEST_F(LearnerTest, RoundsExtractValidateAndClean) {
  GazetteerLearner learner(kLocation);
  learner.Seed(Terms({"Oxford", "Bath"}));
  // Round 1: two seeds typed, two new terms; the footer's seeds are noise
  // once each, below 1.5 times their value evidence.
  Observe(learner, {"Oxford, Walton Street", "Bath", "Didcot"}, {"Oxford Bath"});
  RoundResult r1 = learner.EndRound();
  EXPECT_THAT(r1.added, ElementsAre("Didcot", "Walton Street"));
  EXPECT_THAT(r1.blacklisted, IsEmpty());
  EXPECT_EQ(r1.typed_nodes, 3u);
  EXPECT_EQ(r1.annotated_typed_nodes, 2u);
  EXPECT_EQ(r1.gazetteer_size, 4u);
  EXPECT_EQ(learner.terms().at("Oxford").ev_pos, 1);
  EXPECT_EQ(learner.terms().at("Oxford").ev_neg, 1);

  // Round 2, annotated with round 1's terms: "Walton Street" outside the
  // records in two nodes (2 >= 1.5 x 1: blacklisted), "Didcot" in one
  // (1 < 1.5 x 2: kept).
  Observe(learner, {"Didcot", "Abingdon"}, {"Walton Street", "on Walton Street", "near Didcot"});
  RoundResult r2 = learner.EndRound();
  EXPECT_THAT(r2.added, ElementsAre("Abingdon"));
  EXPECT_THAT(r2.blacklisted, ElementsAre("Walton Street"));
  EXPECT_EQ(r2.annotated_typed_nodes, 1u);
  const auto terms = learner.terms();
  EXPECT_TRUE(terms.at("Walton Street").blacklisted);
  EXPECT_EQ(terms.at("Walton Street").ev_pos, 1);
  EXPECT_EQ(terms.at("Walton Street").ev_neg, 2);
  EXPECT_FALSE(terms.at("Didcot").blacklisted);
  EXPECT_EQ(terms.at("Didcot").ev_pos, 2);
  EXPECT_EQ(terms.at("Didcot").ev_neg, 1);
  // A known term keeps its evidence across rounds.
  EXPECT_EQ(terms.at("Oxford").ev_pos, 1);
  EXPECT_THAT(learner.gazetteer().Terms(), ElementsAre("Abingdon", "Bath", "Didcot", "Oxford"));

  // Round 3: a blacklisted term is skipped even when typed.
  Observe(learner, {"Walton Street, Cowley"}, {});
  RoundResult r3 = learner.EndRound();
  EXPECT_THAT(r3.added, ElementsAre("Cowley"));
  EXPECT_EQ(learner.terms().at("Walton Street").ev_pos, 1);
  EXPECT_FALSE(learner.gazetteer().Contains("Walton Street"));

  // An empty round changes nothing.
  RoundResult r4 = learner.EndRound();
  EXPECT_THAT(r4.added, IsEmpty());
  EXPECT_THAT(r4.blacklisted, IsEmpty());
  EXPECT_EQ(r4.typed_nodes, 0u);
  EXPECT_EQ(r4.gazetteer_size, 5u);
}

TEST_F(LearnerTest, ThetaIsTheBlacklistFactor) {
  for (double theta : {1.5, 2.0, 2.5}) {
    GazetteerLearner learner(kLocation, theta);
    Observe(learner, {"Walton Street"}, {});
    learner.EndRound();
    Observe(learner, {"Leeds"}, {"Walton Street", "Walton Street.", "(Walton Street)"});
    Observe(learner, {}, {});
    // 3 noise nodes against 1 value node: blacklisted while theta <= 3.
    const RoundResult r = learner.EndRound();
    EXPECT_THAT(r.blacklisted, ElementsAre("Walton Street")) << theta;
  }
  GazetteerLearner lenient(kLocation, 2.5);
  Observe(lenient, {"Walton Street"}, {});
  lenient.EndRound();
  Observe(lenient, {"Leeds"}, {"Walton Street", "on Walton Street"});
  EXPECT_THAT(lenient.EndRound().blacklisted, IsEmpty());  // 2 < 2.5 x 1
  EXPECT_EQ(lenient.theta(), 2.5);
}

// A site repeats its menus and footer towns on every page: annotations
// outside the records are noise only when the options say so.
TEST_F(LearnerTest, NoiseOutsideRecordsCountsOnlyWhenAsked) {
  for (const bool outside : {false, true}) {
    GazetteerLearner learner(kLocation, GazetteerLearnerOptions{.theta = 1.5, .noise_outside_records = outside});
    Observe(learner, {"Walton Street"}, {});
    learner.EndRound();
    Observe(learner, {"Leeds"}, {}, {"Walton Street", "Popular: Walton Street", "Walton Street, Leeds"});
    const RoundResult r = learner.EndRound();
    EXPECT_EQ(r.blacklisted.size(), outside ? 1u : 0u) << outside;
    EXPECT_EQ(learner.terms().at("Walton Street").ev_neg, outside ? 3 : 0) << outside;
  }
}

// Components inside an annotated term, and those overlapping another
// attribute's annotation, are not terms; a name around an annotated term is.
TEST_F(LearnerTest, AnnotatedSpansAndOtherAttributesShapeComponents) {
  GazetteerLearner learner(kLocation);
  learner.Seed(Terms({"Holmmouth", "Newport Pagnell"}));
  Observe(learner, {"Great Holmmouth, TN23 4AB", "flat in Newport Pagnell", "12 Green Lane"}, {});
  const RoundResult r = learner.EndRound();
  EXPECT_THAT(r.added, ElementsAre("Great Holmmouth", "Green Lane", "flat", "in"));
  EXPECT_EQ(learner.terms().at("Newport Pagnell").ev_pos, 1);
  EXPECT_EQ(learner.terms().at("Holmmouth").ev_pos, 1);
  EXPECT_EQ(learner.terms().count("TN23"), 0u);
  EXPECT_EQ(learner.terms().count("Newport"), 0u);
}

TEST_F(LearnerTest, SeedNoiseIsNeverLearnt) {
  GazetteerLearner learner(kLocation);
  learner.SeedNoise(Terms({"Golf"}));
  learner.Seed(Terms({"Golf", "Leeds"}));  // a seed does not lift the blacklist
  Observe(learner, {"Golf", "Leeds, Headingley"}, {});
  const RoundResult r = learner.EndRound();
  EXPECT_THAT(r.added, ElementsAre("Headingley"));
  EXPECT_THAT(learner.gazetteer().Terms(), ElementsAre("Headingley", "Leeds"));
  EXPECT_TRUE(learner.terms().at("Golf").blacklisted);
  EXPECT_EQ(learner.terms().at("Golf").ev_pos, 0);
}

TEST_F(LearnerTest, OtherAttributesAndRegexAnnotationsAreNotEvidence) {
  GazetteerLearner learner(/*attribute=*/0);  // price: no gazetteer
  Observe(learner, {"Bath"}, {"Bath"});
  const RoundResult r = learner.EndRound();
  // The price nodes are typed: their components ("00,000" has no letter)
  // give nothing; the location typing is another attribute's.
  EXPECT_EQ(r.typed_nodes, 1u);
  EXPECT_THAT(r.added, IsEmpty());
  EXPECT_THAT(r.blacklisted, IsEmpty());
}

TEST(GazetteerLearner, RestoreRoundTripsAndRejectsBadStates) {
  GazetteerLearner learner(2);
  std::map<std::string, GazetteerTermState> terms = {
      {"Oxford", {3, 1, false}}, {"Walton Street", {1, 2, true}}};
  ASSERT_TRUE(learner.Restore(terms).ok());
  const auto back = learner.terms();
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back.at("Oxford").ev_pos, 3);
  EXPECT_EQ(back.at("Oxford").ev_neg, 1);
  EXPECT_TRUE(back.at("Walton Street").blacklisted);
  EXPECT_THAT(learner.gazetteer().Terms(), ElementsAre("Oxford"));
  const std::vector<std::pair<std::map<std::string, GazetteerTermState>, std::string>> bad = {
      {{{"", {}}}, "\"\""},
      {{{std::string(201, 'x'), {}}}, "longer than 200 bytes"},
      {{{"Leeds", {-1, 0, false}}}, "\"Leeds\""},
      {{{"Leeds", {0, std::numeric_limits<double>::quiet_NaN(), false}}}, "not a finite number"},
      {{{"Leeds", {std::numeric_limits<double>::infinity(), 0, false}}}, "not a finite number"},
  };
  for (const auto& [states, message] : bad) {
    const absl::Status s = learner.Restore(states);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << message;
    EXPECT_THAT(std::string(s.message()), HasSubstr(message));
  }
  EXPECT_EQ(learner.terms().size(), 2u);  // unchanged by the failures
}

}  // namespace
}  // namespace vertex::annotate
