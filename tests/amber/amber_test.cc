#include "common/amber/amber.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/amber/stages.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::amber {
namespace {

using ::testing::HasSubstr;

// price (regular: mandatory; pivot), location (regular), beds (optional).
schema::CompiledSchema RealEstate() {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(
      R"js({"vertical":"real_estate","record_level":true,"attributes":[
        {"name":"price","mandatory":true,"pivot":true},
        {"name":"location","regular":true},
        {"name":"beds"}]})js",
      "test schema");
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

// The same with the pivot as the only regular attribute (location
// optional): for the structural tests, whose records hold prices only
// (Run drops areas lacking the other regular attributes).
schema::CompiledSchema PriceOnlyRegular() {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(
      R"js({"vertical":"real_estate","record_level":true,"attributes":[
        {"name":"price","mandatory":true,"pivot":true},
        {"name":"location"},
        {"name":"beds"}]})js",
      "test schema");
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

html::Page MustParse(const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://example.test/list");
  EXPECT_TRUE(page.ok()) << page.status();
  return std::move(page).value();
}

// The tests' hand-made annotations: an element with data-ann="price
// location" has those attributes annotated on its first text child, valued
// with that text (the annotator's module is built elsewhere).
std::vector<annotate::Annotation> MarkedAnnotations(const html::Page& page,
                                                    const schema::CompiledSchema& schema) {
  std::vector<annotate::Annotation> out;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (!n.is_element() || !n.has_attribute("data-ann")) continue;
    html::Node text = n.first_child();
    while (text && !text.is_text()) text = text.next_sibling();
    for (absl::string_view name : absl::StrSplit(n.attribute("data-ann"), ' ', absl::SkipEmpty())) {
      annotate::Annotation a;
      a.attribute = schema.Find(std::string(name));
      EXPECT_GE(a.attribute, 0) << name;
      a.node = text ? text : n;
      a.value = a.node.Text();
      a.end = a.value.size();
      out.push_back(a);
    }
  }
  return out;
}

html::Node ById(const html::Page& page, const std::string& id) {
  absl::StatusOr<html::XPath> x = html::XPath::Compile("//*[@id='" + id + "']");
  EXPECT_TRUE(x.ok());
  absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
  EXPECT_TRUE(nodes.ok() && nodes->size() == 1) << "no single element with id " << id;
  return nodes.ok() && !nodes->empty() ? nodes->front() : html::Node();
}

// The texts of the area's pivots.
std::vector<std::string> PivotTexts(const DataArea& area) {
  std::vector<std::string> out;
  for (html::Node p : area.pivots) out.push_back(p.Text());
  return out;
}

// Every attribute's tag path, compiled by the project's XPath support and
// evaluated with the record start as context node, selects exactly the
// attribute's node.
void ExpectTagPathsSelectTheirNodes(const html::Page& page, const Typing& typing) {
  int checked = 0;
  for (const DataArea& area : typing.areas) {
    for (const Record& record : area.records) {
      for (const AttributeMatch& m : record.attributes) {
        absl::StatusOr<html::XPath> x = html::XPath::Compile(m.tag_path);
        ASSERT_TRUE(x.ok()) << m.tag_path << ": " << x.status();
        absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page, record.nodes.front());
        ASSERT_TRUE(nodes.ok()) << m.tag_path << ": " << nodes.status();
        ASSERT_EQ(nodes->size(), 1u) << m.tag_path;
        EXPECT_TRUE(nodes->front() == m.node) << m.tag_path;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

Typing MustRun(const html::Page& page, const schema::CompiledSchema& schema, const Options& options = {}) {
  absl::StatusOr<Typing> typing = amber::Run(page, MarkedAnnotations(page, schema), schema, options);
  EXPECT_TRUE(typing.ok()) << typing.status();
  return typing.ok() ? *std::move(typing) : Typing();
}

std::string Repeat(int n, const std::string& s) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// ---- identify: Fig. 6 ----------------------------------------------------

// D1 holds three pivots in <p> children (depth 5, mutual distance 4) and a
// homogeneous subtree E of four pivots at depth 8 (mutual distance 8,
// distance 7 to D1's). D2 is a list with one pivot a level deeper.
const char kFigure6[] = R"html(<html><body>
  <div id="d1">
    <p data-ann="price">£100</p><p data-ann="price">£110</p><p data-ann="price">£120</p>
    <div id="e">
      <article><div><span data-ann="price">£200</span></div></article>
      <article><div><span data-ann="price">£210</span></div></article>
      <article><div><span data-ann="price">£220</span></div></article>
      <article><div><span data-ann="price">£230</span></div></article>
    </div>
  </div>
  <ul id="d2"><li data-ann="price">£300</li><li><b data-ann="price">£310</b></li><li data-ann="price">£320</li></ul>
</body></html>)html";

TEST(Identify, Figure6LooseThresholdsAbsorbE) {
  html::Page page = MustParse(kFigure6);
  const schema::CompiledSchema schema = RealEstate();
  Options loose;
  loose.theta_depth = 3;
  loose.theta_dist = 3;
  const Typing t = Identify(page, MarkedAnnotations(page, schema), 0, loose);
  ASSERT_EQ(t.areas.size(), 2u);
  // D1 takes M1,1..M1,4 (the fourth is E's first); E's three rightmost
  // pivots are lost.
  EXPECT_TRUE(t.areas[0].root == ById(page, "d1"));
  EXPECT_EQ(PivotTexts(t.areas[0]), (std::vector<std::string>{"£100", "£110", "£120", "£200"}));
  EXPECT_TRUE(t.areas[1].root == ById(page, "d2"));
  EXPECT_EQ(t.areas[1].pivots.size(), 3u);
}

TEST(Identify, Figure6EvaluationThresholdsSplitD1) {
  html::Page page = MustParse(kFigure6);
  const schema::CompiledSchema schema = RealEstate();
  const Typing t = Identify(page, MarkedAnnotations(page, schema), 0, Options{});
  ASSERT_EQ(t.areas.size(), 3u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "d1"));
  EXPECT_EQ(PivotTexts(t.areas[0]), (std::vector<std::string>{"£100", "£110", "£120"}));
  EXPECT_TRUE(t.areas[1].root == ById(page, "e"));
  EXPECT_EQ(PivotTexts(t.areas[1]), (std::vector<std::string>{"£200", "£210", "£220", "£230"}));
  // D2's depth variation of one does not split it.
  EXPECT_TRUE(t.areas[2].root == ById(page, "d2"));
  EXPECT_EQ(t.areas[2].pivots.size(), 3u);
}

TEST(Identify, ZeroThresholdsStillMergeIdenticalPivots) {
  // Width <= theta: (0, 0) merges pivots of equal depth and distance (the
  // paper's strict "<" could never merge anything at 0).
  html::Page page = MustParse(kFigure6);
  Options zero;
  zero.theta_depth = 0;
  zero.theta_dist = 0;
  const Typing t = Identify(page, MarkedAnnotations(page, RealEstate()), 0, zero);
  ASSERT_GE(t.areas.size(), 2u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "d1"));
  EXPECT_EQ(t.areas[0].pivots.size(), 3u);
  EXPECT_TRUE(t.areas[1].root == ById(page, "e"));
}

