// Conversion between absl::Status (the domain's errors) and grpc::Status
// (what an RPC returns), at the service edge. Both use the canonical codes,
// so the code and the message carry over unchanged; payloads are dropped.
//
// Thread-safety: pure functions.
#ifndef VERTEX_SERVICES_COMMON_STATUS_H_
#define VERTEX_SERVICES_COMMON_STATUS_H_

#include <grpcpp/support/status.h>

#include "absl/status/status.h"

namespace vertex::rpc {

// The grpc::Status with `status`'s code and message (OK for OK).
grpc::Status ToGrpcStatus(const absl::Status& status);

// The absl::Status with `status`'s code and error message (OK for OK).
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_STATUS_H_
