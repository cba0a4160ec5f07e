#include "common/workflow/proposal_editor.h"

#include <algorithm>

#include "common/html/text.h"

namespace vertex::workflow {
namespace {

std::vector<std::string> Folded(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) out.push_back(html::FoldText(v));
  return out;
}

}  // namespace

const char* ProposalAnswerName(ProposalAnswer answer) {
  switch (answer) {
    case ProposalAnswer::kAccept:
      return "accept";
    case ProposalAnswer::kTrim:
      return "trim";
    case ProposalAnswer::kPartial:
      return "partial";
    case ProposalAnswer::kLabel:
      break;
  }
  return "label";
}

EditorAnswer AnswerProposal(const std::vector<std::string>& truth, const v1::ProposedList* proposal) {
  EditorAnswer out;
  out.values = truth;
  out.labelling_inputs = std::max<size_t>(truth.size(), 1);
  out.inputs = out.labelling_inputs;
  if (proposal == nullptr || truth.empty()) return out;
  const std::vector<std::string> t = Folded(truth);
  const std::vector<std::string> p = Folded({proposal->values().begin(), proposal->values().end()});
  size_t k = 0;
  while (k < t.size() && k < p.size() && t[k] == p[k]) ++k;
  if (k == t.size() && k == p.size()) {
    out.answer = ProposalAnswer::kAccept;
    out.inputs = 1;
  } else if (p.size() > t.size() && std::search(p.begin(), p.end(), t.begin(), t.end()) != p.end() &&
             1 + (p.size() - t.size()) < out.labelling_inputs) {
    out.answer = ProposalAnswer::kTrim;
    out.inputs = 1 + (p.size() - t.size());
  } else if (k > 0 && k < t.size() && (k == p.size() || 2 * k >= t.size())) {
    out.answer = ProposalAnswer::kPartial;
    out.values.resize(k);
    out.partial = true;
    out.inputs = k;
  }
  return out;
}

void AttributeInputs::Add(const EditorAnswer& a, bool had_proposal) {
  inputs += a.inputs;
  labelling_inputs += a.labelling_inputs;
  proposals += had_proposal;
  switch (a.answer) {
    case ProposalAnswer::kAccept:
      ++accepted;
      break;
    case ProposalAnswer::kTrim:
      ++trimmed;
      break;
    case ProposalAnswer::kPartial:
      ++partial;
      break;
    case ProposalAnswer::kLabel:
      ++labelled;
      break;
  }
}

void AttributeInputs::Merge(const AttributeInputs& o) {
  inputs += o.inputs;
  labelling_inputs += o.labelling_inputs;
  proposals += o.proposals;
  accepted += o.accepted;
  trimmed += o.trimmed;
  partial += o.partial;
  labelled += o.labelled;
}

}  // namespace vertex::workflow
