// MonitoringServiceImpl: the gRPC adapter of workflow::MonitorEngine
// (proto/vertex/v1/monitoring.proto).
//
// Thread-safety: gRPC calls handlers from many threads; the engine is
// thread-safe.
#ifndef VERTEX_SERVICES_MONITORING_MONITORING_SERVICE_H_
#define VERTEX_SERVICES_MONITORING_MONITORING_SERVICE_H_

#include "common/workflow/monitor_engine.h"
#include "vertex/v1/monitoring.grpc.pb.h"

namespace vertex::server {

class MonitoringServiceImpl final : public v1::MonitoringService::Service {
 public:
  // `engine` must outlive the service.
  explicit MonitoringServiceImpl(workflow::MonitorEngine* engine);

  grpc::Status Monitor(grpc::ServerContext* context, const v1::MonitorRequest* request,
                       v1::MonitorResponse* response) override;

 private:
  workflow::MonitorEngine* engine_;
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_MONITORING_MONITORING_SERVICE_H_
