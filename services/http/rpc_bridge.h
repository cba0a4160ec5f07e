// The generic JSON <-> gRPC bridge of the HTTP face: an HTTP request becomes
// the RPC's request message (protobuf's JSON mapping of the body; path and
// query parameters fill scalar fields by name), is called on the same
// server through its in-process channel with grpc::GenericStub (the
// HTTP Authorization header forwarded as gRPC metadata, the HTTP peer as
// `x-forwarded-for`), so bearer tokens, admission, interceptors and logs
// are exactly the gRPC path's; the response is printed with the JSON
// mapping (proto field names, every primitive field, int64 as strings,
// enums by name).
//
// gRPC status -> HTTP: OK 200, INVALID_ARGUMENT / FAILED_PRECONDITION /
// OUT_OF_RANGE 400, UNAUTHENTICATED 401, PERMISSION_DENIED 403, NOT_FOUND
// 404, ALREADY_EXISTS / ABORTED 409, RESOURCE_EXHAUSTED 429, CANCELLED 499,
// UNIMPLEMENTED 501, UNAVAILABLE 503, DEADLINE_EXCEEDED 504, others 500;
// the body is {"code": "NOT_FOUND", "message": "..."}.
//
// Thread-safety: RpcBridge is immutable after construction; Call() may run
// from many threads at once.
#ifndef VERTEX_SERVICES_HTTP_RPC_BRIDGE_H_
#define VERTEX_SERVICES_HTTP_RPC_BRIDGE_H_

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <grpcpp/channel.h>
#include <grpcpp/generic/generic_stub.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace vertex::http {

// What an HTTP handler answers.
struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// The HTTP status of a gRPC status code (the table above).
int HttpStatusOf(grpc::StatusCode code);
// "NOT_FOUND" and the like.
std::string CodeName(grpc::StatusCode code);
// `text` as a JSON string literal (quoted, escaped).
std::string JsonString(const std::string& text);
// {"code": NAME, "message": MESSAGE}, JSON-escaped.
std::string ErrorJson(const std::string& code_name, const std::string& message);
// The reply for an error: HttpStatusOf(code) with ErrorJson.
HttpReply ErrorReply(grpc::StatusCode code, const std::string& message);

// The HTTP request as the bridge reads it.
struct BridgeRequest {
  std::string body;
  std::string content_type;  // the request's Content-Type ("" when none)
  std::vector<std::pair<std::string, std::string>> path_params;
  std::multimap<std::string, std::string> query;
  // The route's raw body field ("" when the body is always JSON).
  std::string raw_body_field;
};

// The request message of `method` for `request`: the body by protobuf's
// JSON mapping (empty body: an empty message), then path and query
// parameters set by field name (scalar fields; repeated ones take each
// value). InvalidArgument naming the problem: malformed JSON or an unknown
// field (protobuf's parse error), an unknown parameter, a parameter naming
// a message field, a value of the wrong type, a parameter given a value
// different from the body's.
absl::StatusOr<std::unique_ptr<google::protobuf::Message>> BuildRequestMessage(
    const google::protobuf::MethodDescriptor& method, const BridgeRequest& request);

// `message` printed with protobuf's JSON mapping as the file comment says.
std::string MessageToJson(const google::protobuf::Message& message);

class RpcBridge {
 public:
  // Calls go to `channel` (the server's in-process channel).
  explicit RpcBridge(std::shared_ptr<grpc::Channel> channel);

  // Calls `method` (unary) with `request`; `authorization` ("" for none) is
  // sent as the `authorization` metadata, `peer` as `x-forwarded-for`.
  // 200 with the response as JSON, or the error reply of the RPC's status;
  // 401 when `authorization` is not printable ASCII.
  HttpReply Call(const google::protobuf::MethodDescriptor& method, const google::protobuf::Message& request,
                 const std::string& authorization, const std::string& peer) const;

 private:
  std::shared_ptr<grpc::Channel> channel_;
  mutable grpc::GenericStub stub_;
};

}  // namespace vertex::http

#endif  // VERTEX_SERVICES_HTTP_RPC_BRIDGE_H_
