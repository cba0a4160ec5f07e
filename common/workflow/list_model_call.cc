// LearningEngine::TrainListModel / GetListModel / SuggestLists
// (learning.proto): the page-independent list finder (issue 14) trained
// from the store's rules and snapshots (lists/store_training.h), kept as a
// versioned record, and applied to a page.
#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "common/lists/features.h"
#include "common/lists/list_finder.h"
#include "common/lists/store_training.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/learning_internal.h"

namespace vertex::workflow {
namespace {

constexpr uint32_t kDefaultLists = 5;
constexpr uint32_t kMaxLists = 100;
constexpr int kMaxSites = 1000;

// The stored model `version` (0: the latest); NotFound says how to train one.
absl::StatusOr<v1::ListModel> StoredModel(const store::RuleStore& store, int64_t version) {
  absl::StatusOr<v1::ListModel> model = store.GetListModel(version);
  if (absl::IsNotFound(model.status())) {
    return absl::NotFoundError(
        (version == 0 ? std::string("the store holds no list model")
                      : absl::StrCat("the store holds no list model of version ", version)) +
        ": train one with TrainListModel (vertexctl list-model train)");
  }
  return model;
}

}  // namespace

absl::StatusOr<v1::TrainListModelResponse> LearningEngine::TrainListModel(const v1::TrainListModelRequest& request) {
  lists::StoreTrainingOptions options;
  options.parse = options_.cluster.parse;
  if (!request.feature_set().empty() && !lists::ParseFeatureSet(request.feature_set(), &options.train.features)) {
    return absl::InvalidArgumentError("feature_set: \"" + request.feature_set() +
                                      "\" is not a feature set (paper or paper+markup)");
  }
  if (request.sites_size() > kMaxSites) {
    return absl::InvalidArgumentError(absl::StrCat("sites: ", request.sites_size(), " sites; at most ", kMaxSites));
  }
  for (const std::string& site : request.sites()) {
    VERTEX_RETURN_IF_ERROR(store::ValidateId("sites", site));
    options.sites.push_back(site);
  }
  VERTEX_ASSIGN_OR_RETURN(lists::StoreTrainingResult trained,
                          lists::TrainListModelFromStore(store_, options, internal::NowMs()));
  v1::TrainListModelResponse response;
  *response.mutable_model() = std::move(trained.model);
  response.set_rules(trained.rules);
  response.set_pages(trained.pages);
  for (std::string& line : trained.report) response.add_report(std::move(line));
  return response;
}

absl::StatusOr<v1::GetListModelResponse> LearningEngine::GetListModel(const v1::GetListModelRequest& request) {
  if (request.version() < 0) {
    return absl::InvalidArgumentError(absl::StrCat("version: ", request.version(), " is negative"));
  }
  VERTEX_ASSIGN_OR_RETURN(v1::ListModel model, StoredModel(*store_, request.version()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<int64_t> versions, store_->ListListModelVersions());
  v1::GetListModelResponse response;
  *response.mutable_model() = std::move(model);
  for (int64_t v : versions) response.add_versions(v);
  return response;
}

absl::StatusOr<v1::SuggestListsResponse> LearningEngine::SuggestLists(const v1::SuggestListsRequest& request) {
  if (request.model_version() < 0) {
    return absl::InvalidArgumentError(absl::StrCat("model_version: ", request.model_version(), " is negative"));
  }
  if (request.max_lists() > kMaxLists) {
    return absl::InvalidArgumentError(absl::StrCat("max_lists: ", request.max_lists(), "; at most ", kMaxLists));
  }
  VERTEX_ASSIGN_OR_RETURN(v1::ListModel model, StoredModel(*store_, request.model_version()));
  html::Parser parser(options_.cluster.parse);
  absl::StatusOr<html::Page> page = parser.Parse(request.html(), request.url());
  if (!page.ok()) {
    return absl::InvalidArgumentError("html: the page " + request.url() +
                                      " does not parse: " + std::string(page.status().message()));
  }
  const size_t max = request.max_lists() == 0 ? kDefaultLists : request.max_lists();
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ListSuggestion> lists, lists::SuggestLists(model, *page, max));
  v1::SuggestListsResponse response;
  for (v1::ListSuggestion& list : lists) *response.add_lists() = std::move(list);
  response.set_model_version(model.version());
  return response;
}

}  // namespace vertex::workflow
