#include "common/learn/classifier_trainer.h"
#include "common/rule/classifier.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/util/random.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

// ---- Synthetic sites ----

template <typename T>
T Pick(util::Rng& rng, const std::vector<T>& pool) {
  return pool[rng.Uniform(pool.size())];
}

// A cell's text: a price (never ".99", which only the value has), a
// measure or a word.
std::string Filler(util::Rng& rng) {
  switch (rng.Uniform(3)) {
    case 0:
      return "$" + std::to_string(rng.Range(1, 500)) + ".50";
    case 1:
      return std::to_string(rng.Range(1, 90)) + " kg";
    default:
      return Pick<std::string>(rng, {"red", "in stock", "Acme Corp", "large", "none"});
  }
}

std::vector<std::string> Labels() {
  return {"Weight:", "Colour:", "Size:", "Stock:", "Rating:", "Price:", "Ships:", "Brand:"};
}

// A spec sheet: rows of label and data cells (every cell a candidate of
// //td/text()), their number, order, labels and contents random; label
// cells have width=30, data cells width=50, except the value's: width=10.
std::string SpecSheetPage(util::Rng& rng, int id, const std::string& value) {
  std::vector<std::string> labels = Labels();
  for (size_t i = labels.size() - 1; i > 0; --i) std::swap(labels[i], labels[rng.Uniform(i + 1)]);
  const int rows = static_cast<int>(rng.Range(3, 7));
  const int value_row = static_cast<int>(rng.Uniform(rows));
  std::string html = "<html><body><h1>Item " + std::to_string(id) + "</h1><table>";
  for (int r = 0; r < rows; ++r) {
    html += "<tr><td width=\"30\">" + labels[r] + "</td>";
    html += r == value_row ? "<td width=\"10\">" + value : "<td width=\"50\">" + Filler(rng);
    html += "</td></tr>";
  }
  return html + "</table></body></html>";
}

// Paragraphs of <font size=2> text (candidates of //font/text()), their
// number, order and contents random, in one of two dark colours; only the
// value is red.
std::string FontPage(util::Rng& rng, int id, const std::string& value) {
  const int paragraphs = static_cast<int>(rng.Range(4, 8));
  const int value_at = static_cast<int>(rng.Uniform(paragraphs));
  std::string html = "<html><body><div id=main><h2>Offer " + std::to_string(id) + "</h2>";
  for (int i = 0; i < paragraphs; ++i) {
    const std::string color =
        i == value_at ? "#cc0000" : Pick<std::string>(rng, {"#000000", "#333333"});
    html += "<p><font size=\"2\" color=\"" + color + "\">" + (i == value_at ? value : Filler(rng)) +
            "</font></p>";
  }
  return html + "</div></body></html>";
}

using PageGenerator = std::string (*)(util::Rng&, int, const std::string&);

struct Site {
  std::vector<html::Page> pages;
  std::vector<std::vector<html::Node>> candidates;  // what the rXPath selects
  std::vector<size_t> value_index;                  // the value's candidate
};

Site MakeSite(PageGenerator generate, const std::string& rxpath, int n, uint64_t seed) {
  util::Rng rng(seed);
  html::Parser parser;
  const html::XPath x = html::XPath::Compile(rxpath).value();
  Site site;
  for (int i = 0; i < n; ++i) {
    const std::string value = "$" + std::to_string(rng.Range(1, 999)) + ".99";
    site.pages.push_back(
        parser.Parse(generate(rng, i, value), "http://x.test/" + std::to_string(i)).value());
    site.candidates.push_back(x.Select(site.pages.back()).value());
    size_t at = SIZE_MAX;
    for (size_t c = 0; c < site.candidates.back().size(); ++c) {
      if (html::NormalizeSpace(site.candidates.back()[c].RawText()) == value) at = c;
    }
    site.value_index.push_back(at);
  }
  return site;
}