TEST(Identify, PivotsOfARootAreReplacedOnlyByALargerSet) {
  // Three clusters share the root #a: two prices in <p> children, three
  // deeper ones (depth 3 more: not depth-consistent with the first), then
  // two more <p> prices. pivots(#a) keeps the three.
  html::Page page = MustParse(R"html(<html><body><div id="a">
    <p data-ann="price">£1</p><p data-ann="price">£2</p>
    <div><div><div><span data-ann="price">£3</span></div></div></div>
    <div><div><div><span data-ann="price">£4</span></div></div></div>
    <div><div><div><span data-ann="price">£5</span></div></div></div>
    <p data-ann="price">£6</p><p data-ann="price">£7</p>
  </div></body></html>)html");
  const Typing t = Identify(page, MarkedAnnotations(page, RealEstate()), 0, Options{});
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "a"));
  EXPECT_EQ(PivotTexts(t.areas[0]), (std::vector<std::string>{"£3", "£4", "£5"}));
}

TEST(Identify, StruckThroughPricesInsideRecordsDoNotSplitTheArea) {
  // An old price beside the new one is at distance 4 from it, 8 from the
  // other records' prices: Alg. 2's scan breaks its run there, and
  // pivots(ul) would keep only the longest run (4 records). The maximal
  // pivot set (Def. 4) takes the other runs' prices back.
  std::string items;
  for (int i = 0; i < 12; ++i) {
    const std::string old = i % 3 == 1 ? absl::StrCat("<del data-ann=\"price\">£", i, "50</del>") : "";
    items += absl::StrCat("<li><div><span data-ann=\"price\">£", i, "00</span>", old,
                          "<a>Town</a></div><p>Flat</p></li>");
  }
  html::Page page = MustParse("<html><body><ul id=r>" + items + "</ul></body></html>");
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "r"));
  ASSERT_EQ(t.areas[0].records.size(), 12u);
  for (size_t i = 0; i < 12; ++i) {
    const AttributeMatch& price = t.areas[0].records[i].attributes.at(0);
    EXPECT_EQ(price.value, absl::StrCat("£", i, "00"));
    EXPECT_EQ(price.tag_path, "self::li/*[1][self::div]/*[1][self::span]");
  }
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(Identify, TwoPricesInOneCellAreARecordNotAnArea) {
  // An old and a new price in one <td> are at distance 4, the records'
  // prices at distance 8: the scan makes each such pair an "area" of its
  // own inside one record of the table. Their pivots fit the table's area,
  // so they are offered to it and every row is a record.
  std::string rows;
  for (int i = 0; i < 6; ++i) {
    const std::string old = i % 3 == 0 ? absl::StrCat("<del data-ann=\"price\">£", i, "90</del> ") : "";
    rows += absl::StrCat("<tr><td><a href=\"/", i, "\">House</a></td><td>", old, "<span data-ann=\"price\">£", i,
                         "50</span></td><td><p data-ann=\"location\">Leeds</p></td></tr>");
  }
  // The <tbody> written out: both page builders give the same tree.
  html::Page page = MustParse("<html><body><table id=t><tbody>" + rows + "</tbody></table></body></html>");
  const Typing t = MustRun(page, RealEstate());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_EQ(t.areas[0].root.tag(), "tbody");
  EXPECT_EQ(t.areas[0].records.size(), 6u);
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(Segment, AnOldAndANewPriceInOneRecordAreNotAGrid) {
  // dt + dd records, the dd holding a struck-through and a current price
  // (distance 4 from each other, 6 across records: one area at theta_dist
  // 2). Most leading nodes hold two pivots, but in cells of different tags:
  // not a grid row.
  std::string items;
  for (int i = 0; i < 5; ++i) {
    const std::string old = i % 4 != 3 ? absl::StrCat("<del data-ann=\"price\">£", i, "90</del> ") : "";
    items += absl::StrCat("<dt><a href=\"/", i, "\">Ford Focus</a></dt><dd>", old, "<span data-ann=\"price\">£", i,
                          "50</span></dd>");
  }
  html::Page page = MustParse("<html><body><dl id=list>" + items + "</dl></body></html>");
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "list"));
  EXPECT_EQ(t.areas[0].records.size(), 5u);
  for (const std::string& n : t.notes) EXPECT_EQ(n.find("grid"), std::string::npos) << n;
}

