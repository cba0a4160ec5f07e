// vertexctl discover-links: the detail-page URLs the list model's hot-lists
// give on category pages (common/lists/link_discovery.h), and with --add the
// pages fetched (common/fetch: robots.txt, politeness) and added to a site's
// sample through AddSamplePages, offline or over --server.
#include <filesystem>
#include <map>
#include <optional>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/fetch/fetcher.h"
#include "common/eval/list_truth.h"
#include "common/html/page.h"
#include "common/lists/link_discovery.h"
#include "common/lists/list_finder.h"
#include "common/lists/truth_labels.h"
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
    "                                [--known FILE] [--other-hosts] [--json] [--site SITE --add]\n"
    "                                PAGE_DIR_OR_FILE...\n"
    "       vertexctl discover-links --truth FILE --train-from-truth K [--store DIR | --server HOST:PORT]\n"
    "                                [...as above] PAGE_DIR_OR_FILE...\n"
    "\n"
    "Finds the detail-page URLs the list model's hot-lists give on the given category pages\n"
    "(files; a <base href=\"URL\"> first line gives a file's URL, as for site add-pages). The\n"
    "hot-lists that are the pages' items are told from menus, footers and pagination by the\n"
    "model's scores and by the site's structure: a hot-list whose structure recurs on most\n"
    "pages with links that differ from page to page is content; one whose links repeat is\n"
    "navigation. Links are resolved, fragments dropped, on the pages' hosts only unless\n"
    "--other-hosts; the pages themselves and the URLs of --known (one per line) left out.\n"
    "The model is the latest stored one (or --model-version; GetListModel, offline or over\n"
    "--server; vertexctl list-model train stores one), or learnt from list truth (below).\n"
    "\n"
    "Output: one line per URL, \"URL<TAB>TEXT<TAB>FROM_PAGE\"; with --json one object\n"
    "{\"links\":[{\"url\",\"text\",\"from_page\",\"score\",\"structure\"}],\"structures\":[{\"structure\",\n"
    "\"pages\",\"link_occurrences\",\"repeated\",\"expected_items\",\"verdict\"}]} and, with --add,\n"
    "\"fetched\", \"failed\":[{\"url\",\"error\"}] and \"added\" (the AddSamplePagesResponse).\n"
    "--add fetches every URL (robots.txt obeyed, one request at a time per host, --fetch-* flags)\n"
    "and adds the pages to the sample of --site, which is then clustered. A URL that cannot be\n"
    "fetched is reported on stderr (\"URL: reason\") and the rest are still added.\n"
    "Exit code: 0 done (even with unfetchable URLs); 1 an error (no model, a bad page, the\n"
    "AddSamplePages call); 2 a usage error.\n"
    "\n"
    "Measuring: --truth FILE (gen-demo's list_truth.jsonl, matched to the page files by name)\n"
    "adds the precision and recall of the links against its records' links (a last \"# links\"\n"
    "line, or \"score\" in JSON); --train-from-truth K learns the model from the first K given\n"
    "pages with truth instead of reading it from a store, and leaves them out, e.g.\n"
    "  vertexctl gen-demo --out /tmp/shop && \\\n"
    "  vertexctl discover-links --truth /tmp/shop/list_truth.jsonl --train-from-truth 3 /tmp/shop\n";

