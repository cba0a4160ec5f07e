#include "common/learn/xpath_learner.h"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/util/random.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

TEST(XPathLiteralTest, QuotesEveryString) {
  EXPECT_EQ(rule::XPathLiteral("a b"), "'a b'");
  EXPECT_EQ(rule::XPathLiteral("it's"), "\"it's\"");
  EXPECT_EQ(rule::XPathLiteral("say \"it's\""), "concat('say \"it',\"'\",'s\"')");
  html::Parser parser;
  html::Page page = parser.Parse("<p>say \"it's\"</p>", "u").value();
  const html::XPath x = html::XPath::Compile("//p[.=" + rule::XPathLiteral("say \"it's\"") + "]").value();
  EXPECT_EQ(x.Select(page).value().size(), 1u);
}

// A product page whose metadata block lists "label: value" pairs in mixed
// content, in an order that varies from page to page, with optional pairs.
std::string ProductPage(util::Rng& rng, int id, std::string* brand) {
  *brand = std::vector<std::string>{"Acme", "Globex", "Initech", "Umbrella Corp"}[rng.Uniform(4)];
  std::vector<std::string> pairs = {"<b>SKU:</b> AB-" + std::to_string(1000 + id) + "<br>",
                                    "<b>Brand:</b> " + *brand + "<br>"};
  if (rng.Bernoulli(0.5)) pairs.push_back("<b>Model:</b> M" + std::to_string(id) + "<br>");
  if (rng.Bernoulli(0.5)) std::swap(pairs[0], pairs[1]);
  std::string meta;
  for (const std::string& p : pairs) meta += p;
  std::string related;
  for (int i = 0, n = static_cast<int>(rng.Range(1, 4)); i < n; ++i) related += "<li><a href=#>Item " + std::to_string(id) + "-" + std::to_string(i) + "</a></li>";
  return "<html><body><div id=nav><a>Home</a><a>Shop</a></div><div class=product><h1>Thing " +
         std::to_string(id) + "</h1><div class=meta>" + meta + "</div><span class=price>$" +
         std::to_string(id) + ".99</span></div><ul class=related>" + related + "</ul></body></html>";
}

struct Site {
  std::vector<html::Page> pages;
  std::vector<std::string> brands;
};

Site MakeSite(int n, uint64_t seed) {
  util::Rng rng(seed);
  html::Parser parser;
  Site site;
  for (int i = 0; i < n; ++i) {
    std::string brand;
    site.pages.push_back(parser.Parse(ProductPage(rng, i, &brand), "http://x.test/p/" + std::to_string(i)).value());
    site.brands.push_back(brand);
  }
  return site;
}

// The text node of `page` whose normalised text is `value`.
html::Node FindText(const html::Page& page, const std::string& value) {
  const html::XPath all = html::XPath::Compile("//text()").value();
  const std::vector<html::Node> nodes = all.Select(page).value();
  for (html::Node n : nodes) {
    if (html::NormalizeSpace(n.RawText()) == value) return n;
  }
  return html::Node();
}

TEST(XPathLearnerTest, LearnsALabelAnchoredRuleForMixedContent) {
  Site site = MakeSite(25, 7);
  std::vector<ExamplePage> examples;
  for (size_t i = 0; i < site.pages.size(); ++i) {
    ExamplePage e;
    e.page = &site.pages[i];
    if (i < 2) {
      e.annotated = true;
      e.positives.push_back(FindText(site.pages[i], site.brands[i]));
      ASSERT_TRUE(e.positives.back()) << i;
    }
    examples.push_back(e);
  }
  absl::StatusOr<LearnedXPath> learned = LearnXPath(examples);
  ASSERT_TRUE(learned.ok()) << learned.status();
  EXPECT_TRUE(learned->precise) << learned->xpath;
  EXPECT_EQ(learned->precision, 1.0);
  EXPECT_EQ(learned->support, 1.0);
  EXPECT_NE(learned->xpath.find("Brand:"), std::string::npos) << learned->xpath;
  // The rule extracts the brand from every page, whatever the pair order.
  const html::XPath x = html::XPath::Compile(learned->xpath).value();
  for (size_t i = 0; i < site.pages.size(); ++i) {
    std::vector<html::Node> nodes = x.Select(site.pages[i]).value();
    ASSERT_EQ(nodes.size(), 1u) << i << " " << learned->xpath;
    EXPECT_EQ(html::NormalizeSpace(nodes[0].RawText()), site.brands[i]) << i;
  }
}

