// LearningServiceImpl: the gRPC adapter of workflow::LearningEngine
// (proto/vertex/v1/learning.proto). Each handler admits the call (deadline,
// bearer token on writes), calls the engine once and converts its status.
// The server sets no deadline of its own: Relearn, which may fetch hundreds
// of pages politely, runs for as long as the client's deadline allows.
// WatchStore streams the ChangeHub the engine's writes are published to.
//
// Thread-safety: gRPC calls handlers from many threads; the engine and the
// hub are thread-safe.
#ifndef VERTEX_SERVICES_LEARNING_LEARNING_SERVICE_H_
#define VERTEX_SERVICES_LEARNING_LEARNING_SERVICE_H_

#include <string>

#include "common/workflow/learning_engine.h"
#include "services/server/change_hub.h"
#include "vertex/v1/learning.grpc.pb.h"

namespace vertex::server {

class LearningServiceImpl final : public v1::LearningService::Service {
 public:
  // `engine` and `hub` must outlive the service. An empty `token` requires
  // none.
  LearningServiceImpl(workflow::LearningEngine* engine, ChangeHub* hub, std::string token);

  grpc::Status RegisterSite(grpc::ServerContext* context, const v1::RegisterSiteRequest* request,
                            v1::RegisterSiteResponse* response) override;
  grpc::Status AddSamplePages(grpc::ServerContext* context, const v1::AddSamplePagesRequest* request,
                              v1::AddSamplePagesResponse* response) override;
  grpc::Status GetAnnotationTasks(grpc::ServerContext* context, const v1::GetAnnotationTasksRequest* request,
                                  v1::GetAnnotationTasksResponse* response) override;
  grpc::Status Learn(grpc::ServerContext* context, const v1::LearnRequest* request,
                     v1::LearnResponse* response) override;
  grpc::Status GetRule(grpc::ServerContext* context, const v1::GetRuleRequest* request,
                       v1::GetRuleResponse* response) override;
  grpc::Status ListRules(grpc::ServerContext* context, const v1::ListRulesRequest* request,
                         v1::ListRulesResponse* response) override;
  grpc::Status ExportRule(grpc::ServerContext* context, const v1::ExportRuleRequest* request,
                          v1::ExportRuleResponse* response) override;
  grpc::Status RollbackRule(grpc::ServerContext* context, const v1::RollbackRuleRequest* request,
                            v1::RollbackRuleResponse* response) override;
  grpc::Status DeleteSite(grpc::ServerContext* context, const v1::DeleteSiteRequest* request,
                          v1::DeleteSiteResponse* response) override;
  grpc::Status Relearn(grpc::ServerContext* context, const v1::RelearnRequest* request,
                       v1::RelearnResponse* response) override;
  // Merges the stream's messages into one Relearn (all the pages are needed).
  grpc::Status RelearnStream(grpc::ServerContext* context, grpc::ServerReader<v1::RelearnRequest>* reader,
                             v1::RelearnResponse* response) override;
  grpc::Status ResolveCandidate(grpc::ServerContext* context, const v1::ResolveCandidateRequest* request,
                                v1::ResolveCandidateResponse* response) override;
  grpc::Status RecordMonitorRun(grpc::ServerContext* context, const v1::RecordMonitorRunRequest* request,
                                v1::RecordMonitorRunResponse* response) override;
  grpc::Status LocatePages(grpc::ServerContext* context, const v1::LocatePagesRequest* request,
                           v1::LocatePagesResponse* response) override;
  grpc::Status LearnGazetteer(grpc::ServerContext* context, const v1::LearnGazetteerRequest* request,
                              v1::LearnGazetteerResponse* response) override;
  grpc::Status TrainListModel(grpc::ServerContext* context, const v1::TrainListModelRequest* request,
                              v1::TrainListModelResponse* response) override;
  grpc::Status GetListModel(grpc::ServerContext* context, const v1::GetListModelRequest* request,
                            v1::GetListModelResponse* response) override;
  grpc::Status SuggestLists(grpc::ServerContext* context, const v1::SuggestListsRequest* request,
                            v1::SuggestListsResponse* response) override;
  grpc::Status ListSites(grpc::ServerContext* context, const v1::ListSitesRequest* request,
                         v1::ListSitesResponse* response) override;
  grpc::Status GetEditorPage(grpc::ServerContext* context, const v1::GetEditorPageRequest* request,
                             v1::GetEditorPageResponse* response) override;
  // A write RPC (the token) when it learns or fetches pages; logs one line
  // per cluster learnt.
  grpc::Status AnnotateFromFeed(grpc::ServerContext* context, const v1::AnnotateFromFeedRequest* request,
                                v1::AnnotateFromFeedResponse* response) override;
  grpc::Status WatchStore(grpc::ServerContext* context, const v1::WatchStoreRequest* request,
                          grpc::ServerWriter<v1::StoreChange>* writer) override;

 private:
  workflow::LearningEngine* engine_;
  ChangeHub* hub_;
  const std::string token_;
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_LEARNING_LEARNING_SERVICE_H_
