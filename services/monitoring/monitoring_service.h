// MonitoringServiceImpl: the gRPC adapter of monitor::MonitorEngine
// (proto/vertex/v1/monitoring.proto). The RPCs are reads (no token): the
// runs Monitor records are written by the engine's `record` callback;
// except a Monitor (or MonitorStream whose first message) asking
// feed_repair, which stores rules and so needs the server's token. The
// server sets no deadline of its own: a Monitor call that fetches pages
// runs for as long as the client's deadline allows.
//
// Thread-safety: gRPC calls handlers from many threads; the engine is
// thread-safe.
#ifndef VERTEX_SERVICES_MONITORING_MONITORING_SERVICE_H_
#define VERTEX_SERVICES_MONITORING_MONITORING_SERVICE_H_

#include "common/monitor/monitor_engine.h"
#include "vertex/v1/monitoring.grpc.pb.h"

namespace vertex::server {

class MonitoringServiceImpl final : public v1::MonitoringService::Service {
 public:
  // `engine` must outlive the service. `token`: the bearer token feed_repair
  // needs ("" : none).
  explicit MonitoringServiceImpl(monitor::MonitorEngine* engine, std::string token = "");

  grpc::Status Monitor(grpc::ServerContext* context, const v1::MonitorRequest* request,
                       v1::MonitorResponse* response) override;
  // Checks the stream's pages message by message (MonitorEngine::MonitorStream).
  grpc::Status MonitorStream(grpc::ServerContext* context, grpc::ServerReader<v1::MonitorRequest>* reader,
                             v1::MonitorResponse* response) override;
  grpc::Status GetHistory(grpc::ServerContext* context, const v1::GetHistoryRequest* request,
                          v1::GetHistoryResponse* response) override;

 private:
  monitor::MonitorEngine* engine_;
  const std::string token_;
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_MONITORING_MONITORING_SERVICE_H_
