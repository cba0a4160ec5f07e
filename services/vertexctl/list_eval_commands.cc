// vertexctl list-model eval: the list finder's evaluation harness
// (common/lists/list_eval.h) over a problem set on disk (problem.h; written
// by `vertexctl gen-demo --kind lists`), printed as the paper's Tables 1-2
// and Fig. 5 beside its figures, or as JSON.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/lists/features.h"
#include "common/lists/list_eval.h"
#include "common/lists/problem.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

constexpr const char* kModes[] = {"lopo", "lodo", "intra-domain", "intra-page", "hybrid", "all"};

std::vector<FlagSpec> ListModelEvalFlags() {
  return {{"problems", "DIR", "the problem set: problems.jsonl and pages/ (required)"},
          {"features", "SET", "paper (the paper's 19 features) or paper+markup (plus class/id; default)"},
          {"mode", "M[,M...]",
           "protocols: lopo (leave-one-page-out), lodo (leave-one-domain-out), intra-domain, intra-page "
           "(K = 1..--max-inputs), hybrid (lopo's model, then intra-page), all (default)"},
          {"max-inputs", "N", "intra-page and hybrid curves up to N user inputs, 1..100 (default 20)"},
          {"epsilon", "E", "the eps of eps-good, 0..0.5 (default 0.05)"},
          {"json", "", "print the result as one JSON object instead of the tables"},
          {"help", "", "show this help"}};
}

constexpr char kListModelUsage[] =
    "usage: vertexctl list-model eval --problems DIR [--features paper|paper+markup]\n"
    "                                 [--mode lopo|lodo|intra-domain|intra-page|hybrid|all] [--json]\n"
    "\n"
    "Evaluates the page-independent list finder (Cohen & Fan; issue 14) on a problem set\n"
    "(`vertexctl gen-demo --kind lists DIR` writes one): per domain, the problems the learnt\n"
    "node classifier (CART) gets perfect and eps-good under leave-one-domain-out,\n"
    "leave-one-page-out and intra-domain leave-one-page-out (the paper's Tables 1-2), and the\n"
    "problems meeting the goal after n user inputs with intra-page learning and the hybrid\n"
    "(Fig. 5, n = 1..20), beside the paper's figures. Out-of-class problems are reported apart\n"
    "and never trained on. Offline; writes nothing.\n"
    "\n"
    "flags:\n";

