// vertexctl gazetteer learn: AMBER's gazetteer learning (Alg. 5) for an
// attribute of a record-level site, through the LearnGazetteer call.
#include <cstdio>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/annotate/gazetteer_file.h"
#include "common/site/page_file.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> GazetteerFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (must exist: the site is registered with a record-level schema)"),
      {"site", "NAME", "a site registered with a record-level schema"},
      {"attribute", "NAME", "the schema attribute whose gazetteer is learnt (e.g. location)"},
      {"seed", "FILE", "upfront: start from these terms (one per line); the stored evidence is replaced"},
      {"pages", "DIR", "pages to learn on (*.htm, *.html; at most 1,000); default: the site's sample pages"},
      {"rounds", "N", "rounds at most (default 6; they stop when one learns no term)"},
      {"continuous", "", "one round over --pages that adds to the stored evidence"},
      {"truth", "FILE", "a clean list of the attribute's terms: each round then counts the correct ones learnt"},
  };
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kGazetteerUsage[] =
    "usage: vertexctl gazetteer learn --site SITE --attribute NAME [--seed FILE] [--pages DIR]\n"
    "                                 (--store DIR | --server HOST:PORT) [flags]\n"
    "\n"
    "Grows the gazetteer of a record-level site's attribute as AMBER does (its Alg. 5): each\n"
    "round annotates the pages with the current terms, runs AMBER, adds the components of the\n"
    "nodes it typed with the attribute (\"Oxford, Walton Street\" -> Oxford, Walton Street) and\n"
    "blacklists the terms found at least 1.5 times as often outside the typing as inside. The\n"
    "terms and their evidence are stored per vertical and attribute; later `vertexctl learn`\n"
    "runs of the vertical's sites annotate with them. Upfront (--seed): from the given terms;\n"
    "otherwise from the stored terms, else the built-in list. --continuous: one round that adds\n"
    "to the stored evidence (for a scheduler, with freshly crawled pages).\n"
    "Prints one line per round: typed nodes (LE), terms learnt (LL), of them in --truth (CL),\n"
    "terms blacklisted, gazetteer size; then the LearnGazetteerResponse as JSON.\n";

absl::StatusOr<std::vector<std::string>> ReadTerms(const std::string& path) {
  VERTEX_ASSIGN_OR_RETURN(annotate::Gazetteer g, annotate::ReadGazetteerFile(path));
  return g.Terms();
}

absl::Status Learn(const ParsedArgs& a) {
  if (a.positional.size() != 1 || a.positional[0] != "learn") {
    return absl::InvalidArgumentError("give the action: vertexctl gazetteer learn ... (see --help)");
  }
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site", "attribute"}));
  v1::LearnGazetteerRequest request;
  request.set_site(a.String("site", ""));
  request.set_attribute(a.String("attribute", ""));
  VERTEX_ASSIGN_OR_RETURN(int64_t rounds, a.Int("rounds", 0, 0, 50));
  request.set_max_rounds(static_cast<uint32_t>(rounds));
  request.set_continuous(a.Has("continuous"));
  if (a.Has("seed")) {
    VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> seed, ReadTerms(a.String("seed", "")));
    for (const std::string& t : seed) request.add_seed_terms(t);
  }
  if (a.Has("truth")) {
    VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> truth, ReadTerms(a.String("truth", "")));
    for (const std::string& t : truth) request.add_truth_terms(t);
  }
  if (a.Has("pages")) {
    VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths({a.String("pages", "")}));
    if (files.size() > 1000) {
      return absl::InvalidArgumentError(absl::StrCat("--pages: ", files.size(), " pages; at most 1,000 per call"));
    }
    for (const std::string& f : files) {
      VERTEX_ASSIGN_OR_RETURN(site::PageFile page, site::ReadPageFile(f, size_t{64} << 20));
      v1::Page* p = request.add_pages();
      p->set_url(page.url);
      p->set_html(page.bytes);
    }
  }
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend,
                          OpenLearning(a, StoreMode::kMustExist, workflow::LearningEngineOptions{}));
  VERTEX_ASSIGN_OR_RETURN(v1::LearnGazetteerResponse response, backend.api->LearnGazetteer(request));
  for (const v1::GazetteerRound& r : response.rounds()) {
    std::fprintf(stderr, "round %u: typed %u nodes, learnt %u terms (%u in --truth), blacklisted %u, size %u\n",
                 r.round(), r.typed_nodes(), r.learnt(), r.learnt_correct(), r.blacklisted(), r.gazetteer_size());
  }
  return PrintJson(response);
}

}  // namespace

int RunGazetteer(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = GazetteerFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kGazetteerUsage << BackendHelp("the learning service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("gazetteer", parsed.status());
  const absl::Status s = Learn(*parsed);
  return s.ok() ? 0 : ReportError("gazetteer", s);
}

}  // namespace vertex::cli