std::vector<FlagSpec> Flags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (the model, and the sample with --add)"),
      {"model-version", "N", "the list model's version (default: the latest)"},
      {"known", "FILE", "URLs to leave out, one per line"},
      {"other-hosts", "", "keep links to other hosts than their page's"},
      {"json", "", "print JSON (see above)"},
      {"site", "SITE", "--add: the site whose sample gets the pages"},
      {"add", "", "fetch the URLs and add them to the sample of --site"},
      {"truth", "FILE", "list truth (list_truth.jsonl of gen-demo): score the links against its records' links"},
      {"train-from-truth", "K", "learn the model from the truth of the first K given pages instead (not\n"
                                "searched for links; no store needed without --add)"},
      PageBuilderFlag("the HTML parser that builds the given pages: gumbo (HTML5) or libxml2"),
  };
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  for (const FlagSpec& f : FetchFlagSpecs()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

// The given page files, their base names and (once read) their URLs.
struct InputPages {
  std::vector<std::string> files;
  std::vector<std::string> names;
  std::vector<std::string> urls;
  html::ParseOptions parse;  // the builder of --page-builder
};

absl::StatusOr<InputPages> ListPages(const std::vector<std::string>& args) {
  InputPages in;
  VERTEX_ASSIGN_OR_RETURN(in.files, site::ExpandPagePaths(args));
  for (const std::string& file : in.files) in.names.push_back(std::filesystem::path(file).filename().string());
  in.urls.resize(in.files.size());
  return in;
}

// Page `i` read and parsed (an error names the file); its URL recorded.
absl::StatusOr<html::Page> ReadPage(html::Parser& parser, size_t i, InputPages& in) {
  VERTEX_ASSIGN_OR_RETURN(site::PageFile f, site::ReadPageFile(in.files[i], parser.options().max_page_bytes));
  absl::StatusOr<html::Page> page = parser.Parse(f.bytes, f.url);
  if (!page.ok()) {
    return absl::Status(page.status().code(), absl::StrCat("page ", in.files[i], ": ", page.status().message()));
  }
  in.urls[i] = page->url();
  return page;
}

// What --truth brings: the truth pages by file name, the pages the model
// was trained on (--train-from-truth) and the evaluation.
struct TruthUse {
  std::map<std::string, const eval::ListTruthPage*> by_file;
  std::vector<eval::ListTruthPage> pages;
  std::set<size_t> trained_on;  // indexes into InputPages
};

absl::StatusOr<TruthUse> ReadTruth(const ParsedArgs& a) {
  TruthUse t;
  if (!a.Has("truth")) return t;
  VERTEX_ASSIGN_OR_RETURN(t.pages, eval::ReadListTruth(a.String("truth", "")));
  for (const eval::ListTruthPage& p : t.pages) t.by_file[p.file] = &p;
  return t;
}

// A model learnt from the truth of the first `k` given pages that have
// truth (LabelledPageFromTruth); they are recorded in truth.trained_on.
absl::StatusOr<v1::ListModel> TrainFromTruth(size_t k, InputPages& in, TruthUse& truth) {
  html::Parser parser(in.parse);
  std::vector<html::Page> pages;  // the training pages only
  std::vector<lists::LabelledPage> labelled;
  pages.reserve(k);
  for (size_t i = 0; i < in.files.size() && labelled.size() < k; ++i) {
    auto it = truth.by_file.find(in.names[i]);
    if (it == truth.by_file.end()) continue;
    VERTEX_ASSIGN_OR_RETURN(html::Page page, ReadPage(parser, i, in));
    pages.push_back(std::move(page));
    VERTEX_ASSIGN_OR_RETURN(lists::LabelledPage l, lists::LabelledPageFromTruth(*it->second, pages.back()));
    labelled.push_back(std::move(l));
    truth.trained_on.insert(i);
  }
  if (labelled.size() < k) {
    return absl::InvalidArgumentError(absl::StrCat("--train-from-truth ", k, ": only ", labelled.size(),
                                                   " of the given pages have list truth in --truth"));
  }
  if (truth.trained_on.size() == in.files.size()) {
    return absl::InvalidArgumentError("--train-from-truth leaves no page to discover links on");
  }
  return lists::TrainListModel(labelled);
}

// The links of the pages not trained on, read one at a time.
absl::StatusOr<lists::Discovery> Discover(const v1::ListModel& model, const lists::DiscoveryOptions& options,
                                          const TruthUse& truth, InputPages& in) {
  lists::LinkDiscoverer discoverer(model, options);
  html::Parser parser(in.parse);
  for (size_t i = 0; i < in.files.size(); ++i) {
    if (truth.trained_on.contains(i)) continue;
    VERTEX_ASSIGN_OR_RETURN(const html::Page page, ReadPage(parser, i, in));
    VERTEX_RETURN_IF_ERROR(discoverer.AddPage(page));
  }
  return discoverer.Finish();
}

// Precision and recall of the links against the truth's record links of
// the pages links were discovered on (with truth), less the given pages'
// own URLs and the known ones (which discovery leaves out by design).
struct LinkScore {
  size_t links = 0, correct = 0, truth = 0;
};

LinkScore ScoreLinks(const lists::Discovery& d, const InputPages& in, const TruthUse& truth,
                     const std::set<std::string>& known) {
  std::set<std::string> want;
  for (size_t i = 0; i < in.files.size(); ++i) {
    auto it = truth.by_file.find(in.names[i]);
    if (truth.trained_on.contains(i) || it == truth.by_file.end()) continue;
    for (const eval::TruthArea& area : it->second->areas) {
      for (const eval::TruthRecord& r : area.records) want.insert(lists::NormalizeUrl(r.link));
    }
  }
  for (const std::string& url : in.urls) want.erase(lists::NormalizeUrl(url));
  for (const std::string& url : known) want.erase(url);
  LinkScore s;
  s.links = d.links.size();
  s.truth = want.size();
  for (const lists::DiscoveredLink& l : d.links) s.correct += want.contains(l.url) ? 1 : 0;
  return s;
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

// The list model: GetListModel, offline (the engine reads the store) and
// online alike.
absl::StatusOr<v1::ListModel> LoadModel(const ParsedArgs& a, workflow::LearningApi& api) {
  VERTEX_ASSIGN_OR_RETURN(int64_t version, a.Int("model-version", 0, 0, INT64_MAX));
  v1::GetListModelRequest request;
  request.set_version(version);
  VERTEX_ASSIGN_OR_RETURN(v1::GetListModelResponse response, api.GetListModel(request));
  return std::move(*response.mutable_model());
}

// What --add did.
struct AddResult {
  size_t fetched = 0;
  std::vector<std::pair<std::string, std::string>> failed;  // (url, error)
  v1::AddSamplePagesResponse response;
};

// Fetches every link, politely; a failure is reported and recorded, and the
// rest go on.
std::vector<v1::Page> FetchAll(const fetch::FetchOptions& options, const std::vector<lists::DiscoveredLink>& links,
                               AddResult& result) {
  std::unique_ptr<fetch::Fetcher> fetcher = fetch::NewCurlFetcher(options);
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
  return pages;
}

absl::StatusOr<AddResult> FetchAndAdd(const ParsedArgs& a, workflow::LearningApi& api,
                                      const std::vector<lists::DiscoveredLink>& links) {
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions options, FetchOptionsFromArgs(a));
  AddResult result;
  std::vector<v1::Page> pages = FetchAll(options, links, result);
  // Batches as site add-pages sends them; the last one clusters the sample.
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

double Ratio(size_t a, size_t b) { return b == 0 ? 1.0 : static_cast<double>(a) / static_cast<double>(b); }

absl::Status Print(const ParsedArgs& a, const lists::Discovery& d, const std::optional<LinkScore>& score,
                   const AddResult* added) {
  if (!a.Has("json")) {
    for (const lists::DiscoveredLink& l : d.links) std::cout << l.url << "\t" << l.text << "\t" << l.from_page << "\n";
    // Where the links came from, or why there are none, on stderr.
    std::cerr << "vertexctl discover-links: " << d.links.size() << " link(s); hot-list structures seen: "
              << d.structures.size() << (d.structures.empty() ? " (the model found no hot-list on the pages)" : "")
              << "\n";
    for (const lists::StructureReport& s : d.structures) {
      std::cerr << "  " << s.verdict << ": " << s.structure << " (" << s.pages << " page(s), " << s.link_occurrences
                << " link(s), " << s.repeated << " repeated)\n";
    }
    if (score) {
      std::cout << "# links " << score->links << ", correct " << score->correct << ", truth " << score->truth
                << ": precision " << Ratio(score->correct, score->links) << ", recall "
                << Ratio(score->correct, score->truth) << "\n";
    }
    if (added != nullptr) {
      std::cout << "# added " << added->response.pages_added() << " pages to site " << a.String("site", "") << " ("
                << added->fetched << " fetched, " << added->failed.size() << " failed)\n";
    }
    return absl::OkStatus();
  }
  util::JsonWriter w;
  w.BeginObject();
  WriteLinks(d, w);
  if (score) {
    w.Key("score").BeginObject().Key("links").Uint(score->links).Key("correct").Uint(score->correct);
    w.Key("truth").Uint(score->truth).Key("precision").Double(Ratio(score->correct, score->links));
    w.Key("recall").Double(Ratio(score->correct, score->truth)).EndObject();
  }
  std::string response;
  if (added != nullptr) {
    w.Key("fetched").Uint(added->fetched).Key("failed").BeginArray();
    for (const auto& [url, error] : added->failed) w.BeginObject().Key("url").String(url).Key("error").String(error).EndObject();
    w.EndArray();
    VERTEX_ASSIGN_OR_RETURN(response, ProtoJson(added->response));
  }
  std::string out = w.EndObject().Release();
  // The response is protobuf's JSON: spliced in before the closing brace.
  if (added != nullptr) out.insert(out.size() - 1, absl::StrCat(",\"added\":", response));
  std::cout << out << "\n";
  return absl::OkStatus();
}

absl::Status CheckFlags(const ParsedArgs& a) {
  if (a.positional.empty()) return absl::InvalidArgumentError("no PAGE_DIR_OR_FILE given (see --help)");
  if (a.Has("add")) VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site"}));
  if (a.Has("site") && !a.Has("add")) return absl::InvalidArgumentError("--site applies to --add only");
  if (a.Has("train-from-truth")) VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"truth"}));
  return FetchOptionsFromArgs(a).status();
}

