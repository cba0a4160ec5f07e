#include "services/learning/learning_service.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/server/handler.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

std::string Ids(const std::string& site, const std::string& cluster = "") {
  return cluster.empty() ? "site=" + site : "site=" + site + " cluster=" + cluster;
}

}  // namespace

LearningServiceImpl::LearningServiceImpl(workflow::LearningEngine* engine, ChangeHub* hub, std::string token)
    : engine_(engine), hub_(hub), token_(std::move(token)) {}

grpc::Status LearningServiceImpl::RegisterSite(grpc::ServerContext* context, const v1::RegisterSiteRequest* request,
                                               v1::RegisterSiteResponse* response) {
  return Handle(*context, "RegisterSite", Ids(request->site()), true, token_,
                [&] { return engine_->RegisterSite(*request); }, response);
}

grpc::Status LearningServiceImpl::AddSamplePages(grpc::ServerContext* context,
                                                 const v1::AddSamplePagesRequest* request,
                                                 v1::AddSamplePagesResponse* response) {
  return Handle(*context, "AddSamplePages", Ids(request->site()), true, token_,
                [&] { return engine_->AddSamplePages(*request); }, response);
}

grpc::Status LearningServiceImpl::GetAnnotationTasks(grpc::ServerContext* context,
                                                     const v1::GetAnnotationTasksRequest* request,
                                                     v1::GetAnnotationTasksResponse* response) {
  return Handle(*context, "GetAnnotationTasks", Ids(request->site(), request->cluster_id()), false, token_,
                [&] { return engine_->GetAnnotationTasks(*request); }, response);
}

grpc::Status LearningServiceImpl::Learn(grpc::ServerContext* context, const v1::LearnRequest* request,
                                        v1::LearnResponse* response) {
  return Handle(*context, "Learn", Ids(request->site(), request->cluster_id()), true, token_,
                [&] { return engine_->Learn(*request); }, response);
}

grpc::Status LearningServiceImpl::GetRule(grpc::ServerContext* context, const v1::GetRuleRequest* request,
                                          v1::GetRuleResponse* response) {
  return Handle(*context, "GetRule", Ids(request->site(), request->cluster_id()), false, token_,
                [&] { return engine_->GetRule(*request); }, response);
}

grpc::Status LearningServiceImpl::ListRules(grpc::ServerContext* context, const v1::ListRulesRequest* request,
                                            v1::ListRulesResponse* response) {
  return Handle(*context, "ListRules", Ids(request->site()), false, token_,
                [&] { return engine_->ListRules(*request); }, response);
}

grpc::Status LearningServiceImpl::ExportRule(grpc::ServerContext* context, const v1::ExportRuleRequest* request,
                                             v1::ExportRuleResponse* response) {
  return Handle(*context, "ExportRule", Ids(request->site(), request->cluster_id()), false, token_,
                [&] { return engine_->ExportRule(*request); }, response);
}

grpc::Status LearningServiceImpl::RollbackRule(grpc::ServerContext* context, const v1::RollbackRuleRequest* request,
                                               v1::RollbackRuleResponse* response) {
  return Handle(*context, "RollbackRule", Ids(request->site(), request->cluster_id()), true, token_,
                [&] { return engine_->RollbackRule(*request); }, response);
}

grpc::Status LearningServiceImpl::DeleteSite(grpc::ServerContext* context, const v1::DeleteSiteRequest* request,
                                             v1::DeleteSiteResponse* response) {
  return Handle(*context, "DeleteSite", Ids(request->site()), true, token_,
                [&] { return engine_->DeleteSite(*request); }, response);
}

grpc::Status LearningServiceImpl::Relearn(grpc::ServerContext* context, const v1::RelearnRequest* request,
                                          v1::RelearnResponse* response) {
  return Handle(*context, "Relearn", Ids(request->site()), true, token_, [&] { return engine_->Relearn(*request); },
                response);
}

grpc::Status LearningServiceImpl::RelearnStream(grpc::ServerContext* context,
                                                grpc::ServerReader<v1::RelearnRequest>* reader,
                                                v1::RelearnResponse* response) {
  v1::RelearnRequest first;
  if (!reader->Read(&first)) {
    return Failed("RelearnStream", "", absl::InvalidArgumentError("the stream carried no request message"));
  }
  const std::string ids = Ids(first.site());
  return Handle(*context, "RelearnStream", ids, true, token_,
                [&] { return engine_->RelearnStream(StreamAfter(std::move(first), reader)); }, response);
}

grpc::Status LearningServiceImpl::ResolveCandidate(grpc::ServerContext* context,
                                                   const v1::ResolveCandidateRequest* request,
                                                   v1::ResolveCandidateResponse* response) {
  return Handle(*context, request->accept() ? "ResolveCandidate(accept)" : "ResolveCandidate(reject)",
                Ids(request->site(), request->cluster_id()), true, token_,
                [&] { return engine_->ResolveCandidate(*request); }, response);
}

