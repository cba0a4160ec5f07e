#include "common/lists/list_finder.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::lists {
namespace {

using ::testing::ElementsAre;

html::Page Parse(const std::string& html, const std::string& url = "http://lists.test/dir/page.html") {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, url);
  EXPECT_TRUE(page.ok()) << page.status();
  return *std::move(page);
}

std::vector<html::Node> Nodes(const html::Page& page, const std::vector<std::string>& xpaths) {
  absl::StatusOr<std::vector<html::Node>> nodes = NodesOfXPaths(page, xpaths);
  EXPECT_TRUE(nodes.ok()) << nodes.status();
  return nodes.ok() ? *nodes : std::vector<html::Node>{};
}

// A page with a list of `n` li items after a heading and some prose.
std::string ListPage(int n, const std::string& word) {
  // <head> written out: Gumbo implies it, libxml2 does not.
  std::string html = "<html><head></head><body><h1>" + word + "s</h1><p>About " + word + "s, with <i>prose</i>.</p><ul>";
  for (int i = 0; i < n; ++i) absl::StrAppend(&html, "<li>", word, " number ", i, "</li>");
  return html + "</ul><p>Footer text</p></body></html>";
}

std::vector<std::string> Items(int n) {
  std::vector<std::string> x;
  for (int i = 1; i <= n; ++i) x.push_back(absl::StrCat("/html[1]/body[1]/ul[1]/li[", i, "]"));
  return x;
}

TrainOptions Small() {
  TrainOptions o;
  o.min_leaf = 1;
  o.pruning_alpha = 0;
  return o;
}

TEST(AbsoluteXPathTest, CountsSameTagSiblingsAndRoundTrips) {
  const html::Page page = Parse("<html><body><div>a</div><p>b</p><div><span>c</span></div></body></html>");
  const std::vector<html::Node> span = Nodes(page, {"//span"});
  ASSERT_EQ(span.size(), 1u);
  EXPECT_EQ(AbsoluteXPath(span[0]), "/html[1]/body[1]/div[2]/span[1]");
  EXPECT_EQ(Nodes(page, {AbsoluteXPath(span[0])})[0], span[0]);
}

