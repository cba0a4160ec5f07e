// What every Vertex RPC handler does around its one call into the engine:
// refuse a call whose deadline has passed or that was cancelled, check the
// bearer token on write RPCs, convert the engine's absl::Status into the
// canonical grpc::Status, and log a failed call once with its method, ids
// and status.
//
// Thread-safety: pure functions of their arguments (spdlog is thread-safe).
#ifndef VERTEX_SERVICES_SERVER_HANDLER_H_
#define VERTEX_SERVICES_SERVER_HANDLER_H_

#include <functional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "services/common/auth.h"
#include "services/common/status.h"
#include "spdlog/spdlog.h"

namespace vertex::server {

// Checks before work: CANCELLED / DEADLINE_EXCEEDED when the call is over,
// UNAUTHENTICATED for a write RPC without the configured token.
grpc::Status Admit(const grpc::ServerContextBase& context, bool write, const std::string& token);

// Logs a failed call (method, ids, status) and converts the status.
grpc::Status Failed(const char* method, const std::string& ids, const absl::Status& status);

// Admit, then `call()`; its value into *out, or its error.
template <typename Response, typename Call>
grpc::Status Handle(const grpc::ServerContextBase& context, const char* method, const std::string& ids, bool write,
                    const std::string& token, Call call, Response* out) {
  if (grpc::Status admitted = Admit(context, write, token); !admitted.ok()) {
    spdlog::warn("{} {}: refused: {}", method, ids, admitted.error_message());
    return admitted;
  }
  absl::StatusOr<Response> result = call();
  if (!result.ok()) return Failed(method, ids, result.status());
  *out = *std::move(result);
  return grpc::Status::OK;
}

// The rest of a client stream whose first message, `first`, was read
// already, as a workflow::MessageReader: `first`, then each message
// `reader` reads. `reader` must outlive the returned function.
template <typename Message>
std::function<absl::StatusOr<bool>(Message*)> StreamAfter(Message first, grpc::ServerReader<Message>* reader) {
  return [first = std::move(first), reader, given = false](Message* message) mutable -> absl::StatusOr<bool> {
    if (!given) {
      given = true;
      *message = std::move(first);
      return true;
    }
    return reader->Read(message);
  };
}

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_HANDLER_H_
