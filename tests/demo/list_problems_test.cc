#include "common/demo/list_problems.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/rule/url.h"
#include "gtest/gtest.h"

namespace vertex::demo {
namespace {

using lists::ListKind;
using lists::ListProblem;

std::vector<GeneratedListProblem> Generate(const ListProblemsOptions& options = {}) {
  absl::StatusOr<std::vector<GeneratedListProblem>> set = GenerateListProblems(options);
  EXPECT_TRUE(set.ok()) << set.status();
  return set.ok() ? *std::move(set) : std::vector<GeneratedListProblem>{};
}

// The default set, generated once for the tests that only read it.
const std::vector<GeneratedListProblem>& DefaultSet() {
  static const auto* const kSet = new std::vector<GeneratedListProblem>(Generate());
  return *kSet;
}

html::Page Parse(const ListProblem& p) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(p.html, p.url);
  EXPECT_TRUE(page.ok()) << p.id << ": " << page.status();
  return std::move(page).value();
}

// The element `xpath` selects on `page`; null (and a failure) unless it
// selects exactly one element.
html::Node Resolve(const html::Page& page, const std::string& xpath, const std::string& id) {
  absl::StatusOr<html::XPath> compiled = html::XPath::Compile(xpath);
  EXPECT_TRUE(compiled.ok()) << id << ": " << xpath;
  if (!compiled.ok()) return html::Node();
  absl::StatusOr<std::vector<html::Node>> nodes = compiled->Select(page);
  EXPECT_TRUE(nodes.ok()) << id << ": " << xpath;
  if (!nodes.ok() || nodes->size() != 1 || !(*nodes)[0].is_element()) {
    ADD_FAILURE() << id << ": " << xpath << " selects " << (nodes.ok() ? nodes->size() : 0)
                  << " nodes";
    return html::Node();
  }
  return (*nodes)[0];
}

bool IsBelow(html::Node node, html::Node ancestor) {
  for (html::Node n = node.parent(); n; n = n.parent()) {
    if (n == ancestor) return true;
  }
  return false;
}

// The paper's decoding (§2.2), written here apart from the generator: list,
// the text of every outermost positive; hot-list, per outermost positive,
// (its text, href) for every positive anchor inside it, or itself when it
// is an anchor.
std::vector<lists::ListRow> DecodeForTest(const ListProblem& p, const html::Page& page,
                                          const std::vector<html::Node>& positives) {
  std::vector<lists::ListRow> rows;
  for (html::Node n : positives) {
    bool nested = false;
    for (html::Node other : positives) nested = nested || IsBelow(n, other);
    if (nested) continue;
    if (p.kind == ListKind::kList) {
      rows.push_back({n.Text(), ""});
      continue;
    }
    std::vector<html::Node> anchors;
    for (html::Node a : positives) {
      if (IsBelow(a, n)) anchors.push_back(a);
    }
    if (anchors.empty()) anchors.push_back(n);
    for (html::Node a : anchors) {
      EXPECT_EQ(a.tag(), "a") << p.id;
      absl::StatusOr<std::string> url = rule::ResolveUrl(page.url(), a.attribute("href"));
      EXPECT_TRUE(url.ok()) << p.id << ": " << a.attribute("href");
      rows.push_back({n.Text(), url.ok() ? *url : ""});
    }
  }
  return rows;
}

size_t ElementCount(const html::Page& page) {
  size_t n = 0;
  for (html::Node x = page.root(); x; x = x.NextInDocument(page.root())) n += x.is_element();
  return n;
}

TEST(ListProblemsTest, SameOptionsGiveTheSameProblems) {
  ListProblemsOptions o;
  o.pages = 20;
  o.seed = 7;
  const std::vector<GeneratedListProblem> a = Generate(o), b = Generate(o);
  ASSERT_EQ(a.size(), 20u);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].problem.id, b[i].problem.id);
    EXPECT_EQ(a[i].problem.url, b[i].problem.url);
    EXPECT_EQ(a[i].problem.html, b[i].problem.html);
    EXPECT_EQ(a[i].problem.positive_xpaths, b[i].problem.positive_xpaths);
    EXPECT_EQ(a[i].problem.variant, b[i].problem.variant);
    EXPECT_EQ(a[i].distractors, b[i].distractors);
  }
  o.seed = 8;
  const std::vector<GeneratedListProblem> c = Generate(o);
  size_t same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i].problem.html == c[i].problem.html;
  EXPECT_EQ(same, 0u);
}

