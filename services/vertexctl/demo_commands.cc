// vertexctl demo | gen-demo: the project's own generated demo site.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/demo/blog_site.h"
#include "common/demo/list_problems.h"
#include "common/demo/listing_site.h"
#include "common/lists/problem.h"
#include "common/demo/site_generator.h"
#include "common/workflow/api_listing.h"
#include "common/workflow/listing_eval.h"
#include "common/eval/ground_truth.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "services/client/remote_api.h"
#include "services/vertexctl/backend.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/commands.h"
#include "services/common/flags.h"

namespace vertex::cli {
namespace {

const std::vector<FlagSpec>& DemoFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"out", "DIR", "where to write the demo site: a new, empty or earlier demo directory "
                     "(default: $TMPDIR/vertex-demo-site)"},
      {"seed", "S", "seed of the generated site (default 1)"},
      {"products", "N", "product detail pages (default 600)"},
      {"categories", "N", "category list pages (default 250)"},
      {"reviews", "N", "review pages (default 150)"},
      {"stores", "N", "store pages (default 100)"},
      {"help", "", "show this help"},
  };
  return kFlags;
}

// demo's own flags: the site to run (the generated one by default) and the
// server to run it on (in process by default).
std::vector<FlagSpec> RunFlags() {
  std::vector<FlagSpec> flags = DemoFlags();
  flags.pop_back();  // help, last
  for (const FlagSpec& f : std::vector<FlagSpec>{
           {"pages", "DIR", "run this site instead of the generated one (needs --truth, --schema, --site)"},
           {"truth", "DIR", "with --pages: its ground truth (SWDE format) for the simulated editor and scores"},
           {"schema", "FILE", "with --pages: the vertical's schema, e.g. deploy/schemas/book.json"},
           {"site", "NAME", "with --pages: the site's name in the ground truth (e.g. booksamillion)"},
           {"max-pages", "K", "pages the simulated editor annotates per cluster at most (default 3)"},
           {"no-rule-transfer", "", "register the sites with rule transfer off (to measure what it saves)"},
           {"page-builder", "gumbo|libxml2",
            "register the sites with this HTML parser (default: the server's; in process " +
                std::string(html::PageBuilderName(html::ParseOptions{}.builder)) + ")"},
           {"list-first", "K", "the simulated editor types only the first K values of a multi-valued attribute "
                               "(features, ...) of a page, as a partial annotation (default 0: all values)"},
           {"listing-pages", "N", "pages of each generated result-list site (default 40; 0: no list sites)"},
           {"proposals-from-seed", "S",
            "first learn the product pages of the shop of seed S (site vertexdemo-listtrain) and train a list "
            "model from the store (TrainListModel); then the simulated editor answers the list finder's "
            "proposals for list attributes and the inputs it spent are printed"}}) {
    flags.push_back(f);
  }
  for (const FlagSpec& f : ServerFlags("vertexd (or the learning and extraction services' host)")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

absl::StatusOr<demo::SiteOptions> SiteOptionsFromFlags(const ParsedArgs& a) {
  demo::SiteOptions o;
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
  o.seed = static_cast<uint64_t>(seed);
  VERTEX_ASSIGN_OR_RETURN(int64_t products, a.Int("products", o.product_pages, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t categories, a.Int("categories", o.category_pages, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t reviews, a.Int("reviews", o.review_pages, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t stores, a.Int("stores", o.store_pages, 0, 1000000));
  o.product_pages = static_cast<int>(products);
  o.category_pages = static_cast<int>(categories);
  o.review_pages = static_cast<int>(reviews);
  o.store_pages = static_cast<int>(stores);
  if (products + categories + reviews + stores == 0) {
    return absl::InvalidArgumentError("the demo site needs at least one page");
  }
  return o;
}

std::string DefaultDemoDir() {
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return (tmp / "vertex-demo-site").string();
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Marks a directory as written by gen-demo, so a later run may clear it.
constexpr char kDemoMarker[] = ".vertex-demo-site";

// Empties `dir` for a new demo site: stale pages of an earlier, larger run
// would join the site. Only a directory that is empty or marked as a demo
// site is touched; any other is refused, never cleared.
absl::Status PrepareDemoDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return absl::OkStatus();
  if (!fs::is_directory(dir, ec)) {
    return absl::FailedPreconditionError("--out '" + dir + "' exists and is not a directory");
  }
  if (fs::is_empty(dir, ec)) return absl::OkStatus();
  if (!fs::exists(fs::path(dir) / kDemoMarker, ec)) {
    return absl::FailedPreconditionError("--out '" + dir +
                                         "' is a non-empty directory not written by vertexctl; "
                                         "give an empty or new directory");
  }
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    fs::remove_all(entry.path(), ec);
    if (ec) return absl::PermissionDeniedError("cannot clear '" + entry.path().string() + "': " + ec.message());
  }
  return absl::OkStatus();
}

// Writes the demo site; returns the generated pages.
absl::StatusOr<std::vector<demo::GeneratedPage>> Generate(const ParsedArgs& a, std::string* dir) {
  VERTEX_ASSIGN_OR_RETURN(demo::SiteOptions options, SiteOptionsFromFlags(a));
  *dir = a.String("out", DefaultDemoDir());
  std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  VERTEX_RETURN_IF_ERROR(PrepareDemoDir(*dir));
  VERTEX_RETURN_IF_ERROR(demo::WriteSite(pages, *dir));
  VERTEX_RETURN_IF_ERROR(util::WriteFile((std::filesystem::path(*dir) / kDemoMarker).string(),
                                         "written by vertexctl gen-demo; the next run may clear this directory\n"));
  return pages;
}

}  // namespace

namespace {

// gen-demo's flags: the shop's, then the result-list site's.
std::vector<FlagSpec> GenDemoFlags() {
  std::vector<FlagSpec> flags = DemoFlags();
  flags.pop_back();  // help, last
  for (const FlagSpec& f : std::vector<FlagSpec>{
           {"kind", "shop|listings|lists|blog",
            "what to write: the demo shop (default), a result-list site, list-finder problems or a blog "
            "with its feed"},
           {"domain", "real_estate|used_cars", "with --kind listings (required): the vertical"},
           {"pages", "N", "with --kind listings: result pages (default 20); with --kind lists: problems (default 96)"},
           {"coverage", "F", "with --kind listings: the fraction of the place list written to "
                             "places.txt, 0..1 (default 1)"},
           {"template", "wordpress|blogger|movabletype|table", "with --kind blog: the blog's template (default wordpress)"},
           {"feed-format", "rss0.9x|rss1.0|rss2.0|atom1.0", "with --kind blog: the feed's format (default rss2.0)"},
           {"knob", "K", "with --kind blog, repeatable or comma-separated: a WTM failure class to reproduce: " +
                             absl::StrJoin(demo::BlogKnobNames(), ", ")},
           {"posts", "N", "with --kind blog: posts (default 120, over about 14 months)"},
           {"home-entries", "N", "with --kind blog: entries per list page (default 10)"},
           {"feed-items", "N", "with --kind blog: the latest posts in the feed (default 15)"},
           {"redesign", "", "with --kind blog: the same posts after a redesign of the template"},
           {"host", "HOST", "with --kind blog: the blog's host (default blog.vertex-demo.test)"}}) {
    flags.push_back(f);
  }
  flags.push_back({"help", "", "show this help"});
  return flags;
}

// One item per line.
std::string Lines(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += item + "\n";
  return out;
}

// gen-demo --kind listings: pages, truth.jsonl and the gazetteers in the
// directory given as the argument (or --out); returns what was written.
absl::StatusOr<std::string> GenerateListings(const ParsedArgs& a) {
  for (const char* shop_only : {"products", "categories", "reviews", "stores"}) {
    if (a.Has(shop_only)) {
      return absl::InvalidArgumentError(std::string("--") + shop_only + " is a flag of --kind shop");
    }
  }
  if (!a.Has("domain")) return absl::InvalidArgumentError("--kind listings needs --domain real_estate|used_cars");
  if (a.positional.size() > 1) return absl::InvalidArgumentError("unexpected argument " + a.positional[1]);
  demo::ListingSiteOptions o;
  VERTEX_ASSIGN_OR_RETURN(o.domain, demo::ParseListingDomain(a.String("domain", "")));
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
  o.seed = static_cast<uint64_t>(seed);
  VERTEX_ASSIGN_OR_RETURN(int64_t pages, a.Int("pages", o.pages, 1, 100000));
  o.pages = static_cast<int>(pages);
  VERTEX_ASSIGN_OR_RETURN(double coverage, a.Double("coverage", 1.0, 0.0, 1.0));
  const std::string dir = !a.positional.empty() ? a.positional[0]
                                                : a.String("out", (std::filesystem::temp_directory_path() /
                                                                   "vertex-listing-site").string());
  VERTEX_ASSIGN_OR_RETURN(demo::ListingSite site, demo::GenerateListingSite(o));
  VERTEX_RETURN_IF_ERROR(PrepareDemoDir(dir));
  VERTEX_RETURN_IF_ERROR(demo::WriteListingSite(site, dir));
  const std::vector<std::string> places = demo::GazetteerSample(demo::ListingPlaceNames(), coverage, o.seed);
  VERTEX_RETURN_IF_ERROR(util::WriteFile(dir + "/places.txt", Lines(places)));
  std::string gazetteers = absl::StrFormat("places.txt (%zu of %zu names)", places.size(),
                                           demo::ListingPlaceNames().size());
  if (o.domain == demo::ListingDomain::kUsedCars) {
    std::vector<std::string> makes, models;
    for (const demo::CarMake& m : demo::ListingCarMakes()) {
      makes.push_back(m.make);
      models.insert(models.end(), m.models.begin(), m.models.end());
    }
    VERTEX_RETURN_IF_ERROR(util::WriteFile(dir + "/makes.txt", Lines(makes)));
    VERTEX_RETURN_IF_ERROR(util::WriteFile(dir + "/models.txt", Lines(models)));
    absl::StrAppendFormat(&gazetteers, ", makes.txt (%zu), models.txt (%zu)", makes.size(), models.size());
  }
  VERTEX_RETURN_IF_ERROR(util::WriteFile((std::filesystem::path(dir) / kDemoMarker).string(),
                                         "written by vertexctl gen-demo; the next run may clear this directory\n"));
  return absl::StrFormat("wrote %zu %s result pages (host %s, records %s%s), truth.jsonl and %s to %s\n",
                         site.pages.size(), demo::ListingDomainName(o.domain), site.host,
                         demo::RecordLayoutName(site.layout), site.grid ? " in a grid" : "", gazetteers, dir);
}

// gen-demo --kind lists: a list-finder problem set (problems.jsonl and
// pages/) in the directory given as the argument (or --out); returns what
// was written.
absl::StatusOr<std::string> GenerateListProblemSet(const ParsedArgs& a) {
  for (const char* other : {"products", "categories", "reviews", "stores", "domain", "coverage"}) {
    if (a.Has(other)) return absl::InvalidArgumentError(std::string("--") + other + " is not a flag of --kind lists");
  }
  if (a.positional.size() > 1) return absl::InvalidArgumentError("unexpected argument " + a.positional[1]);
  demo::ListProblemsOptions o;
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
  o.seed = static_cast<uint64_t>(seed);
  VERTEX_ASSIGN_OR_RETURN(int64_t pages, a.Int("pages", o.pages, 1, 10000));
  o.pages = static_cast<int>(pages);
  const std::string dir = !a.positional.empty() ? a.positional[0]
                                                : a.String("out", (std::filesystem::temp_directory_path() /
                                                                   "vertex-list-problems").string());
  VERTEX_ASSIGN_OR_RETURN(std::vector<demo::GeneratedListProblem> generated, demo::GenerateListProblems(o));
  std::map<std::string, int> per_domain;
  size_t hot = 0, controls = 0, elements = 0;
  for (const demo::GeneratedListProblem& g : generated) {
    ++per_domain[g.problem.domain];
    hot += g.problem.kind == lists::ListKind::kHotList;
    controls += g.problem.out_of_class;
    elements += g.elements;
  }
  VERTEX_RETURN_IF_ERROR(PrepareDemoDir(dir));
  VERTEX_RETURN_IF_ERROR(lists::WriteProblems(demo::ProblemsOf(std::move(generated)), dir));
  VERTEX_RETURN_IF_ERROR(util::WriteFile((std::filesystem::path(dir) / kDemoMarker).string(),
                                         "written by vertexctl gen-demo; the next run may clear this directory\n"));
  std::string domains;
  for (const auto& [domain, n] : per_domain) absl::StrAppendFormat(&domains, "%s%s %d", domains.empty() ? "" : ", ", domain, n);
  return absl::StrFormat("wrote %d list problems (%s; %zu hot-lists, %zu out-of-class controls, %zu elements "
                         "per page on average): problems.jsonl and pages/ in %s\n",
                         o.pages, domains, hot, controls, elements / static_cast<size_t>(o.pages), dir);
}

absl::StatusOr<feed::FeedFormat> ParseFeedFormatFlag(const std::string& name) {
  for (auto [text, format] : std::vector<std::pair<const char*, feed::FeedFormat>>{
           {"rss0.9x", feed::FeedFormat::kRss09x}, {"rss1.0", feed::FeedFormat::kRss10},
           {"rss2.0", feed::FeedFormat::kRss20}, {"atom1.0", feed::FeedFormat::kAtom10}}) {
    if (name == text) return format;
  }
  return absl::InvalidArgumentError("--feed-format '" + name + "': expected rss0.9x, rss1.0, rss2.0 or atom1.0");
}

absl::StatusOr<demo::BlogSiteOptions> BlogOptionsFromFlags(const ParsedArgs& a) {
  for (const char* other : {"products", "categories", "reviews", "stores", "domain", "coverage", "pages"}) {
    if (a.Has(other)) return absl::InvalidArgumentError(std::string("--") + other + " is not a flag of --kind blog");
  }
  demo::BlogSiteOptions o;
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
  o.seed = static_cast<uint64_t>(seed);
  VERTEX_ASSIGN_OR_RETURN(o.templ, demo::ParseBlogTemplate(a.String("template", "wordpress")));
  VERTEX_ASSIGN_OR_RETURN(o.feed_format, ParseFeedFormatFlag(a.String("feed-format", "rss2.0")));
  for (const std::string& knob : a.List("knob")) VERTEX_RETURN_IF_ERROR(demo::ApplyBlogKnob(knob, &o));
  VERTEX_ASSIGN_OR_RETURN(int64_t posts, a.Int("posts", o.posts, 1, 10000));
  VERTEX_ASSIGN_OR_RETURN(int64_t home, a.Int("home-entries", o.home_entries, 1, 100));
  VERTEX_ASSIGN_OR_RETURN(int64_t items, a.Int("feed-items", o.feed_items, 1, 1000));
  o.posts = static_cast<int>(posts);
  o.home_entries = static_cast<int>(home);
  o.feed_items = static_cast<int>(items);
  o.redesign = a.Has("redesign") ? 1 : 0;
  o.host = a.String("host", o.host);
  return o;
}

// gen-demo --kind blog: the pages, feed.xml, truth.jsonl, expected_wtm.json
// and schema.json in the directory given as the argument (or --out).
absl::StatusOr<std::string> GenerateBlog(const ParsedArgs& a) {
  if (a.positional.size() > 1) return absl::InvalidArgumentError("unexpected argument " + a.positional[1]);
  VERTEX_ASSIGN_OR_RETURN(demo::BlogSiteOptions o, BlogOptionsFromFlags(a));
  const std::string dir = !a.positional.empty()
                              ? a.positional[0]
                              : a.String("out", (std::filesystem::temp_directory_path() / "vertex-blog-site").string());
  VERTEX_ASSIGN_OR_RETURN(demo::BlogSite site, demo::GenerateBlogSite(o));
  VERTEX_RETURN_IF_ERROR(PrepareDemoDir(dir));
  VERTEX_RETURN_IF_ERROR(demo::WriteBlogSite(site, dir));
  VERTEX_RETURN_IF_ERROR(util::WriteFile((std::filesystem::path(dir) / kDemoMarker).string(),
                                         "written by vertexctl gen-demo; the next run may clear this directory\n"));
  std::map<std::string, int> kinds;
  for (const demo::BlogPage& p : site.pages) ++kinds[p.kind];
  std::string expected;
  for (const auto& [field, code] : site.expected_wtm) absl::StrAppendFormat(&expected, " %s=%d", field, code);
  return absl::StrFormat(
      "wrote a %s blog (%s%s): %d home, %d archive, %d category and %d entry pages, feed.xml (%s, %s), "
      "truth.jsonl, expected_wtm.json (%s) and schema.json to %s\n",
      demo::BlogTemplateName(o.templ), demo::BlogKnobsString(o), o.redesign ? ", redesigned" : "", kinds["home"],
      kinds["archive"], kinds["category"], kinds["entry"], site.feed_url,
      a.String("feed-format", "rss2.0"), expected.empty() ? "" : expected.substr(1), dir);
}

}  // namespace

int RunGenDemo(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = GenDemoFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << "usage: vertexctl gen-demo [flags]\n"
                 "       vertexctl gen-demo --kind listings --domain real_estate|used_cars [--pages N] [--seed S]\n"
                 "                          [--coverage F] DIR\n"
                 "       vertexctl gen-demo --kind lists [--pages N] [--seed S] DIR\n"
                 "       vertexctl gen-demo --kind blog [--template T] [--feed-format F] [--knob K ...] [--posts N]\n"
                 "                          [--home-entries N] [--feed-items N] [--redesign] [--seed S] DIR\n\n"
                 "Writes the generated demo shop: one file per page (first line <base href=URL>), SWDE-format\n"
                 "ground truth under groundtruth/ and the category pages' record-level truth in\n"
                 "list_truth.jsonl. With --kind listings, a result-list site instead: its pages (0000.htm...),\n"
                 "truth.jsonl (areas, records, attributes per page), places.txt (the fraction --coverage of\n"
                 "the place list) and, for used_cars, makes.txt and models.txt. With --kind lists, list-finder\n"
                 "problems (issue 14): pages with one list or hot-list each in four domains (birds, games,\n"
                 "movies, news), problems.jsonl (kind, positive XPaths, rows per page) and pages/<id>.html.\n"
                 "With --kind blog, a blog and its feed (WTM, issue 15): list pages (home, /page/N, monthly\n"
                 "archives, categories) and entry pages as 0000.htm..., feed.xml (the latest --feed-items\n"
                 "posts), truth.jsonl (per page: file, url, kind, in_feed and its entries' title, permalink,\n"
                 "date, author, body, categories), expected_wtm.json (the WTM error code the knobs cause per\n"
                 "field: title, body, link, date) and schema.json (deploy/schemas/blog.json).\n\nflags:\n"
              << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("gen-demo", parsed.status());
  const std::string kind = parsed->String("kind", "shop");
  if (kind == "listings") {
    absl::StatusOr<std::string> written = GenerateListings(*parsed);
    if (!written.ok()) return ReportError("gen-demo", written.status());
    std::fputs(written->c_str(), stdout);
    return 0;
  }
  if (kind == "lists") {
    absl::StatusOr<std::string> written = GenerateListProblemSet(*parsed);
    if (!written.ok()) return ReportError("gen-demo", written.status());
    std::fputs(written->c_str(), stdout);
    return 0;
  }
  if (kind == "blog") {
    absl::StatusOr<std::string> written = GenerateBlog(*parsed);
    if (!written.ok()) return ReportError("gen-demo", written.status());
    std::fputs(written->c_str(), stdout);
    return 0;
  }
  if (kind != "shop") {
    return ReportError("gen-demo",
                       absl::InvalidArgumentError("--kind '" + kind + "': expected shop, listings, lists or blog"));
  }
  for (const char* blog_only : {"template", "feed-format", "knob", "posts", "home-entries", "feed-items", "redesign",
                                "host"}) {
    if (parsed->Has(blog_only)) {
      return ReportError("gen-demo",
                         absl::InvalidArgumentError(std::string("--") + blog_only + " is a flag of --kind blog"));
    }
  }
  for (const char* listings_only : {"domain", "pages", "coverage"}) {
    if (parsed->Has(listings_only)) {
      return ReportError("gen-demo", absl::InvalidArgumentError(std::string("--") + listings_only +
                                                                " is a flag of --kind listings"));
    }
  }
  std::string dir;
  absl::StatusOr<std::vector<demo::GeneratedPage>> pages = Generate(*parsed, &dir);
  if (!pages.ok()) return ReportError("gen-demo", pages.status());
  std::printf("wrote %zu pages and their ground truth to %s\n", pages->size(), dir.c_str());
  return 0;
}

namespace {

struct Apis {
  std::unique_ptr<store::RuleStore> store;  // in process only
  std::unique_ptr<workflow::LearningApi> learning;
  std::unique_ptr<workflow::ExtractionApi> extraction;
};

// The engines in process over an in-memory store, or the clients of
// --server.
absl::StatusOr<Apis> OpenApis(const ParsedArgs& a) {
  Apis apis;
  if (a.Has("server")) {
    VERTEX_ASSIGN_OR_RETURN(client::ConnectOptions options, ConnectOptionsFromFlags(a));
    VERTEX_ASSIGN_OR_RETURN(apis.learning, client::ConnectLearning(options));
    VERTEX_ASSIGN_OR_RETURN(apis.extraction, client::ConnectExtraction(options));
    return apis;
  }
  apis.store = store::NewInMemoryStore();
  auto extraction = std::make_unique<workflow::ExtractionEngine>(apis.store.get(), workflow::ExtractionEngineOptions{});
  workflow::ExtractionEngine* refresh = extraction.get();
  apis.learning = std::make_unique<workflow::LearningEngine>(
      apis.store.get(), workflow::LearningEngineOptions{}, [refresh](const std::string&) { (void)refresh->Refresh(); });
  apis.extraction = std::move(extraction);
  return apis;
}

// Runs one site's life through the APIs and prints its table.
absl::Status RunSite(Apis& apis, const std::string& site, const schema::CompiledSchema& schema,
                     const std::vector<workflow::ClientPage>& pages, const std::string& truth_dir,
                     const std::string& truth_site, const workflow::ApiRunOptions& options) {
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(truth_dir, truth_site));
  VERTEX_ASSIGN_OR_RETURN(workflow::ApiRunReport report,
                          workflow::RunSiteThroughApi(*apis.learning, *apis.extraction, site, schema, pages, truth,
                                                      options));
  std::printf("\n%s", workflow::FormatRunReport(site, schema, report).c_str());
  if (options.use_proposals) std::printf("%s", workflow::FormatInputReport(schema, report).c_str());
  std::fflush(stdout);
  return absl::OkStatus();
}

// --proposals-from-seed S: the product pages of the shop of seed S (the
// demo's sizes) learnt by the simulated editor as site
// "vertexdemo-listtrain", then a list model trained from the store.
absl::Status TrainProposalModel(Apis& apis, const ParsedArgs& a, uint64_t seed, workflow::ApiRunOptions options) {
  VERTEX_ASSIGN_OR_RETURN(demo::SiteOptions site, SiteOptionsFromFlags(a));
  site.seed = seed;
  std::vector<demo::GeneratedPage> generated = demo::GenerateSite(site);
  std::vector<workflow::ClientPage> pages;
  eval::GroundTruth truth;
  for (demo::GeneratedPage& g : generated) {
    if (g.template_name != "product") continue;
    pages.push_back({g.file_name, g.url, std::move(g.html)});
    auto& known = truth.pages[eval::PageIdOfFile(g.file_name)];
    for (const auto& [attribute, values] : g.truth) known[attribute] = values;
  }
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema,
                          schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product"));
  options.use_proposals = false;
  VERTEX_ASSIGN_OR_RETURN(workflow::ApiRunReport report,
                          workflow::RunSiteThroughApi(*apis.learning, *apis.extraction, "vertexdemo-listtrain", schema,
                                                      pages, truth, options));
  VERTEX_ASSIGN_OR_RETURN(v1::TrainListModelResponse trained, apis.learning->TrainListModel({}));
  std::printf("Learnt %zu product pages of the shop of seed %llu (%zu annotated); list model v%lld trained from "
              "%u rule(s) and %u snapshot page(s)\n",
              pages.size(), static_cast<unsigned long long>(seed), report.pages_annotated,
              static_cast<long long>(trained.model().version()), trained.rules(), trained.pages());
  std::fflush(stdout);
  return absl::OkStatus();
}

// A generated result-list site through the APIs with no editor: its
// vocabulary's gazetteers are given to the server with LearnGazetteer (the
// generated place names are not the built-in UK list), then every cluster is
// learnt by AMBER and every page extracted (api_listing.h).
// The page builder of `settings` alone (the result-list sites take the
// demo's builder, not its other settings); nullopt without one.
std::optional<v1::SiteSettings> BuilderOnly(const std::optional<v1::SiteSettings>& settings) {
  if (!settings || settings->page_builder() == v1::PAGE_BUILDER_UNSPECIFIED) return std::nullopt;
  v1::SiteSettings out;
  out.set_page_builder(settings->page_builder());
  return out;
}

absl::Status RunListingSite(Apis& apis, demo::ListingDomain domain, int pages, uint64_t seed,
                            const std::optional<v1::SiteSettings>& settings) {
  demo::ListingSiteOptions options;
  options.seed = seed;
  options.domain = domain;
  options.pages = pages;
  VERTEX_ASSIGN_OR_RETURN(demo::ListingSite site, demo::GenerateListingSite(options));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, workflow::ListingSchema(domain));
  const std::string name = "vertexdemo-" + demo::ListingDomainName(domain);
  std::vector<workflow::ClientPage> client_pages;
  std::map<std::string, eval::ListTruthPage> truth;
  for (const demo::ListingPage& p : site.pages) {
    client_pages.push_back({p.file_name, p.url, p.html});
    truth[p.url] = p.truth;
  }
  std::printf("\nGenerated %zu result-list pages of a %s site (%s records); learning with no annotation\n",
              site.pages.size(), demo::ListingDomainName(domain).c_str(), demo::RecordLayoutName(site.layout).c_str());
  std::fflush(stdout);
  // The site first (LearnGazetteer needs its schema), then its vocabulary.
  v1::RegisterSiteRequest reg;
  reg.set_site(name);
  *reg.mutable_schema() = schema.proto();
  if (settings) *reg.mutable_settings() = *settings;
  VERTEX_RETURN_IF_ERROR(apis.learning->RegisterSite(reg).status());
  const annotate::GazetteerSet gazetteers = workflow::ListingGazetteers(domain, 1.0, seed);
  for (size_t i = 0; i < schema.size(); ++i) {
    const v1::AttributeSchema& attr = schema.attribute(i);
    auto g = gazetteers.find(attr.gazetteer());
    if (attr.gazetteer().empty() || g == gazetteers.end()) continue;
    v1::LearnGazetteerRequest request;
    request.set_site(name);
    request.set_attribute(attr.name());
    for (const std::string& t : g->second->Terms()) request.add_seed_terms(t);
    request.set_max_rounds(1);
    for (size_t k = 0; k < client_pages.size() && k < 10; ++k) {
      v1::Page* page = request.add_pages();
      page->set_url(client_pages[k].url);
      page->set_html(client_pages[k].bytes);
    }
    VERTEX_RETURN_IF_ERROR(apis.learning->LearnGazetteer(request).status());
  }
  VERTEX_ASSIGN_OR_RETURN(workflow::ListingRunReport report,
                          workflow::RunListingSiteThroughApi(*apis.learning, *apis.extraction, name, schema,
                                                             client_pages, truth));
  std::printf("%s", workflow::FormatListingReport(name, report).c_str());
  std::fflush(stdout);
  return absl::OkStatus();
}

absl::Status Demo(const ParsedArgs& a) {
  auto start = std::chrono::steady_clock::now();
  VERTEX_ASSIGN_OR_RETURN(int64_t max_pages, a.Int("max-pages", 3, 1, 20));
  VERTEX_ASSIGN_OR_RETURN(int64_t list_first, a.Int("list-first", 0, 0, 1000));
  workflow::ApiRunOptions options;
  options.max_pages = static_cast<size_t>(max_pages);
  options.list_first = static_cast<size_t>(list_first);
  if (a.Has("no-rule-transfer")) {
    options.settings.emplace();
    options.settings->set_no_rule_transfer(true);
  }
  if (a.Has("page-builder")) {
    VERTEX_ASSIGN_OR_RETURN(const html::PageBuilder builder, PageBuilderFromFlags(a));
    if (!options.settings) options.settings.emplace();
    options.settings->set_page_builder(builder == html::PageBuilder::kLibxml2 ? v1::PAGE_BUILDER_LIBXML2
                                                                              : v1::PAGE_BUILDER_GUMBO);
  }
  VERTEX_ASSIGN_OR_RETURN(Apis apis, OpenApis(a));
  if (a.Has("proposals-from-seed")) {
    VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("proposals-from-seed", 1, 0, INT64_MAX));
    VERTEX_RETURN_IF_ERROR(TrainProposalModel(apis, a, static_cast<uint64_t>(seed), options));
    options.use_proposals = true;
  }
  const std::string where = a.Has("server") ? "on the server at " + a.String("server", "") : "in process";
  if (a.Has("pages")) {
    for (const char* needed : {"truth", "schema", "site"}) {
      if (!a.Has(needed)) return absl::InvalidArgumentError(std::string("--pages needs --") + needed);
    }
    VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
    VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::ClientPage> pages,
                            workflow::ReadClientPages({a.String("pages", "")}, 8 << 20));
    std::printf("Read %zu pages of %s; running them %s\n", pages.size(), a.String("site", "").c_str(), where.c_str());
    return RunSite(apis, a.String("site", ""), schema, pages, a.String("truth", ""), a.String("site", ""), options);
  }
  std::string dir;
  VERTEX_ASSIGN_OR_RETURN(std::vector<demo::GeneratedPage> generated, Generate(a, &dir));
  std::printf("Generated %zu demo pages in %s (%.2f s); running the site %s\n", generated.size(), dir.c_str(),
              Seconds(start), where.c_str());
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::ClientPage> pages, workflow::ReadClientPages({dir}, 8 << 20));
  for (const char* vertical : {"product", "business"}) {
    VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema,
                            schema::CompiledSchema::FromJson(demo::SchemaJson(vertical), vertical));
    const std::string truth = (std::filesystem::path(dir) / "groundtruth" / vertical).string();
    VERTEX_RETURN_IF_ERROR(
        RunSite(apis, std::string("vertexdemo-") + vertical, schema, pages, truth, "vertexdemo", options));
  }
  VERTEX_ASSIGN_OR_RETURN(int64_t listing_pages, a.Int("listing-pages", 40, 0, 10000));
  if (listing_pages > 0) {
    VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
    for (demo::ListingDomain domain : {demo::ListingDomain::kRealEstate, demo::ListingDomain::kUsedCars}) {
      VERTEX_RETURN_IF_ERROR(RunListingSite(apis, domain, static_cast<int>(listing_pages), static_cast<uint64_t>(seed),
                                            BuilderOnly(options.settings)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

int RunDemo(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = RunFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << "usage: vertexctl demo [flags]\n\nGenerates the demo site (a multi-template shop; or takes the "
                 "site in --pages), then, for the product\nand business verticals: registers the site, adds its "
                 "pages (clustered by structure), lets an editor\nsimulated from the ground truth annotate the pages "
                 "GetAnnotationTasks asks for (Learn after each,\nat most --max-pages per cluster), extracts every "
                 "page with ExtractMany (ExtractStream online) and\nprints the clusters' count, per-attribute "
                 "precision and recall, and the extraction rate.\nIn process by default; with --server, through the "
                 "gRPC services of a running vertexd\n(`bash deploy/vertex.sh demo` starts one on loopback and stops it "
                 "after).\n\nflags:\n"
              << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("demo", parsed.status());
  if (!parsed->positional.empty()) {
    return ReportError("demo", absl::InvalidArgumentError("unexpected argument " + parsed->positional[0]));
  }
  const absl::Status s = Demo(*parsed);
  return s.ok() ? 0 : ReportError("demo", s);
}

}  // namespace vertex::cli