TEST(NodesOfXPathsTest, EachXPathMustSelectOneElement) {
  const html::Page page = Parse(ListPage(3, "bird"));
  EXPECT_EQ(Nodes(page, Items(3)).size(), 3u);
  absl::StatusOr<std::vector<html::Node>> many = NodesOfXPaths(page, {"//li"});
  EXPECT_EQ(many.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(many.status().message()), ::testing::HasSubstr("//li"));
  EXPECT_EQ(NodesOfXPaths(page, {"/html[1]/body[1]/ol[1]"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NodesOfXPaths(page, {"//li[text()]/text()"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NodesOfXPaths(page, {"//li[("}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ScorePageTest, PaperMeasures) {
  const html::Page page = Parse(ListPage(4, "bird"));
  const std::vector<html::Node> li = Nodes(page, Items(4));
  PageScore s = ScorePage(li, li);
  EXPECT_TRUE(s.perfect());
  // Nothing predicted: precision 1, recall 0 — neither perfect nor good.
  s = ScorePage({}, li);
  EXPECT_EQ(s.precision, 1);
  EXPECT_EQ(s.recall, 0);
  EXPECT_FALSE(s.good());
  // Half found with nothing wrong: the paper's "qualified success" is good.
  s = ScorePage({li[0], li[1]}, li);
  EXPECT_FALSE(s.perfect());
  EXPECT_TRUE(s.good());
  EXPECT_EQ(s.correct, 2u);
  // One wrong of five predicted: P = 0.8, not good at 5%, good at 20%.
  const std::vector<html::Node> body = Nodes(page, {"/html[1]/body[1]"});
  s = ScorePage({li[0], li[1], li[2], li[3], body[0]}, li);
  EXPECT_EQ(s.precision, 0.8);
  EXPECT_EQ(s.recall, 1);
  EXPECT_FALSE(s.good());
  EXPECT_TRUE(s.good(0.2));
}

TEST(DecodeTest, ListTakesOutermostPositives) {
  const html::Page page = Parse("<html><body><ul><li>a <b>x</b></li><li>b</li></ul></body></html>");
  const std::vector<html::Node> pos = Nodes(page, {"//li[1]", "//li[1]/b", "//li[2]"});
  std::vector<ListRow> rows = Decode(ListKind::kList, pos, page);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].text, "a x");
  EXPECT_EQ(rows[1].text, "b");
}

TEST(DecodeTest, HotListGivesOnePairPerPositiveAnchorResolved) {
  const html::Page page = Parse(
      "<html><body><ul><li>Paper one (<a href='one.ps'>ps</a>, <a href='/pdf/one.pdf'>pdf</a>)</li>"
      "<li><a href='http://other.test/two'>Two</a></li><li><a>no href</a></li></ul></body></html>");
  const std::vector<html::Node> pos =
      Nodes(page, {"//li[1]", "//li[1]/a[1]", "//li[1]/a[2]", "//li[2]/a", "//li[3]/a"});
  std::vector<ListRow> rows = Decode(ListKind::kHotList, pos, page);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].text, "Paper one (ps, pdf)");
  EXPECT_EQ(rows[0].url, "http://lists.test/dir/one.ps");
  EXPECT_EQ(rows[1].text, "Paper one (ps, pdf)");
  EXPECT_EQ(rows[1].url, "http://lists.test/pdf/one.pdf");
  // An anchor-only item is both the text and the link.
  EXPECT_EQ(rows[2].text, "Two");
  EXPECT_EQ(rows[2].url, "http://other.test/two");
}

TEST(TrainListModelTest, LearnsListItemsAndFindsThemOnANewPage) {
  const html::Page a = Parse(ListPage(5, "bird")), b = Parse(ListPage(7, "game"));
  std::vector<LabelledPage> pages = {{&a, Nodes(a, Items(5)), {}, "a"}, {&b, Nodes(b, Items(7)), {}, "b"}};
  absl::StatusOr<v1::ListModel> model = TrainListModel(pages, Small());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->training_pages(), 2u);
  EXPECT_EQ(model->trained_from(), "2 labelled pages");
  EXPECT_EQ(model->training_positives(), 12u);
  EXPECT_EQ(model->feature_set(), "paper+markup");

  const html::Page c = Parse(ListPage(4, "movie"));
  absl::StatusOr<std::vector<html::Node>> predicted = PredictPositives(*model, c);
  ASSERT_TRUE(predicted.ok()) << predicted.status();
  EXPECT_TRUE(ScorePage(*predicted, Nodes(c, Items(4))).perfect());
  absl::StatusOr<std::vector<double>> scores = ScoreElements(*model, c);
  ASSERT_TRUE(scores.ok());
  size_t elements = 0;
  for (html::Node n = c.root(); n; n = n.NextInDocument(c.root())) elements += n.is_element();
  EXPECT_EQ(scores->size(), elements);

  absl::StatusOr<std::vector<v1::ListSuggestion>> lists = SuggestLists(*model, c);
  ASSERT_TRUE(lists.ok()) << lists.status();
  ASSERT_EQ(lists->size(), 1u);
  EXPECT_EQ((*lists)[0].kind(), v1::ListSuggestion::LIST);
  EXPECT_THAT((*lists)[0].texts(), ElementsAre("movie number 0", "movie number 1", "movie number 2", "movie number 3"));
  EXPECT_EQ((*lists)[0].node_xpaths(0), "/html[1]/body[1]/ul[1]/li[1]");
  EXPECT_EQ((*lists)[0].urls_size(), 0);
  EXPECT_EQ((*lists)[0].score(), 1.0);
}

TEST(TrainListModelTest, PartialLabelsLeaveLaterElementsOut) {
  const html::Page a = Parse(ListPage(6, "bird"));
  std::vector<html::Node> items = Nodes(a, Items(6));
  LabelledPage partial{&a, {items[0], items[1]}, items[1], "a"};
  absl::StatusOr<v1::ListModel> model = TrainListModel({partial}, Small());
  ASSERT_TRUE(model.ok()) << model.status();
  // html, head, body, h1, p, i, ul, li, li: the four later li are no
  // training examples (so not negatives).
  EXPECT_EQ(model->training_nodes(), 9u);
  absl::StatusOr<std::vector<html::Node>> predicted = PredictPositives(*model, a);
  ASSERT_TRUE(predicted.ok());
  EXPECT_TRUE(ScorePage(*predicted, items).perfect());
}

TEST(TrainListModelTest, SuggestsHotListsAndSkipsSingleItems) {
  auto page = [](const std::string& word, int n) {
    std::string html = "<html><body><div><a href='/home'>home</a></div><ol>";
    for (int i = 0; i < n; ++i) absl::StrAppend(&html, "<li><a href='", word, i, ".html'>", word, " ", i, "</a></li>");
    return html + "</ol></body></html>";
  };
  auto positives = [](int n) {
    std::vector<std::string> x;
    for (int i = 1; i <= n; ++i) {
      x.push_back(absl::StrCat("/html[1]/body[1]/ol[1]/li[", i, "]"));
      x.push_back(absl::StrCat("/html[1]/body[1]/ol[1]/li[", i, "]/a[1]"));
    }
    return x;
  };
  const html::Page a = Parse(page("bird", 4)), b = Parse(page("game", 6));
  absl::StatusOr<v1::ListModel> model =
      TrainListModel({{&a, Nodes(a, positives(4)), {}, "a"}, {&b, Nodes(b, positives(6)), {}, "b"}}, Small());
  ASSERT_TRUE(model.ok()) << model.status();
  const html::Page c = Parse(page("news", 3), "http://news.test/x/");
  absl::StatusOr<std::vector<v1::ListSuggestion>> lists = SuggestLists(*model, c);
  ASSERT_TRUE(lists.ok()) << lists.status();
  ASSERT_EQ(lists->size(), 1u);
  EXPECT_EQ((*lists)[0].kind(), v1::ListSuggestion::HOTLIST);
  EXPECT_THAT((*lists)[0].texts(), ElementsAre("news 0", "news 1", "news 2"));
  EXPECT_THAT((*lists)[0].urls(),
              ElementsAre("http://news.test/x/news0.html", "http://news.test/x/news1.html", "http://news.test/x/news2.html"));
  // A page with one item has no list to suggest.
  const html::Page d = Parse(page("news", 1));
  lists = SuggestLists(*model, d);
  ASSERT_TRUE(lists.ok());
  EXPECT_TRUE(lists->empty());
}

TEST(TrainListModelTest, RefusesBadInput) {
  const html::Page a = Parse(ListPage(3, "bird")), b = Parse(ListPage(3, "game"));
  EXPECT_EQ(TrainListModel({}).status().code(), absl::StatusCode::kInvalidArgument);
  // A positive of another page.
  absl::StatusOr<v1::ListModel> m = TrainListModel({{&a, Nodes(b, Items(1)), {}, "a-17"}});
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(m.status().message()), ::testing::HasSubstr("a-17"));
  EXPECT_EQ(TrainListModel({{&a, {}, {}, "a"}}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TrainListModel({{nullptr, {}, {}, "a"}}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TrainListModel({{&a, Nodes(a, Items(1)), Nodes(b, Items(1))[0], "a"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  v1::ListModel bad;
  bad.set_feature_set("paper");
  EXPECT_EQ(ScoreElements(bad, a).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PredictPositives(bad, a).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SuggestLists(bad, a).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::lists
