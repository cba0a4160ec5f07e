#include "services/client/remote_api.h"

#include <grpcpp/client_context.h>

#include <algorithm>
#include <thread>

#include "absl/strings/str_cat.h"
#include "services/common/auth.h"
#include "services/common/status.h"
#include "vertex/v1/extraction.grpc.pb.h"
#include "vertex/v1/learning.grpc.pb.h"
#include "vertex/v1/monitoring.grpc.pb.h"

namespace vertex::client {
namespace {

using Clock = std::chrono::system_clock;

// What every call needs: its deadline and its metadata.
struct CallSettings {
  std::string token;
  std::chrono::milliseconds timeout;
};

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

CallSettings SettingsOf(const ConnectOptions& options) { return {options.token, Millis(options.timeout_seconds)}; }

// The settings of the calls that may fetch pages.
CallSettings FetchSettingsOf(const ConnectOptions& options) {
  return {options.token, Millis(options.fetch_timeout_seconds)};
}

void Prepare(grpc::ClientContext* context, const std::string& token, std::chrono::milliseconds timeout) {
  context->set_deadline(Clock::now() + timeout);
  rpc::AddBearerToken(context, token);
}

// One unary call: `invoke(context, response)` runs the stub's method.
template <typename Response, typename Invoke>
absl::StatusOr<Response> Unary(const CallSettings& settings, const Invoke& invoke) {
  grpc::ClientContext context;
  Prepare(&context, settings.token, settings.timeout);
  Response response;
  const grpc::Status status = invoke(&context, &response);
  if (!status.ok()) return rpc::FromGrpcStatus(status);
  return response;
}

// One client-streaming call: `open(context, response)` opens the stub's
// writer; every message `read` gives is written, then the call finishes.
template <typename Request, typename Response, typename Open>
absl::StatusOr<Response> ClientStream(const CallSettings& settings, const workflow::MessageReader<Request>& read,
                                      const Open& open) {
  grpc::ClientContext context;
  Prepare(&context, settings.token, settings.timeout);
  Response response;
  std::unique_ptr<grpc::ClientWriter<Request>> writer = open(&context, &response);
  Request message;
  absl::Status read_status;
  for (;;) {
    absl::StatusOr<bool> more = read(&message);
    if (!more.ok()) {
      read_status = more.status();
      context.TryCancel();
      break;
    }
    if (!*more || !writer->Write(message)) break;  // a failed write: the server ended the call
    message.Clear();
  }
  writer->WritesDone();
  const grpc::Status status = writer->Finish();
  if (!read_status.ok()) return read_status;
  if (!status.ok()) return rpc::FromGrpcStatus(status);
  return response;
}

// `request` in messages of at most about `budget` bytes each (at least one
// page per message): the first with every field, the others pages only.
template <typename Request>
workflow::MessageReader<Request> Chunks(const Request& request, size_t budget) {
  return [&request, budget, next = 0, first = true](Request* message) mutable -> absl::StatusOr<bool> {
    if (!first && next >= request.pages_size()) return false;
    message->Clear();
    if (first) {
      *message = request;
      message->clear_pages();
      first = false;
    }
    size_t bytes = message->ByteSizeLong();
    while (next < request.pages_size()) {
      const size_t page = request.pages(next).ByteSizeLong() + 8;
      if (message->pages_size() > 0 && bytes + page > budget) break;
      *message->add_pages() = request.pages(next++);
      bytes += page;
    }
    return true;
  };
}

absl::Status ValidateOptions(const ConnectOptions& options) {
  if (options.server.empty()) return absl::InvalidArgumentError("server: no address given (HOST:PORT)");
  if (!(options.timeout_seconds > 0)) {
    return absl::InvalidArgumentError(absl::StrCat("timeout: must be positive, not ", options.timeout_seconds));
  }
  if (!(options.fetch_timeout_seconds > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("fetch_timeout: must be positive, not ", options.fetch_timeout_seconds));
  }
  if (options.max_message_bytes <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_message_bytes: must be positive, not ", options.max_message_bytes));
  }
  return absl::OkStatus();
}

class RemoteLearning final : public workflow::LearningApi {
 public:
  RemoteLearning(std::shared_ptr<grpc::Channel> channel, const ConnectOptions& options)
      : stub_(v1::LearningService::NewStub(channel)),
        settings_(SettingsOf(options)),
        fetch_settings_(FetchSettingsOf(options)),
        budget_(StreamBudget(options)) {}

