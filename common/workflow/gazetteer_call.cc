// LearningEngine::LearnGazetteer (learning.proto): AMBER's gazetteer
// learning over a site's pages, the terms kept per vertical and attribute in
// the rule store; and the gazetteers Learn annotates with.
#include <deque>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/annotate/gazetteer_learner.h"
#include "common/html/text.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/gazetteer_rounds.h"
#include "common/workflow/learning_engine.h"
#include "common/site/site_builder.h"

namespace vertex::workflow {
namespace {

// Sample pages LearnGazetteer reads when the request gives none, and pages
// one request may carry.
constexpr size_t kMaxSamplePagesRead = 200;
constexpr size_t kMaxRequestPages = 1000;
constexpr uint32_t kDefaultRounds = 6;
constexpr uint32_t kMaxRounds = 50;
constexpr int kMaxReportedTerms = 50;

std::map<std::string, annotate::GazetteerTermState> ToLearner(const store::GazetteerTerms& stored) {
  std::map<std::string, annotate::GazetteerTermState> out;
  for (const auto& [term, s] : stored) out[term] = {s.ev_pos, s.ev_neg, s.blacklisted};
  return out;
}

store::GazetteerTerms ToStore(const std::map<std::string, annotate::GazetteerTermState>& terms) {
  store::GazetteerTerms out;
  for (const auto& [term, s] : terms) out[term] = {s.ev_pos, s.ev_neg, s.blacklisted};
  return out;
}

}  // namespace

absl::StatusOr<annotate::GazetteerSet> LearningEngine::GazetteersFor(const schema::CompiledSchema& schema) const {
  annotate::GazetteerSet out = options_.learn.gazetteers;
  for (size_t i = 0; i < schema.size(); ++i) {
    const v1::AttributeSchema& attr = schema.attribute(i);
    if (attr.gazetteer().empty()) continue;
    VERTEX_ASSIGN_OR_RETURN(store::GazetteerTerms stored, store_->GetGazetteerTerms(schema.vertical(), attr.name()));
    if (stored.empty()) continue;
    auto g = std::make_shared<annotate::Gazetteer>();
    for (const auto& [term, state] : stored) {
      if (!state.blacklisted) g->Add(term);
    }
    out[attr.gazetteer()] = std::move(g);
  }
  return out;
}

absl::StatusOr<v1::LearnGazetteerResponse> LearningEngine::LearnGazetteer(const v1::LearnGazetteerRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  if (static_cast<size_t>(request.pages_size()) > kMaxRequestPages) {
    return absl::InvalidArgumentError(
        absl::StrCat("pages: ", request.pages_size(), " pages in one call; at most ", kMaxRequestPages));
  }
  if (request.max_rounds() > kMaxRounds) {
    return absl::InvalidArgumentError(absl::StrCat("max_rounds: ", request.max_rounds(), "; at most ", kMaxRounds));
  }
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site.schema()));
  if (!schema.proto().record_level()) {
    return absl::InvalidArgumentError("site \"" + request.site() + "\" has schema " + schema.vertical() +
                                      ", which is not record-level: AMBER's gazetteers are for record-level schemas");
  }
  const int attribute = schema.Find(request.attribute());
  if (attribute < 0 || schema.attribute(static_cast<size_t>(attribute)).gazetteer().empty()) {
    std::vector<std::string> with;
    for (size_t i = 0; i < schema.size(); ++i) {
      if (!schema.attribute(i).gazetteer().empty()) with.push_back(schema.attribute(i).name());
    }
    return absl::InvalidArgumentError("attribute: \"" + request.attribute() + "\" is not an attribute of schema " +
                                      schema.vertical() + " with a gazetteer (those are: " +
                                      (with.empty() ? std::string("none") : absl::StrJoin(with, ", ")) + ")");
  }
  const v1::AttributeSchema& attr = schema.attribute(static_cast<size_t>(attribute));
  // The pages.
  html::Parser parser(site::SiteParseOptions(options_.cluster.parse, site));
  std::deque<html::Page> parsed;
  for (const v1::Page& p : request.pages()) {
    if (p.url().empty() || p.html().empty()) {
      return absl::InvalidArgumentError("pages: a page without url or html (" + p.url() + ")");
    }
    absl::StatusOr<html::Page> page = parser.Parse(p.html(), p.url());
    if (!page.ok()) {
      return absl::InvalidArgumentError("pages: " + p.url() + ": " + std::string(page.status().message()));
    }
    parsed.push_back(*std::move(page));
  }
  if (parsed.empty()) {
    VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
    for (int i = 0; i < state.urls_size() && parsed.size() < kMaxSamplePagesRead; ++i) {
      VERTEX_ASSIGN_OR_RETURN(v1::SamplePage p, store_->GetSamplePage(request.site(), static_cast<uint32_t>(i)));
      absl::StatusOr<html::Page> page = parser.Parse(p.html(), p.url());
      if (page.ok()) parsed.push_back(*std::move(page));
    }
  }
  if (parsed.empty()) {
    return absl::FailedPreconditionError("no page to learn on: give pages, or add sample pages to site \"" +
                                         request.site() + "\"");
  }
  std::vector<const html::Page*> pages;
  for (const html::Page& p : parsed) pages.push_back(&p);

  absl::MutexLock lock(SiteLock(request.site()));
  annotate::GazetteerLearner learner(attribute);
  VERTEX_ASSIGN_OR_RETURN(store::GazetteerTerms stored, store_->GetGazetteerTerms(schema.vertical(), attr.name()));
  const bool upfront = !request.continuous() && request.seed_terms_size() > 0;
  if (!upfront && !stored.empty()) {
    VERTEX_RETURN_IF_ERROR(learner.Restore(ToLearner(stored)));
  } else if (request.seed_terms_size() == 0) {
    // No stored terms and no seed: the server's gazetteer of that name, or
    // the built-in one.
    auto given = options_.learn.gazetteers.find(attr.gazetteer());
    if (given != options_.learn.gazetteers.end()) {
      learner.Seed(*given->second);
    } else {
      VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<const annotate::Gazetteer> builtin,
                              annotate::BuiltinGazetteer(attr.gazetteer()));
      learner.Seed(*builtin);
    }
  }
  if (request.seed_terms_size() > 0) {
    annotate::Gazetteer seed;
    for (const std::string& t : request.seed_terms()) {
      if (!seed.Add(t)) return absl::InvalidArgumentError("seed_terms: \"" + t + "\" is empty or over 200 bytes");
    }
    learner.Seed(seed);
  }
  VERTEX_ASSIGN_OR_RETURN(annotate::GazetteerSet others, GazetteersFor(schema));
  GazetteerRoundsOptions options;
  options.max_rounds = request.continuous() ? 1 : (request.max_rounds() ? request.max_rounds() : kDefaultRounds);
  options.amber = options_.learn.amber;
  GazetteerTruth truth;
  for (const std::string& t : request.truth_terms()) truth.clean_terms.insert(html::FoldText(t));
  VERTEX_ASSIGN_OR_RETURN(std::vector<GazetteerRound> rounds,
                          LearnGazetteerRounds(schema, pages, others, learner, options, &truth));
  const std::map<std::string, annotate::GazetteerTermState> terms = learner.terms();
  VERTEX_RETURN_IF_ERROR(store_->PutGazetteerTerms(schema.vertical(), attr.name(), ToStore(terms)));
  v1::LearnGazetteerResponse response;
  response.set_gazetteer(attr.gazetteer());
  response.set_pages(static_cast<uint32_t>(pages.size()));
  for (const GazetteerRound& r : rounds) {
    v1::GazetteerRound* out = response.add_rounds();
    out->set_round(static_cast<uint32_t>(r.round));
    out->set_typed_nodes(static_cast<uint32_t>(r.typed));
    out->set_learnt(static_cast<uint32_t>(r.learnt));
    out->set_learnt_correct(static_cast<uint32_t>(r.learnt_correct));
    out->set_blacklisted(static_cast<uint32_t>(r.blacklisted));
    out->set_gazetteer_size(static_cast<uint32_t>(r.gazetteer_size));
    for (size_t k = 0; k < r.learnt_terms.size() && k < kMaxReportedTerms; ++k) out->add_learnt_terms(r.learnt_terms[k]);
    for (size_t k = 0; k < r.blacklisted_terms.size() && k < kMaxReportedTerms; ++k) {
      out->add_blacklisted_terms(r.blacklisted_terms[k]);
    }
  }
  for (const auto& [term, state] : terms) {
    if (state.blacklisted) {
      response.set_blacklisted(response.blacklisted() + 1);
    } else {
      response.set_terms(response.terms() + 1);
    }
  }
  return response;
}

}  // namespace vertex::workflow