// ---- the running example (section 3.6, Figs. 9-12) -----------------------

// A filter menu; the average rent (distance 6 from every other price);
// area 1, featured properties (mutual distance 4); area 2, results of two
// children each, a crossed-out price in record 2 and an advertisement
// between records 2 and 3 (distance 6 between the areas).
const char kRightmove[] = R"html(<html><body>
<div id="menu"><ul><li>London (23)</li><li>Oxford (4)</li></ul></div>
<div id="main">
  <div class="header"><p id="avg" data-ann="price">Average rent £1,100 pcm</p></div>
  <ul id="featured">
    <li data-ann="price">£1,200 pcm<a href="/1">Medhurst Way</a></li>
    <li data-ann="price">£1,300 pcm<a href="/2" data-ann="location">Iffley Road</a></li>
    <li data-ann="price">£1,250 pcm<a href="/3" data-ann="location">Cowley Road</a></li>
  </ul>
  <div id="results">
    <h2>Search results</h2>
    <div class="summary" data-ann="price">£995 pcm<h3>2 bed flat</h3></div>
    <div class="details"><p data-ann="location">Walton Street</p></div>
    <div class="summary" data-ann="price">£850 pcm<h3>1 bed flat</h3></div>
    <div class="details"><del data-ann="price">£900 pcm</del><p>Jericho</p></div>
    <div class="ad" id="ad"><p>Mortgage advice</p></div>
    <div class="summary" data-ann="price">£1,000 pcm<h3>3 bed house</h3></div>
    <div class="details"><p data-ann="location">Summertown</p></div>
    <div class="summary" data-ann="price">£1,050 pcm<h3>2 bed flat</h3></div>
    <div class="details"><p data-ann="location">Headington</p></div>
  </div>
</div>
</body></html>)html";

Options RunningExampleOptions() {
  Options o;
  o.theta_depth = 1;
  o.theta_dist = 1;
  return o;
}

TEST(Identify, RunningExampleKeepsTheAveragePriceOutAndTheAreasApart) {
  html::Page page = MustParse(kRightmove);
  const Typing t = Identify(page, MarkedAnnotations(page, RealEstate()), 0, RunningExampleOptions());
  ASSERT_EQ(t.areas.size(), 2u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "featured"));
  EXPECT_EQ(PivotTexts(t.areas[0]), (std::vector<std::string>{"£1,200 pcm", "£1,300 pcm", "£1,250 pcm"}));
  EXPECT_TRUE(t.areas[1].root == ById(page, "results"));
  EXPECT_EQ(t.areas[1].pivots.size(), 5u);  // the crossed-out price too
  const html::Node avg = ById(page, "avg").first_child();
  for (const DataArea& area : t.areas) {
    for (html::Node p : area.pivots) EXPECT_FALSE(p == avg);
  }
}

