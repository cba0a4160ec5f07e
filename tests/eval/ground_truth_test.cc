#include "common/eval/ground_truth.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/demo/site_generator.h"
#include "common/util/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::eval {
namespace {

namespace fs = std::filesystem;

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// A fresh directory under the test's temporary directory, removed at the end.
class TempDir {
 public:
  explicit TempDir(std::string_view name)
      : path_(fs::path(::testing::TempDir()) /
              (std::string(name) + "_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string path() const { return path_.string(); }
  // Writes `contents` to path()/`relative`.
  void Write(const std::string& relative, const std::string& contents) const {
    ASSERT_TRUE(util::WriteFile(path() + "/" + relative, contents).ok()) << relative;
  }

 private:
  fs::path path_;
};

constexpr char kBom[] = "\xEF\xBB\xBF";

// A well-formed site "shop" of vertical "book": BOM, CRLF line ends,
// entities, <NULL>, several values, a blank line and a trailing tab.
void WriteShop(const TempDir& dir) {
  dir.Write("book/book-shop-title.txt", std::string(kBom) +
                                            "book\tshop\ttitle\r\n3\t2\t2\t2\r\n"
                                            "0000\t1\tCaf&eacute; &amp; Bar\r\n"
                                            "0001\t0\t<NULL>\r\n"
                                            "\r\n"
                                            "0002\t1\t: Game Over\t\r\n");
  dir.Write("book/book-shop-author.txt",
            "book\tshop\tauthor\n3\t3\t4\t4\n"
            "0000\t2\tAnn  Lee\tBo &lt;Jr&gt;\n"
            "0001\t1\tCy\n"
            "0003\t1\tDee\n");
  dir.Write("book/book-other-title.txt", "book\tother\ttitle\n1\t1\t1\t1\n9999\t1\tX\n");
  dir.Write("book/notes.txt", "not ground truth\n");
  dir.Write("book/book-shop-isbn.csv", "not ground truth either\n");
}

void ExpectShop(const GroundTruth& truth) {
  EXPECT_EQ(truth.vertical, "book");
  EXPECT_EQ(truth.site, "shop");
  EXPECT_THAT(truth.attributes, ElementsAre("author", "title"));
  ASSERT_EQ(truth.pages.size(), 4u);
  const auto& p0 = truth.pages.at("0000");
  EXPECT_THAT(p0.at("title"), ElementsAre("Caf\xC3\xA9 & Bar"));
  EXPECT_THAT(p0.at("author"), ElementsAre("Ann  Lee", "Bo <Jr>"));  // raw spaces kept
  EXPECT_THAT(truth.pages.at("0001").at("title"), IsEmpty());        // <NULL>: key, no value
  EXPECT_THAT(truth.pages.at("0001").at("author"), ElementsAre("Cy"));
  EXPECT_THAT(truth.pages.at("0002").at("title"), ElementsAre(": Game Over"));
  EXPECT_FALSE(truth.pages.at("0002").contains("author"));  // not listed in that file
  EXPECT_FALSE(truth.pages.at("0003").contains("title"));
}

TEST(LoadGroundTruth, ReadsRootAndVerticalDirectory) {
  TempDir dir("gt_shop");
  WriteShop(dir);
  for (const std::string& root : {dir.path(), dir.path() + "/book"}) {
    SCOPED_TRACE(root);
    absl::StatusOr<GroundTruth> truth = LoadGroundTruth(root, "shop");
    ASSERT_TRUE(truth.ok()) << truth.status().ToString();
    ExpectShop(*truth);
  }
}

struct MalformedCase {
  std::string body;  // the whole file
  std::string want;  // expected in the message after the file name
};

TEST(LoadGroundTruth, MalformedLinesNameFileAndLine) {
  const std::string h = "book\tshop\ttitle\n1\t1\t1\t1\n";
  const MalformedCase kCases[] = {
      {h + "0001\tx\tfoo\n", ":3: count 'x' is not a number"},
      {h + "0001\t-1\tfoo\n", ":3: count '-1' is not a number"},
      {h + "0001\t\n", ":3: count '' is not a number"},
      {h + "0001\t99999999999999999999999\tfoo\n", ":3: count '9999"},
      {h + "0001\t2\tfoo\n", ":3: count says 2 values, the line has 1"},
      {h + "0001\t1\tfoo\n\n0002\t3\ta\tb\n", ":5: count says 3 values, the line has 2"},
      {h + "0001\t1\ta\tb\n", ":3: more values than the count 1"},
      {h + "0001\t0\tfoo\n", ":3: more values than the count 0"},
      {h + "0001\n", ":3: expected"},
      {h + "\t1\tfoo\n", ":3: expected"},
      {h + "0001\t1\ta\r\n0001\t1\tb\r\n", ":4: page '0001' listed twice"},
      {std::string(kBom) + "h\r\nc\r\n0001\tone\tfoo\r\n", ":3: count 'one' is not a number"},
      {"", ":1: missing header line"},
      {"book\tshop\ttitle\n", ":2: missing header line"},
  };
  for (const MalformedCase& c : kCases) {
    TempDir dir("gt_bad");
    dir.Write("book-shop-title.txt", c.body);
    const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(dir.path(), "shop");
    EXPECT_EQ(truth.status().code(), absl::StatusCode::kInvalidArgument) << c.body;
    EXPECT_THAT(std::string(truth.status().message()),
                HasSubstr(dir.path() + "/book-shop-title.txt" + c.want))
        << c.body;
  }
}

TEST(LoadGroundTruth, AcceptsNullAndEmptyTrailingFields) {
  TempDir dir("gt_null");
  dir.Write("book-shop-title.txt",
            "h\nc\n0001\t0\n0002\t0\t<NULL>\n0003\t1\tfoo\t\t<NULL>\n0004\t2\t<NULL>\tbar\n");
  const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(dir.path(), "shop");
  ASSERT_TRUE(truth.ok()) << truth.status().ToString();
  EXPECT_THAT(truth->pages.at("0001").at("title"), IsEmpty());
  EXPECT_THAT(truth->pages.at("0002").at("title"), IsEmpty());
  EXPECT_THAT(truth->pages.at("0003").at("title"), ElementsAre("foo"));
  EXPECT_THAT(truth->pages.at("0004").at("title"), ElementsAre("bar"));
}

TEST(LoadGroundTruth, HeaderOnlyFileHasAttributeButNoPages) {
  TempDir dir("gt_header");
  dir.Write("book-shop-title.txt", "book\tshop\ttitle\n0\t0\t0\t0\n");
  const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(dir.path(), "shop");
  ASSERT_TRUE(truth.ok()) << truth.status().ToString();
  EXPECT_THAT(truth->attributes, ElementsAre("title"));
  EXPECT_THAT(truth->pages, IsEmpty());
}

TEST(LoadGroundTruth, NotFoundNamesDirectoryAndSite) {
  TempDir dir("gt_none");
  WriteShop(dir);
  const std::string missing = dir.path() + "/no_such_dir";
  for (const auto& [root, site] : {std::pair{missing, std::string("shop")},
                                   std::pair{dir.path(), std::string("nosuchsite")}}) {
    const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(root, site);
    EXPECT_EQ(truth.status().code(), absl::StatusCode::kNotFound) << root << " " << site;
    EXPECT_THAT(std::string(truth.status().message()), HasSubstr(root));
    EXPECT_THAT(std::string(truth.status().message()), HasSubstr(site));
  }
}

TEST(LoadGroundTruth, RejectsAmbiguousInput) {
  TempDir dir("gt_ambiguous");
  const std::string file = "h\nc\n0001\t1\tfoo\n";
  dir.Write("book/book-shop-title.txt", file);
  dir.Write("movie/movie-shop-title.txt", file);
  dir.Write("copy/book/book-shop-author.txt", file);
  dir.Write("other/book/book-shop-author.txt", file);
  const struct {
    std::string root, want;
  } kCases[] = {
      {dir.path(), "several verticals"},
      {dir.path() + "/copy", ""},  // only one file there: fine
      {dir.path() + "/book", ""},
  };
  for (const auto& c : kCases) {
    const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(c.root, "shop");
    if (c.want.empty()) {
      EXPECT_TRUE(truth.ok()) << c.root << ": " << truth.status().ToString();
      continue;
    }
    EXPECT_EQ(truth.status().code(), absl::StatusCode::kInvalidArgument) << c.root;
    EXPECT_THAT(std::string(truth.status().message()), HasSubstr(c.want));
  }
  fs::remove_all(dir.path() + "/movie");
  const absl::StatusOr<GroundTruth> twice = LoadGroundTruth(dir.path(), "shop");
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(twice.status().message()),
              HasSubstr("two ground-truth files for attribute 'author'"));
}

TEST(LoadGroundTruth, RejectsEmptySite) {
  TempDir dir("gt_empty_site");
  EXPECT_EQ(LoadGroundTruth(dir.path(), "").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(PageIdOfFile, Table) {
  const struct {
    std::string_view path, want;
  } kCases[] = {
      {"/work/shared/data/swde/book/booksamillion/0001.htm", "0001"},
      {"0001.htm", "0001"},
      {"dir.d/0001", "0001"},
      {"page.tar.gz", "page.tar"},
      {"/a/.hidden", ".hidden"},
      {"", ""},
  };
  for (const auto& c : kCases) EXPECT_EQ(PageIdOfFile(c.path), c.want) << c.path;
}

// --- Real data ---------------------------------------------------------------

const std::string kSwde = std::string(VERTEX_SHARED_DATA_DIR) + "/swde";

TEST(LoadGroundTruth, SwdeBooksamillion) {
  const std::string root = kSwde + "/groundtruth";
  if (!fs::is_directory(root)) GTEST_SKIP() << "no SWDE data at " << root;
  const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(root, "booksamillion");
  ASSERT_TRUE(truth.ok()) << truth.status().ToString();
  EXPECT_EQ(truth->vertical, "book");
  EXPECT_THAT(truth->attributes,
              ElementsAre("author", "isbn_13", "publication_date", "publisher", "title"));
  ASSERT_EQ(truth->pages.size(), 2000u);
  size_t authors = 0;
  for (const auto& [id, attributes] : truth->pages) {
    EXPECT_EQ(attributes.size(), 5u) << id;
    ASSERT_TRUE(attributes.contains("title")) << id;
    EXPECT_EQ(attributes.at("title").size(), 1u) << id;
    EXPECT_FALSE(attributes.at("title").at(0).empty()) << id;
    for (const std::string& value : attributes.at("title")) {
      EXPECT_EQ(value.find('\r'), std::string::npos) << id;
    }
    authors += attributes.at("author").size();
  }
  EXPECT_EQ(authors, 2645u);  // the counts line of the author file
  // Every page file has ground truth, and the other way round.
  const auto files = util::ListFiles(kSwde + "/book/booksamillion", {".htm"});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(files->size(), truth->pages.size());
  for (const std::string& file : *files) {
    EXPECT_TRUE(truth->pages.contains(PageIdOfFile(file))) << file;
  }
}

// --- The demo generator's ground truth ---------------------------------------

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(LoadGroundTruth, DemoSiteMatchesGenerator) {
  demo::SiteOptions options;
  options.product_pages = 12;
  options.category_pages = 3;
  options.review_pages = 2;
  options.store_pages = 5;
  const std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  TempDir dir("gt_demo");
  ASSERT_TRUE(demo::WriteSite(pages, dir.path()).ok());

  const struct {
    std::string vertical, template_name;
    std::vector<std::string> attributes;
  } kVerticals[] = {{"product", "product", demo::ProductAttributes()},
                    {"business", "store", demo::StoreAttributes()}};
  for (const auto& v : kVerticals) {
    SCOPED_TRACE(v.vertical);
    const absl::StatusOr<GroundTruth> truth =
        LoadGroundTruth(dir.path() + "/groundtruth/" + v.vertical, "vertexdemo");
    ASSERT_TRUE(truth.ok()) << truth.status().ToString();
    EXPECT_EQ(truth->vertical, v.vertical);
    EXPECT_EQ(truth->attributes, Sorted(v.attributes));
    size_t expected_pages = 0;
    for (const demo::GeneratedPage& page : pages) {
      if (page.template_name != v.template_name) continue;
      ++expected_pages;
      const std::string id = PageIdOfFile(page.file_name);
      ASSERT_TRUE(truth->pages.contains(id)) << id;
      for (const auto& [attribute, values] : page.truth) {
        EXPECT_EQ(truth->pages.at(id).at(attribute), values) << id << " " << attribute;
      }
    }
    EXPECT_EQ(truth->pages.size(), expected_pages);
  }
  // Both verticals under the site directory: ambiguous.
  EXPECT_EQ(LoadGroundTruth(dir.path(), "vertexdemo").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::eval
