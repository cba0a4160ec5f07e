// vertexctl extract | rules: extraction with a site's stored rules, and the
// rules themselves, offline, on a local store directory.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/extract/site_extractor.h"
#include "common/extract/xslt_export.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/store/rule_store.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/batch_extract.h"
#include "common/workflow/site_store.h"
#include "google/protobuf/util/json_util.h"
#include "services/vertexctl/commands.h"
#include "services/common/flags.h"

namespace vertex::cli {
namespace {

const std::vector<FlagSpec>& ExtractFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"store", "DIR", "the rule store directory (written by vertexctl learn)"},
      {"site", "NAME", "the site whose rules to apply"},
      {"details", "", "add per-attribute method, score and candidate count"},
      {"threads", "N", "extraction threads (default: one per core)"},
      {"max-page-bytes", "N", "refuse pages larger than N bytes (default 8388608)"},
      {"max-depth", "N", "refuse pages nesting deeper than N elements (default 512)"},
      {"help", "", "show this help"},
  };
  return kFlags;
}

constexpr char kExtractUsage[] =
    "usage: vertexctl extract --store DIR --site SITE [flags] PAGE_DIR_OR_FILE...\n"
    "\n"
    "Extracts a record from every page with the site's current rules (Vertex IV-A rule\n"
    "matching: URL regexes first, then shingle-signature cover, then importance) and prints\n"
    "one JSON line per page, in input order:\n"
    "  {\"file\",\"url\",\"status\",\"cluster\",\"rule_version\",\"attributes\":{\"name\":[\"value\",...]}}\n"
    "status: OK; PARTIAL (a mandatory attribute has no value); NO_URL_MATCH (no rule's URL\n"
    "regex matches; the page is not parsed); NO_SHINGLE_MATCH (no matching rule's signature\n"
    "covers the page); ERROR (the page could not be read or parsed: \"error\" says why).\n"
    "Exit status 1 when any page is an ERROR.\n"
    "\n"
    "flags:\n";

std::string ErrorLine(const workflow::FileRecord& r) {
  util::JsonWriter w;
  w.BeginObject().Key("file").String(r.file).Key("url").String(r.url).Key("status").String("ERROR");
  w.Key("error").String(r.record.status().ToString()).EndObject();
  return w.Release();
}

absl::Status Extract(const ParsedArgs& a, bool* any_error) {
  for (const char* required : {"store", "site"}) {
    if (!a.Has(required)) return absl::InvalidArgumentError(absl::StrCat("--", required, " is required"));
  }
  if (a.positional.empty()) return absl::InvalidArgumentError("no PAGE_DIR_OR_FILE given (see --help)");
  html::ParseOptions parse;
  VERTEX_ASSIGN_OR_RETURN(int64_t max_bytes, a.Int("max-page-bytes", 8 << 20, 1, int64_t{1} << 32));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_depth, a.Int("max-depth", 512, 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(int64_t threads, a.Int("threads", 0, 0, 256));
  parse.max_page_bytes = static_cast<size_t>(max_bytes);
  parse.max_depth = static_cast<int>(max_depth);
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(a.positional));
  store::StoreOptions options;
  options.create_if_missing = false;
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store,
                          store::OpenRocksDbStore(a.String("store", ""), options));
  VERTEX_ASSIGN_OR_RETURN(extract::SiteExtractor extractor, workflow::LoadSiteExtractor(*store, a.String("site", "")));
  const bool details = a.Has("details");
  constexpr size_t kBatch = 512;  // bounded memory, output in input order
  for (size_t begin = 0; begin < files.size(); begin += kBatch) {
    const std::vector<std::string> batch(files.begin() + begin, files.begin() + std::min(files.size(), begin + kBatch));
    for (const workflow::FileRecord& r : workflow::ExtractFiles(extractor, batch, parse, static_cast<int>(threads))) {
      *any_error |= !r.record.ok();
      std::cout << (r.record.ok() ? extract::RecordToJson(*r.record, r.file, details) : ErrorLine(r)) << "\n";
    }
  }
  return absl::OkStatus();
}

const std::vector<FlagSpec>& RulesFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"store", "DIR", "the rule store directory"},
      {"site", "NAME", "the site"},
      {"cluster", "ID", "export: the cluster whose rule to export"},
      {"version", "N", "export: the rule version (default: the current one)"},
      {"format", "F", "export: xslt or json (default json)"},
      {"help", "", "show this help"},
  };
  return kFlags;
}

