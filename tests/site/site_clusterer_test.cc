#include "common/site/site_clusterer.h"

#include <filesystem>
#include <map>
#include <set>

#include "common/demo/site_generator.h"
#include "common/site/page_file.h"
#include "common/site/site_json.h"
#include "common/urlpattern/url_regex.h"
#include "common/util/file.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::site {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("vertex_site_test_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

const std::string kSwdeDir = std::string(VERTEX_SHARED_DATA_DIR) + "/swde/book/booksamillion";

// Writes the demo site and returns file -> template.
std::map<std::string, std::string> WriteDemo(const std::string& dir, uint64_t seed = 1) {
  demo::SiteOptions options;
  options.seed = seed;
  const std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  EXPECT_TRUE(demo::WriteSite(pages, dir).ok());
  std::map<std::string, std::string> template_of;
  for (const demo::GeneratedPage& p : pages) template_of[(fs::path(dir) / p.file_name).string()] = p.template_name;
  return template_of;
}

TEST(PageFileTest, UrlComesFromTheBaseLineElseTheFilePath) {
  EXPECT_EQ(BaseUrlOnFirstLine("\xEF\xBB\xBF<base href=\"http://a.test/p/1\"/>\n<html>"), "http://a.test/p/1");
  EXPECT_EQ(BaseUrlOnFirstLine("<BASE HREF='http://a.test/X?q=1'>\r\n<html>"), "http://a.test/X?q=1");
  EXPECT_EQ(BaseUrlOnFirstLine("<base href=http://a.test/u>\n"), "http://a.test/u");
  EXPECT_EQ(BaseUrlOnFirstLine("<html><base href=\"http://a.test/\"></html>"), "");
  EXPECT_EQ(BaseUrlOnFirstLine("<html>\n<base href=\"http://a.test/\">"), "");
  EXPECT_EQ(BaseUrlOnFirstLine("<base target=_blank>\n"), "");
  EXPECT_EQ(BaseUrlOnFirstLine(""), "");

  const std::string dir = TempDir("pagefile");
  ASSERT_TRUE(util::WriteFile(dir + "/a.htm", "<p>no base line</p>").ok());
  absl::StatusOr<PageFile> page = ReadPageFile(dir + "/a.htm", 1 << 20);
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->url, "file://" + dir + "/a.htm");
  EXPECT_EQ(ReadPageFile(dir + "/missing.htm", 1 << 20).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadPageFile(dir + "/a.htm", 4).status().code(), absl::StatusCode::kResourceExhausted);
  // A URL given (vertexctl --url) wins over the file's own, base line or not.
  ASSERT_TRUE(util::WriteFile(dir + "/b.htm", "<base href=\"http://a.test/b\"/>\n<p>b</p>").ok());
  EXPECT_EQ(ReadPageFile(dir + "/a.htm", 1 << 20, "https://given.test/a").value().url, "https://given.test/a");
  EXPECT_EQ(ReadPageFile(dir + "/b.htm", 1 << 20, "https://given.test/b").value().url, "https://given.test/b");
  EXPECT_EQ(ReadPageFile(dir + "/b.htm", 1 << 20).value().url, "http://a.test/b");
}

TEST(PageFileTest, AbsoluteUrls) {
  for (const char* good : {"http://a.test/", "https://a.test/p?q=1&r=2", "file:///tmp/x.htm", "svn+ssh://h/x"}) {
    EXPECT_TRUE(IsAbsoluteUrl(good)) << good;
  }
  for (const char* bad : {"", "a.test/p", "/p/1", "://a.test", "1http://a", "http://", "http://a b", "ht tp://a",
                          "http:/a.test", "http://a\n"}) {
    EXPECT_FALSE(IsAbsoluteUrl(bad)) << bad;
  }
}

