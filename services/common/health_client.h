// Client side of the grpc.health.v1 health check, for vertexctl, probes and
// tests.
//
// Thread-safety: pure function; channels may be shared between threads.
#ifndef VERTEX_SERVICES_COMMON_HEALTH_CLIENT_H_
#define VERTEX_SERVICES_COMMON_HEALTH_CLIENT_H_

#include <grpcpp/channel.h>

#include <chrono>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace vertex::rpc {

// Asks the server behind `channel` how `service` is ("" for the server as a
// whole), waiting at most until `deadline`. Returns the status name:
// "SERVING", "NOT_SERVING", "UNKNOWN" or "SERVICE_UNKNOWN". Errors are the
// call's status: NotFound for a service the server does not know,
// Unavailable when it cannot be reached (or refuses our credentials),
// DeadlineExceeded.
absl::StatusOr<std::string> CheckHealth(const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
                                        std::chrono::system_clock::time_point deadline);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_HEALTH_CLIENT_H_
