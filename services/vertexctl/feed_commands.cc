// vertexctl feed annotate: a site's sample pages annotated from its RSS/Atom
// feed and, with --learn, its rules learnt with no editor
// (LearningApi::AnnotateFromFeed), offline or online (backend.h).
#include <algorithm>
#include <iostream>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/site/page_file.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/common/engine_flags.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

// The flags that set the in-process engine (--store only): clustering and
// the fetcher of --feed URL and --fetch-missing.
std::vector<FlagSpec> OfflineFeedFlags() {
  std::vector<FlagSpec> flags = OfflineLearningFlags();
  for (const FlagSpec& f : FetchFlagSpecs()) flags.push_back(f);
  return flags;
}

std::vector<FlagSpec> FeedFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory"),
      {"site", "NAME", "the site (registered, e.g. with deploy/schemas/blog.json)"},
      {"feed", "URL|FILE", "the site's RSS/Atom feed: an http(s) URL (fetched by the server, or offline by vertexctl) "
                           "or a file"},
      {"feed-url", "URL", "with --feed FILE: the URL the feed was read from (the base of its relative links)"},
      {"pages", "DIR", "first add the page files of DIR (*.htm, *.html) to the site's sample, as site add-pages does"},
      {"page", "URL", "annotate only this sample page (repeatable; default: every sample page)"},
      {"learn", "", "learn each cluster with annotated pages; accept the rule when it reproduces the feed"},
      {"fetch-missing", "", "fetch the entry pages of feed items not in the sample and add them"},
      {"learn-pages", "N", "annotated pages per cluster the rule is learnt from (default 3)"},
      {"allow-attribute-loss", "", "with --learn: store a rule even when it lacks an attribute the current rule has"},
      {"map", "FIELD=ATTR", "feed field -> schema attribute (repeatable; default: each field to its namesake)"},
      {"json", "", "print the AnnotateFromFeedResponse as one line of JSON instead of the report"},
  };
  for (FlagSpec f : ServerFlags("the learning service")) {
    if (f.name == "timeout") f.help = "--server: deadline of the call (default 3600)";
    flags.push_back(f);
  }
  for (const FlagSpec& f : OfflineFeedFlags()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kFeedUsage[] =
    "usage: vertexctl feed annotate --site SITE --feed URL|FILE [--feed-url URL] [--pages DIR]\n"
    "                               [--page URL]... [--learn] [--fetch-missing] [--learn-pages N]\n"
    "                               [--allow-attribute-loss] [--map FIELD=ATTR]... [--json]\n"
    "                               (--store DIR | --server HOST:PORT)\n"
    "\n"
    "Annotates the site's sample pages from its feed with no editor (WTM's matcher: issue 15).\n"
    "Every feed item's entry page (the sample page whose URL is the item's link) gets title, link,\n"
    "date, author, body and categories annotations where the page shows them, and every list page\n"
    "(home, archives) showing feed items gets them as lists in page order. With --pages DIR, the\n"
    "directory's pages are added to the sample first (as site add-pages: the sample is clustered\n"
    "again). With --learn, each cluster with annotated pages is learnt from --learn-pages of them\n"
    "(the cluster's annotation order first) into a candidate rule, which is applied to the\n"
    "cluster's other annotated pages: it becomes the current rule (ACCEPTED) when every attribute\n"
    "checked gives the feed's values on every such page, else it waits as the cluster's candidate\n"
    "(CANDIDATE: vertexctl rules accept|reject SITE CLUSTER); NOT_LEARNT says why nothing was.\n"
    "A rule without an attribute the cluster's current rule has is refused (NOT_LEARNT) unless\n"
    "--allow-attribute-loss (what feed monitoring's repair sets after a template change).\n"
    "\n"
    "Prints the feed, then per annotated page its kind, cluster and annotations, a match table\n"
    "(one row per feed item and field: found how on its entry page, or not found with WTM's error\n"
    "class: abbreviated, shared_date, different_title, partial_description, feed_limitation,\n"
    "noise, not_supported, missing_value; and on how many list pages it was found), a summary\n"
    "per field, and per cluster learnt the outcome, the version and the checks. With --json, the\n"
    "AnnotateFromFeedResponse as one line of JSON (protobuf JSON mapping of\n"
    "proto/vertex/v1/learning.proto).\n"
    "\n"
    "It cannot learn from a feed whose items' pages are not in the sample (add them with --pages,\n"
    "or --fetch-missing), nor from pages no cluster covers (too few of one template: lower the\n"
    "site's --threshold); a feed with summaries only annotates no body (partial_description).\n"
    "Exit code: 0 done (whatever the outcomes); 1 an error; 2 a usage error.\n"
    "\n";

constexpr char kFeedFlagsHeader[] =
    "The clustering flags, --unannotated, the --fetch-* flags, --user-agent and --ignore-robots\n"
    "apply with --store only (a server uses its own fetcher for --feed URL and --fetch-missing).\n"
    "\n"
    "flags:\n";

bool IsHttpUrl(const std::string& s) {
  return absl::StartsWithIgnoreCase(s, "http://") || absl::StartsWithIgnoreCase(s, "https://");
}

absl::StatusOr<v1::AnnotateFromFeedRequest> FeedRequestOf(const ParsedArgs& a) {
  v1::AnnotateFromFeedRequest request;
  request.set_site(a.String("site", ""));
  for (const std::string& url : a.List("page")) request.add_page_urls(url);
  for (const std::string& pair : a.List("map")) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size()) {
      return absl::InvalidArgumentError("--map takes FIELD=ATTRIBUTE, not \"" + pair + "\"");
    }
    (*request.mutable_field_to_attribute())[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  request.set_learn(a.Has("learn"));
  request.set_fetch_missing(a.Has("fetch-missing"));
  request.set_allow_attribute_loss(a.Has("allow-attribute-loss"));
  VERTEX_ASSIGN_OR_RETURN(const int64_t learn_pages, a.Int("learn-pages", 0, 1, 1000));
  request.set_learn_pages(static_cast<uint32_t>(learn_pages));
  const std::string feed = a.String("feed", "");
  if (IsHttpUrl(feed)) {
    if (a.Has("feed-url")) return absl::InvalidArgumentError("--feed-url applies to --feed FILE only");
    request.set_feed_url(feed);
  } else {
    VERTEX_ASSIGN_OR_RETURN(*request.mutable_feed_xml(), util::ReadFile(feed));
    request.set_feed_url(a.String("feed-url", ""));  // the base of its relative links
  }
  return request;
}

// The in-process engine's options: the clustering flags and a fetcher.
absl::StatusOr<workflow::LearningEngineOptions> OfflineOptions(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, LearningOptionsFromFlags(a));
  if (a.Has("server")) return options;
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions fetch_options, FetchOptionsFromArgs(a));
  options.fetcher = fetch::NewCurlFetcher(fetch_options);
  return options;
}