// Training nodes, each with its page.
struct Examples {
  std::vector<html::Node> positives;
  std::vector<html::Node> negatives;
  std::vector<const html::Page*> positive_pages;
  std::vector<const html::Page*> negative_pages;

  void Add(const html::Page* page, html::Node node, bool positive) {
    (positive ? positives : negatives).push_back(node);
    (positive ? positive_pages : negative_pages).push_back(page);
  }
};

// Pages [0, n) of `site` split into positives and negatives.
Examples Label(const Site& site, size_t n, Examples e = {}) {
  for (size_t p = 0; p < n; ++p) {
    for (size_t c = 0; c < site.candidates[p].size(); ++c) {
      e.Add(&site.pages[p], site.candidates[p][c], c == site.value_index[p]);
    }
  }
  return e;
}

bool HasTest(const v1::Classifier& classifier, const std::string& test) {
  for (const v1::ClassifierFeature& f : classifier.features()) {
    if (f.test() == test) return true;
  }
  return false;
}

struct SiteCase {
  const char* name;
  PageGenerator generate;
  const char* rxpath;
  const char* weak_feature;  // the test that must be learnt
};

const SiteCase kSites[] = {
    {"td width", &SpecSheetPage, "//td/text()", "parent::td[@width='10']"},
    {"font color", &FontPage, "//font/text()", "parent::font[@color='#cc0000']"},
};

// ---- Tests ----

// Default options. (Over seeds 1..300 of this generator the test fails
// once: both training pages drew the same value and the same label, which
// then look as telling as the width.)
TEST(ClassifierTest, AWeakFeatureLearntOnTwoPagesPicksTheValueOnTenOthers) {
  for (const SiteCase& sc : kSites) {
    SCOPED_TRACE(sc.name);
    const Site site = MakeSite(sc.generate, sc.rxpath, 12, 42);
    const Examples train = Label(site, 2);
    ASSERT_EQ(train.positives.size(), 2u);
    absl::StatusOr<v1::Classifier> trained = TrainClassifier(train.positives, train.negatives);
    ASSERT_TRUE(trained.ok()) << trained.status();
    EXPECT_TRUE(HasTest(*trained, sc.weak_feature)) << trained->DebugString();
    absl::StatusOr<rule::CompiledClassifier> classifier = rule::CompiledClassifier::Create(*trained);
    ASSERT_TRUE(classifier.ok()) << classifier.status();
    for (size_t p = 2; p < site.pages.size(); ++p) {
      ASSERT_NE(site.value_index[p], SIZE_MAX) << p;
      std::vector<double> probabilities;
      for (html::Node c : site.candidates[p])
        probabilities.push_back(classifier->Probability(site.pages[p], c).value());
      EXPECT_EQ(rule::PickWinners(probabilities, false), std::vector<size_t>{site.value_index[p]})
          << "page " << p << " of " << site.candidates[p].size() << " candidates";
    }
  }
}

// One page with odd names, quotes in values and text, class tokens,
// siblings and deep nesting, for the differential test.
constexpr char kOddPage[] =
    R"(<html><body><div id="main" class="  wrap  big "><foo:bar a:b="1" data-q='it"s'>
  <b class="lbl">Price:</b> $5 <i>it's "quoted"</i> <span style="color: red" class="">$6 now</span>
  <table border="0"><tr><td width="10" align=left>x</td><td>y z</td><td></td></tr></table>
</foo:bar></div><p title="it's &quot;both&quot;">tail</p></body></html>)";

