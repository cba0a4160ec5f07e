// feed_eval: WTM's Table 5 (../shared/papers/DIGEST.md 1.3) replicated on
// generated blogs (common/demo/blog_site.h), and what the paper did not
// measure: extraction precision and recall on held-out pages.
//
// The grid: 20 blogs = 4 templates x 5 knob sets, the feed format rotating
// over RSS 0.93, RSS 1.0, RSS 2.0 and Atom 1.0:
//   clean      no knob
//   partial    partial description (WTM code 4)
//   title      title-prefix (wordpress, table: 3), title-quotes (blogger: 3),
//              title-abbreviated (movabletype: 1)
//   dates      shared-dates (blogger and movabletype: 2), unusual-dates
//              (wordpress and table: 7)
//   links      link-proxy (wordpress, movabletype: 5) or link-tracking
//              (blogger: 8) or link-relative (table: 8), each + noisy (6 on
//              the fields the link knob leaves)
// so every Table 6 class the generator reproduces (1-8) occurs.
//
// Per blog, with no editor: a LearningEngine in process over a memory store,
// RegisterSite(blog schema), AddSamplePages(every page but the held-out
// ones), AnnotateFromFeed(feed_xml, learn = true); then ExtractionEngine on
// the held-out pages: every fourth entry page of a post the feed does not
// carry, and every second monthly archive page none of whose posts the feed
// carries.
//
// Prints (1) the Table 5 analogue: per blog and field "0A" (a rule learnt
// and accepted), "0C" (learnt, left a candidate) or the WTM code of the
// failure AnnotateFromFeed reported on the home page ("-": neither), with
// the paper's totals (14/11/12/8 of 20) and the expected_wtm of the
// paper's algorithm on the same blogs; (2) precision and recall per field on
// held-out entry pages and on held-out archive pages, values compared after
// eval::NormalizeForComparison, multi-valued attributes per value.
//
// Usage: feed_eval [--small] [--posts N] [--oracle [--unique-values]] [--matcher] [--show N] [--json]
//   --matcher  print only the labelling half of WTM on the grid: per blog
//             and field, "M" when MatchFeed (common/feed/feed_matcher.h) finds
//             the field of every feed item the home page shows, else the
//             WTM code it gives most (no learning, no extraction).
//   --show N  print on stderr the first N mismatched pages per blog, kind
//             of page and field (extracted against truth)
//   --small   two blogs (the ctest smoke run)
//   --oracle  instead of AnnotateFromFeed, a perfect annotator: the
//             generator's truth on the pages the feed labels (its entry
//             pages, and the list pages showing a feed item), at most 3
//             per cluster, through Learn. The learner's upper bound on the
//             same pages; its Table 5 cells are "L" (learnt) or the
//             learner's diagnostic code. With --unique-values each
//             distinct value of a page is annotated once (a list page's
//             authors, dates and categories repeat; Learn refuses values
//             that resolve to one node twice).
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/demo/blog_site.h"
#include "common/eval/score.h"
#include "common/feed/feed.h"
#include "common/feed/feed_matcher.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"