TEST(Segment, RunningExampleArea2) {
  html::Page page = MustParse(kRightmove);
  const schema::CompiledSchema schema = RealEstate();
  const Typing t = MustRun(page, schema, RunningExampleOptions());
  ASSERT_EQ(t.areas.size(), 2u);
  // Area 1: every child is a record.
  EXPECT_EQ(t.areas[0].record_length, 1);
  EXPECT_EQ(t.areas[0].records.size(), 3u);
  // Area 2: Len 2; the crossed-out price's leading node is skipped; of the
  // two shifts the one whose four records look alike wins.
  const DataArea& area = t.areas[1];
  EXPECT_EQ(area.record_length, 2);
  ASSERT_EQ(area.shift_irregularity.size(), 2u);
  EXPECT_EQ(area.shift, 0);
  EXPECT_LT(area.shift_irregularity[0], area.shift_irregularity[1]);
  ASSERT_EQ(area.records.size(), 4u);
  const html::Node ad = ById(page, "ad");
  for (const Record& r : area.records) {
    ASSERT_EQ(r.nodes.size(), 2u);
    EXPECT_EQ(r.nodes[0].attribute("class"), "summary");
    EXPECT_EQ(r.nodes[1].attribute("class"), "details");
    for (html::Node n : r.nodes) EXPECT_FALSE(n == ad) << "the advertisement is outside the records";
  }
  // Align: the first price per record is the summary's, never the
  // crossed-out one.
  ASSERT_FALSE(area.records[1].attributes.empty());
  EXPECT_EQ(area.records[1].attributes[0].value, "£850 pcm");
  EXPECT_EQ(area.records[1].attributes[0].tag_path, "self::div");
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(Align, RunningExampleInfersTheMissingLocation) {
  html::Page page = MustParse(kRightmove);
  const schema::CompiledSchema schema = RealEstate();
  const Typing t = MustRun(page, schema, RunningExampleOptions());
  ASSERT_EQ(t.areas.size(), 2u);
  // "Medhurst Way" is not annotated; 2 of 3 featured records have a
  // location at the same path: 67% > 50%.
  const Record& first = t.areas[0].records[0];
  ASSERT_EQ(first.attributes.size(), 2u);
  EXPECT_EQ(first.attributes[1].attribute, 1);
  EXPECT_EQ(first.attributes[1].value, "Medhurst Way");
  EXPECT_FALSE(first.attributes[1].annotated);
  EXPECT_NEAR(first.attributes[1].support, 2.0 / 3, 1e-9);
  EXPECT_EQ(first.attributes[1].tag_path, "self::li/*[1][self::a]");
}

// ---- segment: Fig. 7 -----------------------------------------------------

// Records of four children [h3, ul, div, span], the pivot in the div (a
// leading node every 4 children); pivots in a <p> at the head (3 before the
// first div) and at the tail (2 after the last) are too close. Record 2's
// list has two items.
const char kFigure7[] = R"html(<html><body><div id="area">
  <p data-ann="price">£1</p>
  <h3>Flat</h3><ul><li>2 beds</li></ul><div data-ann="price">£100</div><span>Oxford</span>
  <h3>House</h3><ul><li>3 beds</li><li>garden</li></ul><div data-ann="price">£200</div><span>Leeds</span>
  <h3>Flat</h3><ul><li>1 bed</li></ul><div data-ann="price">£300</div><span>York</span>
  <p data-ann="price">£9</p>
</div></body></html>)html";

TEST(Segment, Figure7MiddleShiftWins) {
  html::Page page = MustParse(kFigure7);
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  const DataArea& area = t.areas[0];
  EXPECT_EQ(area.pivots.size(), 5u);
  EXPECT_EQ(area.record_length, 4);
  // Shifts 0..Len-1. Shift 0 runs off the children (refused). By hand: the
  // lists differ by an item and its text (TED 2, sizes 3 + 5: 0.25) in two
  // pairs at every valid shift; shifts 1 and 3 also pair an h3 or a span
  // with a p (TED 1, sizes 2 + 2: 0.25) twice.
  ASSERT_EQ(area.shift_irregularity.size(), 4u);
  EXPECT_TRUE(std::isinf(area.shift_irregularity[0]));
  EXPECT_DOUBLE_EQ(area.shift_irregularity[1], 1.0);
  EXPECT_DOUBLE_EQ(area.shift_irregularity[2], 0.5);
  EXPECT_DOUBLE_EQ(area.shift_irregularity[3], 1.0);
  EXPECT_EQ(area.shift, 2);
  ASSERT_EQ(area.records.size(), 3u);
  for (const Record& r : area.records) {
    ASSERT_EQ(r.nodes.size(), 4u);
    EXPECT_EQ(r.nodes[0].tag(), "h3");
    EXPECT_EQ(r.nodes[3].tag(), "span");
  }
  EXPECT_EQ(area.records[1].nodes[3].Text(), "Leeds");
  // The price is in the third node of each record.
  EXPECT_EQ(area.records[0].attributes[0].tag_path,
            "self::h3/following-sibling::*[1][self::ul]/following-sibling::*[1][self::div]");
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(Segment, EmptyChildrenAreSeparators) {
  // <br> and <hr> between records hold no text and no annotation: they are
  // collapsed, so records of one <li>-like child stay of length 1, and a
  // tag path reaching a tail sibling steps over them.
  html::Page page = MustParse(R"html(<html><body><div id="area">
    <h4 data-ann="price">£1</h4><p data-ann="location">Leeds</p><br>
    <h4 data-ann="price">£2</h4><p data-ann="location">York</p><br><hr>
    <h4 data-ann="price">£3</h4><p data-ann="location">Bath</p><br>
  </div></body></html>)html");
  const Typing t = MustRun(page, RealEstate());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_EQ(t.areas[0].record_length, 2);
  ASSERT_EQ(t.areas[0].records.size(), 3u);
  for (const Record& r : t.areas[0].records) {
    ASSERT_EQ(r.attributes.size(), 2u);
    EXPECT_EQ(r.attributes[1].tag_path, "self::h4/following-sibling::*[1][self::p]");
  }
  ExpectTagPathsSelectTheirNodes(page, t);
}

// ---- align: Fig. 8 -------------------------------------------------------

// Four records of two children (an <a> and a <div>): record 2 has no price
// annotation, record 1 no location annotation, record 3 its location in an
// <em>, record 1 a beds annotation in an <i>, record 4 a second price.
const char kFigure8[] = R"html(<html><body><div id="area">
  <a href="/1"><p><span data-ann="price">£500</span><b>Oxford</b><i data-ann="beds">2 beds</i></p></a><div>Nice flat</div>
  <a href="/2"><p><span>£600</span><b data-ann="location">Leeds</b><i>3 beds</i></p></a><div>Garden</div>
  <a href="/3"><p><span data-ann="price">£700</span><em data-ann="location">York</em></p></a><div>Quiet</div>
  <a href="/4"><p><span data-ann="price">£800</span><b data-ann="location">Bath</b></p></a><div data-ann="price">was £900</div>
</div></body></html>)html";

