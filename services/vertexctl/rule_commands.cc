// vertexctl rules list | get | export | rollback | accept | reject: a
// site's rule versions, offline or online (backend.h), through LearningApi.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> RulesFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory"),
      {"site", "NAME", "the site"},
      {"cluster", "ID", "get, export, rollback, accept, reject: the cluster"},
      {"version", "N", "get, export: the rule version (default: the current one); rollback: the version to restore"},
      {"format", "F", "export: json, xslt or fields (default json)"},
  };
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kRulesUsage[] =
    "usage: vertexctl rules list --site SITE (--store DIR | --server HOST:PORT)\n"
    "       vertexctl rules get --site SITE --cluster ID [--version N] (--store DIR | --server HOST:PORT)\n"
    "       vertexctl rules export --site SITE --cluster ID [--version N] [--format json|xslt|fields]\n"
    "                              (--store DIR | --server HOST:PORT)\n"
    "       vertexctl rules rollback --site SITE --cluster ID --version N (--store DIR | --server HOST:PORT)\n"
    "       vertexctl rules accept SITE CLUSTER (--store DIR | --server HOST:PORT)\n"
    "       vertexctl rules reject SITE CLUSTER (--store DIR | --server HOST:PORT)\n"
    "\n"
    "list: the site's clusters (signature, URL regex, importance, sample pages, current and\n"
    "latest rule version, editor state) with every stored version: the ListRulesResponse.\n"
    "get: one rule version (the GetRuleResponse).\n"
    "export: one rule as JSON (the protobuf JSON mapping of vertex.v1.Rule) or as an XSLT 1.0\n"
    "stylesheet that, applied to a page's XHTML serialisation (e.g. with xsltproc), outputs\n"
    "the record (write the page's XHTML with `vertexctl xhtml`), or as fields,\n"
    "{\"fields\":[{\"name\",\"xpath\",\"attribute\",\"range\",\"regex\",\"multiple\",\"split\",\"css\"?}]}:\n"
    "per attribute an XPath 1.0 (label-first: fast in libxml2, lxml, parsel) and how to turn\n"
    "its nodes into values (common/extract/json_export.h). Attributes an export cannot\n"
    "express (picked by a classifier; fields: read from JSON-LD, nearest typed match, ...)\n"
    "are left out, a note on stderr says why; typed regexes are given for the consumer to\n"
    "apply. Prints the content as is.\n"
    "rollback: makes a stored version current again (the RollbackRuleResponse).\n"
    "accept, reject: make the cluster's candidate rule (a repair by relearn, listed as\n"
    "candidate_version) current, or drop it; the ResolveCandidateResponse: the candidate's\n"
    "version and the cluster after. A cluster without candidate is an error. SITE and CLUSTER\n"
    "may also be given as --site and --cluster.\n"
    "list, get, rollback, accept and reject print one line of JSON, the protobuf JSON mapping of\n"
    "the vertex.v1 response (field names as in the .proto, defaults included, int64 as strings).\n"
    "\n";

absl::Status List(workflow::LearningApi& api, const ParsedArgs& a) {
  v1::ListRulesRequest request;
  request.set_site(a.String("site", ""));
  VERTEX_ASSIGN_OR_RETURN(v1::ListRulesResponse response, api.ListRules(request));
  return PrintJson(response);
}

absl::Status Get(workflow::LearningApi& api, const ParsedArgs& a, int64_t version) {
  v1::GetRuleRequest request;
  request.set_site(a.String("site", ""));
  request.set_cluster_id(a.String("cluster", ""));
  request.set_version(version);
  VERTEX_ASSIGN_OR_RETURN(v1::GetRuleResponse response, api.GetRule(request));
  return PrintJson(response);
}

