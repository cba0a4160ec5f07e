// The evaluation harness of the list finder (Cohen & Fan §3-4, digest
// §2.3): over a set of list-finding problems, the page-independent
// protocols (leave-one-page-out, leave-one-domain-out, intra-domain
// leave-one-page-out), intra-page learning for K = 1..20 with a simulated
// user, and the hybrid, all scored per page as perfect / ε-good (list_finder.h
// PageScore), per domain and in total, out-of-class problems apart.
//
// Every page is parsed and its features computed once; each protocol trains
// on row subsets of one table of training rows.
//
// Protocols, as the paper runs them:
//   lopo          for each page, a model from all other (in-class) pages
//   lodo          for each page, a model from the pages of the other domains
//   intra-domain  for each page, a model from the other pages of its domain
//   intra-page    for each page and K, a model from the page's elements up
//                 to and including its K-th positive in document order (the
//                 simulated user labels positives left to right; unmarked
//                 elements before the last mark are negatives), tested on
//                 the rest of the page
//   hybrid        the lopo model's prediction; the user accepts it (1 input)
//                 when it meets the goal, else labels as in intra-page (K
//                 examples = 1 + K inputs)
// Curves count the problems that have met the goal (perfect, or ε-good)
// with at most n inputs: the user stops once the wrapper is good enough.
// Out-of-class problems (problem.h) are never training pages.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_LISTS_LIST_EVAL_H_
#define VERTEX_COMMON_LISTS_LIST_EVAL_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/lists/list_finder.h"
#include "common/lists/problem.h"

namespace vertex::lists {

struct EvalOptions {
  TrainOptions train;
  double epsilon = 0.05;
  // Intra-page and hybrid curves for K (inputs) = 1..max_inputs.
  int max_inputs = 20;
  bool leave_one_page_out = true;
  bool leave_one_domain_out = true;
  bool intra_domain = true;
  // Intra-page learning; the hybrid runs when both it and
  // leave_one_page_out do.
  bool intra_page = true;
};

// One problem's result under one protocol.
struct ProblemOutcome {
  std::string id;
  std::string domain;
  bool out_of_class = false;
  // False when there was nothing to train on (no other page in the domain,
  // say): the page counts as failed.
  bool trained = false;
  PageScore score;
};

struct ProtocolResult {
  bool ran = false;
  // One per problem, in the input order.
  std::vector<ProblemOutcome> outcomes;
  int trainings = 0;
  double seconds = 0;
};

// How many problems met the goal with at most n inputs, n = 1..max_inputs
// (index n-1).
struct Curve {
  std::vector<int> perfect;
  std::vector<int> good;
};

struct ListEvalResult {
  FeatureSet features = FeatureSet::kPaperAndMarkup;
  double epsilon = 0.05;
  int max_inputs = 20;
  // In-class problems per domain, and out-of-class problems.
  std::map<std::string, int> pages;
  int out_of_class = 0;
  size_t elements = 0;
  double prepare_seconds = 0;  // parsing, features, training rows

  ProtocolResult leave_one_page_out, leave_one_domain_out, intra_domain;
  // [problem][K-1]: the intra-page score with K labelled positives (on the
  // elements after the K-th positive).
  std::vector<std::vector<PageScore>> intra_page_scores;
  bool intra_page_ran = false;
  bool hybrid_ran = false;
  double intra_page_seconds = 0;
  int intra_page_trainings = 0;
  // By domain (in-class problems), "" = all in-class, "(out-of-class)" =
  // the out-of-class problems.
  std::map<std::string, Curve> intra_page, hybrid;
};

// Runs the protocols `options` selects. InvalidArgument, naming the
// problem, when a page does not parse or a positive XPath does not select
// one element; InvalidArgument when there is no in-class problem.
absl::StatusOr<ListEvalResult> EvaluateListFinder(const std::vector<ListProblem>& problems,
                                                  const EvalOptions& options = {});

// The paper's Table 1/2 layout (#perfect / #ε-good per domain and
// protocol) and the Fig. 5 curves (problems meeting the goal vs user
// inputs), as text, beside the paper's figures.
std::string RenderListEval(const ListEvalResult& result);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_LIST_EVAL_H_
