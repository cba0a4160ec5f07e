#include "common/amber/ted.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "gtest/gtest.h"

namespace vertex::amber {
namespace {

html::Page MustParse(const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://example.test/ted");
  EXPECT_TRUE(page.ok()) << page.status();
  return std::move(page).value();
}

// The tag tree of the page's element with id="t".
TagTree TreeOf(const html::Page& page, int max_nodes = 500) {
  absl::StatusOr<html::XPath> x = html::XPath::Compile("//*[@id='t']");
  EXPECT_TRUE(x.ok());
  absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
  EXPECT_TRUE(nodes.ok() && nodes->size() == 1) << "no single element with id t";
  return TagTree::FromNode(nodes->front(), max_nodes);
}

int Distance(const std::string& a, const std::string& b) {
  html::Page pa = MustParse("<html><body>" + a + "</body></html>");
  html::Page pb = MustParse("<html><body>" + b + "</body></html>");
  return TreeEditDistance(TreeOf(pa), TreeOf(pb));
}

// Distances worked out by hand.
TEST(TreeEditDistance, HandComputed) {
  struct Case {
    std::string a, b;
    int distance;
  } cases[] = {
      {"<div id=t><p>x</p></div>", "<div id=t><p>y</p></div>", 0},  // text content is ignored
      {"<div id=t><p></p><span></span></div>", "<div id=t><span></span></div>", 1},  // delete p
      {"<ul id=t><li></li></ul>", "<ol id=t><li></li></ol>", 1},                    // relabel
      {"<p id=t>hi</p>", "<p id=t><b>hi</b></p>", 1},                               // insert b
      {"<div id=t><p>a</p></div>", "<div id=t></div>", 2},                          // p and #text
      // Zhang and Shasha's example: f(d(a, c(b)), e) -> f(c(d(a, b)), e):
      // delete c, insert c above d.
      {"<x-f id=t><x-d><x-a></x-a><x-c><x-b></x-b></x-c></x-d><x-e></x-e></x-f>",
       "<x-f id=t><x-c><x-d><x-a></x-a><x-b></x-b></x-d></x-c><x-e></x-e></x-f>", 2},
      {"<ul id=t><li>1</li><li>2</li><li>3</li></ul>", "<ul id=t><li>1</li></ul>", 4},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Distance(c.a, c.b), c.distance) << c.a << " vs " << c.b;
    EXPECT_EQ(Distance(c.b, c.a), c.distance) << c.b << " vs " << c.a;
  }
}

TEST(TagTree, PostorderLabelsAndLeftmostLeaves) {
  html::Page page = MustParse("<html><body><div id=t><p>a</p><span></span></div></body></html>");
  const TagTree tree = TreeOf(page);
  // Postorder: #text, p, span, div.
  ASSERT_EQ(tree.size(), 4);
  EXPECT_EQ(tree.labels()[0], TagTree::TextLabel());
  EXPECT_EQ(tree.labels()[1], html::TagToken("p"));
  EXPECT_EQ(tree.labels()[2], html::TagToken("span"));
  EXPECT_EQ(tree.labels()[3], html::TagToken("div"));
  EXPECT_EQ(tree.leftmost(), (std::vector<int>{0, 0, 2, 0}));
  EXPECT_FALSE(tree.truncated());
}

TEST(TagTree, CapKeepsTheFirstNodesAndSaysSo) {
  std::string items;
  for (int i = 0; i < 300; ++i) items += "<li>x</li>";  // 600 nodes + ul
  html::Page page = MustParse("<html><body><ul id=t>" + items + "</ul></body></html>");
  const TagTree capped = TreeOf(page, 500);
  EXPECT_TRUE(capped.truncated());
  EXPECT_EQ(capped.size(), 500);
  EXPECT_EQ(capped.labels().back(), html::TagToken("ul"));  // the root stays
  const TagTree whole = TreeOf(page, 1000);
  EXPECT_FALSE(whole.truncated());
  EXPECT_EQ(whole.size(), 601);
}

TEST(TagTree, DeepChainNeedsNoRecursion) {
  std::string open, close;
  for (int i = 0; i < 480; ++i) open += "<span>", close += "</span>";
  html::Page a = MustParse("<html><body><div id=t>" + open + "x" + close + "</div></body></html>");
  html::Page b = MustParse("<html><body><div id=t>" + open + close + "</div></body></html>");
  EXPECT_EQ(TreeEditDistance(TreeOf(a), TreeOf(b)), 1);  // the #text at the bottom
}

// ---- Differential: keyroot algorithm vs the recursive forest definition --

// A random tree of at most `budget` elements, as HTML with custom tags of
// 3 names.
std::string RandomHtml(std::mt19937& rng, int budget, bool root) {
  static const char* kTags[] = {"x-a", "x-b", "x-c"};
  const char* tag = kTags[rng() % 3];
  std::string out = absl::StrCat("<", tag, root ? " id=t" : "", ">");
  int children = budget > 1 ? static_cast<int>(rng() % 4) : 0;
  int left = budget - 1;
  for (int i = 0; i < children && left > 0; ++i) {
    const int share = 1 + static_cast<int>(rng() % left);
    out += RandomHtml(rng, share, false);
    left -= share;
  }
  return absl::StrCat(out, "</", tag, ">");
}

// The textbook recursion on forests given as postorder ranges [i0, i1] of
// each tree (every range a sequence of whole subtrees), memoised.
class ForestDistance {
 public:
  ForestDistance(const TagTree& a, const TagTree& b) : a_(a), b_(b) {}
  int Tree() { return Forest(0, a_.size() - 1, 0, b_.size() - 1); }

 private:
  int Forest(int i0, int i1, int j0, int j1) {
    if (i1 < i0 && j1 < j0) return 0;
    if (i1 < i0) return j1 - j0 + 1;
    if (j1 < j0) return i1 - i0 + 1;
    const auto key = std::make_tuple(i0, i1, j0, j1);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const int li = a_.leftmost()[i1];
    const int lj = b_.leftmost()[j1];
    int best = std::min(Forest(i0, i1 - 1, j0, j1) + 1, Forest(i0, i1, j0, j1 - 1) + 1);
    best = std::min(best, Forest(i0, li - 1, j0, lj - 1) + Forest(li, i1 - 1, lj, j1 - 1) +
                              (a_.labels()[i1] == b_.labels()[j1] ? 0 : 1));
    memo_[key] = best;
    return best;
  }
  const TagTree& a_;
  const TagTree& b_;
  std::map<std::tuple<int, int, int, int>, int> memo_;
};

TEST(TreeEditDistance, AgreesWithTheRecursiveDefinitionOnRandomTrees) {
  std::mt19937 rng(13);
  int compared = 0;
  for (int round = 0; round < 150; ++round) {
    const std::string a = RandomHtml(rng, 1 + static_cast<int>(rng() % 9), true);
    const std::string b = RandomHtml(rng, 1 + static_cast<int>(rng() % 9), true);
    html::Page pa = MustParse("<html><body>" + a + "</body></html>");
    html::Page pb = MustParse("<html><body>" + b + "</body></html>");
    const TagTree ta = TreeOf(pa);
    const TagTree tb = TreeOf(pb);
    ForestDistance reference(ta, tb);
    ASSERT_EQ(TreeEditDistance(ta, tb), reference.Tree()) << a << " vs " << b;
    ASSERT_EQ(TreeEditDistance(ta, tb), TreeEditDistance(tb, ta)) << a << " vs " << b;
    ++compared;
  }
  EXPECT_EQ(compared, 150);
}

}  // namespace
}  // namespace vertex::amber
