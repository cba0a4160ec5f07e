// vertexctl extract: records of page files with a site's current rules,
// offline or online (backend.h), through ExtractionApi::ExtractMany.
#include <iostream>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/extract/record_export.h"
#include "common/extract/record_proto.h"
#include "common/extract/site_extractor.h"
#include "common/site/page_file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"
#include "services/vertexctl/progress.h"

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
      {"details", "", "add per-attribute method, score and candidate count (--format jsonl without --fields)"},
      {"format", "jsonl|csv", "one JSON line per record (default) or CSV with a header row"},
      {"fields", "A,B,...", "only these columns, in this order (page columns and schema attributes)"},
      UrlFlag("the URL of the one page file given (its <base href> ignored); an error with several files"),
  };
  for (const FlagSpec& f : ProgressFlags()) flags.push_back(f);
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
    "\n"
    "--format csv writes the records as CSV (RFC 4180: CRLF line ends; a cell with a quote,\n"
    "comma, CR or LF, or a leading or trailing space or tab is quoted, quotes doubled): a header\n"
    "row, then one row per page, list record or ERROR page. Columns: file, url, status, cluster,\n"
    "rule_version, matched_by, agreement, record, data_area, nearest_cluster, nearest_rejected,\n"
    "error (empty where they do not apply), then the schema's attributes in schema order (an\n"
    "attribute named like a page column is \"attributes.NAME\"). An attribute's cell is its\n"
    "values joined by \"|\", each value with \"\\\" written \"\\\\\" and \"|\" written \"\\|\".\n"
    "--fields a,b,... keeps only those columns, in that order (CSV and JSON lines alike; JSON\n"
    "lines keep the page fields that apply to the row, then \"attributes\" with the chosen\n"
    "attributes); an unknown field is an error listing the valid ones. Online the schema's\n"
    "attributes are those of the first record that has any: rows before it wait for it.\n"
    "--url URL gives the URL of a single page file without <base href> (with several files\n"
    "it is an error). Progress (pages done/total, pages/s, ETA) goes to stderr when it is a\n"
    "terminal (--progress / --no-progress to force).\n"
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
  std::string url;  // --url, or ""
};

// An exporter's error as the command's: a bad field names --fields.
absl::Status FieldsError(absl::Status s) {
  if (s.code() != absl::StatusCode::kInvalidArgument) return s;
  return absl::InvalidArgumentError("--fields: " + std::string(s.message()));
}

// Extracts and prints one batch; returns whether any page failed.
absl::StatusOr<bool> ExtractBatch(workflow::ExtractionApi& api, const std::vector<Slot>& slots,
                                  const std::vector<v1::ExtractRequest>& requests, extract::RecordExporter& out) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ExtractResponse> responses, api.ExtractMany(requests));
  for (const v1::ExtractResponse& r : responses) {
    if (IsSiteError(r)) return ResponseError(r);
  }
  bool any_error = false;
  size_t next = 0;
  for (const Slot& slot : slots) {
    if (!slot.read_error.ok()) {
      any_error = true;
      VERTEX_RETURN_IF_ERROR(FieldsError(out.AddError(slot.file, slot.url, slot.read_error)));
      continue;
    }
    const v1::ExtractResponse& r = responses[next++];
    if (r.error_code() != 0) {
      any_error = true;
      VERTEX_RETURN_IF_ERROR(FieldsError(out.AddError(slot.file, slot.url, ResponseError(r))));
      continue;
    }
    VERTEX_RETURN_IF_ERROR(FieldsError(out.Add(extract::RecordFromResponse(r), slot.file)));
  }
  return any_error;
}

// Reads the files into batches of at most 512 pages and about 64 MB,
// extracting and printing each; returns whether any page failed.
absl::StatusOr<bool> ExtractFiles(workflow::ExtractionApi& api, const std::vector<std::string>& files,
                                  const ExtractSettings& settings, extract::RecordExporter& out, Progress& progress) {
  constexpr size_t kMaxPages = 512, kMaxBytes = size_t{64} << 20;
  bool any_error = false;
  std::vector<Slot> slots;
  std::vector<v1::ExtractRequest> requests;
  size_t bytes = 0;
  for (size_t i = 0; i <= files.size(); ++i) {
    if (i == files.size() || slots.size() >= kMaxPages || bytes >= kMaxBytes) {
      VERTEX_ASSIGN_OR_RETURN(const bool failed, ExtractBatch(api, slots, requests, out));
      progress.Add(slots.size());
      any_error |= failed;
      slots.clear();
      requests.clear();
      bytes = 0;
      if (i == files.size()) break;
    }
    Slot& slot = slots.emplace_back(Slot{files[i], "", absl::OkStatus()});
    absl::StatusOr<site::PageFile> page = site::ReadPageFile(files[i], settings.max_file_bytes, settings.url);
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
  VERTEX_RETURN_IF_ERROR(FieldsError(out.Finish()));
  return any_error;
}

// The schema's attribute names, in schema order, when the rule store is at
// hand (offline, a registered site); nullopt otherwise (the exporter takes
// them from the records).
std::optional<std::vector<std::string>> SchemaAttributes(const store::RuleStore* store, const std::string& site) {
  if (store == nullptr) return std::nullopt;
  absl::StatusOr<v1::SiteRecord> record = store->GetSite(site);
  if (!record.ok()) return std::nullopt;
  std::vector<std::string> names;
  for (const v1::AttributeSchema& a : record->schema().attributes()) names.push_back(a.name());
  return names;
}

// The --format and --fields of `a`, and where the schema comes from, as an
// exporter writing to stdout.
absl::StatusOr<extract::RecordExporter> ExporterFromFlags(const ParsedArgs& a, const store::RuleStore* store) {
  const absl::StatusOr<extract::ExportFormat> format = extract::ParseExportFormat(a.String("format", "jsonl"));
  if (!format.ok()) return absl::InvalidArgumentError("--format: " + std::string(format.status().message()));
  if (a.Has("fields") && a.List("fields").empty()) return absl::InvalidArgumentError("--fields: no field given");
  if (a.Has("details") && (*format != extract::ExportFormat::kJsonl || a.Has("fields"))) {
    return absl::InvalidArgumentError("--details applies to --format jsonl without --fields only");
  }
  absl::StatusOr<extract::RecordExporter> exporter = extract::RecordExporter::Create(
      *format, a.List("fields"), SchemaAttributes(store, a.String("site", "")), &std::cout, a.Has("details"));
  if (!exporter.ok()) return FieldsError(exporter.status());
  return exporter;
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
  VERTEX_ASSIGN_OR_RETURN(const bool show_progress, ProgressEnabled(a));
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(a.positional));
  VERTEX_ASSIGN_OR_RETURN(settings.url, UrlFromFlags(a, files));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::ExtractionApi> backend,
                          OpenExtraction(a, options, static_cast<int>(threads)));
  VERTEX_ASSIGN_OR_RETURN(extract::RecordExporter exporter, ExporterFromFlags(a, backend.store.get()));
  Progress progress("extract", files.size(), show_progress);
  return ExtractFiles(*backend.api, files, settings, exporter, progress);
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
