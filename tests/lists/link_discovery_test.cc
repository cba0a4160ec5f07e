// Link discovery from hot-lists (common/lists/link_discovery.h) and labels
// from list truth (common/lists/truth_labels.h).
#include "common/lists/link_discovery.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/demo/list_problems.h"
#include "common/demo/site_generator.h"
#include "common/html/page.h"
#include "common/lists/list_finder.h"
#include "common/lists/truth_labels.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::lists {
namespace {

using ::testing::IsEmpty;

html::Page Parse(const std::string& html, const std::string& url) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, url);
  EXPECT_TRUE(page.ok()) << page.status();
  return *std::move(page);
}

std::vector<const html::Page*> Pointers(const std::vector<html::Page>& pages) {
  std::vector<const html::Page*> out;
  for (const html::Page& p : pages) out.push_back(&p);
  return out;
}

std::vector<std::string> Urls(const Discovery& d) {
  std::vector<std::string> out;
  for (const DiscoveredLink& l : d.links) out.push_back(l.url);
  return out;
}

TEST(NormalizeUrlTest, Table) {
  const struct {
    const char* in;
    const char* want;
  } kCases[] = {
      {"http://Shop.Test/p/1.html#reviews", "http://shop.test/p/1.html"},
      {"HTTP://shop.test:80/p?a=1", "http://shop.test/p?a=1"},
      {"https://shop.test:443", "https://shop.test/"},
      {"https://shop.test:8443/x", "https://shop.test:8443/x"},
      {"http://shop.test?q", "http://shop.test/?q"},
      {"http://u@Shop.test/x", "http://u@shop.test/x"},
      {"ftp://shop.test/x", ""},
      {"mailto:a@shop.test", ""},
      {"/relative/path", ""},
      {"http:///nohost", ""},
      {"javascript:void(0)", ""},
  };
  for (const auto& c : kCases) EXPECT_EQ(NormalizeUrl(c.in), c.want) << c.in;
  EXPECT_EQ(UrlHost("http://u@Shop.test:8080/x"), "shop.test:8080");
  EXPECT_EQ(UrlHost("file:///x"), "");
  EXPECT_EQ(UrlPath("http://a.test/c/x?page=2#f"), "/c/x");
  EXPECT_EQ(UrlPath("http://a.test?x"), "/");
}

// A category-like page: a menu (the same links on every page), `n` item
// links that differ per page (`first` numbers them), pagination and an
// optional item pointing elsewhere.
std::string SitePage(int first, int n, const std::string& extra_item = "") {
  std::string html = "<html><body><div class=\"head\"><ul class=\"menu\">";
  for (const char* m : {"/c/tools", "/c/garden", "/c/kitchen", "/c/toys", "/help"}) {
    absl::StrAppend(&html, "<li><a href=\"", m, "\">", m + 1, " section</a></li>");
  }
  html += "</ul></div><div class=\"main\"><h1>Things</h1><ul class=\"items\">";
  for (int i = first; i < first + n; ++i) {
    absl::StrAppend(&html, "<li><a href=\"/p/item-", i, ".html#top\">Item number ", i,
                    " with a longer name</a> <span>$", i, ".99</span></li>");
  }
  html += extra_item;
  html += "</ul><div class=\"pages\"><a href=\"?page=1\">1</a> <a href=\"?page=2\">2</a></div></div>";
  return html + "<p>Footer text</p></body></html>";
}

// A model that labels both the menu and the items positive, so that only
// the cross-page rule can tell them apart.
v1::ListModel MenuAndItemsModel() {
  std::vector<html::Page> pages;
  for (int k = 0; k < 3; ++k) pages.push_back(Parse(SitePage(100 * k, 6), "http://shop.test/c/x?page=1"));
  std::vector<LabelledPage> labelled;
  for (const html::Page& page : pages) {
    LabelledPage l{&page, {}, {}, page.url()};
    for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
      if (n.tag() == "li" || (n.tag() == "a" && n.parent().tag() == "li")) l.positives.push_back(n);
    }
    labelled.push_back(l);
  }
  TrainOptions o;
  o.min_leaf = 1;
  o.pruning_alpha = 0;
  absl::StatusOr<v1::ListModel> model = TrainListModel(labelled, o);
  EXPECT_TRUE(model.ok()) << model.status();
  return *model;
}