absl::Status Export(workflow::LearningApi& api, const ParsedArgs& a, int64_t version) {
  v1::ExportRuleRequest request;
  request.set_site(a.String("site", ""));
  request.set_cluster_id(a.String("cluster", ""));
  request.set_version(version);
  const std::string format = a.String("format", "json");
  request.set_format(format == "xslt"     ? v1::ExportRuleRequest::XSLT
                     : format == "fields" ? v1::ExportRuleRequest::FIELDS
                                          : v1::ExportRuleRequest::JSON);
  VERTEX_ASSIGN_OR_RETURN(v1::ExportRuleResponse response, api.ExportRule(request));
  std::cout << response.content();
  for (const std::string& note : response.notes()) std::cerr << "vertexctl rules export: note: " << note << "\n";
  return absl::OkStatus();
}

absl::Status Rollback(workflow::LearningApi& api, const ParsedArgs& a, int64_t version) {
  v1::RollbackRuleRequest request;
  request.set_site(a.String("site", ""));
  request.set_cluster_id(a.String("cluster", ""));
  request.set_version(version);
  VERTEX_ASSIGN_OR_RETURN(v1::RollbackRuleResponse response, api.RollbackRule(request));
  return PrintJson(response);
}

absl::Status Resolve(workflow::LearningApi& api, const ParsedArgs& a, bool accept) {
  v1::ResolveCandidateRequest request;
  request.set_site(a.String("site", ""));
  request.set_cluster_id(a.String("cluster", ""));
  request.set_accept(accept);
  VERTEX_ASSIGN_OR_RETURN(v1::ResolveCandidateResponse response, api.ResolveCandidate(request));
  return PrintJson(response);
}

// accept and reject take SITE and CLUSTER as arguments (or as --site and
// --cluster): `a` with them as flags.
absl::StatusOr<ParsedArgs> WithSiteAndCluster(ParsedArgs a) {
  if (a.positional.size() == 1) return a;
  if (a.positional.size() != 3) {
    return absl::InvalidArgumentError("give SITE and CLUSTER: vertexctl rules " + a.positional[0] +
                                      " SITE CLUSTER (see --help)");
  }
  if (a.Has("site") || a.Has("cluster")) {
    return absl::InvalidArgumentError("give SITE and CLUSTER as arguments or as --site and --cluster, not both");
  }
  a.flags["site"] = a.positional[1];
  a.flags["cluster"] = a.positional[2];
  a.positional.resize(1);
  return a;
}

absl::Status Rules(ParsedArgs a) {
  const std::string sub = a.positional.empty() ? "" : a.positional[0];
  if (sub == "accept" || sub == "reject") {
    VERTEX_ASSIGN_OR_RETURN(a, WithSiteAndCluster(std::move(a)));
  }
  if (a.positional.size() != 1 ||
      (sub != "list" && sub != "get" && sub != "export" && sub != "rollback" && sub != "accept" && sub != "reject")) {
    return absl::InvalidArgumentError(
        "give one subcommand: list, get, export, rollback, accept or reject (see --help)");
  }
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site"}));
  if (sub != "list") VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"cluster"}));
  const std::string format = a.String("format", "json");
  if (format != "json" && format != "xslt" && format != "fields") {
    return absl::InvalidArgumentError("--format must be json, xslt or fields, not \"" + format + "\"");
  }
  VERTEX_ASSIGN_OR_RETURN(const int64_t version, a.Int("version", 0, 0, INT64_MAX));
  if (sub == "rollback" && version <= 0) {
    return absl::InvalidArgumentError("--version N (> 0) is required: the version to make current");
  }
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, StoreMode::kMustExist, {}));
  if (sub == "list") return List(*backend.api, a);
  if (sub == "get") return Get(*backend.api, a, version);
  if (sub == "export") return Export(*backend.api, a, version);
  if (sub == "accept" || sub == "reject") return Resolve(*backend.api, a, sub == "accept");
  return Rollback(*backend.api, a, version);
}

}  // namespace

int RunRules(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = RulesFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kRulesUsage << BackendHelp("the learning service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("rules", parsed.status());
  const absl::Status s = Rules(*parsed);
  return s.ok() ? 0 : ReportError("rules", s);
}

}  // namespace vertex::cli
