// Differential tests of FeatureSelector, the engine's native evaluation of
// learnt XPaths: on every page it must select exactly the nodes libxml2
// selects with the rendered XPath (RenderPositionalXPath), in document
// order. Checked for the rules an editor simulated from ground truth gets
// learnt on the SWDE booksamillion site (2,000 pages, when the shared data
// is present) and on the generated demo site, then for random feature sets
// drawn from random synthetic pages. Plus the proto form of features.
#include "common/rule/feature_selector.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/demo/listing_site.h"
#include "common/demo/site_generator.h"
#include "common/demo/variant_site.h"
#include "common/demo/versioned_site.h"
#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/util/random.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/simulated_editor.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace vertex::learn {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// ---- Learnt rules on whole sites ----

struct RuleUnderTest {
  std::string name;  // "c0/title"
  std::string xpath;
  rule::FeatureSelector native;
  html::XPath libxml2;
};

// The learnt attribute rules with features, as an editor simulated from the
// ground truth gets them (what `vertexctl eval-swde` does).
std::vector<RuleUnderTest> LearnRules(const std::vector<std::string>& files, const std::string& schema_file,
                                      const std::string& truth_dir, const std::string& site_name) {
  const schema::CompiledSchema schema =
      schema::CompiledSchema::FromFile(std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/" + schema_file).value();
  const eval::GroundTruth truth = eval::LoadGroundTruth(truth_dir, site_name).value();
  const site::SiteClustering clustering = site::ClusterSite(files, {}).value();
  workflow::PagePool pool(clustering, html::ParseOptions{});
  const std::vector<workflow::SimulatedCluster> clusters =
      workflow::SimulateEditor(schema, clustering, truth, pool, {}).value();
  std::vector<RuleUnderTest> out;
  for (const workflow::SimulatedCluster& c : clusters) {
    for (const v1::AttributeRule& a : c.result.learnt.rule.attributes()) {
      if (a.features_size() == 0) continue;
      absl::StatusOr<rule::FeatureSelector> native = rule::FeatureSelector::Create(a);
      EXPECT_TRUE(native.ok()) << native.status();
      absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath());
      EXPECT_TRUE(x.ok()) << x.status();
      if (!native.ok() || !x.ok()) continue;
      out.push_back({absl::StrCat(c.result.learnt.rule.cluster_id(), "/", a.attribute()), a.xpath(),
                     *std::move(native), *std::move(x)});
    }
  }
  return out;
}

struct FirstDifference {
  size_t page = SIZE_MAX;
  std::string what;
};

struct Comparison {
  double learn_s = 0, compare_s = 0;
  std::mutex mu;
  size_t pages = 0, evaluations = 0, nodes = 0;
  // Per rule.
  std::vector<FirstDifference> first;
  std::vector<double> native_s, libxml2_s;
};

void ComparePage(const std::vector<RuleUnderTest>& rules, size_t index, const html::Page& page, Comparison* c) {
  size_t nodes = 0;
  std::vector<double> native_s(rules.size()), libxml2_s(rules.size());
  for (size_t r = 0; r < rules.size(); ++r) {
    Clock::time_point t = Clock::now();
    const std::vector<html::Node> native = rules[r].native.Select(page);
    native_s[r] = Since(t);
    t = Clock::now();
    absl::StatusOr<std::vector<html::Node>> want = rules[r].libxml2.Select(page);
    libxml2_s[r] = Since(t);
    nodes += native.size();
    if (want.ok() && native == *want) continue;
    std::lock_guard<std::mutex> lock(c->mu);
    if (index < c->first[r].page) {
      c->first[r] = {index, absl::StrCat(page.url(), ": native ", native.size(), " nodes, libxml2 ",
                                         want.ok() ? absl::StrCat(want->size(), " nodes") : want.status().ToString())};
    }
  }
  std::lock_guard<std::mutex> lock(c->mu);
  ++c->pages;
  c->evaluations += rules.size();
  c->nodes += nodes;
  for (size_t r = 0; r < rules.size(); ++r) {
    c->native_s[r] += native_s[r];
    c->libxml2_s[r] += libxml2_s[r];
  }
}

// Every rule on every page of `files`, on all hardware threads.
void CompareOnFiles(const std::vector<RuleUnderTest>& rules, const std::vector<std::string>& files, Comparison* c) {
  const Clock::time_point start = Clock::now();
  c->first.assign(rules.size(), {});
  c->native_s.assign(rules.size(), 0);
  c->libxml2_s.assign(rules.size(), 0);
  const size_t threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      html::Parser parser;
      for (size_t i = t; i < files.size(); i += threads) {
        absl::StatusOr<site::PageFile> file = site::ReadPageFile(files[i], 8 << 20);
        if (!file.ok()) continue;
        absl::StatusOr<html::Page> page = parser.Parse(file->bytes, file->url);
        if (page.ok()) ComparePage(rules, i, *page, c);
      }
    });
  }
  for (std::thread& t : pool) t.join();
  c->compare_s = Since(start);
}