TEST(DiscoverLinksTest, CrossPageRuleDropsRepeatedMenuAndKeepsItems) {
  const v1::ListModel model = MenuAndItemsModel();
  std::vector<html::Page> pages;
  for (int k = 0; k < 3; ++k) {
    pages.push_back(Parse(SitePage(1000 + 10 * k, 5 + k), absl::StrCat("http://shop.test/c/cat-", k, "?page=1")));
  }
  absl::StatusOr<Discovery> d = DiscoverLinks(model, Pointers(pages));
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<std::string> want;
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 5 + k; ++i) want.push_back(absl::StrCat("http://shop.test/p/item-", 1000 + 10 * k + i, ".html"));
  }
  EXPECT_EQ(Urls(*d), want);
  EXPECT_EQ(d->links[0].from_page, "http://shop.test/c/cat-0?page=1");
  EXPECT_EQ(d->links[0].text, "Item number 1000 with a longer name");
  std::set<std::string> verdicts;
  for (const StructureReport& s : d->structures) verdicts.insert(s.structure + " " + s.verdict);
  EXPECT_TRUE(verdicts.contains("/html/body/div.head/ul.menu/li navigation")) << ::testing::PrintToString(verdicts);
  EXPECT_TRUE(verdicts.contains("/html/body/div.main/ul.items/li items")) << ::testing::PrintToString(verdicts);
}

TEST(DiscoverLinksTest, ARareStructureIsLeftOutAndPagesWithoutHotListsDoNotDilute) {
  const v1::ListModel model = MenuAndItemsModel();
  const std::string promo =
      "</ul><ul class=\"promo\"><li><a href=\"/promo/a.html\">Promotion number one with a longer name</a></li>"
      "<li><a href=\"/promo/b.html\">Promotion number two with a longer name</a></li>"
      "<li><a href=\"/promo/c.html\">Promotion number three with a longer name</a></li>";
  std::vector<html::Page> pages;
  for (int k = 0; k < 4; ++k) {
    pages.push_back(Parse(SitePage(1000 + 10 * k, 5, k == 0 ? promo : ""), absl::StrCat("http://shop.test/c/", k)));
  }
  // Pages of another template, with no hot-list: they do not count.
  for (int k = 0; k < 6; ++k) {
    pages.push_back(Parse("<html><body><p>A product page with prose only.</p></body></html>",
                          absl::StrCat("http://shop.test/p/", k)));
  }
  DiscoveryOptions o;
  o.max_item_structures = 0;  // every content structure
  absl::StatusOr<Discovery> d = DiscoverLinks(model, Pointers(pages), o);
  ASSERT_TRUE(d.ok()) << d.status();
  std::map<std::string, std::string> verdict;
  for (const StructureReport& s : d->structures) verdict[s.structure] = s.verdict;
  EXPECT_EQ(verdict["/html/body/div.main/ul.promo/li"], "rare") << ::testing::PrintToString(verdict);
  EXPECT_EQ(verdict["/html/body/div.main/ul.items/li"], "items") << ::testing::PrintToString(verdict);
  EXPECT_EQ(d->links.size(), 20u);
  for (const DiscoveredLink& l : d->links) EXPECT_TRUE(l.url.starts_with("http://shop.test/p/item-")) << l.url;
  // Without the rule, the promotion is content too.
  o.min_page_fraction = 0;
  d = DiscoverLinks(model, Pointers(pages), o);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->links.size(), 23u);
}