// The protocols --mode names (comma-separated, repeatable).
absl::Status ApplyModes(const ParsedArgs& a, lists::EvalOptions* o) {
  std::vector<std::string> modes = a.List("mode");
  if (modes.empty()) modes = {"all"};
  o->leave_one_page_out = o->leave_one_domain_out = o->intra_domain = o->intra_page = false;
  for (const std::string& m : modes) {
    if (m == "lopo" || m == "all" || m == "hybrid") o->leave_one_page_out = true;
    if (m == "lodo" || m == "all") o->leave_one_domain_out = true;
    if (m == "intra-domain" || m == "all") o->intra_domain = true;
    if (m == "intra-page" || m == "all" || m == "hybrid") o->intra_page = true;
    if (std::find(std::begin(kModes), std::end(kModes), m) == std::end(kModes)) {
      return absl::InvalidArgumentError(absl::StrCat("--mode '", m, "': expected ",
                                                     absl::StrJoin(kModes, ", ")));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<lists::EvalOptions> EvalOptionsFromFlags(const ParsedArgs& a) {
  lists::EvalOptions o;
  VERTEX_ASSIGN_OR_RETURN(o.train.features, FeatureSetFlag(a));
  VERTEX_RETURN_IF_ERROR(ApplyModes(a, &o));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_inputs, a.Int("max-inputs", o.max_inputs, 1, 100));
  o.max_inputs = static_cast<int>(max_inputs);
  VERTEX_ASSIGN_OR_RETURN(o.epsilon, a.Double("epsilon", o.epsilon, 0, 0.5));
  return o;
}

void ProtocolJson(const char* name, const lists::ProtocolResult& r, double eps, util::JsonWriter* w) {
  w->Key(name).BeginObject().Key("ran").Bool(r.ran);
  if (!r.ran) {
    w->EndObject();
    return;
  }
  w->Key("trainings").Int(r.trainings).Key("seconds").Double(r.seconds);
  int perfect = 0, good = 0, in_class = 0;
  w->Key("problems").BeginArray();
  for (const lists::ProblemOutcome& o : r.outcomes) {
    if (!o.out_of_class) {
      ++in_class;
      perfect += o.score.perfect();
      good += o.score.good(eps);
    }
    w->BeginObject().Key("id").String(o.id).Key("domain").String(o.domain);
    w->Key("out_of_class").Bool(o.out_of_class).Key("trained").Bool(o.trained);
    w->Key("precision").Double(o.score.precision).Key("recall").Double(o.score.recall);
    w->Key("predicted").Uint(o.score.predicted).Key("expected").Uint(o.score.expected);
    w->Key("correct").Uint(o.score.correct).Key("perfect").Bool(o.score.perfect());
    w->Key("good").Bool(o.score.good(eps)).EndObject();
  }
  w->EndArray();
  w->Key("in_class").Int(in_class).Key("perfect").Int(perfect).Key("good").Int(good);
  w->EndObject();
}

void CurvesJson(const char* name, bool ran, const std::map<std::string, lists::Curve>& curves,
                util::JsonWriter* w) {
  w->Key(name).BeginObject().Key("ran").Bool(ran);
  if (ran) {
    // "" (all in-class problems) is written as "total".
    w->Key("curves").BeginObject();
    for (const auto& [group, c] : curves) {
      w->Key(group.empty() ? "total" : group).BeginObject().Key("perfect").BeginArray();
      for (int v : c.perfect) w->Int(v);
      w->EndArray().Key("good").BeginArray();
      for (int v : c.good) w->Int(v);
      w->EndArray().EndObject();
    }
    w->EndObject();
  }
  w->EndObject();
}

std::string ResultJson(const lists::ListEvalResult& r) {
  util::JsonWriter w;
  w.BeginObject().Key("features").String(lists::FeatureSetName(r.features));
  w.Key("epsilon").Double(r.epsilon).Key("max_inputs").Int(r.max_inputs);
  w.Key("pages").BeginObject();
  for (const auto& [domain, n] : r.pages) w.Key(domain).Int(n);
  w.EndObject().Key("out_of_class").Int(r.out_of_class).Key("elements").Uint(r.elements);
  w.Key("prepare_seconds").Double(r.prepare_seconds);
  ProtocolJson("lopo", r.leave_one_page_out, r.epsilon, &w);
  ProtocolJson("lodo", r.leave_one_domain_out, r.epsilon, &w);
  ProtocolJson("intra_domain", r.intra_domain, r.epsilon, &w);
  CurvesJson("intra_page", r.intra_page_ran, r.intra_page, &w);
  CurvesJson("hybrid", r.hybrid_ran, r.hybrid, &w);
  w.EndObject();
  return w.Release();
}

absl::Status Eval(const ParsedArgs& a) {
  if (!a.Has("problems")) return absl::InvalidArgumentError("--problems DIR is required");
  if (!a.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + a.positional[0]);
  VERTEX_ASSIGN_OR_RETURN(const lists::EvalOptions options, EvalOptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(const std::vector<lists::ListProblem> problems,
                          lists::LoadProblems(a.String("problems", "")));
  VERTEX_ASSIGN_OR_RETURN(const lists::ListEvalResult result, lists::EvaluateListFinder(problems, options));
  if (a.Has("json")) {
    std::printf("%s\n", ResultJson(result).c_str());
  } else {
    std::fputs(lists::RenderListEval(result).c_str(), stdout);
  }
  return absl::OkStatus();
}

}  // namespace

int RunListModelEval(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = ListModelEvalFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kListModelUsage << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("list-model eval", parsed.status());
  const absl::Status status = Eval(*parsed);
  return status.ok() ? 0 : ReportError("list-model eval", status);
}

int RunListModel(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "eval") return RunListModelEval({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "train") return RunListModelTrain({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "show") return RunListModelShow({args.begin() + 1, args.end()});
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    std::cout << "vertexctl list-model train|show|eval: train the list finder (from the store's rules or a\n"
                 "problem set), show a stored model, or evaluate it on a problem set; see\n"
                 "vertexctl list-model SUBCOMMAND --help\n\n"
              << kListModelUsage << FlagHelp(ListModelEvalFlags());
    return 0;
  }
  std::cerr << "vertexctl list-model: expected a subcommand: train, show or eval\n\n" << kListModelUsage;
  return 2;
}

}  // namespace vertex::cli