  absl::StatusOr<v1::RegisterSiteResponse> RegisterSite(const v1::RegisterSiteRequest& request) override {
    return Unary<v1::RegisterSiteResponse>(settings_,
                                           [&](auto* c, auto* r) { return stub_->RegisterSite(c, request, r); });
  }
  absl::StatusOr<v1::AddSamplePagesResponse> AddSamplePages(const v1::AddSamplePagesRequest& request) override {
    return Unary<v1::AddSamplePagesResponse>(settings_,
                                             [&](auto* c, auto* r) { return stub_->AddSamplePages(c, request, r); });
  }
  absl::StatusOr<v1::GetAnnotationTasksResponse> GetAnnotationTasks(
      const v1::GetAnnotationTasksRequest& request) override {
    return Unary<v1::GetAnnotationTasksResponse>(
        settings_, [&](auto* c, auto* r) { return stub_->GetAnnotationTasks(c, request, r); });
  }
  absl::StatusOr<v1::LearnResponse> Learn(const v1::LearnRequest& request) override {
    return Unary<v1::LearnResponse>(settings_, [&](auto* c, auto* r) { return stub_->Learn(c, request, r); });
  }
  absl::StatusOr<v1::GetRuleResponse> GetRule(const v1::GetRuleRequest& request) override {
    return Unary<v1::GetRuleResponse>(settings_, [&](auto* c, auto* r) { return stub_->GetRule(c, request, r); });
  }
  absl::StatusOr<v1::ListRulesResponse> ListRules(const v1::ListRulesRequest& request) override {
    return Unary<v1::ListRulesResponse>(settings_, [&](auto* c, auto* r) { return stub_->ListRules(c, request, r); });
  }
  absl::StatusOr<v1::ExportRuleResponse> ExportRule(const v1::ExportRuleRequest& request) override {
    return Unary<v1::ExportRuleResponse>(settings_, [&](auto* c, auto* r) { return stub_->ExportRule(c, request, r); });
  }
  absl::StatusOr<v1::RollbackRuleResponse> RollbackRule(const v1::RollbackRuleRequest& request) override {
    return Unary<v1::RollbackRuleResponse>(settings_,
                                           [&](auto* c, auto* r) { return stub_->RollbackRule(c, request, r); });
  }
  absl::StatusOr<v1::DeleteSiteResponse> DeleteSite(const v1::DeleteSiteRequest& request) override {
    return Unary<v1::DeleteSiteResponse>(settings_, [&](auto* c, auto* r) { return stub_->DeleteSite(c, request, r); });
  }
  // A request over the budget goes as a RelearnStream.
  absl::StatusOr<v1::RelearnResponse> Relearn(const v1::RelearnRequest& request) override {
    if (request.ByteSizeLong() > budget_) return RelearnStream(Chunks(request, budget_));
    return Unary<v1::RelearnResponse>(fetch_settings_, [&](auto* c, auto* r) { return stub_->Relearn(c, request, r); });
  }
  absl::StatusOr<v1::RelearnResponse> RelearnStream(const workflow::MessageReader<v1::RelearnRequest>& read) override {
    return ClientStream<v1::RelearnRequest, v1::RelearnResponse>(
        fetch_settings_, read, [&](auto* c, auto* r) { return stub_->RelearnStream(c, r); });
  }
  absl::StatusOr<v1::ResolveCandidateResponse> ResolveCandidate(const v1::ResolveCandidateRequest& request) override {
    return Unary<v1::ResolveCandidateResponse>(
        settings_, [&](auto* c, auto* r) { return stub_->ResolveCandidate(c, request, r); });
  }
  absl::StatusOr<v1::RecordMonitorRunResponse> RecordMonitorRun(const v1::RecordMonitorRunRequest& request) override {
    return Unary<v1::RecordMonitorRunResponse>(
        settings_, [&](auto* c, auto* r) { return stub_->RecordMonitorRun(c, request, r); });
  }
  absl::StatusOr<v1::LocatePagesResponse> LocatePages(const v1::LocatePagesRequest& request) override {
    return Unary<v1::LocatePagesResponse>(settings_,
                                          [&](auto* c, auto* r) { return stub_->LocatePages(c, request, r); });
  }
  absl::StatusOr<v1::LearnGazetteerResponse> LearnGazetteer(const v1::LearnGazetteerRequest& request) override {
    return Unary<v1::LearnGazetteerResponse>(settings_,
                                             [&](auto* c, auto* r) { return stub_->LearnGazetteer(c, request, r); });
  }
  // Training parses every snapshot page of the store: the longer deadline.
  absl::StatusOr<v1::TrainListModelResponse> TrainListModel(const v1::TrainListModelRequest& request) override {
    return Unary<v1::TrainListModelResponse>(fetch_settings_,
                                             [&](auto* c, auto* r) { return stub_->TrainListModel(c, request, r); });
  }
  absl::StatusOr<v1::GetListModelResponse> GetListModel(const v1::GetListModelRequest& request) override {
    return Unary<v1::GetListModelResponse>(settings_,
                                           [&](auto* c, auto* r) { return stub_->GetListModel(c, request, r); });
  }
  absl::StatusOr<v1::SuggestListsResponse> SuggestLists(const v1::SuggestListsRequest& request) override {
    return Unary<v1::SuggestListsResponse>(settings_,
                                           [&](auto* c, auto* r) { return stub_->SuggestLists(c, request, r); });
  }
  absl::StatusOr<v1::ListSitesResponse> ListSites(const v1::ListSitesRequest& request) override {
    return Unary<v1::ListSitesResponse>(settings_, [&](auto* c, auto* r) { return stub_->ListSites(c, request, r); });
  }
  absl::StatusOr<v1::GetEditorPageResponse> GetEditorPage(const v1::GetEditorPageRequest& request) override {
    return Unary<v1::GetEditorPageResponse>(settings_,
                                            [&](auto* c, auto* r) { return stub_->GetEditorPage(c, request, r); });
  }
  // It may fetch the feed and entry pages: the longer deadline.
  absl::StatusOr<v1::AnnotateFromFeedResponse> AnnotateFromFeed(const v1::AnnotateFromFeedRequest& request) override {
    return Unary<v1::AnnotateFromFeedResponse>(
        fetch_settings_, [&](auto* c, auto* r) { return stub_->AnnotateFromFeed(c, request, r); });
  }