TEST(XPathLearnerTest, PrefersFeaturesNearTheNode) {
  Site site = MakeSite(10, 3);
  std::vector<ExamplePage> examples;
  const html::XPath price = html::XPath::Compile("//span[@class='price']/text()").value();
  for (size_t i = 0; i < site.pages.size(); ++i) {
    ExamplePage e{&site.pages[i], {}, i == 0};
    if (i == 0) e.positives = price.Select(site.pages[i]).value();
    examples.push_back(e);
  }
  absl::StatusOr<LearnedXPath> learned = LearnXPath(examples);
  ASSERT_TRUE(learned.ok()) << learned.status();
  EXPECT_TRUE(learned->precise);
  // One level up (the span, the text's own element: distance 0), not a
  // neighbouring value of page 0 (found on no other page).
  EXPECT_EQ(learned->distance, 0) << learned->xpath;
  EXPECT_EQ(learned->xpath, "//*[@class='price']/text()");
  EXPECT_EQ(learned->support, 1.0) << learned->xpath;
  const html::XPath x = html::XPath::Compile(learned->xpath).value();
  for (size_t i = 0; i < site.pages.size(); ++i) {
    const std::vector<html::Node> got = x.Select(site.pages[i]).value();
    const std::vector<html::Node> want = price.Select(site.pages[i]).value();
    EXPECT_EQ(got, want) << i << " " << learned->xpath;
  }
}

TEST(XPathLearnerTest, MultiValuedSelectsAllItems) {
  Site site = MakeSite(12, 5);
  std::vector<ExamplePage> examples;
  const html::XPath items = html::XPath::Compile("//ul[@class='related']/li/a/text()").value();
  for (size_t i = 0; i < site.pages.size(); ++i) {
    // Annotate two pages listing several items.
    const bool annotated = i == 1 || i == 2;
    ExamplePage e{&site.pages[i], {}, annotated};
    if (annotated) e.positives = items.Select(site.pages[i]).value();
    examples.push_back(e);
  }
  XPathLearnOptions options;
  options.multi_valued = true;
  absl::StatusOr<LearnedXPath> learned = LearnXPath(examples, options);
  ASSERT_TRUE(learned.ok()) << learned.status();
  EXPECT_TRUE(learned->precise) << learned->xpath;
  const html::XPath x = html::XPath::Compile(learned->xpath).value();
  for (size_t i = 0; i < site.pages.size(); ++i) {
    EXPECT_EQ(x.Select(site.pages[i]).value().size(), items.Select(site.pages[i]).value().size()) << i;
  }
}

TEST(XPathLearnerTest, RejectsUnusableAnnotations) {
  Site site = MakeSite(3, 1);
  std::vector<ExamplePage> none = {{&site.pages[0], {}, true}};
  EXPECT_EQ(LearnXPath(none).status().code(), absl::StatusCode::kInvalidArgument);
  const html::Node text = FindText(site.pages[0], site.brands[0]);
  std::vector<ExamplePage> mixed = {{&site.pages[0], {text, text.parent()}, true}};
  EXPECT_EQ(LearnXPath(mixed).status().code(), absl::StatusCode::kInvalidArgument);
}

// Every field of a learnt XPath, for comparing two learners' answers.
std::string Describe(const absl::StatusOr<LearnedXPath>& l) {
  if (!l.ok()) return l.status().ToString();
  std::string out = l->xpath + " p=" + std::to_string(l->precision) + " s=" + std::to_string(l->support) +
                    " d=" + std::to_string(l->distance) + " precise=" + std::to_string(l->precise) +
                    " cap=" + std::to_string(l->cap_hit) + " features=" + std::to_string(l->feature_count) +
                    " sets=" + std::to_string(l->sets_evaluated) + " [";
  for (const rule::Feature& f : l->features) out += f.DebugString() + " ";
  out += "] alternatives:";
  for (const std::vector<rule::Feature>& alt : l->alternatives) {
    out += " {";
    for (const rule::Feature& f : alt) out += f.DebugString() + " ";
    out += "}";
  }
  return out;
}

// Attributes of one sample: text values (brand, price), a list (related
// items) and elements (the price's span), two pages annotated each.
struct Task {
  const char* xpath;
  bool multi_valued;
  std::vector<size_t> annotated;
};

std::vector<ExamplePage> Examples(const Site& site, const Task& task) {
  const html::XPath x = html::XPath::Compile(task.xpath).value();
  std::vector<ExamplePage> out;
  for (size_t i = 0; i < site.pages.size(); ++i) {
    const bool annotated = std::find(task.annotated.begin(), task.annotated.end(), i) != task.annotated.end();
    ExamplePage e{&site.pages[i], {}, annotated};
    if (annotated) e.positives = x.Select(site.pages[i]).value();
    out.push_back(e);
  }
  return out;
}

