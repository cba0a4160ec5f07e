// The vertex.v1 services as C++ interfaces without gRPC. LearningEngine,
// ExtractionEngine and MonitorEngine implement them in process; the gRPC
// clients of services/client implement them over the network. Code written
// against them (vertexctl, the simulated editor, the quick start) runs
// either way with the same results.
//
// Thread-safety: implementations are safe for concurrent use.
#ifndef VERTEX_COMMON_WORKFLOW_API_H_
#define VERTEX_COMMON_WORKFLOW_API_H_

#include <functional>
#include <utility>

#include "absl/status/statusor.h"
#include "vertex/v1/extraction.pb.h"
#include "vertex/v1/learning.pb.h"
#include "vertex/v1/monitoring.pb.h"

namespace vertex::workflow {

// The messages of a call whose pages come in several messages (the
// client-streaming RPCs MonitorStream and RelearnStream): each call reads
// the next message into *message and returns true, false at the end, or an
// error (which ends the call with it). The first message carries the
// call's fields; every message may carry pages.
template <typename Message>
using MessageReader = std::function<absl::StatusOr<bool>(Message* message)>;

// The messages `read` gives, as one request: the first one's fields, every
// one's pages in order. InvalidArgument when there is no message.
template <typename Request>
absl::StatusOr<Request> MergeMessages(const MessageReader<Request>& read) {
  Request merged;
  Request next;
  bool any = false;
  for (;;) {
    absl::StatusOr<bool> more = read(&next);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (!any) {
      merged = std::move(next);
      any = true;
    } else {
      for (auto& page : *next.mutable_pages()) *merged.add_pages() = std::move(page);
    }
    next.Clear();
  }
  if (!any) return absl::InvalidArgumentError("the stream carried no request message");
  return merged;
}

// See proto/vertex/v1/learning.proto for each call's contract and errors.
class LearningApi {
 public:
  virtual ~LearningApi() = default;
  virtual absl::StatusOr<v1::RegisterSiteResponse> RegisterSite(const v1::RegisterSiteRequest& request) = 0;
  virtual absl::StatusOr<v1::AddSamplePagesResponse> AddSamplePages(const v1::AddSamplePagesRequest& request) = 0;
  virtual absl::StatusOr<v1::GetAnnotationTasksResponse> GetAnnotationTasks(
      const v1::GetAnnotationTasksRequest& request) = 0;
  virtual absl::StatusOr<v1::LearnResponse> Learn(const v1::LearnRequest& request) = 0;
  virtual absl::StatusOr<v1::GetRuleResponse> GetRule(const v1::GetRuleRequest& request) = 0;
  virtual absl::StatusOr<v1::ListRulesResponse> ListRules(const v1::ListRulesRequest& request) = 0;
  virtual absl::StatusOr<v1::ExportRuleResponse> ExportRule(const v1::ExportRuleRequest& request) = 0;
  virtual absl::StatusOr<v1::RollbackRuleResponse> RollbackRule(const v1::RollbackRuleRequest& request) = 0;
  virtual absl::StatusOr<v1::DeleteSiteResponse> DeleteSite(const v1::DeleteSiteRequest& request) = 0;
  virtual absl::StatusOr<v1::RelearnResponse> Relearn(const v1::RelearnRequest& request) = 0;
  // Relearn with the pages in several messages (RelearnStream): one fresh
  // sample, as Relearn of the messages merged (the default: merges them
  // and calls Relearn).
  virtual absl::StatusOr<v1::RelearnResponse> RelearnStream(const MessageReader<v1::RelearnRequest>& read) {
    absl::StatusOr<v1::RelearnRequest> request = MergeMessages(read);
    if (!request.ok()) return request.status();
    return Relearn(*request);
  }
  virtual absl::StatusOr<v1::ResolveCandidateResponse> ResolveCandidate(
      const v1::ResolveCandidateRequest& request) = 0;
  virtual absl::StatusOr<v1::RecordMonitorRunResponse> RecordMonitorRun(
      const v1::RecordMonitorRunRequest& request) = 0;
  virtual absl::StatusOr<v1::LocatePagesResponse> LocatePages(const v1::LocatePagesRequest& request) = 0;
  virtual absl::StatusOr<v1::LearnGazetteerResponse> LearnGazetteer(const v1::LearnGazetteerRequest& request) = 0;
  // The list finder (issue 14): train from the store's rules and snapshots,
  // read a stored model, find the lists on a page.
  virtual absl::StatusOr<v1::TrainListModelResponse> TrainListModel(const v1::TrainListModelRequest& request) = 0;
  virtual absl::StatusOr<v1::GetListModelResponse> GetListModel(const v1::GetListModelRequest& request) = 0;
  virtual absl::StatusOr<v1::SuggestListsResponse> SuggestLists(const v1::SuggestListsRequest& request) = 0;
  // The editor's page (issue 16): the sites to pick from; a sample page
  // rendered from the server's tree with what the rule extracts on it.
  virtual absl::StatusOr<v1::ListSitesResponse> ListSites(const v1::ListSitesRequest& request) = 0;
  virtual absl::StatusOr<v1::GetEditorPageResponse> GetEditorPage(const v1::GetEditorPageRequest& request) = 0;
  // The site's pages annotated from its feed and, with `learn`, rules
  // learnt from them with no editor (feed_call.cc).
  virtual absl::StatusOr<v1::AnnotateFromFeedResponse> AnnotateFromFeed(
      const v1::AnnotateFromFeedRequest& request) = 0;
};

// See proto/vertex/v1/extraction.proto.
class ExtractionApi {
 public:
  virtual ~ExtractionApi() = default;
  virtual absl::StatusOr<v1::ExtractResponse> Extract(const v1::ExtractRequest& request) = 0;
  // Many pages: one response per request, in order; a page that fails gets
  // its error in the response (error_code, error), as ExtractStream does.
  virtual absl::StatusOr<std::vector<v1::ExtractResponse>> ExtractMany(
      const std::vector<v1::ExtractRequest>& requests) = 0;
};

// See proto/vertex/v1/monitoring.proto.
class MonitoringApi {
 public:
  virtual ~MonitoringApi() = default;
  virtual absl::StatusOr<v1::MonitorResponse> Monitor(const v1::MonitorRequest& request) = 0;
  // Monitor with the pages in several messages (MonitorStream): one run,
  // one verdict, as Monitor of the messages merged. The default merges
  // them and calls Monitor.
  virtual absl::StatusOr<v1::MonitorResponse> MonitorStream(const MessageReader<v1::MonitorRequest>& read) {
    absl::StatusOr<v1::MonitorRequest> request = MergeMessages(read);
    if (!request.ok()) return request.status();
    return Monitor(*request);
  }
  virtual absl::StatusOr<v1::GetHistoryResponse> GetHistory(const v1::GetHistoryRequest& request) = 0;
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_API_H_
