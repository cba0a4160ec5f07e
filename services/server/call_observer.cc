#include "services/server/call_observer.h"

#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "services/http/rpc_bridge.h"
#include "vertex/v1/extraction.pb.h"
#include "vertex/v1/monitoring.pb.h"

namespace vertex::server {
namespace {

using grpc::experimental::InterceptionHookPoints;

std::string TypeName(grpc::experimental::ServerRpcInfo::Type type) {
  switch (type) {
    case grpc::experimental::ServerRpcInfo::Type::UNARY:
      return "unary";
    case grpc::experimental::ServerRpcInfo::Type::CLIENT_STREAMING:
      return "client_stream";
    case grpc::experimental::ServerRpcInfo::Type::SERVER_STREAMING:
      return "server_stream";
    case grpc::experimental::ServerRpcInfo::Type::BIDI_STREAMING:
      break;
  }
  return "bidi_stream";
}

// "/pkg.Service/Method" -> {"pkg.Service", "Method"}.
std::pair<std::string, std::string> SplitMethod(const std::string& method) {
  const size_t slash = method.rfind('/');
  if (slash == std::string::npos || slash == 0) return {"", method};
  return {method.substr(method[0] == '/' ? 1 : 0, slash - (method[0] == '/' ? 1 : 0)), method.substr(slash + 1)};
}

std::string HostOf(const std::string& url) {
  size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  const size_t end = url.find_first_of(":/?#", start);
  return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string StringField(const google::protobuf::Message& m, const char* name) {
  const google::protobuf::FieldDescriptor* f = m.GetDescriptor()->FindFieldByName(name);
  if (f == nullptr || f->is_repeated() || f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_STRING) {
    return "";
  }
  return m.GetReflection()->GetString(m, f);
}

std::string CodeLabel(int code) { return http::CodeName(static_cast<grpc::StatusCode>(code)); }

// gRPC's interceptor API hands messages as void*. Only for the methods of
// the vertex.v1 services, synchronous services generated from protobuf
// (services/*), are they generated messages, whose only base is
// google::protobuf::Message (at offset 0); gRPC's own services (health,
// reflection) may pass raw ByteBuffers, so their messages are not read.
bool ProtobufMessages(const std::string& method) { return method.rfind("/vertex.v1.", 0) == 0; }
const google::protobuf::Message* AsMessage(const void* p) { return static_cast<const google::protobuf::Message*>(p); }

class CallObserver final : public grpc::experimental::Interceptor {
 public:
  CallObserver(CallMetrics* metrics, grpc::experimental::ServerRpcInfo* info)
      : metrics_(metrics),
        info_(info),
        method_(info->method()),
        type_(TypeName(info->type())),
        messages_(ProtobufMessages(method_)),
        start_(std::chrono::steady_clock::now()) {
    metrics_->Started(type_, method_);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      ReadMetadata(*methods->GetRecvInitialMetadata());
    }
    if (messages_ && methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) && !site_read_) {
      if (const void* m = methods->GetRecvMessage(); m != nullptr) site_ = SiteOfRequest(*AsMessage(m));
      site_read_ = true;
    }
    if (messages_ && methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE)) {
      if (const void* m = methods->GetSendMessage(); m != nullptr) metrics_->Response(*AsMessage(m));
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      Finish(methods->GetSendStatus().error_code());
    }
    methods->Proceed();
  }

 private:
  void ReadMetadata(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
    if (auto it = metadata.find("x-forwarded-for"); it != metadata.end()) {
      peer_ = absl::StrCat("http:", std::string(it->second.data(), it->second.size()));
    }
  }