 private:
  const std::unique_ptr<v1::LearningService::Stub> stub_;
  const CallSettings settings_;
  const CallSettings fetch_settings_;  // Relearn
  const size_t budget_;
};

using ExtractStream = grpc::ClientReaderWriter<v1::ExtractRequest, v1::ExtractResponse>;

// Writes every request, then half-closes; stops at the first failed write
// (the call has ended: its status comes from Finish()).
void WriteAll(ExtractStream* stream, const std::vector<v1::ExtractRequest>& requests) {
  for (const v1::ExtractRequest& request : requests) {
    if (!stream->Write(request)) return;
  }
  stream->WritesDone();
}

// Every response until the server ends the stream.
std::vector<v1::ExtractResponse> ReadAll(ExtractStream* stream, size_t expected) {
  std::vector<v1::ExtractResponse> out;
  out.reserve(expected);
  for (v1::ExtractResponse response; stream->Read(&response);) out.push_back(std::move(response));
  return out;
}

// Internal when the stream broke its contract: one response per request,
// in order (checked by id where the requests have ids).
absl::Status CheckResponses(const std::vector<v1::ExtractRequest>& requests,
                            const std::vector<v1::ExtractResponse>& responses) {
  if (responses.size() != requests.size()) {
    return absl::InternalError(
        absl::StrCat("ExtractStream answered ", responses.size(), " responses to ", requests.size(), " requests"));
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].id() != responses[i].id()) {
      return absl::InternalError(absl::StrCat("ExtractStream response ", i, " has id \"", responses[i].id(),
                                              "\", not the request's \"", requests[i].id(), "\""));
    }
  }
  return absl::OkStatus();
}

class RemoteExtraction final : public workflow::ExtractionApi {
 public:
  RemoteExtraction(std::shared_ptr<grpc::Channel> channel, const ConnectOptions& options)
      : stub_(v1::ExtractionService::NewStub(channel)), settings_(SettingsOf(options)), options_(options) {}

  absl::StatusOr<v1::ExtractResponse> Extract(const v1::ExtractRequest& request) override {
    return Unary<v1::ExtractResponse>(settings_, [&](auto* c, auto* r) { return stub_->Extract(c, request, r); });
  }

  absl::StatusOr<std::vector<v1::ExtractResponse>> ExtractMany(
      const std::vector<v1::ExtractRequest>& requests) override {
    if (requests.empty()) return std::vector<v1::ExtractResponse>();
    grpc::ClientContext context;
    Prepare(&context, settings_.token, StreamDeadline(options_, requests.size()));
    std::unique_ptr<ExtractStream> stream = stub_->ExtractStream(&context);
    std::thread writer([&] { WriteAll(stream.get(), requests); });
    std::vector<v1::ExtractResponse> responses = ReadAll(stream.get(), requests.size());
    writer.join();  // Read() returned false: the call is over, so a blocked Write() has returned too
    const grpc::Status status = stream->Finish();
    if (!status.ok()) return rpc::FromGrpcStatus(status);
    if (absl::Status s = CheckResponses(requests, responses); !s.ok()) return s;
    return responses;
  }