TEST(Align, Figure8) {
  html::Page page = MustParse(kFigure8);
  const schema::CompiledSchema schema = RealEstate();
  // The figure presupposes the segmentation: records by hand.
  Typing segmented;
  DataArea area;
  area.root = ById(page, "area");
  for (html::Node a = area.root.first_child(); a; a = a.next_sibling()) {
    if (a.tag() != "a") continue;
    Record r;
    r.nodes = {a, a.next_sibling().is_element() ? a.next_sibling() : a.next_sibling().next_sibling()};
    area.records.push_back(r);
  }
  ASSERT_EQ(area.records.size(), 4u);
  area.record_length = 2;
  segmented.areas.push_back(area);
  Options figure;  // Fig. 8's thresholds: 40% / 0% / 30%
  figure.infer_regular = figure.infer_optional = 0.4;
  figure.keep_regular = 0;
  figure.keep_optional = 0.3;
  const Typing t = Align(page, MarkedAnnotations(page, schema), schema, segmented, figure);
  ASSERT_EQ(t.areas.size(), 1u);
  const std::vector<Record>& r = t.areas[0].records;
  const std::string span = "self::a/*[1][self::p]/*[1][self::span]";
  const std::string b = span + "/following-sibling::*[1][self::b]";
  // Record 1: price annotated; location inferred from records 2 and 4
  // (50% > 40%); beds annotated but 25% <= 30%: dropped.
  ASSERT_EQ(r[0].attributes.size(), 2u);
  EXPECT_EQ(r[0].attributes[0].value, "£500");
  EXPECT_TRUE(r[0].attributes[0].annotated);
  EXPECT_DOUBLE_EQ(r[0].attributes[0].support, 0.75);
  EXPECT_EQ(r[0].attributes[0].tag_path, span);
  EXPECT_EQ(r[0].attributes[1].attribute, 1);
  EXPECT_EQ(r[0].attributes[1].value, "Oxford");
  EXPECT_FALSE(r[0].attributes[1].annotated);
  EXPECT_DOUBLE_EQ(r[0].attributes[1].support, 0.5);
  EXPECT_EQ(r[0].attributes[1].tag_path, b);
  // Record 2: price inferred from the span of records 1, 3 (and 4).
  ASSERT_EQ(r[1].attributes.size(), 2u);
  EXPECT_EQ(r[1].attributes[0].value, "£600");
  EXPECT_FALSE(r[1].attributes[0].annotated);
  EXPECT_TRUE(r[1].attributes[1].annotated);
  // Record 3: the location in an <em> has 25% support, enough for a
  // regular attribute (> 0%).
  ASSERT_EQ(r[2].attributes.size(), 2u);
  EXPECT_EQ(r[2].attributes[1].value, "York");
  EXPECT_DOUBLE_EQ(r[2].attributes[1].support, 0.25);
  EXPECT_EQ(r[2].attributes[1].tag_path, span + "/following-sibling::*[1][self::em]");
  // Record 4: the second price (in the tail <div>) comes second: ignored.
  ASSERT_EQ(r[3].attributes.size(), 2u);
  EXPECT_EQ(r[3].attributes[0].value, "£800");
  EXPECT_EQ(r[3].attributes[0].tag_path, span);
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(Align, EvaluationThresholds) {
  // With the evaluation's 50/0/20%: Fig. 8's location path (2 of 4) no
  // longer infers record 1's location, and its beds annotation (25% > 20%)
  // is kept.
  html::Page page = MustParse(kFigure8);
  const schema::CompiledSchema schema = RealEstate();
  Typing segmented;
  DataArea area;
  area.root = ById(page, "area");
  for (html::Node a = area.root.first_child(); a; a = a.next_sibling()) {
    if (a.tag() == "a") area.records.push_back(Record{{a}, {}});
  }
  segmented.areas.push_back(area);
  const Typing t = Align(page, MarkedAnnotations(page, schema), schema, segmented, Options{});
  const std::vector<AttributeMatch>& first = t.areas[0].records[0].attributes;
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].attribute, 0);
  EXPECT_EQ(first[1].attribute, 2);
  EXPECT_EQ(first[1].value, "2 beds");
  EXPECT_DOUBLE_EQ(first[1].support, 0.25);
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(Align, InferenceOfARegexAttributeNeedsItsRegexToMatch) {
  // postcode (optional, a regex) is annotated in 3 of 4 records at one
  // path (75% > 50%): the fourth record's node there holds no postcode, so
  // nothing is inferred; location (no regex) is inferred as the whole text.
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(
      R"js({"vertical":"real_estate","record_level":true,"attributes":[
        {"name":"price","mandatory":true,"pivot":true},
        {"name":"location","regular":true},
        {"name":"postcode","regex":"\\b[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}\\b"}]})js",
      "test schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  html::Page page = MustParse(R"html(<html><body><ul>
    <li><b data-ann="price">£1</b><i data-ann="location">Leeds</i><s data-ann="postcode">LS1 4AP</s></li>
    <li><b data-ann="price">£2</b><i data-ann="location">York</i><s data-ann="postcode">YO1 7HH</s></li>
    <li><b data-ann="price">£3</b><i>Little Snoring</i><s>Ask the agent</s></li>
    <li><b data-ann="price">£4</b><i data-ann="location">Bath</i><s data-ann="postcode">BA1 1LT</s></li>
  </ul></body></html>)html");
  const Typing t = MustRun(page, *schema);
  ASSERT_EQ(t.areas.size(), 1u);
  const std::vector<AttributeMatch>& third = t.areas[0].records.at(2).attributes;
  ASSERT_EQ(third.size(), 2u);
  EXPECT_EQ(third[1].attribute, 1);
  EXPECT_EQ(third[1].value, "Little Snoring");
  EXPECT_FALSE(third[1].annotated);
  EXPECT_EQ(t.areas[0].records.at(0).attributes.size(), 3u);
}

