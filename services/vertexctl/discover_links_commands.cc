// vertexctl discover-links: the detail-page URLs the list model's hot-lists
// give on category pages (common/lists/link_discovery.h), and with --add the
// pages fetched (common/fetch: robots.txt, politeness) and added to a site's
// sample through AddSamplePages, offline or over --server.
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/fetch/fetcher.h"
#include "common/html/page.h"
#include "common/lists/link_discovery.h"
#include "common/site/page_file.h"
#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "services/common/engine_flags.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

constexpr char kUsage[] =
    "usage: vertexctl discover-links (--store DIR | --server HOST:PORT) [--model-version N]\n"
    "                                [--known FILE] [--other-hosts] [--json]\n"
    "                                [--site SITE --add] PAGE_DIR_OR_FILE...\n"
    "\n"
    "Finds the detail-page URLs the list model's hot-lists give on the given category pages\n"
    "(files; a <base href=\"URL\"> first line gives a file's URL, as for site add-pages). The\n"
    "hot-lists that are the pages' items are told from menus, footers and pagination by the\n"
    "model's scores and by the site's structure: a hot-list whose structure recurs on most\n"
    "pages with links that differ from page to page is content; one whose links repeat is\n"
    "navigation. Links are resolved, fragments dropped, on the pages' hosts only unless\n"
    "--other-hosts; the pages themselves and the URLs of --known (one per line) left out.\n"
    "The model is the store's latest (or --model-version); over --server the GetListModel RPC.\n"
    "\n"
    "Output: one line per URL, \"URL<TAB>TEXT<TAB>FROM_PAGE\"; with --json one object\n"
    "{\"links\":[{\"url\",\"text\",\"from_page\",\"score\",\"structure\"}],\"structures\":[{\"structure\",\n"
    "\"pages\",\"link_occurrences\",\"repeated\",\"expected_items\",\"verdict\"}]} and, with --add,\n"
    "\"fetched\", \"failed\":[{\"url\",\"error\"}] and \"added\" (the AddSamplePagesResponse).\n"
    "--add fetches every URL (robots.txt obeyed, one request at a time per host, --fetch-* flags)\n"
    "and adds the pages to the sample of --site, which is then clustered. A URL that cannot be\n"
    "fetched is reported on stderr (\"URL: reason\") and the rest are still added.\n"
    "Exit code: 0 done (even with unfetchable URLs); 1 an error (no model, a bad page, the\n"
    "AddSamplePages call); 2 a usage error.\n";

std::vector<FlagSpec> Flags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (the model, and the sample with --add)"),
      {"model-version", "N", "the list model's version (default: the latest)"},
      {"known", "FILE", "URLs to leave out, one per line"},
      {"other-hosts", "", "keep links to other hosts than their page's"},
      {"json", "", "print JSON (see above)"},
      {"site", "SITE", "--add: the site whose sample gets the pages"},
      {"add", "", "fetch the URLs and add them to the sample of --site"},
  };
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  for (const FlagSpec& f : FetchFlagSpecs()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

// The pages read and parsed (an error names the file).
absl::StatusOr<std::vector<html::Page>> ReadPages(const std::vector<std::string>& args) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(args));
  html::Parser parser;
  std::vector<html::Page> pages;
  for (const std::string& file : files) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile f, site::ReadPageFile(file, parser.options().max_page_bytes));
    absl::StatusOr<html::Page> page = parser.Parse(f.bytes, f.url);
    if (!page.ok()) {
      return absl::Status(page.status().code(), absl::StrCat("page ", file, ": ", page.status().message()));
    }
    pages.push_back(*std::move(page));
  }
  return pages;
}

absl::StatusOr<std::set<std::string>> ReadKnown(const ParsedArgs& a) {
  std::set<std::string> known;
  if (!a.Has("known")) return known;
  VERTEX_ASSIGN_OR_RETURN(std::string text, util::ReadFile(a.String("known", "")));
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::string url = lists::NormalizeUrl(std::string(absl::StripAsciiWhitespace(line)));
    if (!url.empty()) known.insert(url);
  }
  return known;
}

// The list model: offline the store's; online the GetListModel RPC.
absl::StatusOr<v1::ListModel> LoadModel(const ParsedArgs& a, const Backend<workflow::LearningApi>& backend) {
  VERTEX_ASSIGN_OR_RETURN(int64_t version, a.Int("model-version", 0, 0, INT64_MAX));
  if (backend.store == nullptr) {
    return absl::UnimplementedError(
        "discover-links over --server needs the GetListModel RPC, which this build's client lacks; use --store");
  }
  absl::StatusOr<v1::ListModel> model = backend.store->GetListModel(version);
  if (absl::IsNotFound(model.status())) {
    return absl::NotFoundError(absl::StrCat("no list model", version ? absl::StrCat(" of version ", version) : "",
                                            " in the store (train one with vertexctl list-model train)"));
  }
  return model;
}

// What --add did.
struct AddResult {
  size_t fetched = 0;
  std::vector<std::pair<std::string, std::string>> failed;  // (url, error)
  v1::AddSamplePagesResponse response;
};

