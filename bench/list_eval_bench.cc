// The list finder's evaluation (issue 14) on generated problems: the
// paper's Table 2 protocols, the intra-page and hybrid curves (Fig. 5) and
// the time each takes, printed beside the paper's figures (list_eval.h).
//
//   list_eval_bench [--pages N] [--seed S] [--features paper|paper+markup|both]
//                   [--no-intra-page] [--no-lodo] [--no-intra-domain]
//                   [--alpha A] [--min-leaf M]
//
// Defaults: the generator's default set (demo/list_problems.h: 96 pages,
// seed 1), both feature sets, every protocol, alpha by 5-fold CV over
// pages. `vertexctl list-model eval` runs the same harness on a problem
// directory.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/demo/list_problems.h"
#include "common/lists/list_eval.h"

namespace {

int Usage(const std::string& why) {
  std::fprintf(stderr,
               "list_eval_bench: %s\nusage: list_eval_bench [--pages N] [--seed S] "
               "[--features paper|paper+markup|both] [--no-intra-page] [--no-lodo] [--no-intra-domain] "
               "[--alpha A] [--min-leaf M]\n",
               why.c_str());
  return 2;
}

// Parses a whole decimal number into `out`; false when `s` is not one.
bool Number(const char* s, double* out) {
  char* end = nullptr;
  *out = std::strtod(s, &end);
  return end != s && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  using namespace vertex;
  demo::ListProblemsOptions generate;
  lists::EvalOptions eval;
  std::string features = "both";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    double v = 0;
    if (arg == "--no-intra-page") {
      eval.intra_page = false;
    } else if (arg == "--no-lodo") {
      eval.leave_one_domain_out = false;
    } else if (arg == "--no-intra-domain") {
      eval.intra_domain = false;
    } else if (arg == "--features" && has_value) {
      features = argv[++i];
      if (features != "paper" && features != "paper+markup" && features != "both") {
        return Usage("unknown feature set \"" + features + "\"");
      }
    } else if ((arg == "--pages" || arg == "--seed" || arg == "--alpha" || arg == "--min-leaf") && has_value) {
      if (!Number(argv[++i], &v)) return Usage(arg + " needs a number, not \"" + argv[i] + "\"");
      if (arg == "--pages") generate.pages = static_cast<int>(v);
      if (arg == "--seed") generate.seed = static_cast<uint64_t>(v);
      if (arg == "--alpha") eval.train.pruning_alpha = v;
      if (arg == "--min-leaf") {
        if (v < 1) return Usage("--min-leaf must be at least 1");
        eval.train.min_leaf = static_cast<uint32_t>(v);
      }
    } else {
      return Usage("unknown or incomplete argument \"" + arg + "\"");
    }
  }
  absl::StatusOr<std::vector<demo::GeneratedListProblem>> generated = demo::GenerateListProblems(generate);
  if (!generated.ok()) return Usage(generated.status().ToString());
  const std::vector<lists::ListProblem> problems = demo::ProblemsOf(*std::move(generated));
  std::vector<lists::FeatureSet> sets;
  if (features != "paper+markup") sets.push_back(lists::FeatureSet::kPaper);
  if (features != "paper") sets.push_back(lists::FeatureSet::kPaperAndMarkup);
  for (lists::FeatureSet set : sets) {
    eval.train.features = set;
    absl::StatusOr<lists::ListEvalResult> result = lists::EvaluateListFinder(problems, eval);
    if (!result.ok()) {
      std::fprintf(stderr, "list_eval_bench: %s\n", result.status().ToString().c_str());
      return 1;
    }
    std::printf("== generated problems: %d pages, seed %llu ==\n%s\n", generate.pages,
                static_cast<unsigned long long>(generate.seed), lists::RenderListEval(*result).c_str());
  }
  return 0;
}
