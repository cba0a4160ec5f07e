// HttpServer: the HTTP/JSON face of a Vertex gRPC server, on its own port
// (cpp-httplib, Debian's libcpp-httplib-dev). It serves
//   - the readable routes of routes.h and `POST /v1/rpc/{Service}/{Method}`
//     for every unary RPC of the hosted services, each through RpcBridge
//     (rpc_bridge.h) on the gRPC server's in-process channel, so bearer
//     tokens, admission, interceptors and logs are the gRPC path's;
//   - `GET /v1`: the routes as JSON;
//   - `GET /metrics`: HttpServerOptions::metrics' text (Prometheus), when set;
//   - `GET /` and `GET /static/...`: the files embedded from web/
//     (static_files.h), with a Content-Security-Policy.
// Every response has `X-Content-Type-Options: nosniff`; every error is JSON
// {"code": "...", "message": "..."}: 404 for an unknown path, 405 (with
// Allow) for a known path and another method, 413 for a body over
// max_body_bytes, 400 for bad JSON, other codes as rpc_bridge.h maps them.
// Streaming RPCs (ExtractStream, the *Stream writes, WatchStore) are not
// served over HTTP.
//
// Auth: the API's calls carry the HTTP Authorization header to gRPC, which
// checks the token exactly as for a gRPC client (write RPCs need it, read
// RPCs do not). /metrics, /v1 and the static files are open, like read
// RPCs: they hold no site data beyond site names in metric labels.
//
// Thread-safety: Start() and the destructor belong to one owning thread;
// Stop() and the accessors may be called from any thread. Requests are
// handled on the server's own thread pool.
#ifndef VERTEX_SERVICES_HTTP_HTTP_SERVER_H_
#define VERTEX_SERVICES_HTTP_HTTP_SERVER_H_

#include <grpcpp/channel.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "services/http/routes.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace google::protobuf {
class MethodDescriptor;
}

namespace vertex::http {

class RpcBridge;
struct HttpReply;

// The Content-Security-Policy of the static pages: everything from this
// server only, no inline script, frames from this server (srcdoc frames
// inherit it).
inline constexpr char kStaticCsp[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

struct HttpServerOptions {
  // Listen host (name or address) and port; port 0 picks a free one.
  std::string host = "127.0.0.1";
  int port = 0;
  // When not empty, the bound port is written there once listening.
  std::string port_file;
  // PEM contents. A certificate and key: HTTPS; a CA besides: clients must
  // present a certificate it signed. Empty: plain HTTP.
  std::string tls_cert, tls_key, tls_ca;
  // Larger request bodies get 413.
  size_t max_body_bytes = size_t{64} << 20;
  // Requests handled at once; 0: max(8, 2 x cores).
  int threads = 0;
  // The body of GET /metrics (Prometheus text format 0.0.4); empty: no
  // /metrics route.
  std::function<std::string()> metrics;
};

// One route as served: the readable routes whose service is hosted, then
// the generic ones.
struct ServedRoute {
  std::string method;
  std::string pattern;
  const google::protobuf::MethodDescriptor* rpc;
  std::string raw_body_field;
  std::string summary;
};

class HttpServer {
 public:
  // Binds `options.host:port` and starts serving `services` (full names,
  // as ServerRunner::service_names(); those without a descriptor in the
  // generated pool, e.g. reflection, are skipped) over `channel`.
  // InvalidArgument for a bad certificate, key or CA, or a certificate
  // without its key; Unavailable naming the address when it cannot be
  // bound; the error of writing port_file.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(const HttpServerOptions& options,
                                                           std::shared_ptr<grpc::Channel> channel,
                                                           const std::vector<std::string>& services);
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  // Stop(), then waits for the requests being handled.
  ~HttpServer();

  int port() const { return port_; }
  // "http://127.0.0.1:8080" (https with TLS; IPv6 hosts bracketed).
  const std::string& url() const { return url_; }
  const std::vector<ServedRoute>& routes() const { return routes_; }
  // Stops accepting connections; requests being handled finish. Repeated
  // calls do nothing more.
  void Stop();

 private:
  HttpServer() = default;
  void Install();
  void Handle(const httplib::Request& req, httplib::Response& res) const;
  HttpReply Dispatch(const httplib::Request& req, httplib::Response& res) const;
  HttpReply CallRoute(const ServedRoute& route, const PathParams& params, const httplib::Request& req) const;
  std::string RoutesJson() const;

  HttpServerOptions options_;
  std::unique_ptr<httplib::Server> server_;
  std::unique_ptr<RpcBridge> bridge_;
  std::vector<ServedRoute> routes_;
  int port_ = 0;
  std::string url_;
  std::unique_ptr<std::thread> thread_;
};

}  // namespace vertex::http

#endif  // VERTEX_SERVICES_HTTP_HTTP_SERVER_H_