absl::StatusOr<AddResult> FetchAndAdd(const ParsedArgs& a, workflow::LearningApi& api,
                                      const std::vector<lists::DiscoveredLink>& links) {
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions options, FetchOptionsFromArgs(a));
  std::unique_ptr<fetch::Fetcher> fetcher = fetch::NewCurlFetcher(options);
  AddResult result;
  std::vector<v1::Page> pages;
  for (const lists::DiscoveredLink& link : links) {
    absl::StatusOr<fetch::FetchResult> got = fetcher->Fetch(link.url);
    if (!got.ok()) {
      std::cerr << "vertexctl discover-links: " << got.status().message() << "\n";
      result.failed.emplace_back(link.url, std::string(got.status().message()));
      continue;
    }
    v1::Page page;
    page.set_url(got->final_url.empty() ? link.url : got->final_url);
    page.set_html(std::move(got->body));
    page.set_file(link.url);
    pages.push_back(std::move(page));
  }
  result.fetched = pages.size();
  const BatchLimits limits;
  for (size_t begin = 0; begin < pages.size(); begin += limits.max_pages) {
    const size_t end = std::min(pages.size(), begin + limits.max_pages);
    v1::AddSamplePagesRequest request;
    request.set_site(a.String("site", ""));
    request.set_defer_clustering(end < pages.size());
    for (size_t i = begin; i < end; ++i) *request.add_pages() = std::move(pages[i]);
    VERTEX_ASSIGN_OR_RETURN(v1::AddSamplePagesResponse response, api.AddSamplePages(request));
    workflow::MergeAddedPages(std::move(response), &result.response);
  }
  return result;
}

void WriteLinks(const lists::Discovery& d, util::JsonWriter& w) {
  w.Key("links").BeginArray();
  for (const lists::DiscoveredLink& l : d.links) {
    w.BeginObject().Key("url").String(l.url).Key("text").String(l.text).Key("from_page").String(l.from_page);
    w.Key("score").Double(l.score).Key("structure").String(l.structure).EndObject();
  }
  w.EndArray().Key("structures").BeginArray();
  for (const lists::StructureReport& s : d.structures) {
    w.BeginObject().Key("structure").String(s.structure).Key("pages").Uint(s.pages);
    w.Key("link_occurrences").Uint(s.link_occurrences).Key("repeated").Uint(s.repeated);
    w.Key("expected_items").Double(s.expected_items).Key("verdict").String(s.verdict).EndObject();
  }
  w.EndArray();
}

absl::Status Print(const ParsedArgs& a, const lists::Discovery& d, const AddResult* added) {
  if (!a.Has("json")) {
    for (const lists::DiscoveredLink& l : d.links) std::cout << l.url << "\t" << l.text << "\t" << l.from_page << "\n";
    if (added != nullptr) {
      std::cout << "# added " << added->response.pages_added() << " pages to site " << a.String("site", "") << " ("
                << added->fetched << " fetched, " << added->failed.size() << " failed)\n";
    }
    return absl::OkStatus();
  }
  util::JsonWriter w;
  w.BeginObject();
  WriteLinks(d, w);
  std::string response;
  if (added != nullptr) {
    w.Key("fetched").Uint(added->fetched).Key("failed").BeginArray();
    for (const auto& [url, error] : added->failed) w.BeginObject().Key("url").String(url).Key("error").String(error).EndObject();
    w.EndArray();
    VERTEX_ASSIGN_OR_RETURN(response, ProtoJson(added->response));
  }
  std::string out = w.EndObject().Release();
  if (added != nullptr) out.insert(out.size() - 1, absl::StrCat(",\"added\":", response));
  std::cout << out << "\n";
  return absl::OkStatus();
}

absl::Status DiscoverLinksCommand(const ParsedArgs& a) {
  if (a.positional.empty()) return absl::InvalidArgumentError("no PAGE_DIR_OR_FILE given (see --help)");
  if (a.Has("add")) VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site"}));
  if (a.Has("site") && !a.Has("add")) return absl::InvalidArgumentError("--site applies to --add only");
  VERTEX_RETURN_IF_ERROR(FetchOptionsFromArgs(a).status());
  lists::DiscoveryOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.known, ReadKnown(a));
  options.other_hosts = a.Has("other-hosts");
  VERTEX_ASSIGN_OR_RETURN(const std::vector<html::Page> pages, ReadPages(a.positional));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, StoreMode::kMustExist, {}));
  VERTEX_ASSIGN_OR_RETURN(const v1::ListModel model, LoadModel(a, backend));
  std::vector<const html::Page*> pointers;
  for (const html::Page& p : pages) pointers.push_back(&p);
  VERTEX_ASSIGN_OR_RETURN(const lists::Discovery discovery, lists::DiscoverLinks(model, pointers, options));
  if (!a.Has("add")) return Print(a, discovery, nullptr);
  VERTEX_ASSIGN_OR_RETURN(const AddResult added, FetchAndAdd(a, *backend.api, discovery.links));
  return Print(a, discovery, &added);
}

}  // namespace

int RunDiscoverLinks(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = Flags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kUsage << "\n" << BackendHelp("the learning service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("discover-links", parsed.status());
  const absl::Status s = DiscoverLinksCommand(*parsed);
  return s.ok() ? 0 : ReportError("discover-links", s);
}

}  // namespace vertex::cli