TEST(LinkDiscovererTest, APageAtATimeEqualsDiscoverLinks) {
  const v1::ListModel model = MenuAndItemsModel();
  std::vector<html::Page> pages;
  for (int k = 0; k < 4; ++k) pages.push_back(Parse(SitePage(10 * k, 4), absl::StrCat("http://shop.test/c/", k)));
  const Discovery whole = DiscoverLinks(model, Pointers(pages)).value();
  LinkDiscoverer discoverer(model);
  for (int k = 0; k < 4; ++k) {
    // Each page is parsed, added and destroyed.
    const html::Page page = Parse(SitePage(10 * k, 4), absl::StrCat("http://shop.test/c/", k));
    ASSERT_TRUE(discoverer.AddPage(page).ok());
  }
  EXPECT_EQ(discoverer.pages(), 4u);
  const Discovery streamed = discoverer.Finish();
  EXPECT_EQ(Urls(streamed), Urls(whole));
  ASSERT_EQ(streamed.structures.size(), whole.structures.size());
  for (size_t i = 0; i < whole.structures.size(); ++i) {
    EXPECT_EQ(streamed.structures[i].verdict, whole.structures[i].verdict);
    EXPECT_EQ(streamed.structures[i].repeated, whole.structures[i].repeated);
  }
  EXPECT_EQ(Urls(discoverer.Finish()), Urls(whole));  // Finish may be called again
}

TEST(DiscoverLinksTest, WithoutTheCrossPageRuleTheMenuCompetesOnScore) {
  const v1::ListModel model = MenuAndItemsModel();
  std::vector<html::Page> pages;
  for (int k = 0; k < 3; ++k) {
    pages.push_back(Parse(SitePage(1000 + 10 * k, 5 + k), absl::StrCat("http://shop.test/c/cat-", k, "?page=1")));
  }
  DiscoveryOptions off;
  off.min_pages_for_cross_page = 100;  // never applies
  off.max_item_structures = 0;         // keep every structure
  absl::StatusOr<Discovery> d = DiscoverLinks(model, Pointers(pages), off);
  ASSERT_TRUE(d.ok()) << d.status();
  const std::vector<std::string> urls = Urls(*d);
  EXPECT_TRUE(std::find(urls.begin(), urls.end(), "http://shop.test/c/tools") != urls.end());
}

TEST(DiscoverLinksTest, HostKnownSelfAndPaginationFilters) {
  const v1::ListModel model = MenuAndItemsModel();
  const std::string elsewhere =
      "<li><a href=\"http://other.test/p/x.html\">Elsewhere number 5 with a longer name</a> <span>$1</span></li>"
      "<li><a href=\"/c/cat-0?page=2\">The next page number 2 with a longer name</a> <span>$2</span></li>";
  std::vector<html::Page> pages;
  pages.push_back(Parse(SitePage(1, 4, elsewhere), "http://Shop.test:80/c/cat-0?page=1"));
  DiscoveryOptions o;
  o.known = {"http://shop.test/p/item-2.html"};
  absl::StatusOr<Discovery> d = DiscoverLinks(model, Pointers(pages), o);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(Urls(*d), (std::vector<std::string>{"http://shop.test/p/item-1.html", "http://shop.test/p/item-3.html",
                                                "http://shop.test/p/item-4.html"}));
  o.other_hosts = true;
  o.drop_same_path = false;
  d = DiscoverLinks(model, Pointers(pages), o);
  ASSERT_TRUE(d.ok()) << d.status();
  const std::vector<std::string> urls = Urls(*d);
  EXPECT_TRUE(std::find(urls.begin(), urls.end(), "http://other.test/p/x.html") != urls.end());
  EXPECT_TRUE(std::find(urls.begin(), urls.end(), "http://shop.test/c/cat-0?page=2") != urls.end());
}

TEST(DiscoverLinksTest, ABaseElementResolvesTheLinks) {
  const v1::ListModel model = MenuAndItemsModel();
  std::string html = SitePage(1, 3);
  html.replace(html.find("<body>"), 6, "<head><base href=\"http://shop.test/archive/\"></head><body>");
  for (size_t at; (at = html.find("href=\"/p/")) != std::string::npos;) html.replace(at, 9, "href=\"p/");
  const html::Page page = Parse(html, "http://shop.test/c/a");
  DiscoveryOptions all;
  all.max_item_structures = 0;  // one page: the menu outranks 3 items
  absl::StatusOr<Discovery> d = DiscoverLinks(model, {&page}, all);
  ASSERT_TRUE(d.ok()) << d.status();
  const std::vector<std::string> urls = Urls(*d);
  EXPECT_TRUE(std::find(urls.begin(), urls.end(), "http://shop.test/archive/p/item-1.html") != urls.end())
      << ::testing::PrintToString(urls);
}

