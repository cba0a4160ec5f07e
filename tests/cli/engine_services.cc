#include "tests/cli/engine_services.h"

#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <thread>

#include "gtest/gtest.h"
#include "services/common/auth.h"
#include "services/common/status.h"
#include "vertex/v1/extraction.grpc.pb.h"
#include "vertex/v1/learning.grpc.pb.h"
#include "vertex/v1/monitoring.grpc.pb.h"

namespace vertex::testing {
namespace {

void SlowDown(const std::string& site) {
  if (site == kSlowSite) std::this_thread::sleep_for(kSlowDelay);
}

// The site a request is about.
template <typename Request>
const std::string& SiteOf(const Request& request) {
  return request.site();
}
const std::string& SiteOf(const v1::RecordMonitorRunRequest& request) { return request.run().site(); }
// The list-model calls are about no site (TrainListModel: maybe several).
const std::string& NoSite() {
  static const std::string* none = new std::string;
  return *none;
}
const std::string& SiteOf(const v1::TrainListModelRequest&) { return NoSite(); }
const std::string& SiteOf(const v1::GetListModelRequest&) { return NoSite(); }
const std::string& SiteOf(const v1::SuggestListsRequest&) { return NoSite(); }

// Runs `call(request)` as a handler: the token check for a write RPC, the
// engine, its status as the RPC's.
template <typename Request, typename Response, typename Call>
grpc::Status Serve(const grpc::ServerContext& context, const std::string& token, bool write, const Request& request,
                   Response* response, const Call& call) {
  if (write) {
    if (grpc::Status auth = rpc::CheckBearerToken(context, token); !auth.ok()) return auth;
  }
  SlowDown(SiteOf(request));
  absl::StatusOr<Response> r = call(request);
  if (!r.ok()) return rpc::ToGrpcStatus(r.status());
  *response = *std::move(r);
  return grpc::Status::OK;
}

// Runs `call(read)` over a client stream's messages as a handler.
template <typename Request, typename Response, typename Call>
grpc::Status ServeStream(grpc::ServerReader<Request>* reader, Response* response, const Call& call) {
  const workflow::MessageReader<Request> read = [reader](Request* m) -> absl::StatusOr<bool> {
    return reader->Read(m);
  };
  absl::StatusOr<Response> r = call(read);
  if (!r.ok()) return rpc::ToGrpcStatus(r.status());
  *response = *std::move(r);
  return grpc::Status::OK;
}

// Generates a LearningService handler delegating to the engine's method.
#define VERTEX_SERVE(Method, Write)                                                                            \
  grpc::Status Method(grpc::ServerContext* context, const v1::Method##Request* request,                        \
                      v1::Method##Response* response) override {                                               \
    return Serve(*context, token_, Write, *request, response, [&](const auto& r) { return api_->Method(r); }); \
  }

class LearningService final : public v1::LearningService::Service {
 public:
  LearningService(workflow::LearningApi* api, std::string token) : api_(api), token_(std::move(token)) {}
  VERTEX_SERVE(RegisterSite, true)
  VERTEX_SERVE(AddSamplePages, true)
  VERTEX_SERVE(GetAnnotationTasks, false)
  VERTEX_SERVE(Learn, true)
  VERTEX_SERVE(GetRule, false)
  VERTEX_SERVE(ListRules, false)
  VERTEX_SERVE(ExportRule, false)
  VERTEX_SERVE(RollbackRule, true)
  VERTEX_SERVE(DeleteSite, true)
  VERTEX_SERVE(Relearn, true)
  VERTEX_SERVE(ResolveCandidate, true)
  VERTEX_SERVE(RecordMonitorRun, true)
  VERTEX_SERVE(LocatePages, false)
  VERTEX_SERVE(TrainListModel, true)
  VERTEX_SERVE(GetListModel, false)
  VERTEX_SERVE(SuggestLists, false)
  VERTEX_SERVE(AnnotateFromFeed, true)

  grpc::Status RelearnStream(grpc::ServerContext* context, grpc::ServerReader<v1::RelearnRequest>* reader,
                             v1::RelearnResponse* response) override {
    if (grpc::Status auth = rpc::CheckBearerToken(*context, token_); !auth.ok()) return auth;
    return ServeStream(reader, response, [&](const auto& read) { return api_->RelearnStream(read); });
  }