namespace vertex::bench {
namespace {

using demo::BlogSite;
using demo::BlogTemplate;

// The fields of Table 5 (and author), each with the truth it is scored on.
constexpr const char* kFields[] = {"title", "body", "link", "date", "author", "categories"};
constexpr const char* kTable5Fields[] = {"title", "body", "link", "date", "author"};
// The paper's successes of 20 per field (Table 5).
const std::map<std::string, int> kPaperSuccesses = {{"title", 14}, {"body", 11}, {"link", 12}, {"date", 8}};

struct BlogCase {
  BlogTemplate templ;
  feed::FeedFormat format;
  std::vector<std::string> knobs;
};

std::vector<BlogCase> Grid(bool small) {
  const BlogTemplate templates[] = {BlogTemplate::kWordPress, BlogTemplate::kBlogger, BlogTemplate::kMovableType,
                                    BlogTemplate::kTable};
  const feed::FeedFormat formats[] = {feed::FeedFormat::kRss09x, feed::FeedFormat::kRss10, feed::FeedFormat::kRss20,
                                      feed::FeedFormat::kAtom10};
  const std::map<BlogTemplate, std::vector<std::vector<std::string>>> sets = {
      {BlogTemplate::kWordPress, {{}, {"partial"}, {"title-prefix"}, {"unusual-dates"}, {"link-proxy", "noisy"}}},
      {BlogTemplate::kBlogger, {{}, {"partial"}, {"title-quotes"}, {"shared-dates"}, {"link-tracking", "noisy"}}},
      {BlogTemplate::kMovableType, {{}, {"partial"}, {"title-abbreviated"}, {"shared-dates"}, {"link-proxy", "noisy"}}},
      {BlogTemplate::kTable, {{}, {"partial"}, {"title-prefix"}, {"unusual-dates"}, {"link-relative", "noisy"}}}};
  std::vector<BlogCase> grid;
  int n = 0;
  for (BlogTemplate t : templates) {
    for (const std::vector<std::string>& knobs : sets.at(t)) grid.push_back({t, formats[n++ % 4], knobs});
  }
  if (small) return {grid[0], grid[8]};  // wordpress clean, blogger shared dates
  return grid;
}

// Per field: values extracted, correct, truth values, found.
struct Counts {
  size_t extracted = 0, correct = 0, truth = 0, found = 0;
  double precision() const { return extracted ? static_cast<double>(correct) / extracted : 1.0; }
  double recall() const { return truth ? static_cast<double>(found) / truth : 1.0; }
  void Add(const Counts& o) {
    extracted += o.extracted;
    correct += o.correct;
    truth += o.truth;
    found += o.found;
  }
};

// Mismatches to print (--show N): per field and kind of page, at most N.
int g_show = 0;
// --unique-values: the oracle annotates each distinct value of a page once.
bool g_dedupe = false;
std::map<std::string, int> g_shown;

void ShowMismatch(const std::string& where, const std::string& field, const std::vector<std::string>& extracted,
                  const std::vector<std::string>& truth) {
  if (g_shown[where + field.substr(0, field.find(' '))]++ >= g_show) return;
  auto cut = [](const std::vector<std::string>& v) {
    std::vector<std::string> out;
    for (const std::string& s : v) out.push_back(s.size() > 60 ? s.substr(0, 57) + "..." : s);
    return absl::StrJoin(out, " | ");
  };
  std::fprintf(stderr, "  %s %s:\n    extracted: %s\n    truth:     %s\n", where.c_str(), field.c_str(),
               cut(extracted).c_str(), cut(truth).c_str());
}

struct BlogResult {
  std::string name;
  std::string knobs;
  std::string format;
  std::map<std::string, int> expected;
  std::map<std::string, std::string> outcome;  // Table 5 cell per field
  std::string error;                           // AnnotateFromFeed's failure
  std::map<std::string, Counts> entry, archive;
  size_t held_entry = 0, held_archive = 0, sample = 0;
};

std::vector<std::string> TruthValues(const demo::BlogPage& page, const std::string& field) {
  std::vector<std::string> out;
  for (const demo::BlogEntryTruth& e : page.entries) {
    if (field == "title") out.push_back(e.title);
    if (field == "body") out.push_back(e.body);
    if (field == "link") out.push_back(e.permalink);
    if (field == "date" && !e.date.empty()) out.push_back(e.date);
    if (field == "author" && !e.author.empty()) out.push_back(e.author);
    if (field == "categories") out.insert(out.end(), e.categories.begin(), e.categories.end());
  }
  return out;
}

// Multiset match of normalised values.
Counts Score(const std::vector<std::string>& extracted, const std::vector<std::string>& truth) {
  Counts c;
  c.extracted = extracted.size();
  c.truth = truth.size();
  std::map<std::string, int> left;
  for (const std::string& t : truth) ++left[eval::NormalizeForComparison(t)];
  for (const std::string& v : extracted) {
    auto it = left.find(eval::NormalizeForComparison(v));
    if (it != left.end() && it->second > 0) {
      --it->second;
      ++c.correct;
    }
  }
  c.found = c.correct;
  return c;
}

// Held out: every fourth entry page of a post the feed does not carry, and
// every second monthly archive page none of whose posts the feed carries
// (the others stay in the sample, so that the list cluster's URL pattern
// and signature see old months too).
bool HeldOut(const demo::BlogPage& page, int index, const BlogSite& site) {
  if (page.kind == "entry") return !page.in_feed && index % 4 == 0;
  if (page.kind != "archive" || index % 2 != 0) return false;
  for (const demo::BlogPage& p : site.pages) {
    if (!p.in_feed) continue;
    for (const demo::BlogEntryTruth& e : page.entries) {
      if (e.permalink == p.url) return false;
    }
  }
  return true;
}

// The Table 5 cell of `field` from AnnotateFromFeed's report on the home
// page's cluster.
std::string Outcome(const v1::AnnotateFromFeedResponse& r, const std::string& home, const std::string& field) {
  std::string cluster;
  for (const v1::FeedPageAnnotations& p : r.pages()) {
    if (p.url() == home) cluster = p.cluster_id();
  }
  for (const v1::FeedClusterLearn& c : r.clusters()) {
    if (c.cluster_id() != cluster) continue;
    if (c.outcome() != v1::FeedClusterLearn::ACCEPTED && c.outcome() != v1::FeedClusterLearn::CANDIDATE) break;
    const std::string learnt = c.outcome() == v1::FeedClusterLearn::ACCEPTED ? "0A" : "0C";
    for (const v1::AttributeDiagnostic& d : c.learn().diagnostics()) {
      if (d.attribute() == field && d.learnt()) return learnt;
    }
    for (const v1::FeedClusterLearn::AttributeCheck& check : c.checks()) {
      if (check.attribute() == field) return learnt;
    }
  }
  std::map<int, int> codes;
  for (const v1::FeedFieldMatch& m : r.matches()) {
    if (m.page_url() == home && m.field() == field && !m.found()) ++codes[m.wtm_error()];
  }
  int best = 0, most = 0;
  for (const auto& [code, n] : codes) {
    if (n > most) best = code, most = n;
  }
  return best ? absl::StrCat(best) : "-";
}

// The truth of `page` as an editor's annotations, one per field with values
// in page order.
std::vector<v1::Annotation> TruthAnnotations(const demo::BlogPage& page) {
  std::vector<v1::Annotation> out;
  for (const char* field : kFields) {
    v1::Annotation a;
    a.set_url(page.url);
    a.set_attribute(field);
    std::set<std::string> seen;
    for (const std::string& v : TruthValues(page, field)) {
      if (g_dedupe ? seen.insert(v).second : true) a.add_values(v);
    }
    if (a.values().empty()) a.set_absent(true);
    out.push_back(std::move(a));
  }
  return out;
}

// A learner diagnostic code in a Table 5 cell.
std::string ShortCode(const std::string& code) {
  static const std::map<std::string, std::string> kShort = {
      {"ambiguous", "ambig"},          {"not_annotated", "noann"},
      {"value_not_found", "vnf"},      {"xpath_selects_nothing", "xnone"},
      {"no_recall_1_xpath", "norec"},  {"classifier_below_threshold", "clsfr"},
      {"range_inconsistent", "range"}, {"value_mismatch", "vmis"}};
  auto it = kShort.find(code);
  return it == kShort.end() ? code : it->second;
}

// The oracle: per cluster, up to 3 of the pages the feed labels annotated
// with their truth, then Learn. Cells per field: "L" when learnt, else the
// diagnostic's code.
absl::Status LearnFromTruth(workflow::LearningApi& learning, const std::string& name, const BlogSite& site,
                            BlogResult* result) {
  std::set<std::string> feed_links;
  for (const demo::BlogPage& p : site.pages) {
    if (p.in_feed) feed_links.insert(p.url);
  }
  v1::LocatePagesRequest locate;
  locate.set_site(name);
  VERTEX_ASSIGN_OR_RETURN(v1::LocatePagesResponse located, learning.LocatePages(locate));
  std::map<std::string, std::string> cluster_of;
  for (const v1::PageLocation& l : located.pages()) cluster_of[l.url()] = l.cluster_id();
  std::map<std::string, std::vector<const demo::BlogPage*>> chosen;
  for (const demo::BlogPage& p : site.pages) {
    bool labelled = p.in_feed;
    for (const demo::BlogEntryTruth& e : p.entries) labelled |= feed_links.count(e.permalink) > 0;
    const std::string cluster = cluster_of.count(p.url) ? cluster_of[p.url] : "";
    if (labelled && !cluster.empty() && chosen[cluster].size() < 3) chosen[cluster].push_back(&p);
  }
  if (g_show > 0) {
    for (const v1::PageLocation& l : located.pages()) {
      if (l.url() == site.pages[0].url) {
        std::fprintf(stderr, "  %s home page: %s %s (nearest %s, agreement %u)\n", result->name.c_str(),
                     l.how().c_str(), l.cluster_id().c_str(), l.nearest_cluster().c_str(), l.agreement());
      }
    }
    for (const auto& [cluster, pages] : chosen) {
      std::fprintf(stderr, "  %s cluster %s: %zu pages annotated, first %s\n", result->name.c_str(), cluster.c_str(),
                   pages.size(), pages[0]->url.c_str());
    }
  }
  // The home page's cluster first (rule transfer may merge a cluster into
  // one learnt before it: the other is then skipped).
  std::vector<std::string> order;
  const std::string home_cluster = cluster_of[site.pages[0].url];
  if (chosen.count(home_cluster)) order.push_back(home_cluster);
  for (const auto& [cluster, pages] : chosen) {
    if (cluster != home_cluster) order.push_back(cluster);
  }
  for (const std::string& cluster : order) {
    const std::vector<const demo::BlogPage*>& pages = chosen[cluster];
    v1::LearnRequest learn;
    learn.set_site(name);
    learn.set_cluster_id(cluster);
    for (const demo::BlogPage* p : pages) {
      for (v1::Annotation& a : TruthAnnotations(*p)) *learn.add_annotations() = std::move(a);
    }
    absl::StatusOr<v1::LearnResponse> learnt = learning.Learn(learn);
    if (absl::IsNotFound(learnt.status())) {  // merged by rule transfer into a cluster learnt before
      if (g_show > 0)
        std::fprintf(stderr, "  %s cluster %s: %s\n", result->name.c_str(), cluster.c_str(),
                     learnt.status().ToString().c_str());
      continue;
    }
    VERTEX_RETURN_IF_ERROR(learnt.status());
    if (cluster != home_cluster) continue;  // the home page's cluster fills Table 5
    for (const v1::AttributeDiagnostic& d : learnt->diagnostics()) {
      if (g_show > 0 && !d.learnt()) {
        std::fprintf(stderr, "  %s cluster %s %s: %s: %s\n", result->name.c_str(), cluster.c_str(),
                     d.attribute().c_str(), d.code().c_str(), d.message().c_str());
      }
      result->outcome[d.attribute()] = d.learnt() ? "L" : ShortCode(d.code());
    }
  }
  return absl::OkStatus();
}

// AnnotateFromFeed(feed_xml, learn = true); the Table 5 cells from its
// report, or "n/a" and the error when it fails.
void AnnotateFromFeed(workflow::LearningApi& learning, const std::string& name, const BlogSite& site,
                      BlogResult* result) {
  v1::AnnotateFromFeedRequest request;
  request.set_site(name);
  request.set_feed_url(site.feed_url);
  request.set_feed_xml(site.feed_xml);
  request.set_learn(true);
  absl::StatusOr<v1::AnnotateFromFeedResponse> annotated = learning.AnnotateFromFeed(request);
  for (const char* field : kTable5Fields) {
    result->outcome[field] = annotated.ok() ? Outcome(*annotated, site.pages[0].url, field) : "n/a";
  }
  if (!annotated.ok()) result->error = annotated.status().ToString();
}

// The blog of grid cell `index` (0-based; seed index + 1, its own host).
absl::StatusOr<BlogSite> GenerateCase(const BlogCase& c, int posts, int index) {
  demo::BlogSiteOptions o;
  o.templ = c.templ;
  o.feed_format = c.format;
  o.posts = posts;
  o.seed = static_cast<uint64_t>(index + 1);
  o.host = absl::StrCat("blog", index + 1, ".vertex-demo.test");
  for (const std::string& k : c.knobs) VERTEX_RETURN_IF_ERROR(demo::ApplyBlogKnob(k, &o));
  return demo::GenerateBlogSite(o);
}

// A result naming the blog, its knobs and feed format, with the paper's
// expected outcome; the cells are filled in by the caller.
BlogResult ResultHeader(const BlogCase& c, const BlogSite& site, int index) {
  BlogResult result;
  result.name = absl::StrCat(index + 1, " ", demo::BlogTemplateName(c.templ));
  result.knobs = demo::BlogKnobsString(site.options);
  result.format = feed::FeedFormatName(c.format);
  result.expected = site.expected_wtm;
  return result;
}

absl::StatusOr<BlogResult> RunBlog(const BlogCase& c, int posts, int index, bool oracle) {
  VERTEX_ASSIGN_OR_RETURN(const BlogSite site, GenerateCase(c, posts, index));
  BlogResult result = ResultHeader(c, site, index);

  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  workflow::ExtractionEngine extraction(store.get(), {});
  workflow::LearningEngine learning(store.get(), {}, [&extraction](const std::string&) { (void)extraction.Refresh(); });
  VERTEX_ASSIGN_OR_RETURN(const schema::CompiledSchema schema,
                          schema::CompiledSchema::FromJson(demo::BlogSchemaJson(), "blog"));
  const std::string name = absl::StrCat("blog", index + 1);
  v1::RegisterSiteRequest reg;
  reg.set_site(name);
  *reg.mutable_schema() = schema.proto();
  // Vertex's pruning threshold 20 over the whole sample (the generator's
  // default blog gives one list and one entry cluster with it).
  reg.mutable_settings()->set_prune_threshold(20);
  reg.mutable_settings()->set_sample_rate(1.0);
  VERTEX_RETURN_IF_ERROR(learning.RegisterSite(reg).status());

  std::vector<workflow::ClientPage> sample, held;
  std::vector<const demo::BlogPage*> held_pages;
  int entry_index = 0, archive_index = 0;
  for (const demo::BlogPage& p : site.pages) {
    const bool out = HeldOut(p, p.kind == "entry" ? entry_index++ : p.kind == "archive" ? archive_index++ : 0, site);
    (out ? held : sample).push_back({p.file_name, p.url, p.html});
    if (out) held_pages.push_back(&p);
  }
  result.sample = sample.size();
  VERTEX_RETURN_IF_ERROR(workflow::AddPages(learning, name, sample, {}).status());

  if (oracle) {
    for (const char* field : kTable5Fields) result.outcome[field] = "-";
    VERTEX_RETURN_IF_ERROR(LearnFromTruth(learning, name, site, &result));
  } else {
    AnnotateFromFeed(learning, name, site, &result);
  }

  std::vector<v1::ExtractResponse> responses;
  VERTEX_RETURN_IF_ERROR(workflow::ExtractPages(extraction, name, held, {}, &responses));
  for (size_t i = 0; i < held_pages.size() && i < responses.size(); ++i) {
    const demo::BlogPage& page = *held_pages[i];
    auto& counts = page.kind == "entry" ? result.entry : result.archive;
    (page.kind == "entry" ? result.held_entry : result.held_archive)++;
    for (const char* field : kFields) {
      std::vector<std::string> values;
      for (const v1::ExtractedAttribute& a : responses[i].record().attributes()) {
        if (a.attribute() == field) values.assign(a.values().begin(), a.values().end());
      }
      const std::vector<std::string> truth = TruthValues(page, field);
      const Counts c = Score(values, truth);
      if (g_show > 0 && (c.correct != c.extracted || c.found != c.truth)) {
        ShowMismatch(absl::StrCat(result.name, " ", page.kind),
                     absl::StrCat(field, " ", page.url, " (", page.entries.size(), " entries, ",
                                  v1::ExtractedRecord::Status_Name(responses[i].record().status()), " ",
                                  responses[i].record().cluster_id(), ")"),
                     values, truth);
      }
      counts[field].Add(c);
    }
  }
  return result;
}

// The matcher's Table 5 cells of one blog: the feed parsed, the home page
// matched.
absl::StatusOr<BlogResult> MatchBlog(const BlogCase& c, int posts, int index) {
  VERTEX_ASSIGN_OR_RETURN(const BlogSite site, GenerateCase(c, posts, index));
  BlogResult result = ResultHeader(c, site, index);
  feed::FeedParseOptions parse;
  parse.url = site.feed_url;
  VERTEX_ASSIGN_OR_RETURN(const feed::Feed parsed, feed::ParseFeed(site.feed_xml, parse));
  html::Parser parser;
  VERTEX_ASSIGN_OR_RETURN(const html::Page home, parser.Parse(site.pages[0].html, site.pages[0].url));
  const feed::FeedMatchResult matched = feed::MatchFeed(parsed, {&home});
  for (const char* field : kTable5Fields) {
    std::map<int, int> codes;
    int found = 0;
    for (const feed::FieldMatch& m : matched.matches) {
      if (m.field != field || m.page_url.empty()) continue;
      m.found ? ++found : ++codes[static_cast<int>(m.wtm_error)];
      if (!m.found && g_show > 0 && g_shown[result.name + field]++ < g_show) {
        std::fprintf(stderr, "  %s %s %s: %s (%s)\n", result.name.c_str(), field, m.item_link.c_str(),
                     feed::WtmErrorName(m.wtm_error), m.how.c_str());
      }
    }
    int best = 0, most = 0;
    for (const auto& [code, n] : codes) {
      if (n > most) best = code, most = n;
    }
    result.outcome[field] = found > 0 && codes.empty() ? "M" : best ? absl::StrCat(best) : "-";
  }
  return result;
}

bool Success(const std::string& cell) { return cell == "0A" || cell == "0C" || cell == "L" || cell == "M"; }

void PrintTable5(const std::vector<BlogResult>& results) {
  std::printf(
      "Table 5 analogue (0A: rule learnt and accepted, 0C: learnt as a candidate, N: WTM code of the\n"
      "failure on the home page, -: no rule and no code; expected: the paper's algorithm on the blog;\n"
      "--matcher: M every item's field found on the home page, else the matcher's WTM code;\n"
      "--oracle: L learnt, else the learner's diagnostic: norec no_recall_1_xpath, clsfr\n"
      "classifier_below_threshold, vnf value_not_found, ambig, noann, xnone, range, vmis)\n\n");
  std::printf("%-16s %-30s %-8s", "blog", "knobs", "feed");
  for (const char* f : kTable5Fields) std::printf(" %-6s", f);
  std::printf("   expected: title body link date\n");
  std::map<std::string, int> ours, expected;
  for (const BlogResult& r : results) {
    std::printf("%-16s %-30s %-8s", r.name.c_str(), r.knobs.c_str(), r.format.c_str());
    for (const char* f : kTable5Fields) {
      std::printf(" %-6s", r.outcome.at(f).c_str());
      ours[f] += Success(r.outcome.at(f));
    }
    std::printf("             %d    %d    %d    %d\n", r.expected.at("title"), r.expected.at("body"),
                r.expected.at("link"), r.expected.at("date"));
    for (const auto& [f, code] : r.expected) expected[f] += code == 0;
  }
  std::printf("\n%-16s %8s %10s %10s\n", "successes", "ours", "expected", "paper");
  for (const char* f : kTable5Fields) {
    const auto paper = kPaperSuccesses.find(f);
    std::printf("%-16s %5d/%zu %7s %10s\n", f, ours[f], results.size(),
                expected.count(f) ? absl::StrCat(expected[f], "/", results.size()).c_str() : "-",
                paper != kPaperSuccesses.end() ? absl::StrCat(paper->second, "/20").c_str() : "-");
  }
}

void PrintPr(const std::vector<BlogResult>& results) {
  std::map<std::string, Counts> entry, archive;
  size_t held_entry = 0, held_archive = 0;
  for (const BlogResult& r : results) {
    for (const auto& [f, c] : r.entry) entry[f].Add(c);
    for (const auto& [f, c] : r.archive) archive[f].Add(c);
    held_entry += r.held_entry;
    held_archive += r.held_archive;
  }
  std::printf(
      "\nExtraction on held-out pages the feed never mentioned (%zu entry, %zu archive pages; goal P >= 0.99,"
      " R >= 0.98)\n",
      held_entry, held_archive);
  std::printf("%-12s %9s %9s %9s   %9s %9s %9s\n", "field", "entry P", "entry R", "values", "archive P", "archive R",
              "values");
  for (const char* f : kFields) {
    std::printf("%-12s %9.4f %9.4f %9zu   %9.4f %9.4f %9zu\n", f, entry[f].precision(), entry[f].recall(),
                entry[f].truth, archive[f].precision(), archive[f].recall(), archive[f].truth);
  }
  // Recall per template (precision is printed above for all).
  std::map<std::string, std::map<std::string, Counts>> by_template;
  for (const BlogResult& r : results) {
    const std::string t = r.name.substr(r.name.find(' ') + 1);
    for (const auto& [f, c] : r.entry) by_template[t + " entry"][f].Add(c);
    for (const auto& [f, c] : r.archive) by_template[t + " archive"][f].Add(c);
  }
  std::printf("\nRecall (precision) per template\n%-20s", "");
  for (const char* f : kFields) std::printf(" %-16s", f);
  std::printf("\n");
  for (const auto& [t, counts] : by_template) {
    std::printf("%-20s", t.c_str());
    for (const char* f : kFields) {
      const auto it = counts.find(f);
      const Counts c = it == counts.end() ? Counts{} : it->second;
      std::printf(" %.3f (%.3f)    ", c.recall(), c.precision());
    }
    std::printf("\n");
  }
  for (const BlogResult& r : results) {
    if (!r.error.empty()) std::printf("%s: AnnotateFromFeed: %s\n", r.name.c_str(), r.error.c_str());
  }
}

void WriteCounts(util::JsonWriter& w, const std::map<std::string, Counts>& counts) {
  w.BeginObject();
  for (const auto& [f, c] : counts) {
    w.Key(f).BeginObject();
    w.Key("extracted").Uint(c.extracted).Key("correct").Uint(c.correct).Key("truth").Uint(c.truth);
    w.Key("precision").Double(c.precision()).Key("recall").Double(c.recall());
    w.EndObject();
  }
  w.EndObject();
}

std::string Json(const std::vector<BlogResult>& results) {
  util::JsonWriter w;
  w.BeginArray();
  for (const BlogResult& r : results) {
    w.BeginObject();
    w.Key("blog").String(r.name).Key("knobs").String(r.knobs).Key("feed").String(r.format);
    w.Key("outcome").BeginObject();
    for (const auto& [f, cell] : r.outcome) w.Key(f).String(cell);
    w.EndObject();
    w.Key("expected_wtm").BeginObject();
    for (const auto& [f, code] : r.expected) w.Key(f).Int(code);
    w.EndObject();
    w.Key("error").String(r.error);
    w.Key("sample_pages").Uint(r.sample).Key("held_entry_pages").Uint(r.held_entry);
    w.Key("held_archive_pages").Uint(r.held_archive);
    w.Key("entry");
    WriteCounts(w, r.entry);
    w.Key("archive");
    WriteCounts(w, r.archive);
    w.EndObject();
  }
  w.EndArray();
  return w.Release() + "\n";
}

int Main(int argc, char** argv) {
  bool small = false, json = false, oracle = false, matcher = false;
  int posts = 120;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) {
      small = true;
    } else if (!std::strcmp(argv[i], "--show") && i + 1 < argc) {
      g_show = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--matcher")) {
      matcher = true;
    } else if (!std::strcmp(argv[i], "--unique-values")) {
      g_dedupe = true;
    } else if (!std::strcmp(argv[i], "--oracle")) {
      oracle = true;
    } else if (!std::strcmp(argv[i], "--json")) {
      json = true;
    } else if (!std::strcmp(argv[i], "--posts") && i + 1 < argc) {
      posts = std::atoi(argv[++i]);
    } else {
      std::fprintf(
          stderr,
          "usage: feed_eval [--small] [--posts N] [--oracle [--unique-values]] [--matcher] [--show N] [--json]\n");
      return 2;
    }
  }
  std::vector<BlogResult> results;
  const std::vector<BlogCase> grid = Grid(small);
  for (size_t i = 0; i < grid.size(); ++i) {
    absl::StatusOr<BlogResult> r =
        matcher ? MatchBlog(grid[i], posts, static_cast<int>(i)) : RunBlog(grid[i], posts, static_cast<int>(i), oracle);
    if (!r.ok()) {
      std::fprintf(stderr, "feed_eval: blog %zu: %s\n", i + 1, r.status().ToString().c_str());
      return 1;
    }
    if (!matcher && (r->held_entry == 0 || r->held_archive == 0)) {
      std::fprintf(stderr, "feed_eval: blog %zu: no held-out entry or archive page\n", i + 1);
      return 1;
    }
    std::fprintf(stderr, "  %s (%s) done\n", r->name.c_str(), r->knobs.c_str());
    results.push_back(*std::move(r));
  }
  if (json) {
    std::fputs(Json(results).c_str(), stdout);
    return 0;
  }
  PrintTable5(results);
  if (!matcher) PrintPr(results);
  return 0;
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) { return vertex::bench::Main(argc, argv); }