TEST(DiscoverLinksTest, Errors) {
  const v1::ListModel model = MenuAndItemsModel();
  absl::StatusOr<Discovery> d = DiscoverLinks(model, {nullptr});
  EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
  v1::ListModel broken = model;
  broken.mutable_nodes(0)->set_if_true(99999);
  broken.mutable_nodes(0)->set_test(v1::ListModelNode::NUMERIC_LE);
  const html::Page page = Parse(SitePage(1, 3), "http://shop.test/c/a");
  d = DiscoverLinks(broken, {&page});
  EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(d.status().message()), ::testing::HasSubstr("http://shop.test/c/a"));
  d = DiscoverLinks(model, {});
  ASSERT_TRUE(d.ok());
  EXPECT_THAT(d->links, IsEmpty());
}

// ---------------------------------------------------------------------------
// The generated shop: a model trained on 3 labelled category pages.
// ---------------------------------------------------------------------------

struct Shop {
  std::vector<demo::GeneratedPage> category;
  std::vector<html::Page> pages;
};

Shop GenerateShop(uint64_t seed) {
  demo::SiteOptions o;
  o.seed = seed;
  o.product_pages = 10;
  o.category_pages = 15;
  o.review_pages = 0;
  o.store_pages = 0;
  Shop shop;
  for (demo::GeneratedPage& p : demo::GenerateSite(o)) {
    if (p.template_name == "category") shop.category.push_back(std::move(p));
  }
  for (const demo::GeneratedPage& p : shop.category) shop.pages.push_back(Parse(p.html, p.url));
  return shop;
}

TEST(TruthLabelsTest, ShopTilesAndTheirAnchors) {
  const Shop shop = GenerateShop(1);
  ASSERT_FALSE(shop.category.empty());
  absl::StatusOr<LabelledPage> l = LabelledPageFromTruth(shop.category[0].list_truth, shop.pages[0]);
  ASSERT_TRUE(l.ok()) << l.status();
  const size_t records = shop.category[0].list_truth.areas[0].records.size();
  size_t items = 0, anchors = 0;
  for (const html::Node& n : l->positives) {
    if (n.tag() == "li") {
      ++items;
      EXPECT_EQ(n.attribute("class"), "tile");
    } else {
      ++anchors;
      EXPECT_EQ(n.tag(), "a");
    }
  }
  EXPECT_EQ(items, records);
  EXPECT_EQ(anchors, 2 * records);  // the image link and the name link
}

TEST(TruthLabelsTest, RecordWithoutAnchorIsAnError) {
  const html::Page page = Parse(SitePage(1, 3), "http://shop.test/c/a");
  eval::ListTruthPage truth;
  truth.file = "a.htm";
  truth.areas.resize(1);
  truth.areas[0].records.push_back({"http://shop.test/p/item-1.html", {}});
  truth.areas[0].records.push_back({"http://shop.test/p/missing.html", {}});
  absl::StatusOr<LabelledPage> l = LabelledPageFromTruth(truth, page);
  EXPECT_EQ(l.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(l.status().message()), ::testing::HasSubstr("missing.html"));
  truth.areas[0].records.pop_back();
  l = LabelledPageFromTruth(truth, page);
  ASSERT_TRUE(l.ok()) << l.status();
  ASSERT_EQ(l->positives.size(), 1u);  // one record: the anchor is its own item
  EXPECT_EQ(l->positives[0].tag(), "a");
}