 private:
  workflow::LearningApi* api_;
  const std::string token_;
};

class ExtractionService final : public v1::ExtractionService::Service {
 public:
  explicit ExtractionService(workflow::ExtractionApi* api) : api_(api) {}

  grpc::Status Extract(grpc::ServerContext* context, const v1::ExtractRequest* request,
                       v1::ExtractResponse* response) override {
    return Serve(*context, "", false, *request, response, [&](const auto& r) { return api_->Extract(r); });
  }

  // One response per request, each the engine's ExtractMany of that one page.
  grpc::Status ExtractStream(grpc::ServerContext* context,
                             grpc::ServerReaderWriter<v1::ExtractResponse, v1::ExtractRequest>* stream) override {
    for (v1::ExtractRequest request; stream->Read(&request);) {
      SlowDown(request.site());
      absl::StatusOr<std::vector<v1::ExtractResponse>> r = api_->ExtractMany({request});
      if (!r.ok()) return rpc::ToGrpcStatus(r.status());
      if (!stream->Write(r->at(0))) break;
    }
    return grpc::Status::OK;
  }

 private:
  workflow::ExtractionApi* api_;
};

class MonitoringService final : public v1::MonitoringService::Service {
 public:
  explicit MonitoringService(workflow::MonitoringApi* api) : api_(api) {}

  grpc::Status Monitor(grpc::ServerContext* context, const v1::MonitorRequest* request,
                       v1::MonitorResponse* response) override {
    return Serve(*context, "", false, *request, response, [&](const auto& r) { return api_->Monitor(r); });
  }
  grpc::Status MonitorStream(grpc::ServerContext* context, grpc::ServerReader<v1::MonitorRequest>* reader,
                             v1::MonitorResponse* response) override {
    return ServeStream(reader, response, [&](const auto& read) { return api_->MonitorStream(read); });
  }
  grpc::Status GetHistory(grpc::ServerContext* context, const v1::GetHistoryRequest* request,
                          v1::GetHistoryResponse* response) override {
    return Serve(*context, "", false, *request, response, [&](const auto& r) { return api_->GetHistory(r); });
  }

 private:
  workflow::MonitoringApi* api_;
};

}  // namespace

EngineStack::EngineStack() : store(store::NewInMemoryStore()) {
  extraction = std::make_unique<workflow::ExtractionEngine>(store.get(), workflow::ExtractionEngineOptions());
  workflow::ExtractionEngine* refresh = extraction.get();
  learning = std::make_unique<workflow::LearningEngine>(
      store.get(), workflow::LearningEngineOptions(),
      [refresh](const std::string&) { EXPECT_TRUE(refresh->Refresh().ok()); });
  monitor::MonitorEngineOptions monitor_options;
  workflow::LearningEngine* recorder = learning.get();
  monitor_options.record = [recorder](const v1::MonitorRun& run) {
    v1::RecordMonitorRunRequest request;
    *request.mutable_run() = run;
    return recorder->RecordMonitorRun(request).status();
  };
  monitor = std::make_unique<monitor::MonitorEngine>(store.get(), monitor_options);
}

struct EngineServer::Services {
  Services(EngineStack& e, const std::string& token)
      : learning(e.learning.get(), token), extraction(e.extraction.get()), monitoring(e.monitor.get()) {}
  LearningService learning;
  ExtractionService extraction;
  MonitoringService monitoring;
};

std::unique_ptr<EngineServer> EngineServer::Start(const std::string& token, int max_message_bytes) {
  std::unique_ptr<EngineServer> s(new EngineServer());
  s->engines_ = std::make_unique<EngineStack>();
  s->services_ = std::make_unique<Services>(*s->engines_, token);
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.SetMaxReceiveMessageSize(max_message_bytes);
  builder.RegisterService(&s->services_->learning);
  builder.RegisterService(&s->services_->extraction);
  builder.RegisterService(&s->services_->monitoring);
  s->server_ = builder.BuildAndStart();
  if (s->server_ == nullptr || port == 0) {
    ADD_FAILURE() << "the test server did not start";
    return nullptr;
  }
  for (const char* service :
       {"vertex.v1.LearningService", "vertex.v1.ExtractionService", "vertex.v1.MonitoringService"}) {
    s->server_->GetHealthCheckService()->SetServingStatus(service, true);
  }
  s->address_ = "127.0.0.1:" + std::to_string(port);
  return s;
}

EngineServer::~EngineServer() {
  if (server_ != nullptr) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
}

}  // namespace vertex::testing