// Every rule together (SelectorSet, as CompiledRule evaluates a rule's
// attributes) against the reference walk (SelectAllReferenceForTesting) on
// every page of `files`: a failure naming the first page and rule that
// differ. Returns the pages compared.
size_t ExpectBatchedEqualsReference(const std::vector<RuleUnderTest>& rules, const std::vector<std::string>& files) {
  std::vector<const rule::FeatureSelector*> selectors;
  for (const RuleUnderTest& r : rules) selectors.push_back(&r.native);
  const rule::SelectorSet set(selectors);
  html::Parser parser;
  size_t pages = 0, nodes = 0;
  for (const std::string& f : files) {
    absl::StatusOr<site::PageFile> file = site::ReadPageFile(f, 8 << 20);
    if (!file.ok()) continue;
    absl::StatusOr<html::Page> page = parser.Parse(file->bytes, file->url);
    if (!page.ok()) continue;
    const std::vector<std::vector<html::Node>> got = set.SelectAll(*page);
    const std::vector<std::vector<html::Node>> want = rule::FeatureSelector::SelectAllReferenceForTesting(selectors, *page);
    ++pages;
    for (size_t r = 0; r < rules.size(); ++r) {
      nodes += got[r].size();
      if (got[r] != want[r]) {
        ADD_FAILURE() << "SelectorSet differs from the reference on " << f << " for rule " << rules[r].name << " ("
                      << rules[r].xpath << "): " << got[r].size() << " nodes, reference " << want[r].size();
        return pages;
      }
    }
  }
  std::printf("SelectorSet of %zu rules = reference on %zu pages (%zu nodes selected)\n", rules.size(), pages, nodes);
  return pages;
}

void ExpectAgreement(const std::string& site, const std::vector<RuleUnderTest>& rules, const Comparison& c) {
  for (size_t r = 0; r < rules.size(); ++r) {
    std::printf("  %-22s native %7.3f s, libxml2 %8.3f s  %s\n", rules[r].name.c_str(), c.native_s[r],
                c.libxml2_s[r], rules[r].xpath.c_str());
    EXPECT_EQ(c.first[r].page, SIZE_MAX) << site << " rule " << rules[r].name << " " << rules[r].xpath
                                         << "\nfirst differing page: " << c.first[r].what;
  }
  std::printf("%s: %zu rules with features, %zu pages, %zu evaluations, %zu nodes selected; learning %.1f s, "
              "comparing %.1f s\n",
              site.c_str(), rules.size(), c.pages, c.evaluations, c.nodes, c.learn_s, c.compare_s);
}

TEST(FeatureSelectorSiteTest, SwdeBooksamillionLearntRulesAgreeWithLibxml2OnEveryPage) {
  const fs::path pages = fs::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  const fs::path truth = fs::path(VERTEX_SHARED_DATA_DIR) / "swde/groundtruth/book";
  if (!fs::is_directory(pages) || !fs::is_directory(truth)) {
    GTEST_SKIP() << "SWDE data not found at " << pages << " and " << truth;
  }
  const std::vector<std::string> files = site::ExpandPagePaths({pages.string()}).value();
  const Clock::time_point start = Clock::now();
  const std::vector<RuleUnderTest> rules = LearnRules(files, "book.json", truth.string(), "booksamillion");
  ASSERT_GE(rules.size(), 4u);
  Comparison c;
  c.learn_s = Since(start);
  CompareOnFiles(rules, files, &c);
  EXPECT_EQ(c.pages, 2000u);
  ExpectAgreement("booksamillion", rules, c);
  EXPECT_EQ(ExpectBatchedEqualsReference(rules, files), 2000u);
}

using TempDir = vertex::test_support::TempDir;

// libxml2 evaluates an anchor (preceding::text()[normalize-space(.)!=''][1])
// by walking the whole axis for every candidate: about 0.25 s per demo page
// and anchored rule, 45 CPU minutes for the default 1,100-page site. The
// test uses a smaller site from the same generator; VERTEX_FULL_DEMO=1 runs
// the default one.
demo::SiteOptions DemoOptions() {
  demo::SiteOptions o;
  if (getenv("VERTEX_FULL_DEMO") != nullptr) return o;
  o.product_pages = 50, o.category_pages = 20, o.review_pages = 12, o.store_pages = 24;
  return o;
}

