// AMBER's gazetteer learning (Alg. 5) in rounds over a set of pages, as the
// paper's section 6.4 runs it: each round annotates the pages with the
// current gazetteer, runs AMBER on them, and lets the learner grow the
// term list from the typed nodes and blacklist the terms that are more often
// noise; rounds stop when a round learns no term or at max_rounds. With a
// ground truth (the pages' list truth and a clean term list), each round
// reports the paper's Table 1 columns: LE, CE, PE, RE, LL, CL.
//
// Thread-safety: a function of its inputs (the learner is modified).
#ifndef VERTEX_COMMON_WORKFLOW_GAZETTEER_ROUNDS_H_
#define VERTEX_COMMON_WORKFLOW_GAZETTEER_ROUNDS_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/amber/amber.h"
#include "common/annotate/annotator.h"
#include "common/annotate/gazetteer_learner.h"
#include "common/eval/list_truth.h"
#include "common/html/page.h"
#include "common/schema/schema.h"

namespace vertex::workflow {

struct GazetteerRoundsOptions {
  size_t max_rounds = 6;
  amber::Options amber;
};

struct GazetteerRound {
  size_t round = 0;  // 1, 2, ...
  // LE: nodes AMBER typed with the attribute; CE: those that are the
  // attribute's node of a truth record (its text equals the truth text or
  // value); PE = CE / LE; RE = CE / the truth's nodes of the attribute.
  size_t typed = 0;
  size_t correct = 0;
  double precision = 0;
  double recall = 0;
  // LL: terms learnt this round; CL: those in the clean list.
  size_t learnt = 0;
  size_t learnt_correct = 0;
  size_t blacklisted = 0;
  // |U minus U-bar| after the round.
  size_t gazetteer_size = 0;
  // The terms learnt and blacklisted this round, sorted.
  std::vector<std::string> learnt_terms;
  std::vector<std::string> blacklisted_terms;
};

struct GazetteerTruth {
  // Per page (same order as the pages), its list truth; empty: no CE/RE.
  std::vector<const eval::ListTruthPage*> pages;
  // The clean term list (folded with html::FoldText); empty: no CL.
  std::set<std::string> clean_terms;
};

// Runs rounds for `learner`'s attribute, whose gazetteer is named
// `gazetteer_name` in the schema; the other gazetteers come from `others`.
// InvalidArgument when the attribute has no gazetteer; the annotator's and
// AMBER's errors.
absl::StatusOr<std::vector<GazetteerRound>> LearnGazetteerRounds(const schema::CompiledSchema& schema,
                                                                 const std::vector<const html::Page*>& pages,
                                                                 const annotate::GazetteerSet& others,
                                                                 annotate::GazetteerLearner& learner,
                                                                 const GazetteerRoundsOptions& options,
                                                                 const GazetteerTruth* truth = nullptr);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_GAZETTEER_ROUNDS_H_