constexpr char kRulesUsage[] =
    "usage: vertexctl rules list --store DIR --site SITE\n"
    "       vertexctl rules export --store DIR --site SITE --cluster ID [--version N] --format xslt|json\n"
    "\n"
    "list: the site's clusters (signature, URL regex, importance, current and latest rule\n"
    "version, every stored version) as JSON.\n"
    "export: one rule as JSON (the protobuf JSON mapping of vertex.v1.Rule) or as an XSLT 1.0\n"
    "stylesheet that, applied to a page's XHTML serialisation (e.g. with xsltproc), outputs\n"
    "the record; attributes picked by a classifier are listed but not exported, and typed\n"
    "regexes are given for the consumer to apply.\n"
    "\n"
    "flags:\n";

absl::Status ListRules(const store::RuleStore& store, const std::string& site) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> clusters, store.ClustersOfSite(site));
  util::JsonWriter w;
  w.BeginObject().Key("site").String(site).Key("clusters").BeginArray();
  for (const v1::ClusterRecord& c : clusters) {
    w.BeginObject().Key("id").String(c.cluster_id()).Key("signature").String(c.signature());
    w.Key("url_regex").String(c.url_regex()).Key("importance").Int(c.importance());
    w.Key("current_version").Int(c.current_version()).Key("latest_version").Int(c.latest_version());
    VERTEX_ASSIGN_OR_RETURN(std::vector<int64_t> versions, store.ListRuleVersions(site, c.cluster_id()));
    w.Key("versions").BeginArray();
    for (int64_t v : versions) w.Int(v);
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
  std::cout << w.str() << "\n";
  return absl::OkStatus();
}

absl::Status ExportRule(const ParsedArgs& a, const store::RuleStore& store, const std::string& site) {
  if (!a.Has("cluster")) return absl::InvalidArgumentError("--cluster is required");
  const std::string format = a.String("format", "json");
  if (format != "json" && format != "xslt") {
    return absl::InvalidArgumentError("--format must be xslt or json, not \"" + format + "\"");
  }
  VERTEX_ASSIGN_OR_RETURN(int64_t version, a.Int("version", store::kCurrentVersion, 0, INT64_MAX));
  VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, store.GetRule(site, a.String("cluster", ""), version));
  if (format == "json") {
    std::string json;
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = true;
    options.preserve_proto_field_names = true;
    const auto status = google::protobuf::util::MessageToJsonString(rule, &json, options);
    if (!status.ok()) return absl::InternalError(std::string(status.message()));
    std::cout << json;
    return absl::OkStatus();
  }
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord record, store.GetSite(site));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(record.schema()));
  VERTEX_ASSIGN_OR_RETURN(std::string xslt, extract::ExportXslt(rule, schema));
  std::cout << xslt;
  return absl::OkStatus();
}

absl::Status Rules(const ParsedArgs& a) {
  if (a.positional.size() != 1 || (a.positional[0] != "list" && a.positional[0] != "export")) {
    return absl::InvalidArgumentError("give one subcommand: list or export (see --help)");
  }
  for (const char* required : {"store", "site"}) {
    if (!a.Has(required)) return absl::InvalidArgumentError(absl::StrCat("--", required, " is required"));
  }
  const std::string format = a.String("format", "json");
  if (format != "json" && format != "xslt") {
    return absl::InvalidArgumentError("--format must be xslt or json, not \"" + format + "\"");
  }
  store::StoreOptions options;
  options.create_if_missing = false;
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store,
                          store::OpenRocksDbStore(a.String("store", ""), options));
  const std::string site = a.String("site", "");
  return a.positional[0] == "list" ? ListRules(*store, site) : ExportRule(a, *store, site);
}

}  // namespace

int RunExtract(const std::vector<std::string>& args) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, ExtractFlags());
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kExtractUsage << FlagHelp(ExtractFlags());
    return 0;
  }
  if (!parsed.ok()) return ReportError("extract", parsed.status());
  bool any_error = false;
  const absl::Status s = Extract(*parsed, &any_error);
  if (!s.ok()) return ReportError("extract", s);
  return any_error ? 1 : 0;
}

int RunRules(const std::vector<std::string>& args) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, RulesFlags());
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kRulesUsage << FlagHelp(RulesFlags());
    return 0;
  }
  if (!parsed.ok()) return ReportError("rules", parsed.status());
  const absl::Status s = Rules(*parsed);
  return s.ok() ? 0 : ReportError("rules", s);
}

}  // namespace vertex::cli