TEST(FeatureSelectorSiteTest, DemoSiteLearntRulesAgreeWithLibxml2OnEveryPage) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_TRUE(demo::WriteSite(demo::GenerateSite(DemoOptions()), dir.path()).ok());
  const std::vector<std::string> files = site::ExpandPagePaths({dir.path()}).value();
  const Clock::time_point start = Clock::now();
  std::vector<RuleUnderTest> rules;
  for (const auto& [vertical, schema] : {std::pair{"product", "product.json"}, {"business", "business.json"}}) {
    std::vector<RuleUnderTest> some =
        LearnRules(files, schema, dir.path() + "/groundtruth/" + vertical, "vertexdemo");
    EXPECT_GE(some.size(), 5u) << vertical;
    for (RuleUnderTest& r : some) rules.push_back(std::move(r));
  }
  Comparison c;
  c.learn_s = Since(start);
  CompareOnFiles(rules, files, &c);
  EXPECT_EQ(c.pages, files.size());
  const demo::SiteOptions o = DemoOptions();
  EXPECT_EQ(c.pages, static_cast<size_t>(o.product_pages + o.category_pages + o.review_pages + o.store_pages));
  ExpectAgreement("demo", rules, c);
  EXPECT_EQ(ExpectBatchedEqualsReference(rules, files), files.size());
}

// ---- Random feature sets on synthetic pages ----

template <typename T>
T Pick(util::Rng& rng, const std::vector<T>& pool) {
  return pool[rng.Uniform(pool.size())];
}

// Texts with what normalize-space() and anchors must get right: NBSP
// (not XPath whitespace), runs of spaces, tabs and newlines, quotes.
std::string RandomText(util::Rng& rng) {
  return Pick<std::string>(rng, {"Price:", "$5.99", "By:", "it's", "say \"it's\"", "Price:&nbsp;$6",
                                 "&nbsp;", " a \t b\n", "Our  Price:  $7", "x", "By: Ann Lee", "Price: "});
}

// A class (some with several tokens, blanks or a quote) and an id, or not.
std::string RandomAttributes(util::Rng& rng) {
  std::string attrs;
  if (rng.Bernoulli(0.4)) {
    attrs += " class=\"" + Pick<std::string>(rng, {"v", "price", "v price", "  v  ", "", "it's", "lbl"}) + "\"";
  }
  if (rng.Bernoulli(0.3)) attrs += " id=\"" + Pick<std::string>(rng, {"main", "x", "q'1"}) + "\"";
  return attrs;
}

// Random nested markup: blocks, inline tags inside inline tags, pre blocks,
// lists and tables.
std::string RandomMarkup(util::Rng& rng, int depth) {
  std::string out;
  for (int n = static_cast<int>(rng.Range(1, 4)); n > 0; --n) {
    const uint64_t what = depth <= 0 ? 0 : rng.Uniform(8);
    if (what <= 1) {
      out += RandomText(rng);
    } else if (what == 2) {
      // Pre blocks, and elements without text (the anchors of elements
      // between a label and the next text: an empty cell, an image, stars,
      // a comment, a blank span around an empty element).
      out += Pick<std::string>(rng, {"<pre>\n  one\n\n\ttwo  </pre>", "<pre>   </pre>", "<pre>a&nbsp; b</pre>", "<br>",
                                     "<img src=x.png>", "<i class=\"star\"></i><i class=\"star\"></i>",
                                     "<span> <b></b> </span>", "<!-- note: x -->", "<div><p></p><br></div>"});
    } else if (what == 7) {
      const bool list = rng.Bernoulli(0.5);
      std::string items;
      for (int i = static_cast<int>(rng.Range(1, 4)); i > 0; --i) {
        items += (list ? "<li" : "<td") + RandomAttributes(rng) + ">" + RandomMarkup(rng, depth - 2) +
                 (list ? "</li>" : "</td>");
      }
      out += list ? "<ul>" + items + "</ul>" : "<table><tr>" + items + "</tr></table>";
    } else {
      const std::string tag = Pick<std::string>(rng, {"div", "p", "span", "b", "i", "em", "a"});
      out += "<" + tag + RandomAttributes(rng) + ">" + RandomMarkup(rng, depth - 1) + "</" + tag + ">";
    }
  }
  return out;
}

std::vector<html::Page> RandomPages(int n, uint64_t seed) {
  util::Rng rng(seed);
  html::Parser parser;
  std::vector<html::Page> pages;
  for (int i = 0; i < n; ++i) {
    const std::string html = "<html><body><div id=main>" + RandomMarkup(rng, 5) + "</div>" + RandomMarkup(rng, 3) +
                             "</body></html>";
    pages.push_back(parser.Parse(html, absl::StrCat("http://synthetic.test/", i)).value());
  }
  return pages;
}

