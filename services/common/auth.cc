#include "services/common/auth.h"

#include <string_view>

#include "absl/strings/match.h"

namespace vertex::rpc {
namespace {

constexpr std::string_view kScheme = "Bearer ";

// Whether `given` equals `expected` (not empty), in time that depends only
// on the length of `given`.
bool ConstantTimeEquals(std::string_view given, std::string_view expected) {
  unsigned char diff = given.size() != expected.size() ? 1 : 0;
  for (size_t i = 0; i < given.size(); ++i) {
    diff |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
  }
  return diff == 0;
}

}  // namespace

grpc::Status CheckBearerToken(const grpc::ServerContextBase& context, const std::string& token) {
  if (token.empty()) return grpc::Status::OK;
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "missing bearer token: this server requires `authorization: Bearer <token>` on write RPCs");
  }
  const std::string_view value(it->second.data(), it->second.size());
  const bool has_scheme =
      value.size() >= kScheme.size() && absl::EqualsIgnoreCase(absl::string_view(value.data(), kScheme.size()),
                                                               absl::string_view(kScheme.data(), kScheme.size()));
  if (!has_scheme || !ConstantTimeEquals(value.substr(kScheme.size()), token)) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "invalid bearer token");
  }
  return grpc::Status::OK;
}

void AddBearerToken(grpc::ClientContext* context, const std::string& token) {
  if (!token.empty()) context->AddMetadata("authorization", std::string(kScheme) + token);
}

}  // namespace vertex::rpc