TEST(Align, KeepBySiblingRunsKeepsFactsThatOptionalFactsShift) {
  // Facts lists where an optional fact comes first in some records: beds
  // (optional) sits at the 1st, 2nd or 3rd <li>, each position with 20%
  // support or less (not above keep_optional). The paper's positional
  // paths drop them; with keep_by_sibling_runs the collapsed path
  // (".../ul/li") holds beds in every record.
  const char* facts[] = {"<li data-ann=\"beds\">2 beds</li>",
                         "<li>Garden</li><li data-ann=\"beds\">3 beds</li>",
                         "<li>Garden</li><li>Garage</li><li data-ann=\"beds\">4 beds</li>",
                         "<li>Garage</li><li data-ann=\"beds\">1 beds</li>",
                         "<li>Pool</li><li>Garage</li><li data-ann=\"beds\">5 beds</li>",
                         "<li>Lift</li><li>Porter</li><li>Gym</li><li data-ann=\"beds\">6 beds</li>"};
  std::string items;
  for (int i = 0; i < 6; ++i) {
    items += absl::StrCat("<div class=r><b data-ann=\"price\">£", i, "00</b><i data-ann=\"location\">Leeds</i><ul>",
                          facts[i], "</ul></div>");
  }
  html::Page page = MustParse("<html><body><section>" + items + "</section></body></html>");
  auto beds_kept = [&](bool runs) {
    Options o;
    o.keep_by_sibling_runs = runs;
    const Typing t = MustRun(page, RealEstate(), o);
    EXPECT_EQ(t.areas.size(), 1u);
    int kept = 0;
    for (const Record& r : t.areas.at(0).records) {
      for (const AttributeMatch& m : r.attributes) kept += m.attribute == 2 ? 1 : 0;
    }
    if (runs) ExpectTagPathsSelectTheirNodes(page, t);
    return kept;
  };
  // Positional: 1st <li> 1 of 6, 2nd 2 of 6 (33% > 20%: kept), 3rd 2 of 6
  // (kept), 4th 1 of 6.
  EXPECT_EQ(beds_kept(false), 4);
  EXPECT_EQ(beds_kept(true), 6);
}

// ---- bad input -------------------------------------------------------------

TEST(BadInput, NoPivotAnnotated) {
  html::Page page = MustParse(R"html(<html><body><ul>
    <li><b data-ann="location">Leeds</b></li><li><b data-ann="location">York</b></li></ul></body></html>)html");
  const Typing t = MustRun(page, RealEstate());
  EXPECT_TRUE(t.areas.empty());
  ASSERT_FALSE(t.notes.empty());
  EXPECT_THAT(t.notes[0], HasSubstr("no pivot (price) annotated on the page"));
}

TEST(BadInput, SingleRecord) {
  html::Page page = MustParse(R"html(<html><body><ul>
    <li><span data-ann="price">£100</span><b data-ann="location">Leeds</b></li></ul></body></html>)html");
  const Typing t = MustRun(page, RealEstate());
  EXPECT_TRUE(t.areas.empty());
  ASSERT_FALSE(t.notes.empty());
  EXPECT_THAT(t.notes[0], HasSubstr("one pivot (price)"));
}