std::vector<html::Node> NodesOf(const html::Page& page, bool text_nodes) {
  std::vector<html::Node> out;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (text_nodes ? n.is_text() : n.is_element()) out.push_back(n);
  }
  return out;
}

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// A prefix (or suffix) of `s` cut at a character boundary, sometimes all of it.
std::string Part(util::Rng& rng, const std::string& s, bool suffix) {
  size_t cut = rng.Bernoulli(0.5) ? 0 : rng.Uniform(s.size());
  while (cut < s.size() && IsContinuation(s[cut])) ++cut;
  return suffix ? s.substr(cut) : s.substr(0, s.size() - cut);
}

constexpr rule::Kind kAllKinds[] = {rule::Kind::kTag,          rule::Kind::kId,           rule::Kind::kClass,         rule::Kind::kPrecedingTag,
                              rule::Kind::kPrecedingId,  rule::Kind::kPrecedingClass, rule::Kind::kFollowingTag, rule::Kind::kFollowingId,
                              rule::Kind::kFollowingClass, rule::Kind::kOutLeftText, rule::Kind::kOutLeftWord,  rule::Kind::kOutRightText,
                              rule::Kind::kOutRightWord, rule::Kind::kInLeftText,   rule::Kind::kInRightText};

bool IsSibling(rule::Kind k) { return k >= rule::Kind::kPrecedingTag && k <= rule::Kind::kFollowingClass; }
bool IsAnchor(rule::Kind k) { return k >= rule::Kind::kOutLeftText; }
bool IsPresence(rule::Kind k) {
  return k == rule::Kind::kId || k == rule::Kind::kClass || k == rule::Kind::kPrecedingId || k == rule::Kind::kPrecedingClass ||
         k == rule::Kind::kFollowingId || k == rule::Kind::kFollowingClass;
}

// A feature of a random slot that holds for `c` (its value, a part of it for
// the prefix/suffix kinds, presence, or a disjunction with `other`'s value of
// the slot); nullopt when the slot has no value for `c`.
std::optional<rule::Feature> RandomFeature(util::Rng& rng, const rule::Candidate& c, const rule::Candidate& other) {
  rule::Feature f;
  f.kind = kAllKinds[rng.Uniform(std::size(kAllKinds))];
  f.level = IsAnchor(f.kind) ? 0 : static_cast<int>(rng.Range(0, 4));
  f.index = IsSibling(f.kind) ? static_cast<int>(rng.Range(1, rule::kMaxSibling)) : 0;
  std::string v;
  if (!c.Value(f.kind, f.level, f.index, &v)) return std::nullopt;
  if (IsPresence(f.kind) && rng.Bernoulli(0.3)) return f;
  const bool prefix = f.kind == rule::Kind::kInLeftText || f.kind == rule::Kind::kOutRightWord;
  const bool suffix = f.kind == rule::Kind::kInRightText || f.kind == rule::Kind::kOutLeftWord;
  if (prefix || suffix) v = Part(rng, v, suffix);
  if (v.empty() && IsAnchor(f.kind)) return std::nullopt;
  f.values.push_back(v);
  std::string w;
  if (rng.Bernoulli(0.3) && other.Value(f.kind, f.level, f.index, &w) && w != v && !(w.empty() && IsAnchor(f.kind))) {
    f.values.push_back(w);
    std::sort(f.values.begin(), f.values.end());
  }
  return f;
}

v1::Position RandomPosition(util::Rng& rng) {
  v1::Position p;
  switch (rng.Uniform(4)) {
    case 1:
      p.set_kind(v1::Position::FROM_START);
      p.set_n(static_cast<int>(rng.Range(1, 4)));
      break;
    case 2:
      p.set_kind(v1::Position::FROM_END);
      p.set_n(static_cast<int>(rng.Range(0, 3)));
      break;
    case 3:
      p.set_kind(v1::Position::STEP);
      p.set_n(static_cast<int>(rng.Range(1, 3)));
      break;
    default:
      break;
  }
  return p;
}

std::string Debug(const std::vector<rule::Feature>& features) {
  std::string out;
  for (const rule::Feature& f : features) out += f.DebugString() + " ";
  return out;
}

// Evaluates `native` and `xpath` (its rendering) on `from` and three other
// random pages of `pages`, counting evaluations, non-empty results and the
// text-less elements selected; a failure for each page where they differ.
struct Agreement {
  size_t evaluations = 0, nonempty = 0, failures = 0, blank_hits = 0;