TEST(ListProblemsTest, DefaultSetCoversDomainsVariantsAndDistractors) {
  const auto& set = DefaultSet();
  ASSERT_EQ(set.size(), 96u);
  std::map<std::string, int> per_domain;
  std::map<std::string, std::set<std::string>> variants_per_domain;
  std::map<std::string, int> variants, distractors;
  std::set<std::string> ids;
  int out_of_class = 0;
  for (const GeneratedListProblem& g : set) {
    const ListProblem& p = g.problem;
    EXPECT_TRUE(ids.insert(p.id).second) << p.id;
    EXPECT_EQ(p.id.substr(0, p.domain.size() + 1), p.domain + "-");
    ++per_domain[p.domain];
    variants_per_domain[p.domain].insert(p.variant);
    ++variants[p.variant];
    for (const std::string& d : g.distractors) ++distractors[d];
    out_of_class += p.out_of_class;
    const bool control = std::count(ListProblemControls().begin(), ListProblemControls().end(),
                                    p.variant) > 0;
    EXPECT_EQ(p.out_of_class, control) << p.id << " " << p.variant;
    const bool hot = p.variant == "li-anchors" || p.variant == "anchor-only" || p.variant == "tr-link";
    EXPECT_EQ(p.kind, hot ? ListKind::kHotList : ListKind::kList) << p.id << " " << p.variant;
    EXPECT_FALSE(g.distractors.empty()) << p.id;
  }
  for (const std::string& d : ListProblemDomains()) {
    EXPECT_EQ(per_domain[d], 24) << d;
    for (const std::string& v : ListProblemVariants()) {
      EXPECT_EQ(variants_per_domain[d].count(v), 1u) << d << " has no " << v;
    }
  }
  for (const std::string& v : ListProblemControls()) EXPECT_GE(variants[v], 2) << v;
  EXPECT_EQ(out_of_class, 6);  // 96 / 16
  for (const std::string& d : ListProblemDistractors()) EXPECT_GE(distractors[d], 5) << d;
}

TEST(ListProblemsTest, DistractorsAreOnThePage) {
  for (const GeneratedListProblem& g : DefaultSet()) {
    const html::Page page = Parse(g.problem);
    const auto has = [&g](const std::string& d) {
      return std::count(g.distractors.begin(), g.distractors.end(), d) > 0;
    };
    const auto count = [&page](const std::string& xpath) {
      absl::StatusOr<html::XPath> x = html::XPath::Compile(xpath);
      absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
      return nodes.ok() ? nodes->size() : 0;
    };
    EXPECT_EQ(has("select"), count("//select/option") > 0) << g.problem.id;
    EXPECT_EQ(has("layout-table"), count("/html/body/table") == 1) << g.problem.id;
    EXPECT_EQ(has("breadcrumbs"), g.problem.html.find("\xE2\x80\xBA") != std::string::npos)
        << g.problem.id;
    if (has("nav-menu")) {
      EXPECT_GE(count("//ul/li/a[. = 'Home']"), 1u) << g.problem.id;
    }
    if (has("footer-columns")) {
      EXPECT_GE(count("//h4/following-sibling::ul/li/a"), 6u) << g.problem.id;
    }
  }
}

TEST(ListProblemsTest, PageSizesSpanTheRangeAndMatchTheParse) {
  size_t smallest = SIZE_MAX, largest = 0, small_pages = 0, large_pages = 0;
  for (const GeneratedListProblem& g : DefaultSet()) {
    const html::Page page = Parse(g.problem);
    EXPECT_EQ(ElementCount(page), g.elements) << g.problem.id;
    smallest = std::min(smallest, g.elements);
    largest = std::max(largest, g.elements);
    small_pages += g.elements < 150;
    large_pages += g.elements > 1500;
  }
  EXPECT_GE(smallest, 40u);
  EXPECT_LE(smallest, 80u);
  EXPECT_GE(largest, 2000u);
  EXPECT_LE(largest, 3300u);
  EXPECT_GE(small_pages, 5u);
  EXPECT_GE(large_pages, 5u);
}

TEST(ListProblemsTest, OnePageHasALongParagraphRun) {
  int long_runs = 0;
  for (const GeneratedListProblem& g : DefaultSet()) {
    const ListProblem& p = g.problem;
    if (p.variant != "p-run" || p.positive_xpaths.size() < 300) continue;
    ++long_runs;
    const html::Page page = Parse(p);
    const html::Node first = Resolve(page, p.positive_xpaths.front(), p.id);
    const html::Node last = Resolve(page, p.positive_xpaths.back(), p.id);
    EXPECT_EQ(first.tag(), "p");
    EXPECT_TRUE(first.parent() == last.parent()) << p.id;
  }
  EXPECT_EQ(long_runs, 1);
}