grpc::Status LearningServiceImpl::RecordMonitorRun(grpc::ServerContext* context,
                                                   const v1::RecordMonitorRunRequest* request,
                                                   v1::RecordMonitorRunResponse* response) {
  return Handle(*context, "RecordMonitorRun", Ids(request->run().site()), true, token_,
                [&] { return engine_->RecordMonitorRun(*request); }, response);
}

grpc::Status LearningServiceImpl::LocatePages(grpc::ServerContext* context, const v1::LocatePagesRequest* request,
                                              v1::LocatePagesResponse* response) {
  return Handle(*context, "LocatePages", Ids(request->site()), false, token_,
                [&] { return engine_->LocatePages(*request); }, response);
}

grpc::Status LearningServiceImpl::LearnGazetteer(grpc::ServerContext* context,
                                                 const v1::LearnGazetteerRequest* request,
                                                 v1::LearnGazetteerResponse* response) {
  return Handle(*context, "LearnGazetteer", Ids(request->site()), true, token_,
                [&] { return engine_->LearnGazetteer(*request); }, response);
}

grpc::Status LearningServiceImpl::TrainListModel(grpc::ServerContext* context,
                                                 const v1::TrainListModelRequest* request,
                                                 v1::TrainListModelResponse* response) {
  const std::string ids = request->sites().empty() ? "sites=all" : "sites=" + absl::StrJoin(request->sites(), ",");
  return Handle(*context, "TrainListModel", ids, true, token_, [&] { return engine_->TrainListModel(*request); },
                response);
}

grpc::Status LearningServiceImpl::GetListModel(grpc::ServerContext* context, const v1::GetListModelRequest* request,
                                               v1::GetListModelResponse* response) {
  return Handle(*context, "GetListModel", absl::StrCat("version=", request->version()), false, token_,
                [&] { return engine_->GetListModel(*request); }, response);
}

grpc::Status LearningServiceImpl::SuggestLists(grpc::ServerContext* context, const v1::SuggestListsRequest* request,
                                               v1::SuggestListsResponse* response) {
  return Handle(*context, "SuggestLists", "url=" + request->url(), false, token_,
                [&] { return engine_->SuggestLists(*request); }, response);
}

grpc::Status LearningServiceImpl::ListSites(grpc::ServerContext* context, const v1::ListSitesRequest* request,
                                            v1::ListSitesResponse* response) {
  return Handle(*context, "ListSites", "", false, token_, [&] { return engine_->ListSites(*request); }, response);
}

grpc::Status LearningServiceImpl::GetEditorPage(grpc::ServerContext* context, const v1::GetEditorPageRequest* request,
                                                v1::GetEditorPageResponse* response) {
  return Handle(*context, "GetEditorPage", Ids(request->site()) + " url=" + request->url(), false, token_,
                [&] { return engine_->GetEditorPage(*request); }, response);
}

grpc::Status LearningServiceImpl::AnnotateFromFeed(grpc::ServerContext* context,
                                                   const v1::AnnotateFromFeedRequest* request,
                                                   v1::AnnotateFromFeedResponse* response) {
  const bool write = request->learn() || request->fetch_missing();
  grpc::Status status = Handle(*context, "AnnotateFromFeed", Ids(request->site()), write, token_,
                               [&] { return engine_->AnnotateFromFeed(*request); }, response);
  if (!status.ok()) return status;
  for (const v1::FeedClusterLearn& c : response->clusters()) {
    spdlog::info("AnnotateFromFeed site={} cluster={}: {} v{}, learnt from {} pages, checked on {}: {}",
                 request->site(), c.cluster_id(), v1::FeedClusterLearn::Outcome_Name(c.outcome()), c.version(),
                 c.learnt_from_size(), c.checked_on_size(), c.reason());
  }
  return status;
}

grpc::Status LearningServiceImpl::WatchStore(grpc::ServerContext* context, const v1::WatchStoreRequest*,
                                             grpc::ServerWriter<v1::StoreChange>* writer) {
  ChangeHub::Change change = hub_->Latest();
  v1::StoreChange message;
  message.set_sequence(change.sequence);
  if (!writer->Write(message)) return grpc::Status::OK;
  uint64_t seen = change.sequence;
  while (!context->IsCancelled()) {
    change = hub_->WaitAfter(seen, std::chrono::milliseconds(500));
    if (change.closed) return grpc::Status::OK;
    if (change.sequence == seen) continue;
    seen = change.sequence;
    message.set_sequence(change.sequence);
    message.set_site(change.site);
    if (!writer->Write(message)) return grpc::Status::OK;
  }
  return grpc::Status::OK;
}

}  // namespace vertex::server
