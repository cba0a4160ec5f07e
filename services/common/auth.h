// Bearer-token authentication of write RPCs: a server configured with a
// token (--auth-token) accepts a call only when its metadata carries
// `authorization: Bearer <token>`. Handlers call CheckBearerToken() first
// and return its status when it is not OK; read RPCs and health checks do
// not call it. Clients add the header with AddBearerToken().
//
// Thread-safety: pure functions over the context they are given.
#ifndef VERTEX_SERVICES_COMMON_AUTH_H_
#define VERTEX_SERVICES_COMMON_AUTH_H_

#include <grpcpp/client_context.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

#include <string>

namespace vertex::rpc {

// OK when `token` is empty (authentication off) or the call's metadata has
// `authorization: Bearer <token>` (the scheme's case is ignored; the token
// is compared in constant time). UNAUTHENTICATED "missing bearer token: ..."
// when the call has no authorization metadata, "invalid bearer token" when
// it has another value. Works for sync (grpc::ServerContext) and callback
// (grpc::CallbackServerContext) handlers.
grpc::Status CheckBearerToken(const grpc::ServerContextBase& context, const std::string& token);

// Adds `authorization: Bearer <token>` to `context`; does nothing when
// `token` is empty.
void AddBearerToken(grpc::ClientContext* context, const std::string& token);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_AUTH_H_