 private:
  const std::unique_ptr<v1::ExtractionService::Stub> stub_;
  const CallSettings settings_;
  const ConnectOptions options_;
};

class RemoteMonitoring final : public workflow::MonitoringApi {
 public:
  RemoteMonitoring(std::shared_ptr<grpc::Channel> channel, const ConnectOptions& options)
      : stub_(v1::MonitoringService::NewStub(channel)),
        settings_(SettingsOf(options)),
        fetch_settings_(FetchSettingsOf(options)),
        budget_(StreamBudget(options)) {}

  // Without pages the service fetches the bellwethers, with a feed URL the
  // feed's entry pages, and feed_repair learns: the fetch deadline. A
  // request over the budget goes as a MonitorStream.
  absl::StatusOr<v1::MonitorResponse> Monitor(const v1::MonitorRequest& request) override {
    if (request.ByteSizeLong() > budget_) return MonitorStream(Chunks(request, budget_));
    const bool long_call = request.pages().empty() || !request.feed_url().empty() || !request.feed_xml().empty() ||
                           request.feed_repair();
    return Unary<v1::MonitorResponse>(long_call ? fetch_settings_ : settings_,
                                      [&](auto* c, auto* r) { return stub_->Monitor(c, request, r); });
  }
  // The fetch deadline: a stream carries many pages (or none: then the
  // service fetches).
  absl::StatusOr<v1::MonitorResponse> MonitorStream(const workflow::MessageReader<v1::MonitorRequest>& read) override {
    return ClientStream<v1::MonitorRequest, v1::MonitorResponse>(
        fetch_settings_, read, [&](auto* c, auto* r) { return stub_->MonitorStream(c, r); });
  }
  absl::StatusOr<v1::GetHistoryResponse> GetHistory(const v1::GetHistoryRequest& request) override {
    return Unary<v1::GetHistoryResponse>(settings_, [&](auto* c, auto* r) { return stub_->GetHistory(c, request, r); });
  }

 private:
  const std::unique_ptr<v1::MonitoringService::Stub> stub_;
  const CallSettings settings_;
  const CallSettings fetch_settings_;  // Monitor without pages or with a feed, MonitorStream
  const size_t budget_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeClientChannel(const ConnectOptions& options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials = rpc::MakeChannelCredentials(options.tls);
  if (!credentials.ok()) return credentials.status();
  return rpc::MakeChannel(options.server, *credentials, options.max_message_bytes);
}

size_t StreamBudget(const ConnectOptions& options) {
  return static_cast<size_t>(std::min<int64_t>(kMaxUnaryBytes, std::max<int64_t>(options.max_message_bytes / 4, 1)));
}

std::chrono::milliseconds StreamDeadline(const ConnectOptions& options, size_t pages) {
  const double seconds = options.timeout_seconds * std::max(1.0, static_cast<double>(pages) / 1000.0);
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

std::unique_ptr<workflow::LearningApi> LearningOverChannel(std::shared_ptr<grpc::Channel> channel,
                                                           const ConnectOptions& options) {
  return std::make_unique<RemoteLearning>(std::move(channel), options);
}

std::unique_ptr<workflow::ExtractionApi> ExtractionOverChannel(std::shared_ptr<grpc::Channel> channel,
                                                               const ConnectOptions& options) {
  return std::make_unique<RemoteExtraction>(std::move(channel), options);
}

std::unique_ptr<workflow::MonitoringApi> MonitoringOverChannel(std::shared_ptr<grpc::Channel> channel,
                                                               const ConnectOptions& options) {
  return std::make_unique<RemoteMonitoring>(std::move(channel), options);
}

absl::StatusOr<std::unique_ptr<workflow::LearningApi>> ConnectLearning(const ConnectOptions& options) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeClientChannel(options);
  if (!channel.ok()) return channel.status();
  return LearningOverChannel(*std::move(channel), options);
}

absl::StatusOr<std::unique_ptr<workflow::ExtractionApi>> ConnectExtraction(const ConnectOptions& options) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeClientChannel(options);
  if (!channel.ok()) return channel.status();
  return ExtractionOverChannel(*std::move(channel), options);
}

absl::StatusOr<std::unique_ptr<workflow::MonitoringApi>> ConnectMonitoring(const ConnectOptions& options) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeClientChannel(options);
  if (!channel.ok()) return channel.status();
  return MonitoringOverChannel(*std::move(channel), options);
}

}  // namespace vertex::client
