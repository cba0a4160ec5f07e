#include "services/monitoring/monitoring_service.h"

#include "services/server/handler.h"

namespace vertex::server {

MonitoringServiceImpl::MonitoringServiceImpl(monitor::MonitorEngine* engine, std::string token)
    : engine_(engine), token_(std::move(token)) {}

grpc::Status MonitoringServiceImpl::Monitor(grpc::ServerContext* context, const v1::MonitorRequest* request,
                                            v1::MonitorResponse* response) {
  return Handle(*context, "Monitor", "site=" + request->site(), request->feed_repair(), token_,
                [&] { return engine_->Monitor(*request); }, response);
}

grpc::Status MonitoringServiceImpl::MonitorStream(grpc::ServerContext* context,
                                                  grpc::ServerReader<v1::MonitorRequest>* reader,
                                                  v1::MonitorResponse* response) {
  v1::MonitorRequest first;
  if (!reader->Read(&first)) {
    return Failed("MonitorStream", "", absl::InvalidArgumentError("the stream carried no request message"));
  }
  const std::string ids = "site=" + first.site();
  const bool write = first.feed_repair();
  return Handle(*context, "MonitorStream", ids, write, token_,
                [&] { return engine_->MonitorStream(StreamAfter(std::move(first), reader)); }, response);
}

grpc::Status MonitoringServiceImpl::GetHistory(grpc::ServerContext* context, const v1::GetHistoryRequest* request,
                                               v1::GetHistoryResponse* response) {
  return Handle(*context, "GetHistory", "site=" + request->site(), false, "",
                [&] { return engine_->GetHistory(*request); }, response);
}

}  // namespace vertex::server
