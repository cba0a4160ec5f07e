#include "common/workflow/gazetteer_rounds.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/util/status_macros.h"

namespace vertex::workflow {

absl::StatusOr<std::vector<GazetteerRound>> LearnGazetteerRounds(const schema::CompiledSchema& schema,
                                                                 const std::vector<const html::Page*>& pages,
                                                                 const annotate::GazetteerSet& others,
                                                                 annotate::GazetteerLearner& learner,
                                                                 const GazetteerRoundsOptions& options,
                                                                 const GazetteerTruth* truth) {
  const int attribute = learner.attribute();
  if (attribute < 0 || static_cast<size_t>(attribute) >= schema.size() ||
      schema.attribute(static_cast<size_t>(attribute)).gazetteer().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("attribute ", attribute, " of schema ", schema.vertical(),
                                                   " has no gazetteer to learn"));
  }
  const v1::AttributeSchema& attr = schema.attribute(static_cast<size_t>(attribute));
  // The truth's node texts and values of the attribute, per page (folded).
  std::vector<std::set<std::string>> truth_texts(pages.size());
  size_t truth_nodes = 0;
  const bool with_truth = truth != nullptr && truth->pages.size() == pages.size();
  if (with_truth) {
    for (size_t p = 0; p < pages.size(); ++p) {
      for (const eval::TruthArea& area : truth->pages[p]->areas) {
        for (const eval::TruthRecord& r : area.records) {
          auto it = r.attributes.find(attr.name());
          if (it == r.attributes.end()) continue;
          ++truth_nodes;
          truth_texts[p].insert(html::FoldText(it->second.text));
          truth_texts[p].insert(html::FoldText(it->second.value));
        }
      }
    }
  }
  std::vector<GazetteerRound> out;
  for (size_t round = 1; round <= options.max_rounds; ++round) {
    annotate::GazetteerSet gazetteers = others;
    gazetteers[attr.gazetteer()] = std::make_shared<const annotate::Gazetteer>(learner.gazetteer());
    VERTEX_ASSIGN_OR_RETURN(annotate::Annotator annotator, annotate::Annotator::Create(schema, gazetteers));
    GazetteerRound r;
    r.round = round;
    for (size_t p = 0; p < pages.size(); ++p) {
      const std::vector<annotate::Annotation> annotations = annotator.Annotate(*pages[p]);
      VERTEX_ASSIGN_OR_RETURN(amber::Typing typing, amber::Run(*pages[p], annotations, schema, options.amber));
      for (const amber::DataArea& area : typing.areas) {
        for (const amber::Record& record : area.records) {
          for (const amber::AttributeMatch& m : record.attributes) {
            if (m.attribute != attribute) continue;
            ++r.typed;
            if (with_truth && (truth_texts[p].count(html::FoldText(m.node.Text())) ||
                               truth_texts[p].count(html::FoldText(m.value)))) {
              ++r.correct;
            }
          }
        }
      }
      learner.Observe(typing, annotations);
    }
    const annotate::RoundResult result = learner.EndRound();
    r.learnt = result.added.size();
    r.blacklisted = result.blacklisted.size();
    r.gazetteer_size = result.gazetteer_size;
    r.learnt_terms = result.added;
    r.blacklisted_terms = result.blacklisted;
    if (truth != nullptr && !truth->clean_terms.empty()) {
      for (const std::string& t : result.added) r.learnt_correct += truth->clean_terms.count(html::FoldText(t));
    }
    r.precision = r.typed ? static_cast<double>(r.correct) / r.typed : 0;
    r.recall = truth_nodes ? static_cast<double>(r.correct) / truth_nodes : 0;
    out.push_back(r);
    if (r.learnt == 0) break;
  }
  return out;
}

}  // namespace vertex::workflow
