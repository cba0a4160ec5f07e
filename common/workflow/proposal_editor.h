// The simulated editor's side of the list finder's proposals (issue 14): how
// an editor who knows the true values of a multi-valued attribute on a page
// answers a proposal (AnnotationTask.proposed), and what that costs in
// inputs, against labelling every value.
//
//   accept   the proposal is the true list: 1 input;
//   trim     the true list with extra items before and/or after it (a
//            breadcrumb's "Home"): accept and delete the extras (1 + extras
//            inputs), when that is cheaper than labelling;
//   partial  a correct prefix of the true list, or mostly right (its first
//            K values are true, K >= half of them): the first K true values
//            as a partial label (Annotation.partial), K inputs;
//   label    otherwise, or no proposal: one input per true value (one for
//            "absent").
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_WORKFLOW_PROPOSAL_EDITOR_H_
#define VERTEX_COMMON_WORKFLOW_PROPOSAL_EDITOR_H_

#include <cstddef>
#include <string>
#include <vector>

#include "vertex/v1/rule.pb.h"

namespace vertex::workflow {

enum class ProposalAnswer { kLabel, kAccept, kTrim, kPartial };

// "label" / "accept" / "trim" / "partial".
const char* ProposalAnswerName(ProposalAnswer answer);

struct EditorAnswer {
  ProposalAnswer answer = ProposalAnswer::kLabel;
  // The values the editor gives (all true ones, or the first K for partial).
  std::vector<std::string> values;
  bool partial = false;
  size_t inputs = 0;
  // Inputs labelling every value would have cost (one for "absent").
  size_t labelling_inputs = 0;
};

// The answer to `proposal` (null: none) of an editor whose true values
// (as the page shows them; empty: absent) are `truth`. Values compare
// folded (html::FoldText).
EditorAnswer AnswerProposal(const std::vector<std::string>& truth, const v1::ProposedList* proposal);

// The inputs on one attribute, summed over the pages annotated.
struct AttributeInputs {
  size_t inputs = 0;            // as the editor answered
  size_t labelling_inputs = 0;  // labelling every value
  size_t proposals = 0;         // proposals seen
  size_t accepted = 0, trimmed = 0, partial = 0, labelled = 0;
  void Add(const EditorAnswer& a, bool had_proposal);
  void Merge(const AttributeInputs& other);
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_PROPOSAL_EDITOR_H_
