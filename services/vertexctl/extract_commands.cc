// vertexctl extract: records of page files with a site's current rules,
// offline or online (backend.h), through ExtractionApi::ExtractMany.
#include <iostream>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/extract/record_proto.h"
#include "common/extract/site_extractor.h"
#include "common/site/page_file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

const std::vector<FlagSpec>& OfflineExtractFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"threads", "N", "extraction threads (default: one per core)"},
      {"max-page-bytes", "N", "refuse pages larger than N bytes (default 8388608)"},
      {"max-depth", "N", "refuse pages nesting deeper than N elements (default 512)"},
      {"max-attributes", "N", "refuse pages with a tag of more than N attributes (default 1000)"},
      {"no-nearest", "", "no nearest fallback: a page no signature covers is NO_SHINGLE_MATCH (the paper's matching)"},
  };
  return kFlags;
}

std::vector<FlagSpec> ExtractFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (written by vertexctl learn)"),
      {"site", "NAME", "the site whose rules to apply"},
      {"details", "", "add per-attribute method, score and candidate count"},
  };
  for (FlagSpec f : ServerFlags("the extraction service")) {
    if (f.name == "timeout") f.help = "--server: deadline of each batch, per 1000 pages (default 60, at least that)";
    flags.push_back(f);
  }
  for (const FlagSpec& f : OfflineExtractFlags()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kExtractUsage[] =
    "usage: vertexctl extract --site SITE (--store DIR | --server HOST:PORT) [flags] PAGE_DIR_OR_FILE...\n"
    "\n"
    "Extracts a record from every page with the site's current rules (Vertex IV-A rule\n"
    "matching: URL regexes first, then shingle-signature cover, then importance; beyond the\n"
    "paper, a page no signature covers gets the record of the nearest URL-matching rule whose\n"
    "record passes that rule's checks) and prints one JSON line per page, in input order:\n"
    "  {\"file\",\"url\",\"status\",\"cluster\",\"rule_version\",\"matched_by\",\"agreement\",\n"
    "   \"attributes\":{\"name\":[\"value\",...]}}\n"
    "status: OK; PARTIAL (a mandatory attribute has no value); NO_URL_MATCH (no rule's URL\n"
    "regex matches; the page is not parsed); NO_SHINGLE_MATCH (no matching rule's signature\n"
    "covers the page and no nearest rule's record passed; \"nearest_cluster\" and\n"
    "\"nearest_rejected\" name the nearest rule's cluster and why its record was rejected, e.g.\n"
    "\"title missing\"); ERROR (the page could not be read, or extraction refused it: \"error\"\n"
    "says why, e.g. an empty page, or one over the size or nesting limit).\n"
    "matched_by: \"signature\" (a signature of the rule covers the page), \"nearest\" (none\n"
    "covers it: the nearest URL-matching rule whose record has every mandatory and\n"
    "always-extracted attribute and only valid typed values), \"\" otherwise; agreement: the\n"
    "kept bytes of the rule's signature equal to the page's shingle vector (e.g. 6 for a page a\n"
    "6/8 signature covers). --no-nearest turns the fallback off, to compare.\n"
    "A list page (its rule is record-level) prints one line per record instead, with\n"
    "\"record\" (0, 1, ... in page order) and \"data_area\" after \"agreement\"; its \"status\" is\n"
    "the record's: OK, or PARTIAL when a regular attribute has no value (--details lists\n"
    "them in \"missing_regular\"). A list page without records prints one PARTIAL line.\n"
    "A page file's URL is taken from a <base href=\"...\"> on its first line, else file:// and\n"
    "its absolute path. Pages go in batches of at most 512 pages and 64 MB (online: over one\n"
    "ExtractStream call each). Exit status 1 when any page is an ERROR; when the site is not\n"
    "registered or has no rule, the command stops with that error on stderr (exit 1).\n"
    "\n";

constexpr char kExtractFlagsHeader[] =
    "--threads, --max-page-bytes, --max-depth, --max-attributes and --no-nearest apply with --store\n"
    "only (a server uses its own; the extraction service always matches with the nearest fallback on).\n"
    "\n"
    "flags:\n";

// One page file of a batch: its request, or why it could not be read.
struct Slot {
  std::string file, url;
  absl::Status read_error;
};

std::string ErrorLine(const std::string& file, const std::string& url, const absl::Status& error) {
  util::JsonWriter w;
  w.BeginObject().Key("file").String(file).Key("url").String(url).Key("status").String("ERROR");
  w.Key("error").String(error.ToString()).EndObject();
  return w.Release();
}

absl::Status ResponseError(const v1::ExtractResponse& r) {
  return absl::Status(static_cast<absl::StatusCode>(r.error_code()), r.error());
}

// Whether a per-page error is about the site rather than the page: the site
// is not registered or has no rule (ExtractionService's NOT_FOUND and
// FAILED_PRECONDITION).
bool IsSiteError(const v1::ExtractResponse& r) {
  return r.error_code() == static_cast<int32_t>(absl::StatusCode::kNotFound) ||
         r.error_code() == static_cast<int32_t>(absl::StatusCode::kFailedPrecondition);
}

struct ExtractSettings {
  std::string site;
  bool details = false;
  size_t max_file_bytes = 0;
};

// Extracts and prints one batch; returns whether any page failed.
absl::StatusOr<bool> ExtractBatch(workflow::ExtractionApi& api, const std::vector<Slot>& slots,
                                  const std::vector<v1::ExtractRequest>& requests, const ExtractSettings& settings) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ExtractResponse> responses, api.ExtractMany(requests));
  for (const v1::ExtractResponse& r : responses) {
    if (IsSiteError(r)) return ResponseError(r);
  }
  bool any_error = false;
  size_t next = 0;
  for (const Slot& slot : slots) {
    if (!slot.read_error.ok()) {
      any_error = true;
      std::cout << ErrorLine(slot.file, slot.url, slot.read_error) << "\n";
      continue;
    }
    const v1::ExtractResponse& r = responses[next++];
    if (r.error_code() != 0) {
      any_error = true;
      std::cout << ErrorLine(slot.file, slot.url, ResponseError(r)) << "\n";
      continue;
    }
    std::cout << extract::RecordToJson(extract::RecordFromResponse(r), slot.file, settings.details) << "\n";
  }
  return any_error;
}