TEST(SampleIndexTest, SharedByAttributesAndThreadsGivesTheAnswersOfAFreshOne) {
  Site site = MakeSite(15, 11);
  std::vector<const html::Page*> pages;
  for (const html::Page& p : site.pages) pages.push_back(&p);
  const std::vector<Task> tasks = {
      {"//div[@class='meta']/text()[preceding-sibling::b[1][.='Brand:']]", false, {0, 1}},
      {"//span[@class='price']/text()", false, {2}},
      {"//ul[@class='related']/li/a/text()", true, {1, 2}},
      {"//span[@class='price']", false, {0, 3}},
      {"//h1/text()", false, {4, 5, 6}},
  };
  std::vector<std::string> fresh;
  for (const Task& t : tasks) {
    XPathLearnOptions options;
    options.multi_valued = t.multi_valued;
    const absl::StatusOr<LearnedXPath> learned = LearnXPath(Examples(site, t), options);
    EXPECT_TRUE(learned.ok()) << t.xpath << ": " << learned.status();
    fresh.push_back(Describe(learned));
  }
  // One index, the attributes in reverse order, twice each.
  const SampleIndex one(pages);
  for (int round = 0; round < 2; ++round) {
    for (size_t k = tasks.size(); k-- > 0;) {
      XPathLearnOptions options;
      options.multi_valued = tasks[k].multi_valued;
      EXPECT_EQ(Describe(LearnXPath(Examples(site, tasks[k]), options, &one)), fresh[k]) << tasks[k].xpath;
    }
  }
  // One index, two threads learning the attributes at once.
  const SampleIndex shared(pages);
  std::vector<std::string> got(tasks.size());
  const auto learn = [&](size_t first) {
    for (size_t k = first; k < tasks.size(); k += 2) {
      XPathLearnOptions options;
      options.multi_valued = tasks[k].multi_valued;
      got[k] = Describe(LearnXPath(Examples(site, tasks[k]), options, &shared));
    }
  };
  std::thread other(learn, 1);
  learn(0);
  other.join();
  EXPECT_EQ(got, fresh);
}

// The index's bitsets (structural features from interned slot values) say
// what rule::Candidate::Holds says, for every slot and values seen there.
TEST(SampleIndexTest, FeatureBitsAgreeWithCandidateHolds) {
  Site site = MakeSite(6, 4);
  std::vector<const html::Page*> pages;
  for (const html::Page& p : site.pages) pages.push_back(&p);
  const SampleIndex index(pages);
  using rule::Kind;
  size_t features = 0, holding = 0;
  for (bool text_nodes : {true, false}) {
    const std::vector<html::Node> nodes = index.CandidatesForTesting(text_nodes);
    ASSERT_FALSE(nodes.empty());
    std::vector<rule::Candidate> fresh;
    for (html::Node n : nodes) fresh.emplace_back(n);
    for (int k = 0; k <= static_cast<int>(Kind::kInRightText); ++k) {
      const Kind kind = static_cast<Kind>(k);
      const bool sibling = kind >= Kind::kPrecedingTag && kind <= Kind::kFollowingClass;
      const bool anchor = kind >= Kind::kOutLeftText;
      for (int level = 0; level <= (anchor ? 0 : 4); ++level) {
        for (int i = sibling ? 1 : 0; i <= (sibling ? 2 : 0); ++i) {
          // Values seen at this slot on every 7th candidate, alone, in pairs
          // and (presence) none; and a value seen nowhere.
          std::vector<std::vector<std::string>> value_sets = {{}, {"no-such-value"}};
          for (size_t c = 0; c < fresh.size(); c += 7) {
            std::string v;
            if (!fresh[c].Value(kind, level, i, &v)) continue;
            value_sets.push_back({v});
            if (value_sets.size() > 3) value_sets.push_back({value_sets[value_sets.size() - 2][0], v});
            std::sort(value_sets.back().begin(), value_sets.back().end());
          }
          for (const std::vector<std::string>& values : value_sets) {
            const rule::Feature f{kind, level, i, values};
            const std::vector<bool> got = index.FeatureForTesting(text_nodes, f);
            ASSERT_EQ(got.size(), fresh.size());
            ++features;
            for (size_t c = 0; c < fresh.size(); ++c) {
              ASSERT_EQ(got[c], fresh[c].Holds(f)) << f.DebugString() << " on candidate " << c << " of "
                                                   << (text_nodes ? "text nodes" : "elements");
              holding += got[c];
            }
          }
        }
      }
    }
  }
  EXPECT_GT(features, 500u);
  EXPECT_GT(holding, 1000u);
}

TEST(SampleIndexTest, RefusesOtherPages) {
  Site site = MakeSite(4, 2);
  const SampleIndex index({&site.pages[0], &site.pages[1]});
  std::vector<ExamplePage> examples = Examples(site, {"//h1/text()", false, {0}});
  const absl::StatusOr<LearnedXPath> learned = LearnXPath(examples, {}, &index);
  EXPECT_EQ(learned.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(learned.status().message().find("other pages"), std::string::npos) << learned.status();
  examples.resize(2);
  EXPECT_TRUE(LearnXPath(examples, {}, &index).ok());
}

}  // namespace
}  // namespace vertex::learn
