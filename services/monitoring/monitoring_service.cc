#include "services/monitoring/monitoring_service.h"

#include "services/server/handler.h"

namespace vertex::server {

MonitoringServiceImpl::MonitoringServiceImpl(monitor::MonitorEngine* engine) : engine_(engine) {}

grpc::Status MonitoringServiceImpl::Monitor(grpc::ServerContext* context, const v1::MonitorRequest* request,
                                            v1::MonitorResponse* response) {
  return Handle(*context, "Monitor", "site=" + request->site(), false, "",
                [&] { return engine_->Monitor(*request); }, response);
}

grpc::Status MonitoringServiceImpl::GetHistory(grpc::ServerContext* context, const v1::GetHistoryRequest* request,
                                               v1::GetHistoryResponse* response) {
  return Handle(*context, "GetHistory", "site=" + request->site(), false, "",
                [&] { return engine_->GetHistory(*request); }, response);
}

}  // namespace vertex::server