TEST(ClassifierTest, NativeFeatureValuesAgreeWithLibxml2) {
  std::vector<Site> sites;
  for (const SiteCase& sc : kSites) sites.push_back(MakeSite(sc.generate, sc.rxpath, 2, 7));
  html::Parser parser;
  const html::Page odd = parser.Parse(kOddPage, "http://x.test/odd").value();
  for (const char* rxpath : {"//text()", "//*"}) {
    SCOPED_TRACE(rxpath);
    Examples e;
    const std::vector<html::Node> all = html::XPath::Compile(rxpath).value().Select(odd).value();
    for (size_t i = 0; i < all.size(); ++i) e.Add(&odd, all[i], i % 3 == 0);
    for (const Site& site : sites) e = Label(site, 2, std::move(e));
    std::vector<html::Node> nodes = e.positives;
    nodes.insert(nodes.end(), e.negatives.begin(), e.negatives.end());
    std::vector<const html::Page*> pages = e.positive_pages;
    pages.insert(pages.end(), e.negative_pages.begin(), e.negative_pages.end());
    absl::StatusOr<std::vector<GeneratedFeature>> features =
        GenerateFeaturesForTesting(e.positives, e.negatives);
    ASSERT_TRUE(features.ok()) << features.status();
    ASSERT_GT(features->size(), 50u);
    size_t checked = 0;
    for (const GeneratedFeature& f : *features) {
      absl::StatusOr<html::XPath> x = html::XPath::Compile(f.test);
      ASSERT_TRUE(x.ok()) << x.status();
      ASSERT_EQ(f.holds.size(), nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) {
        absl::StatusOr<bool> want = x->EvaluateBoolean(*pages[i], nodes[i]);
        ASSERT_TRUE(want.ok()) << f.test << ": " << want.status();
        ASSERT_EQ(f.holds[i], *want)
            << f.test << " on node " << i << " '" << nodes[i].RawText() << "'";
        ++checked;
      }
    }
    EXPECT_GT(checked, 1000u);
  }
}

// Gumbo by name: its tree keeps a prefixed tag (`foo:bar`) as one element
// name, which the name()= features below are written against; libxml2's
// parser splits the prefix off into a namespace.
TEST(ClassifierTest, GeneratesEveryKindOfFeature) {
  html::ParseOptions gumbo;
  gumbo.builder = html::PageBuilder::kGumbo;
  html::Parser parser(gumbo);
  const html::Page page = parser.Parse(kOddPage, "http://x.test/odd").value();
  const std::vector<html::Node> spans =
      html::XPath::Compile("//span/text()").value().Select(page).value();
  const std::vector<html::Node> others =
      html::XPath::Compile("//td/text()").value().Select(page).value();
  ASSERT_EQ(spans.size(), 1u);
  const std::vector<GeneratedFeature> features = GenerateFeaturesForTesting(spans, others).value();
  std::vector<std::string> tests;
  for (const GeneratedFeature& f : features) tests.push_back(f.test);
  for (const std::string& want : std::vector<std::string>{
           "self::text()",
           "parent::span[@style='color: red']",
           "parent::span[@class]",
           "parent::td[@align='left']",
           "ancestor::table[@border='0']",
           "ancestor::*[name()='foo:bar'][@*[name()='a:b']='1']",
           "ancestor::*[name()='foo:bar'][@data-q='it\"s']",
           "ancestor::div[contains(concat(' ',normalize-space(@class),' '),' big ')]",
           "parent::*/preceding-sibling::*[1][self::i]",
           "parent::*/following-sibling::*[1][self::table]",
           "preceding::text()[normalize-space()!=''][1][normalize-space()=concat('it',\"'\",'s "
           "\"quoted\"')]",
           "self::node()[substring-before(concat(normalize-space(),' '),' ')='$6']",
       }) {
    EXPECT_NE(std::find(tests.begin(), tests.end(), want), tests.end()) << want;
  }
  // Level 2 is ancestor:: only; nothing beyond max_level is generated.
  ClassifierOptions near;
  near.max_level = 1;
  const std::vector<GeneratedFeature> near_features =
      GenerateFeaturesForTesting(spans, others, near).value();
  ASSERT_FALSE(near_features.empty());
  for (const GeneratedFeature& f : near_features) {
    EXPECT_EQ(f.test.rfind("ancestor::", 0), std::string::npos) << f.test;
  }
}

