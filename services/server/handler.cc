#include "services/server/handler.h"

#include <chrono>

namespace vertex::server {

grpc::Status Admit(const grpc::ServerContextBase& context, bool write, const std::string& token) {
  if (context.IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the call was cancelled");
  if (context.deadline() <= std::chrono::system_clock::now()) {
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "the call's deadline passed before it started");
  }
  if (!write) return grpc::Status::OK;
  return rpc::CheckBearerToken(context, token);
}

grpc::Status Failed(const char* method, const std::string& ids, const absl::Status& status) {
  spdlog::warn("{} {}: {}", method, ids, status.ToString());
  return rpc::ToGrpcStatus(status);
}

}  // namespace vertex::server