// P/R of the discovered links against the tile links of held-out pages.
void ExpectShopLinks(uint64_t seed) {
  const Shop shop = GenerateShop(seed);
  ASSERT_GE(shop.category.size(), 8u);
  std::vector<LabelledPage> train;
  for (size_t i = 0; i < 3; ++i) {
    absl::StatusOr<LabelledPage> l = LabelledPageFromTruth(shop.category[i].list_truth, shop.pages[i]);
    ASSERT_TRUE(l.ok()) << l.status();
    train.push_back(*l);
  }
  absl::StatusOr<v1::ListModel> model = TrainListModel(train);
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<const html::Page*> held_out;
  std::set<std::string> truth;
  for (size_t i = 3; i < shop.pages.size(); ++i) {
    held_out.push_back(&shop.pages[i]);
    for (const eval::TruthRecord& r : shop.category[i].list_truth.areas[0].records) truth.insert(NormalizeUrl(r.link));
  }
  absl::StatusOr<Discovery> d = DiscoverLinks(*model, held_out);
  ASSERT_TRUE(d.ok()) << d.status();
  size_t correct = 0;
  for (const DiscoveredLink& l : d->links) {
    if (truth.contains(l.url)) {
      ++correct;
    } else {
      ADD_FAILURE() << "not a product link: " << l.url << " (" << l.text << ") from " << l.from_page;
    }
  }
  const double recall = static_cast<double>(correct) / static_cast<double>(truth.size());
  std::cout << "seed " << seed << ": " << d->links.size() << " links, " << correct << " correct, " << truth.size()
            << " true; P=" << (d->links.empty() ? 1.0 : static_cast<double>(correct) / d->links.size())
            << " R=" << recall << "\n";
  for (const StructureReport& s : d->structures) {
    std::cout << "  " << s.structure << ": " << s.pages << " pages, " << s.link_occurrences << " links, "
              << s.repeated << " repeated, " << s.verdict << "\n";
  }
  EXPECT_GE(recall, 0.95);
}

// A page-independent model, learnt from the generated list problems (four
// other domains, with menus, footers and breadcrumbs as distractors), on the
// shop's category pages: the cross-page rule has navigation to remove.
TEST(DiscoverLinksShopTest, PageIndependentModelOnTheShop) {
  demo::ListProblemsOptions po;
  po.pages = 48;
  po.seed = 3;
  const std::vector<ListProblem> problems = demo::ProblemsOf(demo::GenerateListProblems(po).value());
  std::vector<html::Page> pages;
  std::vector<const ListProblem*> used;
  for (const ListProblem& p : problems) {
    if (p.out_of_class) continue;
    pages.push_back(Parse(p.html, p.url));
    used.push_back(&p);
  }
  std::vector<LabelledPage> train;
  for (size_t i = 0; i < pages.size(); ++i) {
    absl::StatusOr<std::vector<html::Node>> nodes = NodesOfXPaths(pages[i], used[i]->positive_xpaths);
    ASSERT_TRUE(nodes.ok()) << nodes.status();
    train.push_back({&pages[i], *nodes, {}, used[i]->id});
  }
  absl::StatusOr<v1::ListModel> model = TrainListModel(train);
  ASSERT_TRUE(model.ok()) << model.status();
  for (uint64_t seed : {1, 7}) {
    const Shop shop = GenerateShop(seed);
    std::set<std::string> truth;
    for (const demo::GeneratedPage& p : shop.category) {
      for (const eval::TruthRecord& r : p.list_truth.areas[0].records) truth.insert(NormalizeUrl(r.link));
    }
    for (const bool cross_page : {false, true}) {
      DiscoveryOptions o;
      if (!cross_page) o.min_pages_for_cross_page = 1000;
      absl::StatusOr<Discovery> d = DiscoverLinks(*model, Pointers(shop.pages), o);
      ASSERT_TRUE(d.ok()) << d.status();
      size_t correct = 0;
      for (const DiscoveredLink& l : d->links) {
        correct += truth.contains(l.url) ? 1 : 0;
        EXPECT_FALSE(l.text.empty()) << l.url;  // image links give their alt
      }
      EXPECT_GE(correct, truth.size() * 9 / 10) << "recall, seed " << seed;
      EXPECT_GE(correct, d->links.size() * 9 / 10) << "precision, seed " << seed;
      std::cout << "page-independent, seed " << seed << (cross_page ? ", cross-page rule" : ", model ranking only")
                << ": " << d->links.size() << " links, " << correct << " correct of " << truth.size() << "\n";
      for (const StructureReport& s : d->structures) {
        std::cout << "  " << s.structure << ": " << s.pages << " pages, " << s.link_occurrences << " links, "
                  << s.repeated << " repeated, " << s.expected_items << " expected items, " << s.verdict << "\n";
      }
    }
  }
}