TEST(ListProblemsTest, PositiveXPathsSelectOneElementEachAndRowsAreTheirDecoding) {
  for (const GeneratedListProblem& g : DefaultSet()) {
    const ListProblem& p = g.problem;
    SCOPED_TRACE(p.id + " " + p.variant);
    const html::Page page = Parse(p);
    ASSERT_FALSE(p.positive_xpaths.empty());
    ASSERT_GE(p.rows.size(), 2u);
    std::vector<html::Node> positives;
    for (const std::string& xpath : p.positive_xpaths) {
      EXPECT_EQ(xpath.substr(0, 16), "/html[1]/body[1]");
      const html::Node n = Resolve(page, xpath, p.id);
      ASSERT_TRUE(n);
      for (html::Node seen : positives) EXPECT_FALSE(seen == n) << xpath << " twice";
      positives.push_back(n);
    }
    for (const lists::ListRow& row : p.rows) EXPECT_FALSE(row.text.empty());
    if (p.variant == "br-separated") {
      // The items are the text between <br>s of the one positive.
      ASSERT_EQ(positives.size(), 1u);
      std::vector<std::string> items;
      for (html::Node c = positives[0].first_child(); c; c = c.next_sibling()) {
        if (c.is_text()) items.push_back(c.Text());
      }
      ASSERT_EQ(items.size(), p.rows.size());
      for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(items[i], p.rows[i].text);
      continue;
    }
    if (p.variant == "name-affiliation") {
      // Each row is the name before the comma in its cell.
      ASSERT_EQ(positives.size(), p.rows.size());
      for (size_t i = 0; i < positives.size(); ++i) {
        EXPECT_EQ(positives[i].tag(), "td");
        EXPECT_EQ(positives[i].Text().substr(0, p.rows[i].text.size() + 2), p.rows[i].text + ", ");
      }
      continue;
    }
    const std::vector<lists::ListRow> decoded = DecodeForTest(p, page, positives);
    ASSERT_EQ(decoded.size(), p.rows.size());
    for (size_t i = 0; i < decoded.size(); ++i) {
      EXPECT_EQ(decoded[i].text, p.rows[i].text) << i;
      EXPECT_EQ(decoded[i].url, p.rows[i].url) << i;
    }
  }
}

TEST(ListProblemsTest, PositivesHaveTheTagsTheirVariantNames) {
  const std::map<std::string, std::set<std::string>> kTags = {
      {"td-grid", {"td"}},      {"tr-rows", {"tr"}},         {"ul-li", {"li"}},
      {"ol-li", {"li"}},        {"dl-dt", {"dt"}},           {"p-run", {"p"}},
      {"div-item", {"div"}},    {"table-header", {"tr"}},    {"li-anchors", {"li", "a"}},
      {"anchor-only", {"a"}},   {"tr-link", {"tr", "a"}},    {"br-separated", {"p", "div"}},
      {"name-affiliation", {"td"}}};
  for (const GeneratedListProblem& g : DefaultSet()) {
    const ListProblem& p = g.problem;
    ASSERT_EQ(kTags.count(p.variant), 1u) << p.variant;
    std::set<std::string> tags;
    for (const std::string& xpath : p.positive_xpaths) {
      tags.insert(xpath.substr(xpath.rfind('/') + 1, xpath.rfind('[') - xpath.rfind('/') - 1));
    }
    for (const std::string& tag : tags) {
      EXPECT_EQ(kTags.at(p.variant).count(tag), 1u) << p.id << " " << p.variant << " " << tag;
    }
    if (p.variant == "table-header") {
      // The header row is not an item.
      const html::Page page = Parse(p);
      for (const std::string& xpath : p.positive_xpaths) {
        EXPECT_FALSE(Resolve(page, xpath, p.id).first_element_child().tag() == "th") << p.id;
      }
    }
  }
}