TEST(PageFileTest, ExpandPagePaths) {
  const std::string dir = TempDir("expand");
  ASSERT_TRUE(util::WriteFile(dir + "/b.html", "<p>b</p>").ok());
  ASSERT_TRUE(util::WriteFile(dir + "/a.htm", "<p>a</p>").ok());
  ASSERT_TRUE(util::WriteFile(dir + "/notes.txt", "x").ok());
  absl::StatusOr<std::vector<std::string>> files = ExpandPagePaths({dir, dir + "/notes.txt"});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(*files, (std::vector<std::string>{dir + "/a.htm", dir + "/b.html", dir + "/notes.txt"}));
  absl::StatusOr<std::vector<std::string>> missing = ExpandPagePaths({dir + "/nope"});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(dir + "/nope"), std::string::npos);
  const std::string empty = TempDir("expand_empty");
  EXPECT_EQ(ExpandPagePaths({empty}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SiteClustererTest, GeneratedSiteGivesOneClusterPerTemplate) {
  const std::string dir = TempDir("demo");
  const auto template_of = WriteDemo(dir);
  absl::StatusOr<std::vector<std::string>> files = ExpandPagePaths({dir});
  ASSERT_TRUE(files.ok());
  absl::StatusOr<SiteClustering> site = ClusterSite(*files, {});
  ASSERT_TRUE(site.ok()) << site.status();
  EXPECT_TRUE(site->errors.empty());
  size_t assigned = 0, majority = 0, attached = 0;
  std::set<std::string> templates_seen;
  for (const SiteCluster& c : site->clusters) {
    std::map<std::string, size_t> counts;
    for (size_t p : c.pages) counts[template_of.at(site->pages[p].file)]++;
    size_t top = 0;
    std::string top_name;
    for (const auto& [name, n] : counts) {
      if (n > top) top = n, top_name = name;
    }
    assigned += c.pages.size();
    majority += top;
    EXPECT_TRUE(templates_seen.insert(top_name).second) << "two clusters for template " << top_name;
    // The URL regex matches every page of its cluster.
    RE2 re(c.url_regex);
    ASSERT_TRUE(re.ok()) << c.url_regex;
    for (size_t p : c.pages) EXPECT_TRUE(RE2::FullMatch(site->pages[p].url, re)) << site->pages[p].url;
    // Attached pages (no signature covers them; this one is nearest) too.
    for (size_t p : c.attached) EXPECT_TRUE(RE2::FullMatch(site->pages[p].url, re)) << site->pages[p].url;
    attached += c.attached.size();
    // Its annotation sample is drawn from its own pages, in Algorithm 2 order.
    ASSERT_FALSE(c.annotation_sample.empty());
    for (size_t i = 0; i < c.annotation_sample.size(); ++i) {
      EXPECT_TRUE(std::binary_search(c.pages.begin(), c.pages.end(), c.annotation_sample[i].page));
      if (i > 0) {
        EXPECT_LE(c.annotation_sample[i].added_weight, c.annotation_sample[i - 1].added_weight);
      }
    }
  }
  EXPECT_EQ(site->clusters.size(), 4u);
  EXPECT_EQ(templates_seen.size(), 4u);
  const double purity = static_cast<double>(majority) / assigned;
  EXPECT_GE(purity, 0.99);
  // Pruning may lose a few pages, never many.
  EXPECT_LE(site->unassigned.size(), template_of.size() / 20);
  EXPECT_EQ(assigned + attached + site->unassigned.size(), template_of.size());
}

TEST(SiteClustererTest, ResultIsDeterministicAndIndependentOfThreads) {
  const std::string dir = TempDir("determinism");
  WriteDemo(dir, 7);
  const std::vector<std::string> files = ExpandPagePaths({dir}).value();
  SiteClusterOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const std::string a = ClusteringToJson(ClusterSite(files, one).value());
  const std::string b = ClusteringToJson(ClusterSite(files, two).value());
  EXPECT_EQ(a, b);
}

// Differential: clustering pages from their stored vectors (what the
// learning service does) equals clustering the files.
TEST(SiteClustererTest, ClusterKnownPagesEqualsClusterSite) {
  const std::string dir = TempDir("known");
  WriteDemo(dir, 3);
  const std::vector<std::string> files = ExpandPagePaths({dir}).value();
  const SiteClustering from_files = ClusterSite(files, {}).value();
  ASSERT_TRUE(from_files.errors.empty());
  std::vector<SitePage> pages = from_files.pages;
  for (SitePage& p : pages) p.sampled = false;
  const XPathsOfPage xpaths = [&](size_t i) -> absl::StatusOr<sample::PageXPaths> {
    const PageFile file = ReadPageFile(files[i], 8 << 20).value();
    html::Parser parser(html::ParseOptions{});
    absl::StatusOr<html::Page> page = parser.Parse(file.bytes, file.url);
    if (!page.ok()) return page.status();
    return sample::ExtractXPaths(*page);
  };
  const SiteClustering known = ClusterKnownPages(pages, xpaths, {}).value();
  EXPECT_EQ(ClusteringToJson(known), ClusteringToJson(from_files));
  EXPECT_EQ(ClusterKnownPages({}, xpaths, {}).status().code(), absl::StatusCode::kFailedPrecondition);
  const XPathsOfPage failing = [](size_t) -> absl::StatusOr<sample::PageXPaths> {
    return absl::DataLossError("page gone");
  };
  EXPECT_EQ(ClusterKnownPages(pages, failing, {}).status().code(), absl::StatusCode::kDataLoss);
}

TEST(SiteClustererTest, BadPagesAreReportedNotFatal) {
  const std::string dir = TempDir("bad");
  WriteDemo(dir);
  ASSERT_TRUE(util::WriteFile(dir + "/empty.htm", "").ok());
  std::string deep = "<html><body>";
  for (int i = 0; i < 100000; ++i) deep += "<div>";
  ASSERT_TRUE(util::WriteFile(dir + "/deep.htm", deep).ok());
  const std::vector<std::string> files = ExpandPagePaths({dir}).value();
  absl::StatusOr<SiteClustering> site = ClusterSite(files, {});
  ASSERT_TRUE(site.ok()) << site.status();
  ASSERT_EQ(site->errors.size(), 2u);
  std::map<std::string, std::string> errors;
  for (const PageError& e : site->errors) errors[fs::path(e.file).filename().string()] = e.error;
  EXPECT_NE(errors["empty.htm"].find("empty"), std::string::npos) << errors["empty.htm"];
  EXPECT_NE(errors["deep.htm"].find("depth limit"), std::string::npos) << errors["deep.htm"];
  EXPECT_EQ(site->clusters.size(), 4u);
  const std::string json = ClusteringToJson(*site);
  EXPECT_NE(json.find("\"errors\":[{\"file\":"), std::string::npos);
}

TEST(SiteClustererTest, NoParsablePageIsAnError) {
  const std::string dir = TempDir("none");
  ASSERT_TRUE(util::WriteFile(dir + "/a.htm", "").ok());
  absl::StatusOr<SiteClustering> site = ClusterSite({dir + "/a.htm"}, {});
  EXPECT_EQ(site.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(site.status().message().find("a.htm"), std::string::npos);
}

// ---- real pages ----

bool HaveSwde() { return fs::is_directory(kSwdeDir); }

TEST(SwdeTest, BooksamillionIsOneClusterWhoseRegexMatchesItsPages) {
  if (!HaveSwde()) GTEST_SKIP() << kSwdeDir << " is absent (shared data is only beside the repo)";
  const std::vector<std::string> files = ExpandPagePaths({kSwdeDir}).value();
  ASSERT_EQ(files.size(), 2000u);
  absl::StatusOr<SiteClustering> site = ClusterSite(files, {});
  ASSERT_TRUE(site.ok()) << site.status();
  EXPECT_TRUE(site->errors.empty());
  ASSERT_FALSE(site->clusters.empty());
  const SiteCluster& top = site->clusters[0];
  EXPECT_GE(top.pages.size(), 1900u) << "at least 95% of the pages in one cluster";
  RE2 re(top.url_regex);
  ASSERT_TRUE(re.ok());
  for (size_t p : top.pages) EXPECT_TRUE(RE2::FullMatch(site->pages[p].url, re)) << site->pages[p].url;
  EXPECT_NE(top.url_regex.find("booksamillion"), std::string::npos) << top.url_regex;
}

TEST(SwdeTest, RealAndSyntheticPagesStayApart) {
  if (!HaveSwde()) GTEST_SKIP() << kSwdeDir << " is absent (shared data is only beside the repo)";
  const std::string dir = TempDir("mixed");
  const auto template_of = WriteDemo(dir);
  std::vector<std::string> files = ExpandPagePaths({kSwdeDir, dir}).value();
  absl::StatusOr<SiteClustering> site = ClusterSite(files, {});
  ASSERT_TRUE(site.ok()) << site.status();
  size_t swde_clusters = 0;
  for (const SiteCluster& c : site->clusters) {
    size_t swde = 0;
    for (size_t p : c.pages) swde += site->pages[p].file.rfind(kSwdeDir, 0) == 0;
    EXPECT_TRUE(swde == 0 || swde == c.pages.size())
        << "cluster " << c.id << " mixes " << swde << " SWDE pages with " << c.pages.size() - swde << " demo pages";
    swde_clusters += swde > 0;
  }
  EXPECT_GE(swde_clusters, 1u);
  EXPECT_GE(site->clusters.size(), 5u);
}

}  // namespace
}  // namespace vertex::site