absl::Status DiscoverLinksCommand(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(CheckFlags(a));
  VERTEX_ASSIGN_OR_RETURN(const int64_t train_k, a.Int("train-from-truth", 0, 1, 100000));
  lists::DiscoveryOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.known, ReadKnown(a));
  options.other_hosts = a.Has("other-hosts");
  VERTEX_ASSIGN_OR_RETURN(InputPages in, ListPages(a.positional));
  VERTEX_ASSIGN_OR_RETURN(in.parse.builder, PageBuilderFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(TruthUse truth, ReadTruth(a));
  Backend<workflow::LearningApi> backend;
  if (!a.Has("train-from-truth") || a.Has("add")) {
    VERTEX_ASSIGN_OR_RETURN(backend, OpenLearning(a, StoreMode::kMustExist, {}));
  }
  VERTEX_ASSIGN_OR_RETURN(const v1::ListModel model, a.Has("train-from-truth")
                                                         ? TrainFromTruth(static_cast<size_t>(train_k), in, truth)
                                                         : LoadModel(a, *backend.api));
  VERTEX_ASSIGN_OR_RETURN(const lists::Discovery discovery, Discover(model, options, truth, in));
  const std::optional<LinkScore> score =
      a.Has("truth") ? std::optional<LinkScore>(ScoreLinks(discovery, in, truth, options.known)) : std::nullopt;
  if (!a.Has("add")) return Print(a, discovery, score, nullptr);
  VERTEX_ASSIGN_OR_RETURN(const AddResult added, FetchAndAdd(a, *backend.api, discovery.links));
  return Print(a, discovery, score, &added);
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