// `s` on one line, cut at `max` bytes (at a character boundary).
std::string Short(const std::string& s, size_t max = 60) {
  std::string one = s;
  std::replace(one.begin(), one.end(), '\n', ' ');
  if (one.size() <= max) return one;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(one[end]) & 0xC0) == 0x80) --end;
  return one.substr(0, end) + "...";
}

std::string AnnotationLine(const v1::Annotation& a) {
  std::string out = "    " + a.attribute() + std::string(a.attribute().size() < 12 ? 12 - a.attribute().size() : 1, ' ');
  if (a.values_size() > 0) {
    absl::StrAppend(&out, "\"", Short(a.values(0)), "\"");
    if (a.values_size() > 1) absl::StrAppend(&out, " and ", a.values_size() - 1, " more");
  } else if (!a.value().empty()) {
    absl::StrAppend(&out, "\"", Short(a.value()), "\"");
  }
  if (!a.xpath().empty()) absl::StrAppend(&out, a.values_size() > 0 || !a.value().empty() ? " at " : "", Short(a.xpath(), 90));
  if (a.partial()) absl::StrAppend(&out, " (partial: the page shows more entries)");
  return out + "\n";
}

void PrintPages(const v1::AnnotateFromFeedResponse& r) {
  for (const v1::FeedPageAnnotations& p : r.pages()) {
    std::cout << "  " << p.kind() << (p.kind() == "list" ? "   " : "  ")
              << (p.cluster_id().empty() ? "(no cluster)" : p.cluster_id()) << "  " << p.url() << "  "
              << p.item_links_size() << (p.item_links_size() == 1 ? " item\n" : " items\n");
    for (const v1::Annotation& a : p.annotations()) std::cout << AnnotationLine(a);
  }
}

// One row per (item, field): the entry page's report, and the list pages'.
struct MatchRow {
  const v1::FeedFieldMatch* entry = nullptr;
  int list_found = 0, list_pages = 0;
};

std::string EntryCell(const MatchRow& row) {
  if (row.entry == nullptr) return "no entry page";
  const v1::FeedFieldMatch& m = *row.entry;
  if (m.found()) return "found: " + Short(m.how(), 50);
  return absl::StrCat("NOT FOUND ", m.wtm_error(), " ", m.wtm_error_name(), ": ", Short(m.how(), 50));
}

