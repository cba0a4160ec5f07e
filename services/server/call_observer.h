// What a server records of every call, gRPC and HTTP alike (HTTP calls go
// through the in-process channel, so they pass the same gRPC server
// interceptor): Prometheus metrics with go-grpc-prometheus' names
// (grpc_server_started_total, grpc_server_handled_total and the
// grpc_server_handling_seconds histogram, labelled grpc_type, grpc_service,
// grpc_method and, for handled, grpc_code), the pages extracted per site,
// record status and matched_by (every ExtractResponse sent, streams'
// included), the monitor verdicts per site, and one access-log line per
// call (not per stream message): method, site, code, ms, peer (the HTTP
// client's, from `x-forwarded-for`, for a call through the HTTP face).
//
// The site of a call is its first request message's `site` field, else the
// host of its `url` field (Extract without a site), else "-". Messages are
// read for the vertex.v1 services only (gRPC's own health and reflection
// services are counted and logged, site "-").
//
// Thread-safety: CallMetrics is safe from any thread; its counters are
// atomics found under a reader lock. One CallObserver per call, used by
// gRPC from one thread at a time.
#ifndef VERTEX_SERVICES_SERVER_CALL_OBSERVER_H_
#define VERTEX_SERVICES_SERVER_CALL_OBSERVER_H_

#include <grpcpp/support/server_interceptor.h>

#include <memory>
#include <string>

#include "google/protobuf/message.h"
#include "services/common/metrics.h"

namespace vertex::server {

enum class AccessLog { kText, kJson, kOff };

// The families a server's calls feed, registered in `registry`.
class CallMetrics {
 public:
  CallMetrics(rpc::MetricRegistry& registry, AccessLog access_log);

  // A call of `method` ("/vertex.v1.ExtractionService/Extract") of
  // `type` ("unary", "client_stream", "server_stream", "bidi_stream").
  void Started(const std::string& type, const std::string& method);
  void Handled(const std::string& type, const std::string& method, int code, double seconds);
  // Counts what a response message carries (ExtractResponse's record,
  // MonitorResponse's verdict); other messages are ignored.
  void Response(const google::protobuf::Message& response);
  AccessLog access_log() const { return access_log_; }

 private:
  const AccessLog access_log_;
  rpc::Family<rpc::Counter>& started_;
  rpc::Family<rpc::Counter>& handled_;
  rpc::Family<rpc::Histogram>& seconds_;
  rpc::Family<rpc::Counter>& pages_;
  rpc::Family<rpc::Counter>& verdicts_;
};

// The interceptor factory for ServerRunner::Start; `metrics` must outlive
// the server.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> NewCallObserverFactory(CallMetrics* metrics);

// The site of a request message as the file comment says ("" when none).
std::string SiteOfRequest(const google::protobuf::Message& request);

// The access-log line of a call: text ("access vertex.v1.X/Y site=s
// code=OK ms=1.25 peer=..."), or a JSON object.
std::string AccessLogLine(AccessLog format, const std::string& method, const std::string& site, int code, double ms,
                          const std::string& peer);

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_CALL_OBSERVER_H_