TEST(BadInput, ScatteredPivotsFormNoArea) {
  // Three prices at depths 4, 7 and 10: never within theta_depth = 1.
  html::Page page = MustParse(R"html(<html><body>
    <p data-ann="price">£1</p>
    <div><div><div><p data-ann="price">£2</p></div></div></div>
    <div><div><div><div><div><div><p data-ann="price">£3</p></div></div></div></div></div></div>
  </body></html>)html");
  const Typing t = MustRun(page, RealEstate());
  EXPECT_TRUE(t.areas.empty());
  ASSERT_FALSE(t.notes.empty());
  EXPECT_THAT(t.notes.back(), HasSubstr("form no data area"));
}

TEST(BadInput, GridIsSegmentedByRows) {
  std::string rows;
  for (int r = 0; r < 3; ++r) {
    rows += "<tr>";
    for (int c = 0; c < 3; ++c) {
      rows += absl::StrCat("<td><b data-ann=\"price\">£", r * 3 + c, "00</b><i>Town</i></td>");
    }
    rows += "</tr>";
  }
  rows += R"(<tr><td><b data-ann="price">£900</b><i>Town</i></td><td><b data-ann="price">£950</b><i>Town</i></td></tr>)";
  html::Page page = MustParse("<html><body><table id=grid>" + rows + "</table></body></html>");
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 4u);
  size_t records = 0;
  for (const DataArea& area : t.areas) {
    EXPECT_EQ(area.root.tag(), "tr");
    EXPECT_EQ(area.record_length, 1);
    records += area.records.size();
    for (const Record& r : area.records) {
      EXPECT_EQ(r.nodes[0].tag(), "td");
      ASSERT_FALSE(r.attributes.empty());
    }
  }
  EXPECT_EQ(records, 11u);
  bool noted = false;
  for (const std::string& n : t.notes) noted = noted || n.find("grid") != std::string::npos;
  EXPECT_TRUE(noted);
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(BadInput, RecordsOfUnevenLength) {
  // Records of 2, 3, 1 and 2 children: every lspace occurs once, so Len is
  // the smallest (1) and each header is a record.
  html::Page page = MustParse(R"html(<html><body><div id="area">
    <h3><b data-ann="price">£1</b> Flat</h3><p>a</p>
    <h3><b data-ann="price">£2</b> Flat</h3><p>b</p><p>c</p>
    <h3><b data-ann="price">£3</b> House</h3>
    <h3><b data-ann="price">£4</b> Flat</h3><p>d</p>
  </div></body></html>)html");
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_EQ(t.areas[0].record_length, 1);
  EXPECT_EQ(t.areas[0].records.size(), 4u);
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(BadInput, RecordsRunningOffEveryShiftAreRefused) {
  // Len 3 from two spacings of 3, but the last leading node is the last
  // child and the first is the first: no shift fits all records.
  html::Page page = MustParse(R"html(<html><body><div id="area">
    <h3 data-ann="price">£1</h3><p>a</p><p>b</p>
    <h3 data-ann="price">£2</h3><p>c</p><p>d</p>
    <h3 data-ann="price">£3</h3>
  </div></body></html>)html");
  const Typing t = MustRun(page, RealEstate());
  EXPECT_TRUE(t.areas.empty());
  ASSERT_FALSE(t.notes.empty());
  EXPECT_THAT(t.notes.back(), HasSubstr("run off the area's children at every start shift"));
}

TEST(BadInput, TenThousandRecords) {
  std::string items;
  for (int i = 0; i < 10000; ++i) {
    items += absl::StrCat("<li><span data-ann=\"price\">£", i, "</span><b>Town ", i, "</b></li>");
  }
  html::Page page = MustParse("<html><body><ul>" + items + "</ul></body></html>");
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  ASSERT_EQ(t.areas[0].records.size(), 10000u);
  EXPECT_EQ(t.areas[0].records[9999].attributes[0].value, "£9999");
  bool capped = false;
  for (const std::string& n : t.notes) capped = capped || n.find("at most 8 others") != std::string::npos;
  EXPECT_TRUE(capped) << "the pair cap is reported";
}

TEST(BadInput, NestingFiveHundredDeep) {
  // The list sits under 470 nested divs, each record under 20 more
  // elements: depth about 500, near the parser's 512.
  std::string chain_open, chain_close, item_open, item_close;
  for (int i = 0; i < 470; ++i) chain_open += "<div>", chain_close += "</div>";
  for (int i = 0; i < 20; ++i) item_open += "<span>", item_close += "</span>";
  std::string items;
  for (int i = 0; i < 4; ++i) {
    items += absl::StrCat("<li>", item_open, "<em data-ann=\"price\">£", i, "</em> Town", item_close, "</li>");
  }
  html::Page page =
      MustParse("<html><body>" + chain_open + "<ul>" + items + "</ul>" + chain_close + "</body></html>");
  ASSERT_GT(page.depth(), 490);
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_EQ(t.areas[0].records.size(), 4u);
  ExpectTagPathsSelectTheirNodes(page, t);
}

TEST(BadInput, AreasOfBarePivotsAreNotRecords) {
  // A price filter's <option>s are depth- and distance-consistent prices,
  // but each holds nothing but its price: not records.
  std::string options, items;
  for (int i = 1; i <= 8; ++i) options += absl::StrCat("<option data-ann=\"price\">£", i, "00,000</option>");
  // One record of four has its location annotated (a gazetteer of a
  // quarter of the places): the list stays an area.
  for (int i = 0; i < 4; ++i) {
    items += absl::StrCat("<li><b data-ann=\"price\">£", i, "50,000</b><i", i == 0 ? " data-ann=\"location\"" : "",
                          ">Town ", i, "</i></li>");
  }
  html::Page page = MustParse("<html><body><form><select name=min>" + options + "</select></form><ul id=list>" +
                              items + "</ul></body></html>");
  const Typing t = MustRun(page, RealEstate());
  ASSERT_EQ(t.areas.size(), 1u);
  EXPECT_TRUE(t.areas[0].root == ById(page, "list"));
  bool noted = false;
  for (const std::string& n : t.notes) {
    noted = noted || n.find("8 of its 8 records hold nothing but the pivot (price)") != std::string::npos;
  }
  EXPECT_TRUE(noted);
}

TEST(BadInput, LargeRecordsHitTheNodeCapAndSaySo) {
  std::string body(Repeat(300, "<i>x</i>"));
  std::string items;
  for (int i = 0; i < 3; ++i) items += absl::StrCat("<li><b data-ann=\"price\">£", i, "</b>", body, "</li>");
  html::Page page = MustParse("<html><body><ul>" + items + "</ul></body></html>");
  const Typing t = MustRun(page, PriceOnlyRegular());
  ASSERT_EQ(t.areas.size(), 1u);
  bool noted = false;
  for (const std::string& n : t.notes) noted = noted || n.find("capped at 500 nodes in 3 subtrees") != std::string::npos;
  EXPECT_TRUE(noted);
}

// ---- errors ----------------------------------------------------------------

TEST(Run, RejectsSchemasThatAreNotRecordLevel) {
  // (A record-level schema without a pivot does not validate: CompiledSchema
  // refuses it, so Run's own check of it is a guard only.)
  html::Page page = MustParse("<html><body><p>x</p></body></html>");
  absl::StatusOr<schema::CompiledSchema> detail = schema::CompiledSchema::FromJson(
      R"js({"vertical":"book","attributes":[{"name":"price","mandatory":true}]})js", "t");
  ASSERT_TRUE(detail.ok()) << detail.status();
  absl::StatusOr<Typing> t = amber::Run(page, {}, *detail);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("'book' is not record-level"));
}

