// The vertex.v1 services as C++ interfaces without gRPC. LearningEngine,
// ExtractionEngine and MonitorEngine implement them in process; the gRPC
// clients of services/client implement them over the network. Code written
// against them (vertexctl, the simulated editor, the quick start) runs
// either way with the same results.
//
// Thread-safety: implementations are safe for concurrent use.
#ifndef VERTEX_COMMON_WORKFLOW_API_H_
#define VERTEX_COMMON_WORKFLOW_API_H_

#include "absl/status/statusor.h"
#include "vertex/v1/extraction.pb.h"
#include "vertex/v1/learning.pb.h"
#include "vertex/v1/monitoring.pb.h"

namespace vertex::workflow {

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
  virtual absl::StatusOr<v1::ResolveCandidateResponse> ResolveCandidate(
      const v1::ResolveCandidateRequest& request) = 0;
  virtual absl::StatusOr<v1::RecordMonitorRunResponse> RecordMonitorRun(
      const v1::RecordMonitorRunRequest& request) = 0;
  virtual absl::StatusOr<v1::LocatePagesResponse> LocatePages(const v1::LocatePagesRequest& request) = 0;
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
  virtual absl::StatusOr<v1::GetHistoryResponse> GetHistory(const v1::GetHistoryRequest& request) = 0;
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_API_H_