  void Check(const rule::FeatureSelector& native, const std::vector<rule::Feature>& features, const std::string& xpath,
             const html::Page& from, const std::vector<html::Page>& pages, util::Rng& rng) {
    absl::StatusOr<html::XPath> x = html::XPath::Compile(xpath);
    ASSERT_TRUE(x.ok()) << x.status();
    for (int k = 0; k < 4; ++k) {
      const html::Page& page = k == 0 ? from : pages[rng.Uniform(pages.size())];
      const std::vector<html::Node> got = native.Select(page);
      absl::StatusOr<std::vector<html::Node>> want = x->Select(page);
      ASSERT_TRUE(want.ok()) << want.status() << " " << xpath;
      ++evaluations;
      nonempty += !got.empty();
      for (const html::Node& n : got) blank_hits += n.is_element() && rule::Candidate(n).text().empty();
      if (got != *want) {
        ++failures;
        ADD_FAILURE() << "features " << Debug(features) << "\nXPath " << xpath << "\npage " << page.url()
                      << ": native " << got.size() << " nodes, libxml2 " << want->size();
      }
    }
  }
};

TEST(FeatureSelectorRandomTest, RandomFeatureSetsAgreeWithLibxml2) {
  const std::vector<html::Page> pages = RandomPages(40, 2024);
  util::Rng rng(99);
  Agreement a;
  std::map<v1::Position::Kind, size_t> by_position;
  std::map<rule::Kind, size_t> by_kind;
  for (int trial = 0; trial < 2500 && a.failures < 5; ++trial) {
    const bool text_nodes = rng.Bernoulli(0.5);
    const html::Page& from = pages[rng.Uniform(pages.size())];
    const std::vector<html::Node> nodes = NodesOf(from, text_nodes);
    const rule::Candidate c(Pick(rng, nodes)), other(Pick(rng, nodes));
    std::vector<rule::Feature> features;
    for (int tries = 0; tries < 20 && features.size() < static_cast<size_t>(rng.Range(1, 4)); ++tries) {
      if (std::optional<rule::Feature> f = RandomFeature(rng, c, other)) features.push_back(*std::move(f));
    }
    if (features.empty()) continue;
    for (const rule::Feature& f : features) ++by_kind[f.kind];
    const v1::Position position = RandomPosition(rng);
    ++by_position[position.kind()];
    const rule::FeatureSelector native(features, text_nodes, position);
    const std::string xpath = rule::RenderPositionalXPath(features, text_nodes, position);
    ASSERT_NO_FATAL_FAILURE(a.Check(native, features, xpath, from, pages, rng));
  }
  for (rule::Kind k : kAllKinds) EXPECT_GT(by_kind[k], 20u) << rule::FeatureToProto({k, 0, 0, {}}).kind();
  for (auto kind : {v1::Position::NONE, v1::Position::FROM_START, v1::Position::FROM_END, v1::Position::STEP}) {
    EXPECT_GT(by_position[kind], 200u) << v1::Position::Kind_Name(kind);
  }
  EXPECT_GT(a.nonempty, a.evaluations / 4);
  std::printf("random feature sets: %zu evaluations on 40 pages, %zu non-empty\n", a.evaluations, a.nonempty);
}

// Element XPaths led by an anchor (RenderXPath's candidate set from the
// label's occurrences, ElementLabelFirst) against the native selector, on
// pages with elements without text between labels and values.
TEST(FeatureSelectorRandomTest, AnchoredElementFeatureSetsAgreeWithLibxml2) {
  const std::vector<html::Page> pages = RandomPages(40, 77);
  util::Rng rng(5);
  Agreement a;
  for (int trial = 0; trial < 1500 && a.failures < 5; ++trial) {
    const html::Page& from = pages[rng.Uniform(pages.size())];
    const std::vector<html::Node> nodes = NodesOf(from, false);
    const rule::Candidate c(Pick(rng, nodes)), other(Pick(rng, nodes));
    std::vector<rule::Feature> features;
    for (int tries = 0; tries < 20 && features.empty(); ++tries) {
      std::optional<rule::Feature> f = RandomFeature(rng, c, other);
      if (f && IsAnchor(f->kind) && f->kind != rule::Kind::kInLeftText && f->kind != rule::Kind::kInRightText) {
        features.push_back(*std::move(f));
      }
    }
    if (features.empty()) continue;
    for (int tries = 0; tries < 10 && features.size() < static_cast<size_t>(rng.Range(1, 3)); ++tries) {
      if (std::optional<rule::Feature> f = RandomFeature(rng, c, other)) features.push_back(*std::move(f));
    }
    const v1::Position position = RandomPosition(rng);
    const rule::FeatureSelector native(features, /*text_nodes=*/false, position);
    const std::string xpath = rule::RenderPositionalXPath(features, false, position);
    ASSERT_EQ(xpath.rfind("//*", 0), std::string::npos) << "not led by the anchor: " << xpath;
    ASSERT_NO_FATAL_FAILURE(a.Check(native, features, xpath, from, pages, rng));
  }
  EXPECT_GT(a.evaluations, 2000u);
  EXPECT_GT(a.nonempty, a.evaluations / 4);
  EXPECT_GT(a.blank_hits, 50u) << "too few elements without text selected to test that case";
  std::printf("anchored element feature sets: %zu evaluations, %zu non-empty, %zu elements without text selected\n",
              a.evaluations, a.nonempty, a.blank_hits);
}