// Six single-cell rows: positives A and B have width=10; class=odd is on
// one of the two positives and two of the four negatives.
constexpr char kMiPage[] = R"(<table>
<tr><td width=10 class=odd>A</td></tr><tr><td width=10>B</td></tr>
<tr><td width=30 class=odd>C</td></tr><tr><td width=30 class=odd>D</td></tr>
<tr><td width=30>E</td></tr><tr><td width=30>F</td></tr></table>)";

struct MiExamples {
  html::Page page;
  Examples examples;
};

MiExamples MiTraining() {
  html::Parser parser;
  MiExamples m{parser.Parse(kMiPage, "http://x.test/mi").value(), {}};
  const std::vector<html::Node> cells =
      html::XPath::Compile("//td/text()").value().Select(m.page).value();
  for (size_t i = 0; i < cells.size(); ++i)
    (i < 2 ? m.examples.positives : m.examples.negatives).push_back(cells[i]);
  return m;
}

TEST(ClassifierTest, MutualInformationKeepsTheDiscriminativeFeatureAndDropsAnUninformativeOne) {
  const MiExamples m = MiTraining();
  ASSERT_EQ(m.examples.negatives.size(), 4u);
  const v1::Classifier c = TrainClassifier(m.examples.positives, m.examples.negatives).value();
  ASSERT_GE(c.features_size(), 2);
  // Perfect separators first (ties: shorter, then smaller test).
  EXPECT_EQ(c.features(0).test(), "parent::td[@width='10']");
  EXPECT_EQ(c.features(1).test(), "parent::td[@width='30']");
  for (const v1::ClassifierFeature& f : c.features()) {
    EXPECT_EQ(f.test().find("odd"), std::string::npos) << f.test();  // 1/2 vs 2/4
    EXPECT_NE(f.test(), "parent::td[@width]");                       // everywhere
  }
  // Smoothed with alpha = 1: priors (2+1)/(6+2), (4+1)/(6+2); the feature
  // holds on 2/2 positives and 0/4 negatives.
  EXPECT_DOUBLE_EQ(c.log_prior_pos(), std::log(3.0 / 8));
  EXPECT_DOUBLE_EQ(c.log_prior_neg(), std::log(5.0 / 8));
  EXPECT_DOUBLE_EQ(c.features(0).log_present_pos(), std::log(3.0 / 4));
  EXPECT_DOUBLE_EQ(c.features(0).log_absent_pos(), std::log(1.0 / 4));
  EXPECT_DOUBLE_EQ(c.features(0).log_present_neg(), std::log(1.0 / 6));
  EXPECT_DOUBLE_EQ(c.features(0).log_absent_neg(), std::log(5.0 / 6));
  ClassifierOptions one;
  one.max_features = 1;
  EXPECT_EQ(
      TrainClassifier(m.examples.positives, m.examples.negatives, one).value().features_size(), 1);
  // Each cell's preceding text holds on that cell alone: below min_support.
  const std::string b_after_a =
      "preceding::text()[normalize-space()!=''][1][normalize-space()='A']";
  EXPECT_FALSE(HasTest(c, b_after_a));
  ClassifierOptions any_support;
  any_support.min_support = 1;
  EXPECT_TRUE(HasTest(
      TrainClassifier(m.examples.positives, m.examples.negatives, any_support).value(), b_after_a));
}