  void Finish(grpc::StatusCode code) {
    if (peer_.empty() && info_->server_context() != nullptr) peer_ = info_->server_context()->peer();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    metrics_->Handled(type_, method_, static_cast<int>(code), seconds);
    if (metrics_->access_log() == AccessLog::kOff) return;
    const std::string line =
        AccessLogLine(metrics_->access_log(), method_, site_.empty() ? "-" : site_, code, seconds * 1000, peer_);
    if (metrics_->access_log() == AccessLog::kText) {
      spdlog::info("{}", line);
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  }

  CallMetrics* const metrics_;
  grpc::experimental::ServerRpcInfo* const info_;  // valid for the call's life
  const std::string method_, type_;
  const bool messages_;  // the call's messages are protobuf messages (vertex.v1)
  std::string peer_, site_;
  bool site_read_ = false;
  const std::chrono::steady_clock::time_point start_;
};

class CallObserverFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit CallObserverFactory(CallMetrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new CallObserver(metrics_, info);
  }

 private:
  CallMetrics* const metrics_;
};


}  // namespace

CallMetrics::CallMetrics(rpc::MetricRegistry& registry, AccessLog access_log)
    : access_log_(access_log),
      started_(registry.AddCounter("grpc_server_started_total", "RPCs started on the server.",
                                   {"grpc_type", "grpc_service", "grpc_method"})),
      handled_(registry.AddCounter("grpc_server_handled_total",
                                   "RPCs completed on the server, regardless of success or failure.",
                                   {"grpc_type", "grpc_service", "grpc_method", "grpc_code"})),
      seconds_(registry.AddHistogram("grpc_server_handling_seconds",
                                     "Response latency (seconds) of RPCs handled by the server.",
                                     {"grpc_type", "grpc_service", "grpc_method"}, rpc::GrpcLatencyBuckets())),
      pages_(registry.AddCounter("vertex_extracted_pages_total",
                                 "Pages extracted (Extract and ExtractStream responses without an error), by the "
                                 "site whose rule was used, record status and matched_by.",
                                 {"site", "status", "matched_by"})),
      verdicts_(registry.AddCounter("vertex_monitor_verdicts_total", "Monitor runs by site and overall verdict.",
                                    {"site", "verdict"})) {}

void CallMetrics::Started(const std::string& type, const std::string& method) {
  auto [service, name] = SplitMethod(method);
  started_.With({type, service, name}).Add();
}

void CallMetrics::Handled(const std::string& type, const std::string& method, int code, double seconds) {
  auto [service, name] = SplitMethod(method);
  handled_.With({type, service, name, CodeLabel(code)}).Add();
  seconds_.With({type, service, name}).Observe(seconds);
}

void CallMetrics::Response(const google::protobuf::Message& response) {
  if (response.GetDescriptor() == v1::ExtractResponse::descriptor()) {
    const auto& r = static_cast<const v1::ExtractResponse&>(response);
    if (r.error_code() != 0) return;
    pages_.With({r.record().site(), v1::ExtractedRecord::Status_Name(r.record().status()), r.record().matched_by()})
        .Add();
  } else if (response.GetDescriptor() == v1::MonitorResponse::descriptor()) {
    const auto& r = static_cast<const v1::MonitorResponse&>(response);
    verdicts_.With({r.site(), v1::ClusterVerdict::Verdict_Name(r.verdict())}).Add();
  }
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> NewCallObserverFactory(CallMetrics* metrics) {
  return std::make_unique<CallObserverFactory>(metrics);
}

std::string SiteOfRequest(const google::protobuf::Message& request) {
  std::string site = StringField(request, "site");
  if (site.empty()) site = HostOf(StringField(request, "url"));
  return site;
}

std::string AccessLogLine(AccessLog format, const std::string& method, const std::string& site, int code, double ms,
                          const std::string& peer) {
  const std::string name = method.empty() || method[0] != '/' ? method : method.substr(1);
  if (format == AccessLog::kJson) {
    const std::string ts = absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone());
    return absl::StrCat("{\"ts\":\"", ts, "\",\"access\":", http::JsonString(name), ",\"site\":", http::JsonString(site),
                        ",\"code\":\"", CodeLabel(code), "\",\"ms\":", absl::StrFormat("%.3f", ms),
                        ",\"peer\":", http::JsonString(peer), "}");
  }
  return absl::StrCat("access ", name, " site=", site, " code=", CodeLabel(code), " ms=", absl::StrFormat("%.3f", ms),
                      " peer=", peer);
}

}  // namespace vertex::server