// The anchors one AnchorMemo gives every node of a page, visited in
// document order and in reverse (the memo must not depend on the order),
// equal libxml2's nearest non-blank preceding and following text, on pages
// with long runs of text-less elements (the shape that made fresh walks
// quadratic) and on random pages.
TEST(AnchorMemoTest, SharedMemoAgreesWithLibxml2InAnyVisitOrder) {
  std::vector<html::Page> pages = RandomPages(10, 7);
  std::string runs = "<html><body><p>first</p>";
  for (int i = 0; i < 30; ++i) runs += "<template><div><svg><g></g></svg></div></template><span></span>";
  runs += "<p>  middle\n text </p><table><tr><td><td><td></table><b><i></i></b>last</body></html>";
  html::Parser parser;
  pages.push_back(parser.Parse(runs, "http://synthetic.test/runs").value());
  const html::XPath before =
      html::XPath::Compile("normalize-space(preceding::text()[normalize-space()!=''][1])").value();
  const html::XPath after =
      html::XPath::Compile("normalize-space(following::text()[normalize-space()!=''][1])").value();
  size_t checked = 0;
  for (const html::Page& page : pages) {
    std::vector<html::Node> nodes = NodesOf(page, false);
    const std::vector<html::Node> texts = NodesOf(page, true);
    nodes.insert(nodes.end(), texts.begin(), texts.end());
    for (bool reverse : {false, true}) {
      rule::AnchorMemo memo;
      std::vector<html::Node> order = nodes;
      if (reverse) std::reverse(order.begin(), order.end());
      for (html::Node n : order) {
        const rule::Candidate c(n, &memo);
        ASSERT_EQ(c.left(), before.EvaluateString(page, n).value()) << page.url() << " node " << n.tag();
        ASSERT_EQ(c.right(), after.EvaluateString(page, n).value()) << page.url() << " node " << n.tag();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000u);
}

// ---- SelectorSet: many selectors in one walk ----

// Pages of every generated site: the demo shop's four templates, result
// lists of both listing domains in every record layout and the grid, the
// variant book site and the versioned shop.
std::vector<html::Page> GeneratedPages() {
  html::Parser parser;
  std::vector<html::Page> pages;
  const auto add = [&](const std::string& html, const std::string& url) {
    pages.push_back(parser.Parse(html, url).value());
  };
  demo::SiteOptions shop;
  shop.product_pages = 6, shop.category_pages = 4, shop.review_pages = 3, shop.store_pages = 3;
  for (const demo::GeneratedPage& p : demo::GenerateSite(shop)) add(p.html, p.url);
  for (demo::ListingDomain domain : {demo::ListingDomain::kRealEstate, demo::ListingDomain::kUsedCars}) {
    for (int layout = -1; layout < demo::kRecordLayouts; ++layout) {
      demo::ListingSiteOptions o;
      o.domain = domain, o.pages = 2, o.seed = static_cast<uint64_t>(layout + 10);
      o.grid = layout == -1;
      o.layout = layout == -1 ? 0 : layout;
      const demo::ListingSite site = demo::GenerateListingSite(o).value();
      for (const demo::ListingPage& p : site.pages) add(p.html, p.url);
    }
  }
  demo::VariantSiteOptions variant;
  variant.pages = 6;
  for (const demo::VariantPage& p : demo::GenerateVariantSite(variant)) add(p.html, p.url);
  demo::VersionedSiteOptions versioned;
  versioned.pages_per_template = 2;
  for (const demo::VersionedPage& p : demo::GenerateVersionedSite(versioned)) add(p.html, p.url);
  return pages;
}

// A random feature set of 1-3 features holding for a random node of `from`
// (text nodes or elements), or none.
std::optional<rule::FeatureSelector> RandomSelector(util::Rng& rng, const html::Page& from) {
  const bool text_nodes = rng.Bernoulli(0.5);
  const std::vector<html::Node> nodes = NodesOf(from, text_nodes);
  if (nodes.empty()) return std::nullopt;
  const rule::Candidate c(Pick(rng, nodes)), other(Pick(rng, nodes));
  std::vector<rule::Feature> features;
  for (int tries = 0; tries < 20 && features.size() < static_cast<size_t>(rng.Range(1, 4)); ++tries) {
    std::optional<rule::Feature> f = RandomFeature(rng, c, other);
    if (f && !(text_nodes && f->kind == rule::Kind::kTag && f->level == 0)) features.push_back(*std::move(f));
  }
  if (features.empty()) return std::nullopt;
  return rule::FeatureSelector(features, text_nodes, RandomPosition(rng));
}

// Batches of 1-30 random selectors (drawn mostly from one page, some from
// others, some null), evaluated together on that page and two random ones,
// against the reference walk.
void ExpectRandomBatchesEqualReference(const std::vector<html::Page>& pages, uint64_t seed, int batches) {
  util::Rng rng(seed);
  size_t evaluations = 0, nonempty = 0;
  for (int b = 0; b < batches; ++b) {
    const html::Page& home = pages[rng.Uniform(pages.size())];
    std::vector<rule::FeatureSelector> owned;
    owned.reserve(30);
    std::vector<const rule::FeatureSelector*> selectors;
    for (int n = static_cast<int>(rng.Range(1, 30)); n > 0; --n) {
      std::optional<rule::FeatureSelector> s =
          RandomSelector(rng, rng.Bernoulli(0.8) ? home : pages[rng.Uniform(pages.size())]);
      if (s && rng.Bernoulli(0.95)) {
        owned.push_back(*std::move(s));
        selectors.push_back(&owned.back());
      } else {
        selectors.push_back(nullptr);
      }
    }
    const rule::SelectorSet set(selectors);
    for (int k = 0; k < 3; ++k) {
      const html::Page& page = k == 0 ? home : pages[rng.Uniform(pages.size())];
      const std::vector<std::vector<html::Node>> got = set.SelectAll(page);
      const std::vector<std::vector<html::Node>> want =
          rule::FeatureSelector::SelectAllReferenceForTesting(selectors, page);
      ASSERT_EQ(got.size(), selectors.size());
      for (size_t i = 0; i < selectors.size(); ++i) {
        ++evaluations;
        nonempty += !got[i].empty();
        ASSERT_EQ(got[i], want[i]) << "batch " << b << " selector " << i << " on " << page.url() << ": "
                                   << got[i].size() << " nodes, reference " << want[i].size();
        if (selectors[i] == nullptr) {
          EXPECT_TRUE(got[i].empty());
        }
      }
    }
  }
  EXPECT_GT(nonempty, evaluations / 4);
  std::printf("random selector batches: %zu evaluations, %zu non-empty\n", evaluations, nonempty);
}

TEST(SelectorSetTest, RandomBatchesOnSyntheticPagesEqualTheReference) {
  ExpectRandomBatchesEqualReference(RandomPages(40, 31), 17, 300);
}

TEST(SelectorSetTest, RandomBatchesOnEveryGeneratedSiteEqualTheReference) {
  const std::vector<html::Page> pages = GeneratedPages();
  ASSERT_GE(pages.size(), 60u);
  ExpectRandomBatchesEqualReference(pages, 23, 150);
}

// FROM_START stops a selector at its n-th node, counted as ApplyPosition
// counts: a blank text node it matched does not count.
TEST(SelectorSetTest, FromStartCountsNonBlankTextOnly) {
  html::Parser parser;
  const html::Page page =
      parser.Parse("<html><body><p class=v> </p><p class=v>a</p><p class=v>\n</p><p class=v>b</p></body></html>",
                   "http://synthetic.test/blank")
          .value();
  v1::Position second;
  second.set_kind(v1::Position::FROM_START);
  second.set_n(2);
  const rule::FeatureSelector text({{rule::Kind::kClass, 1, 0, {"v"}}}, /*text_nodes=*/true, second);
  const rule::FeatureSelector elements({{rule::Kind::kClass, 0, 0, {"v"}}}, /*text_nodes=*/false, second);
  const std::vector<std::vector<html::Node>> got = rule::SelectorSet({&text, nullptr, &elements}).SelectAll(page);
  ASSERT_EQ(got.size(), 3u);
  ASSERT_EQ(got[0].size(), 1u);
  EXPECT_EQ(got[0][0].RawText(), "b");
  EXPECT_TRUE(got[1].empty());
  ASSERT_EQ(got[2].size(), 1u);
  EXPECT_EQ(got[2][0].RawText(), "a");
}

// ---- Proto form ----

TEST(FeatureProtoTest, EveryKindRoundTrips) {
  const std::vector<std::string> names = {"tag",          "id",           "class",         "prec-tag",
                                          "prec-id",      "prec-class",   "foll-tag",      "foll-id",
                                          "foll-class",   "out-left-text", "out-left-word", "out-right-text",
                                          "out-right-word", "in-left-text", "in-right-text"};
  ASSERT_EQ(names.size(), std::size(kAllKinds));
  for (size_t i = 0; i < names.size(); ++i) {
    const rule::Kind k = kAllKinds[i];
    for (const std::vector<std::string>& values :
         {std::vector<std::string>{"a"}, {"it's", "say \"x\"", "z\xC2\xA0"}, std::vector<std::string>{}}) {
      if (values.empty() && !IsPresence(k)) continue;
      const rule::Feature f{k, IsAnchor(k) ? 0 : rule::kMaxLevel, IsSibling(k) ? rule::kMaxSibling : 0, values};
      const v1::XPathFeature proto = rule::FeatureToProto(f);
      EXPECT_EQ(proto.kind(), names[i]);
      absl::StatusOr<rule::Feature> back = rule::FeatureFromProto(proto);
      ASSERT_TRUE(back.ok()) << back.status() << " " << proto.ShortDebugString();
      EXPECT_EQ(*back, f) << proto.ShortDebugString();
    }
  }
}

v1::XPathFeature ProtoFeature(const std::string& kind, int level, int index, std::vector<std::string> values) {
  v1::XPathFeature p;
  p.set_kind(kind);
  p.set_level(level);
  p.set_index(index);
  for (const std::string& v : values) p.add_values(v);
  return p;
}

TEST(FeatureProtoTest, FeatureFromProtoRejectsMalformedFeatures) {
  struct Case {
    const char* name;
    v1::XPathFeature proto;
    const char* message_has;
  };
  const std::vector<Case> cases = {
      {"unknown kind", ProtoFeature("colour", 0, 0, {"red"}), "colour"},
      {"empty kind", ProtoFeature("", 0, 0, {"td"}), "unknown"},
      {"negative level", ProtoFeature("tag", -1, 0, {"td"}), "level -1"},
      {"level past the maximum", ProtoFeature("class", rule::kMaxLevel + 1, 0, {"x"}), "level 13"},
      {"sibling index 0", ProtoFeature("prec-tag", 1, 0, {"td"}), "index 0"},
      {"sibling index past the maximum", ProtoFeature("foll-class", 1, rule::kMaxSibling + 1, {"x"}), "index 4"},
      {"index on a non-sibling kind", ProtoFeature("tag", 1, 1, {"td"}), "index 1"},
      {"tag without values", ProtoFeature("tag", 0, 0, {}), "no value"},
      {"sibling tag without values", ProtoFeature("prec-tag", 0, 2, {}), "no value"},
      {"anchor without values", ProtoFeature("out-left-text", 0, 0, {}), "no value"},
      {"in-text without values", ProtoFeature("in-right-text", 0, 0, {}), "no value"},
      // Regression: natively an anchor tests the node's own text at any
      // level, where the XPath tests the ancestor's (they disagreed).
      {"anchor above the node", ProtoFeature("out-left-text", 1, 0, {"Price:"}), "level 1"},
      {"in-text above the node", ProtoFeature("in-left-text", 2, 0, {"x"}), "level 2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    absl::StatusOr<rule::Feature> f = rule::FeatureFromProto(c.proto);
    ASSERT_FALSE(f.ok()) << c.proto.ShortDebugString();
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(f.status().message().find(c.message_has), std::string::npos) << f.status();
  }
  // Presence of an attribute needs no value.
  for (const char* kind : {"id", "class", "prec-id", "foll-class"}) {
    EXPECT_TRUE(rule::FeatureFromProto(ProtoFeature(kind, 1, kind[0] == 'p' || kind[0] == 'f' ? 1 : 0, {})).ok()) << kind;
  }
}

TEST(FeatureProtoTest, CreateRejectsRulesWithoutUsableFeatures) {
  v1::AttributeRule rule;
  rule.set_xpath("//td/text()");
  EXPECT_EQ(rule::FeatureSelector::Create(rule).status().code(), absl::StatusCode::kInvalidArgument);
  *rule.add_features() = ProtoFeature("tag", 1, 0, {"td"});
  EXPECT_TRUE(rule::FeatureSelector::Create(rule).ok());
  v1::AttributeRule bad_index = rule;
  *bad_index.add_features() = ProtoFeature("tag", 1, 5, {"td"});
  EXPECT_EQ(rule::FeatureSelector::Create(bad_index).status().code(), absl::StatusCode::kInvalidArgument);
  // Regression: a text node has no tag, so natively a level-0 tag feature
  // selected nothing where the rendered XPath (text()) ignored it.
  *rule.add_features() = ProtoFeature("tag", 0, 0, {"span"});
  EXPECT_TRUE(rule::FeatureSelector::Create(rule).ok());  // elements
  rule.set_text_nodes(true);
  absl::StatusOr<rule::FeatureSelector> text = rule::FeatureSelector::Create(rule);
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(text.status().message().find("text nodes"), std::string::npos) << text.status();
}

}  // namespace
}  // namespace vertex::learn