// The shop's chrome as positives too: the menu (and its dropdowns), the
// footer's link columns, the breadcrumb and the pagination items.
bool InChrome(html::Node n) {
  for (html::Node a = n.parent(); a; a = a.parent()) {
    const std::string c = a.attribute("class");
    if (c == "menu" || c == "footer-columns" || c == "breadcrumb" || c == "pagination") return true;
  }
  return false;
}

// A model that finds the chrome's hot-lists as well as the tiles: the
// cross-page rule and the ranking must leave out every chrome link.
TEST(DiscoverLinksShopTest, ChromeTheModelAlsoFindsIsLeftOut) {
  for (uint64_t seed : {1, 7}) {
    const Shop shop = GenerateShop(seed);
    std::vector<LabelledPage> train;
    for (size_t i = 0; i < 3; ++i) {
      LabelledPage l = LabelledPageFromTruth(shop.category[i].list_truth, shop.pages[i]).value();
      const html::Node root = shop.pages[i].root();
      for (html::Node n = root; n; n = n.NextInDocument(root)) {
        if ((n.tag() == "li" || n.tag() == "a") && InChrome(n)) l.positives.push_back(n);
      }
      train.push_back(l);
    }
    absl::StatusOr<v1::ListModel> model = TrainListModel(train);
    ASSERT_TRUE(model.ok()) << model.status();
    std::vector<const html::Page*> held_out;
    std::set<std::string> truth;
    for (size_t i = 3; i < shop.pages.size(); ++i) {
      held_out.push_back(&shop.pages[i]);
      for (const eval::TruthRecord& r : shop.category[i].list_truth.areas[0].records) truth.insert(NormalizeUrl(r.link));
    }
    absl::StatusOr<Discovery> d = DiscoverLinks(*model, held_out);
    ASSERT_TRUE(d.ok()) << d.status();
    size_t correct = 0;
    for (const DiscoveredLink& l : d->links) {
      EXPECT_TRUE(truth.contains(l.url)) << "seed " << seed << ": not a product link: " << l.url;
      correct += truth.contains(l.url) ? 1 : 0;
    }
    EXPECT_GE(correct, truth.size() * 95 / 100) << "seed " << seed;
    std::map<std::string, std::string> verdict;
    for (const StructureReport& s : d->structures) {
      verdict[s.structure.substr(s.structure.find("/div/") + 4)] = s.verdict;
      std::cout << "chrome model, seed " << seed << ": " << s.structure << ": " << s.pages << " pages, "
                << s.link_occurrences << " links, " << s.repeated << " repeated, " << s.expected_items
                << " expected items, " << s.verdict << "\n";
    }
    EXPECT_EQ(verdict["/header/nav/ul.menu/li"], "navigation") << ::testing::PrintToString(verdict);
    EXPECT_EQ(verdict["/footer/div.footer-columns/div.col/ul/li"], "navigation");
    EXPECT_EQ(verdict["/main.page-category/div.category-layout/section.listing/nav.pagination/ul/li"], "no links");
    EXPECT_EQ(verdict["/main.page-category/nav.breadcrumb/ol/li"], "navigation");
    // Without the cross-page rule the footer (more expected items than the
    // tiles) wins the ranking: the rule is what keeps the chrome out.
    DiscoveryOptions off;
    off.min_pages_for_cross_page = 1000;
    absl::StatusOr<Discovery> ranked = DiscoverLinks(*model, held_out, off);
    ASSERT_TRUE(ranked.ok()) << ranked.status();
    size_t ranked_correct = 0;
    for (const DiscoveredLink& l : ranked->links) ranked_correct += truth.contains(l.url) ? 1 : 0;
    std::cout << "chrome model, seed " << seed << ": with the rule " << correct << "/" << d->links.size()
              << " links correct, without " << ranked_correct << "/" << ranked->links.size() << "\n";
    EXPECT_LT(ranked_correct, ranked->links.size());
  }
}

TEST(DiscoverLinksShopTest, ProductLinksAndNothingElseSeed1) { ExpectShopLinks(1); }
TEST(DiscoverLinksShopTest, ProductLinksAndNothingElseSeed7) { ExpectShopLinks(7); }

}  // namespace
}  // namespace vertex::lists