// Reads the files into batches of at most 512 pages and about 64 MB,
// extracting and printing each; returns whether any page failed.
absl::StatusOr<bool> ExtractFiles(workflow::ExtractionApi& api, const std::vector<std::string>& files,
                                  const ExtractSettings& settings) {
  constexpr size_t kMaxPages = 512, kMaxBytes = size_t{64} << 20;
  bool any_error = false;
  std::vector<Slot> slots;
  std::vector<v1::ExtractRequest> requests;
  size_t bytes = 0;
  for (size_t i = 0; i <= files.size(); ++i) {
    if (i == files.size() || slots.size() >= kMaxPages || bytes >= kMaxBytes) {
      VERTEX_ASSIGN_OR_RETURN(const bool failed, ExtractBatch(api, slots, requests, settings));
      any_error |= failed;
      slots.clear();
      requests.clear();
      bytes = 0;
      if (i == files.size()) break;
    }
    Slot& slot = slots.emplace_back(Slot{files[i], "", absl::OkStatus()});
    absl::StatusOr<site::PageFile> page = site::ReadPageFile(files[i], settings.max_file_bytes);
    if (!page.ok()) {
      slot.read_error = page.status();
      continue;
    }
    slot.url = page->url;
    bytes += page->bytes.size();
    v1::ExtractRequest& request = requests.emplace_back();
    request.set_site(settings.site);
    request.set_url(std::move(page->url));
    request.set_html(std::move(page->bytes));
    request.set_details(settings.details);
  }
  return any_error;
}

absl::StatusOr<bool> Extract(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(const bool online, IsOnline(a));
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site"}));
  VERTEX_RETURN_IF_ERROR(RejectOfflineFlags(a, OfflineExtractFlags()));
  if (a.positional.empty()) return absl::InvalidArgumentError("no PAGE_DIR_OR_FILE given (see --help)");
  workflow::ExtractionEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(int64_t max_bytes, a.Int("max-page-bytes", 8 << 20, 1, int64_t{1} << 32));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_depth, a.Int("max-depth", 512, 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_attributes, a.Int("max-attributes", 1000, 1, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t threads, a.Int("threads", 0, 0, 256));
  options.parse.max_page_bytes = static_cast<size_t>(max_bytes);
  options.parse.max_depth = static_cast<int>(max_depth);
  options.parse.max_attributes = static_cast<int>(max_attributes);
  options.extractor.nearest = !a.Has("no-nearest");
  ExtractSettings settings{a.String("site", ""), a.Has("details"), options.parse.max_page_bytes};
  if (online) settings.max_file_bytes = static_cast<size_t>(client::ConnectOptions().max_message_bytes);
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(a.positional));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::ExtractionApi> backend,
                          OpenExtraction(a, options, static_cast<int>(threads)));
  return ExtractFiles(*backend.api, files, settings);
}

}  // namespace

int RunExtract(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = ExtractFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kExtractUsage << BackendHelp("the extraction service") << kExtractFlagsHeader << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("extract", parsed.status());
  const absl::StatusOr<bool> any_error = Extract(*parsed);
  if (!any_error.ok()) return ReportError("extract", any_error.status());
  return *any_error ? 1 : 0;
}

}  // namespace vertex::cli