TEST(Run, RejectsBadAnnotationsAndOptions) {
  html::Page page = MustParse("<html><body><p>£1</p></body></html>");
  html::Page other = MustParse("<html><body><p>£1</p></body></html>");
  const schema::CompiledSchema schema = RealEstate();
  annotate::Annotation a;
  a.attribute = 7;
  a.node = page.root();
  absl::StatusOr<Typing> t = amber::Run(page, {a}, schema);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("annotation 0 names attribute 7"));
  a.attribute = 0;
  a.node = other.root();
  t = amber::Run(page, {a}, schema);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("no node of page"));
  a.node = html::Node();
  EXPECT_EQ(amber::Run(page, {a}, schema).status().code(), absl::StatusCode::kInvalidArgument);
  Options bad;
  bad.ted_max_nodes = 0;
  EXPECT_EQ(amber::Run(page, {}, schema, bad).status().code(), absl::StatusCode::kInvalidArgument);
  bad = Options{};
  bad.infer_regular = 1.5;
  EXPECT_EQ(amber::Run(page, {}, schema, bad).status().code(), absl::StatusCode::kInvalidArgument);
  bad = Options{};
  bad.theta_dist = -1;
  EXPECT_EQ(amber::Run(page, {}, schema, bad).status().code(), absl::StatusCode::kInvalidArgument);
}

// ---- explanation -----------------------------------------------------------

TEST(ExplainTyping, NamesAreasRecordsAttributesAndNotes) {
  html::Page page = MustParse(kRightmove);
  const schema::CompiledSchema schema = RealEstate();
  const Typing t = MustRun(page, schema, RunningExampleOptions());
  const std::string text = ExplainTyping(t, page, schema);
  EXPECT_THAT(text, HasSubstr("2 data areas"));
  EXPECT_THAT(text, HasSubstr("area 2 at /html/body/div[2]/div[2]: 5 pivots, record length 2, start shift 0 of 2"));
  EXPECT_THAT(text, HasSubstr("record 1: /html/body/div[2]/div[2]/div[1] /html/body/div[2]/div[2]/div[2]"));
  EXPECT_THAT(text, HasSubstr("location = \"Medhurst Way\" (inferred, support 0.666667) at self::li/*[1][self::a]"));
  EXPECT_THAT(text, HasSubstr("(irregularity 0: 0.75, 1: "));  // by hand: the details' TED 2 / 8, 3 pairs
  EXPECT_THAT(text, HasSubstr("note: 2 pivots under /html/body/div[2] form no data area"));
}

}  // namespace
}  // namespace vertex::amber