TEST(ClassifierTest, SmoothingKeepsProbabilitiesStrictlyBetweenZeroAndOne) {
  const MiExamples m = MiTraining();
  for (double alpha : {0.01, 1.0, 5.0}) {
    ClassifierOptions options;
    options.max_features = 2;
    options.smoothing = alpha;
    const v1::Classifier trained =
        TrainClassifier(m.examples.positives, m.examples.negatives, options).value();
    // parent::td[@width='30'] was never seen with a positive.
    ASSERT_TRUE(HasTest(trained, "parent::td[@width='30']")) << trained.DebugString();
    const rule::CompiledClassifier c = rule::CompiledClassifier::Create(trained).value();
    for (size_t i = 0; i < 6; ++i) {
      const bool positive = i < 2;
      const html::Node node = positive ? m.examples.positives[i] : m.examples.negatives[i - 2];
      const double p = c.Probability(m.page, node).value();
      EXPECT_GT(p, 0.0) << alpha << " " << i;
      EXPECT_LT(p, 1.0) << alpha << " " << i;
      EXPECT_EQ(p > 0.5, positive) << alpha << " " << i << " p=" << p;
    }
  }
}

TEST(ClassifierTest, ProbabilityIsNumericallyStableForExtremeLogLikelihoods) {
  html::Parser parser;
  const html::Page page = parser.Parse("<p>x</p>", "http://x.test/").value();
  const html::Node p = html::XPath::Compile("//p").value().Select(page).value()[0];
  struct Case {
    double prior_pos, prior_neg, present_pos, present_neg, want;
  };
  const Case cases[] = {
      {-1000, -1000, -2000, -2001, 1 / (1 + std::exp(-1.0))},  // exp() alone underflows to 0/0
      {-0.5, -0.5, -800, -801, 1 / (1 + std::exp(-1.0))},
      {std::log(0.25), std::log(0.75), 0, 0, 0.25},  // priors only
  };
  for (const Case& k : cases) {
    v1::Classifier proto;
    proto.set_log_prior_pos(k.prior_pos);
    proto.set_log_prior_neg(k.prior_neg);
    v1::ClassifierFeature* f = proto.add_features();
    f->set_test("self::p");
    f->set_log_present_pos(k.present_pos);
    f->set_log_present_neg(k.present_neg);
    const double got = rule::CompiledClassifier::Create(proto).value().Probability(page, p).value();
    EXPECT_NEAR(got, k.want, 1e-12) << proto.DebugString();
  }
}

TEST(ClassifierTest, PickWinners) {
  struct Case {
    std::vector<double> probabilities;
    bool multi_valued;
    std::vector<size_t> want;
  };
  const Case cases[] = {
      {{}, false, {}},
      {{}, true, {}},
      {{0.2, 0.9, 0.7}, false, {1}},
      {{0.2, 0.9, 0.7}, true, {1, 2}},
      {{0.8, 0.3, 0.8}, false, {0}},  // tie: the first
      {{0.8, 0.3, 0.8}, true, {0, 2}},
      {{0.5, 0.1}, false, {}},  // 0.5 is not > 0.5
      {{0.5, 0.1}, true, {}},
      {{0.6, 0.99, 0.51, 0.2}, true, {0, 1, 2}},
  };
  for (const Case& c : cases) {
    std::string input;
    for (double p : c.probabilities) input += std::to_string(p) + " ";
    EXPECT_EQ(rule::PickWinners(c.probabilities, c.multi_valued), c.want) << input << c.multi_valued;
  }
}

