#include "services/common/health_client.h"

#include <grpcpp/client_context.h>

#include "grpc/health/v1/health.grpc.pb.h"
#include "services/common/status.h"

namespace vertex::rpc {

absl::StatusOr<std::string> CheckHealth(const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
                                        std::chrono::system_clock::time_point deadline) {
  std::unique_ptr<grpc::health::v1::Health::Stub> stub = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(deadline);
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) return FromGrpcStatus(status);
  return grpc::health::v1::HealthCheckResponse::ServingStatus_Name(response.status());
}

}  // namespace vertex::rpc