// Lower-cased words of `text` (letters only).
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text + " ") {
    if (absl::ascii_isalpha(static_cast<unsigned char>(c))) {
      word += absl::ascii_tolower(static_cast<unsigned char>(c));
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  return words;
}

std::set<std::string> VocabularyWords(const std::string& domain) {
  absl::StatusOr<std::vector<std::string>> words = ListProblemVocabulary(domain);
  EXPECT_TRUE(words.ok()) << words.status();
  std::set<std::string> out;
  for (const std::string& entry : *words) {
    for (const std::string& w : Words(entry)) out.insert(w);
  }
  return out;
}

TEST(ListProblemsTest, DomainVocabulariesAreDisjoint) {
  std::set<std::string> shared;
  for (const std::string& entry : ListProblemSharedWords()) {
    for (const std::string& w : Words(entry)) shared.insert(w);
  }
  const std::vector<std::string>& domains = ListProblemDomains();
  ASSERT_EQ(domains.size(), 4u);
  for (size_t i = 0; i < domains.size(); ++i) {
    const std::set<std::string> a = VocabularyWords(domains[i]);
    EXPECT_GE(a.size(), 60u) << domains[i];
    EXPECT_LE(a.size(), 150u) << domains[i];
    for (const std::string& w : a) EXPECT_EQ(shared.count(w), 0u) << domains[i] << ": " << w;
    for (size_t j = i + 1; j < domains.size(); ++j) {
      for (const std::string& w : VocabularyWords(domains[j])) {
        EXPECT_EQ(a.count(w), 0u) << domains[i] << " and " << domains[j] << ": " << w;
      }
    }
  }
  EXPECT_EQ(ListProblemVocabulary("cars").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ListProblemsTest, PagesUseNoWordOfAnotherDomain) {
  std::map<std::string, std::string> owner;  // word -> domain
  for (const std::string& d : ListProblemDomains()) {
    for (const std::string& w : VocabularyWords(d)) owner[w] = d;
  }
  for (const GeneratedListProblem& g : DefaultSet()) {
    const html::Page page = Parse(g.problem);
    size_t own = 0;
    for (const std::string& w : Words(page.root().RawText())) {
      const auto it = owner.find(w);
      if (it == owner.end()) continue;
      EXPECT_EQ(it->second, g.problem.domain) << g.problem.id << ": " << w;
      ++own;
    }
    EXPECT_GT(own, 10u) << g.problem.id;
  }
}

// The classes of `n` (tokens of its class attribute).
std::vector<std::string> Classes(html::Node n) {
  return absl::StrSplit(n.attribute("class"), ' ', absl::SkipEmpty());
}

TEST(ListProblemsTest, NoClassMarksTheTargetAcrossPages) {
  // Pages where a class is on a positive or its parent, and pages where it
  // is on some other element.
  std::map<std::string, std::set<std::string>> on_target, elsewhere;
  for (const GeneratedListProblem& g : DefaultSet()) {
    const html::Page page = Parse(g.problem);
    std::vector<html::Node> marked;
    for (const std::string& xpath : g.problem.positive_xpaths) {
      const html::Node n = Resolve(page, xpath, g.problem.id);
      marked.push_back(n);
      marked.push_back(n.parent());
    }
    for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
      if (!n.is_element()) continue;
      const bool target = std::find(marked.begin(), marked.end(), n) != marked.end();
      for (const std::string& c : Classes(n)) {
        (target ? on_target : elsewhere)[c].insert(g.problem.id);
      }
    }
  }
  ASSERT_FALSE(on_target.empty());
  for (const auto& [c, pages] : on_target) {
    EXPECT_LE(pages.size(), DefaultSet().size() / 4) << c;
    EXPECT_GE(elsewhere[c].size(), pages.size()) << c;
  }
}

TEST(ListProblemsTest, DomainSubsetsAndOptions) {
  ListProblemsOptions o;
  o.pages = 22;
  o.domains = {"news", "birds"};
  o.out_of_class_fraction = 0;
  o.long_p_run = 0;
  const std::vector<GeneratedListProblem> set = Generate(o);
  ASSERT_EQ(set.size(), 22u);
  std::map<std::string, std::set<std::string>> variants;
  for (const GeneratedListProblem& g : set) {
    EXPECT_FALSE(g.problem.out_of_class);
    EXPECT_LT(g.problem.positive_xpaths.size(), 300u);
    variants[g.problem.domain].insert(g.problem.variant);
  }
  EXPECT_EQ(set.front().problem.id, "news-000");
  EXPECT_EQ(set.back().problem.id, "birds-010");
  EXPECT_EQ(variants["news"].size(), ListProblemVariants().size());
  EXPECT_EQ(variants["birds"].size(), ListProblemVariants().size());
  EXPECT_EQ(ProblemsOf(set).size(), 22u);
}

TEST(ListProblemsTest, RejectsBadOptionsNamingThem) {
  const struct {
    void (*set)(ListProblemsOptions*);
    std::string message;
  } kCases[] = {
      {[](ListProblemsOptions* o) { o->pages = 0; }, "pages 0"},
      {[](ListProblemsOptions* o) { o->pages = 10001; }, "pages 10001"},
      {[](ListProblemsOptions* o) { o->domains = {"birds", "cars"}; }, "domain \"cars\""},
      {[](ListProblemsOptions* o) { o->domains = {"birds", "birds"}; }, "given twice"},
      {[](ListProblemsOptions* o) { o->min_elements = 10; }, "min_elements 10"},
      {[](ListProblemsOptions* o) { o->max_elements = 40; }, "max_elements 40"},
      {[](ListProblemsOptions* o) { o->long_p_run = 50; }, "long_p_run 50"},
      {[](ListProblemsOptions* o) { o->out_of_class_fraction = 0.75; }, "out_of_class_fraction"},
  };
  for (const auto& c : kCases) {
    ListProblemsOptions o;
    c.set(&o);
    absl::StatusOr<std::vector<GeneratedListProblem>> set = GenerateListProblems(o);
    ASSERT_FALSE(set.ok()) << c.message;
    EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(set.status().message().find(c.message), std::string::npos) << set.status();
  }
}

}  // namespace
}  // namespace vertex::demo