TEST(ClassifierTest, ATrainedClassifierSurvivesSerialisationAndConcurrentUse) {
  const Site site = MakeSite(&SpecSheetPage, "//td/text()", 4, 9);
  const Examples train = Label(site, 2);
  const v1::Classifier trained = TrainClassifier(train.positives, train.negatives).value();
  v1::Classifier parsed;
  ASSERT_TRUE(parsed.ParseFromString(trained.SerializeAsString()));
  const rule::CompiledClassifier c = rule::CompiledClassifier::Create(parsed).value();
  EXPECT_EQ(c.feature_count(), static_cast<size_t>(trained.features_size()));
  std::vector<double> serial;
  for (html::Node n : site.candidates[3]) serial.push_back(c.Probability(site.pages[3], n).value());
  std::vector<std::vector<double>> results(4);
  std::vector<std::thread> threads;
  for (auto& r : results) {
    threads.emplace_back([&] {
      for (int rep = 0; rep < 20; ++rep) {
        r.clear();
        for (html::Node n : site.candidates[3])
          r.push_back(c.Probability(site.pages[3], n).value());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& r : results) EXPECT_EQ(r, serial);
}

TEST(ClassifierTest, TrainingRejectsBadInput) {
  const MiExamples m = MiTraining();
  const std::vector<html::Node>& pos = m.examples.positives;
  const std::vector<html::Node>& neg = m.examples.negatives;
  ClassifierOptions no_smoothing;
  no_smoothing.smoothing = 0;
  ClassifierOptions nan_smoothing;
  nan_smoothing.smoothing = std::nan("");
  ClassifierOptions negative_level;
  negative_level.max_level = -1;
  struct Case {
    const char* name;
    std::vector<html::Node> positives, negatives;
    ClassifierOptions options;
    absl::StatusCode want;
  };
  const Case cases[] = {
      {"no positives", {}, neg, {}, absl::StatusCode::kInvalidArgument},
      {"null positive", {pos[0], html::Node()}, neg, {}, absl::StatusCode::kInvalidArgument},
      {"null negative", pos, {neg[0], html::Node()}, {}, absl::StatusCode::kInvalidArgument},
      {"no negatives", pos, {}, {}, absl::StatusCode::kFailedPrecondition},
      {"zero smoothing", pos, neg, no_smoothing, absl::StatusCode::kInvalidArgument},
      {"NaN smoothing", pos, neg, nan_smoothing, absl::StatusCode::kInvalidArgument},
      {"negative max_level", pos, neg, negative_level, absl::StatusCode::kInvalidArgument},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(TrainClassifier(c.positives, c.negatives, c.options).status().code(), c.want)
        << c.name;
    EXPECT_EQ(GenerateFeaturesForTesting(c.positives, c.negatives, c.options).status().code(),
              c.want)
        << c.name;
  }
  EXPECT_NE(TrainClassifier(pos, {neg[0], html::Node()}).status().message().find("negative 1"),
            std::string::npos);
}

TEST(ClassifierTest, CreateAndProbabilityRejectBadInput) {
  auto with_test = [](const std::string& test) {
    v1::Classifier c;
    c.add_features()->set_test(test);
    return c;
  };
  for (const char* bad : {"self::*[", "", "parent::td[@width=='1']"}) {
    absl::StatusOr<rule::CompiledClassifier> c = rule::CompiledClassifier::Create(with_test(bad));
    ASSERT_FALSE(c.ok()) << bad;
    EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(c.status().message().find("'" + std::string(bad) + "'"), std::string::npos)
        << c.status();
  }
  v1::Classifier not_finite = with_test("self::p");
  not_finite.mutable_features(0)->set_log_absent_neg(std::nan(""));
  absl::StatusOr<rule::CompiledClassifier> nan = rule::CompiledClassifier::Create(not_finite);
  EXPECT_EQ(nan.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(nan.status().message().find("log_absent_neg"), std::string::npos) << nan.status();

  html::Parser parser;
  const html::Page page = parser.Parse("<p>x</p>", "http://x.test/").value();
  const html::Node p = html::XPath::Compile("//p").value().Select(page).value()[0];
  const rule::CompiledClassifier ok = rule::CompiledClassifier::Create(with_test("self::p")).value();
  EXPECT_EQ(ok.Probability(page, html::Node()).status().code(), absl::StatusCode::kInvalidArgument);
  const rule::CompiledClassifier unknown =
      rule::CompiledClassifier::Create(with_test("no-such-function(.)")).value();
  absl::StatusOr<double> failed = unknown.Probability(page, p);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(failed.status().message().find("no-such-function"), std::string::npos)
      << failed.status();
}

}  // namespace
}  // namespace vertex::learn