void PrintMatchTable(const v1::AnnotateFromFeedResponse& r) {
  std::map<std::string, std::string> kind_of;
  for (const v1::FeedPageAnnotations& p : r.pages()) kind_of[p.url()] = p.kind();
  std::vector<std::pair<std::string, std::string>> order;  // (item, field)
  std::map<std::pair<std::string, std::string>, MatchRow> rows;
  std::map<std::string, std::pair<int, int>> per_field;  // field -> (found, rows) on entry pages
  for (const v1::FeedFieldMatch& m : r.matches()) {
    const std::pair<std::string, std::string> key{m.item_link(), m.field()};
    auto [it, added] = rows.try_emplace(key);
    if (added) order.push_back(key);
    if (m.page_url().empty() || kind_of[m.page_url()] == "entry") {
      it->second.entry = &m;
    } else {
      ++it->second.list_pages;
      it->second.list_found += m.found() ? 1 : 0;
    }
  }
  std::cout << "matches (item, field: on its entry page; on list pages):\n";
  for (const auto& key : order) {
    const MatchRow& row = rows[key];
    std::cout << "  " << Short(key.first, 50) << "  " << key.second
              << std::string(key.second.size() < 11 ? 11 - key.second.size() : 1, ' ') << EntryCell(row);
    if (row.list_pages > 0) std::cout << "; lists " << row.list_found << "/" << row.list_pages;
    std::cout << "\n";
    if (row.entry != nullptr && row.entry->page_url().size() > 0) {
      ++per_field[key.second].second;
      per_field[key.second].first += row.entry->found() ? 1 : 0;
    }
  }
  std::vector<std::string> summary;
  for (const auto& [field, counts] : per_field) summary.push_back(absl::StrCat(field, " ", counts.first, "/", counts.second));
  std::cout << "found on entry pages: " << (summary.empty() ? "no entry page" : absl::StrJoin(summary, ", ")) << "\n";
}

std::string ClusterLine(const v1::FeedClusterLearn& c) {
  const std::string outcome = v1::FeedClusterLearn::Outcome_Name(c.outcome());
  std::string out = "  " + c.cluster_id() + "  " + outcome + std::string(outcome.size() < 11 ? 11 - outcome.size() : 1, ' ');
  if (c.version() > 0) absl::StrAppend(&out, "v", c.version(), "; ");
  absl::StrAppend(&out, "learnt from ", c.learnt_from_size(), ", checked on ", c.checked_on_size());
  std::vector<std::string> checks;
  for (const v1::FeedClusterLearn::AttributeCheck& a : c.checks()) {
    checks.push_back(absl::StrCat(a.attribute(), " ", a.reproduced(), "/", a.pages()));
  }
  if (!checks.empty()) absl::StrAppend(&out, ": ", absl::StrJoin(checks, ", "));
  if (!c.reason().empty()) absl::StrAppend(&out, "; ", c.reason());
  out += "\n";
  for (const v1::FeedClusterLearn::AttributeCheck& a : c.checks()) {
    for (const std::string& m : a.mismatches()) out += "      " + a.attribute() + ": " + m + "\n";
  }
  return out;
}

void PrintFeedReport(const v1::AnnotateFromFeedResponse& r) {
  std::cout << "feed: " << r.feed_format() << ", " << r.feed_items() << (r.feed_items() == 1 ? " item\n" : " items\n");
  for (const std::string& u : r.fetched()) std::cout << "  fetched " << u << "\n";
  for (const std::string& e : r.fetch_errors()) std::cout << "  not fetched: " << e << "\n";
  std::cout << "annotated pages: " << r.pages_size() << "\n";
  PrintPages(r);
  PrintMatchTable(r);
  if (r.clusters_size() > 0) std::cout << "clusters:\n";
  for (const v1::FeedClusterLearn& c : r.clusters()) std::cout << ClusterLine(c);
}

absl::Status Feed(const ParsedArgs& a) {
  const std::string sub = a.positional.empty() ? "" : a.positional[0];
  if (sub != "annotate") return absl::InvalidArgumentError("give the subcommand: annotate (see --help)");
  if (a.positional.size() > 1) return absl::InvalidArgumentError("unexpected argument " + a.positional[1]);
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site", "feed"}));
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  VERTEX_RETURN_IF_ERROR(RejectOfflineFlags(a, OfflineFeedFlags()));
  VERTEX_ASSIGN_OR_RETURN(const v1::AnnotateFromFeedRequest request, FeedRequestOf(a));
  std::vector<std::string> files;
  if (a.Has("pages")) {
    VERTEX_ASSIGN_OR_RETURN(files, site::ExpandPagePaths({a.String("pages", "")}));
  }
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, OfflineOptions(a));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, StoreMode::kMustExist, options));
  if (!files.empty()) {
    VERTEX_ASSIGN_OR_RETURN(const AddedPages added, AddSamplePagesInBatches(*backend.api, request.site(), files, false));
    std::cerr << "added " << added.response.pages_added() << " pages (" << added.response.errors_size()
              << " not usable); the sample has " << added.response.sample_pages() << " pages in "
              << added.response.clusters_size() << " clusters\n";
  }
  VERTEX_ASSIGN_OR_RETURN(const v1::AnnotateFromFeedResponse response, backend->AnnotateFromFeed(request));
  if (a.Has("json")) return PrintJson(response);
  PrintFeedReport(response);
  return absl::OkStatus();
}

}  // namespace

int RunFeed(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = FeedFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kFeedUsage << BackendHelp("the learning service") << "\n" << kFeedFlagsHeader << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("feed", parsed.status());
  const absl::Status s = Feed(*parsed);
  return s.ok() ? 0 : ReportError("feed", s);
}

}  // namespace vertex::cli
