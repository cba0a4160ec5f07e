#include "services/http/http_server.h"

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "google/protobuf/descriptor.h"
#include "services/http/rpc_bridge.h"
#include "services/http/static_files.h"

namespace vertex::http {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::MethodDescriptor;

const MethodDescriptor* FindMethod(std::string_view rpc) {
  const size_t slash = rpc.find('/');
  if (slash == std::string_view::npos) return nullptr;
  const google::protobuf::ServiceDescriptor* service =
      DescriptorPool::generated_pool()->FindServiceByName(std::string(rpc.substr(0, slash)));
  return service == nullptr ? nullptr : service->FindMethodByName(std::string(rpc.substr(slash + 1)));
}

bool IsUnary(const MethodDescriptor& m) { return !m.client_streaming() && !m.server_streaming(); }

std::vector<ServedRoute> BuildRoutes(const std::vector<std::string>& services) {
  const std::set<std::string> hosted(services.begin(), services.end());
  std::vector<ServedRoute> routes;
  for (const Route& r : ReadableRoutes()) {
    const MethodDescriptor* m = FindMethod(r.rpc);
    if (m == nullptr || !hosted.contains(m->service()->full_name())) continue;
    routes.push_back({std::string(r.method), std::string(r.pattern), m, std::string(r.raw_body_field),
                      std::string(r.summary)});
  }
  for (const std::string& name : services) {
    const google::protobuf::ServiceDescriptor* s = DescriptorPool::generated_pool()->FindServiceByName(name);
    for (int i = 0; s != nullptr && i < s->method_count(); ++i) {
      const MethodDescriptor* m = s->method(i);
      if (!IsUnary(*m)) continue;
      routes.push_back({"POST", absl::StrCat(std::string(kGenericRpcPrefix), name, "/", m->name()), m, "",
                        absl::StrCat("the RPC ", m->full_name(), " (JSON ", m->input_type()->full_name(), " -> ",
                                     m->output_type()->full_name(), ")")});
    }
  }
  return routes;
}

// Reads every PEM certificate of `pem`.
std::vector<X509*> ReadCertificates(const std::string& pem) {
  std::vector<X509*> out;
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  while (X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) out.push_back(cert);
  BIO_free(bio);
  ERR_clear_error();
  return out;
}

// Sets the certificate chain, key and (when given) client CA of `ctx`.
bool SetUpTls(SSL_CTX& ctx, const HttpServerOptions& o) {
  std::vector<X509*> chain = ReadCertificates(o.tls_cert);
  bool ok = !chain.empty() && SSL_CTX_use_certificate(&ctx, chain[0]) == 1;
  for (size_t i = 1; ok && i < chain.size(); ++i) ok = SSL_CTX_add_extra_chain_cert(&ctx, chain[i]) == 1;
  if (!chain.empty()) X509_free(chain[0]);  // extra chain certs are owned by ctx now
  BIO* bio = BIO_new_mem_buf(o.tls_key.data(), static_cast<int>(o.tls_key.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  ok = ok && key != nullptr && SSL_CTX_use_PrivateKey(&ctx, key) == 1 && SSL_CTX_check_private_key(&ctx) == 1;
  if (key != nullptr) EVP_PKEY_free(key);
  if (ok && !o.tls_ca.empty()) {
    X509_STORE* store = SSL_CTX_get_cert_store(&ctx);
    std::vector<X509*> cas = ReadCertificates(o.tls_ca);
    ok = !cas.empty();
    for (X509* ca : cas) {
      ok = ok && X509_STORE_add_cert(store, ca) == 1;
      X509_free(ca);
    }
    SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  ERR_clear_error();
  return ok;
}

absl::StatusOr<std::unique_ptr<httplib::Server>> NewServer(const HttpServerOptions& o) {
  if (o.tls_cert.empty() != o.tls_key.empty()) {
    return absl::InvalidArgumentError("HTTP TLS needs both a certificate and its key");
  }
  if (o.tls_cert.empty()) return std::make_unique<httplib::Server>();
  auto server = std::make_unique<httplib::SSLServer>([&o](SSL_CTX& ctx) { return SetUpTls(ctx, o); });
  if (!server->is_valid()) {
    return absl::InvalidArgumentError("HTTP TLS: the certificate, key or CA is not valid PEM, or the key does not "
                                      "match the certificate");
  }
  return server;
}

std::string UrlOf(const HttpServerOptions& o, int port) {
  const std::string host = absl::StrContains(o.host, ':') ? absl::StrCat("[", o.host, "]") : o.host;
  return absl::StrCat(o.tls_cert.empty() ? "http" : "https", "://", host, ":", port);
}

std::string QueryString(const std::string& target) {
  const size_t q = target.find('?');
  return q == std::string::npos ? "" : target.substr(q + 1);
}

}  // namespace

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(const HttpServerOptions& options,
                                                              std::shared_ptr<grpc::Channel> channel,
                                                              const std::vector<std::string>& services) {
  std::unique_ptr<HttpServer> s(new HttpServer());
  s->options_ = options;
  VERTEX_ASSIGN_OR_RETURN(s->server_, NewServer(s->options_));
  s->bridge_ = std::make_unique<RpcBridge>(std::move(channel));
  s->routes_ = BuildRoutes(services);
  s->Install();
  if (options.port == 0) {
    s->port_ = s->server_->bind_to_any_port(options.host);
  } else if (s->server_->bind_to_port(options.host, options.port)) {
    s->port_ = options.port;
  }
  if (s->port_ <= 0) {
    return absl::UnavailableError(
        absl::StrCat("HTTP: cannot listen on ", options.host, ":", options.port, " (address in use or not local)"));
  }
  s->url_ = UrlOf(options, s->port_);
  httplib::Server* server = s->server_.get();
  s->thread_ = std::make_unique<std::thread>([server] { server->listen_after_bind(); });
  if (!options.port_file.empty()) {
    absl::Status written = util::WriteFile(options.port_file, absl::StrCat(s->port_, "\n"));
    if (!written.ok()) return absl::Status(written.code(), "--http-port-file: " + std::string(written.message()));
  }
  return s;
}

HttpServer::~HttpServer() {
  Stop();
  if (thread_ != nullptr && thread_->joinable()) thread_->join();
}

void HttpServer::Stop() {
  if (server_ != nullptr) server_->stop();
}

void HttpServer::Install() {
  const int threads = options_.threads > 0
                          ? options_.threads
                          : std::max(8, 2 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  server_->set_payload_max_length(options_.max_body_bytes);
  // Responses go out at once: with Nagle's algorithm, a response written in
  // two parts waits for the client's delayed ACK (~40 ms per call).
  server_->set_tcp_nodelay(true);
  // httplib closes a keep-alive connection after 5 requests by default.
  server_->set_keep_alive_max_count(1000);
  auto handle = [this](const httplib::Request& req, httplib::Response& res) { Handle(req, res); };
  // GET and HEAD are routed here, before httplib's own (std::regex) routing;
  // other methods need their body read first, so go through the catch-all
  // handlers below.
  server_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (req.method != "GET" && req.method != "HEAD") return httplib::Server::HandlerResponse::Unhandled;
    Handle(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  server_->Post(".*", handle);
  server_->Put(".*", handle);
  server_->Patch(".*", handle);
  server_->Delete(".*", handle);
  // httplib's own errors (413, a malformed request, an unknown method)
  // get a JSON body too.
  server_->set_error_handler(httplib::Server::HandlerWithResponse([this](const httplib::Request&,
                                                                          httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const std::string message =
        res.status == 413 ? absl::StrCat("request body larger than ", options_.max_body_bytes, " bytes")
                          : absl::StrCat("HTTP ", res.status);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_content(ErrorJson(res.status == 413 ? "RESOURCE_EXHAUSTED" : "INVALID_ARGUMENT", message),
                    "application/json");
    return httplib::Server::HandlerResponse::Handled;
  }));
}

void HttpServer::Handle(const httplib::Request& req, httplib::Response& res) const {
  res.set_header("X-Content-Type-Options", "nosniff");
  HttpReply reply = Dispatch(req, res);
  res.status = reply.status;
  res.set_content(std::move(reply.body), reply.content_type);
}

HttpReply HttpServer::Dispatch(const httplib::Request& req, httplib::Response& res) const {
  const bool get = req.method == "GET" || req.method == "HEAD";
  if (get && req.path == "/metrics" && options_.metrics) {
    return {200, "text/plain; version=0.0.4; charset=utf-8", options_.metrics()};
  }
  if (get && (req.path == "/v1" || req.path == "/v1/")) return {200, "application/json", RoutesJson()};
  if (get) {
    if (std::optional<EmbeddedFile> file = FindStaticFile(req.path)) {
      res.set_header("Content-Security-Policy", kStaticCsp);
      res.set_header("Cache-Control", "no-cache");
      return {200, ContentTypeOf(file->path), std::string(reinterpret_cast<const char*>(file->data), file->size)};
    }
  }
  std::set<std::string> allowed;
  for (const ServedRoute& route : routes_) {
    std::optional<PathParams> params = MatchPattern(route.pattern, req.path);
    if (!params) continue;
    if (route.method == req.method || (req.method == "HEAD" && route.method == "GET")) {
      return CallRoute(route, *params, req);
    }
    allowed.insert(route.method);
  }
  if (!allowed.empty()) {
    res.set_header("Allow", absl::StrJoin(allowed, ", "));
    return {405, "application/json",
            ErrorJson("INVALID_ARGUMENT", absl::StrCat(req.method, " is not allowed on ", req.path, " (allowed: ",
                                                       absl::StrJoin(allowed, ", "), ")"))};
  }
  return {404, "application/json",
          ErrorJson("NOT_FOUND", absl::StrCat("no route for ", req.method, " ", req.path, " (GET /v1 lists them)"))};
}

HttpReply HttpServer::CallRoute(const ServedRoute& route, const PathParams& params,
                                const httplib::Request& req) const {
  BridgeRequest request;
  request.body = req.body;
  request.content_type = req.get_header_value("Content-Type");
  request.path_params = params;
  httplib::detail::parse_query_text(QueryString(req.target), request.query);
  request.raw_body_field = route.raw_body_field;
  absl::StatusOr<std::unique_ptr<google::protobuf::Message>> message = BuildRequestMessage(*route.rpc, request);
  if (!message.ok()) return ErrorReply(grpc::StatusCode::INVALID_ARGUMENT, std::string(message.status().message()));
  return bridge_->Call(*route.rpc, **message, req.get_header_value("Authorization"),
                       absl::StrCat(req.remote_addr, ":", req.remote_port));
}

std::string HttpServer::RoutesJson() const {
  std::vector<std::string> items;
  for (const ServedRoute& r : routes_) {
    items.push_back(absl::StrCat("{\"method\": ", JsonString(r.method), ", \"path\": ", JsonString(r.pattern),
                                 ", \"rpc\": ", JsonString(r.rpc->full_name()),
                                 ", \"request\": ", JsonString(r.rpc->input_type()->full_name()),
                                 ", \"response\": ", JsonString(r.rpc->output_type()->full_name()),
                                 ", \"summary\": ", JsonString(r.summary), "}"));
  }
  std::vector<std::string> extra = {"{\"method\": \"GET\", \"path\": \"/v1\", \"summary\": \"this list\"}"};
  if (options_.metrics) {
    extra.push_back("{\"method\": \"GET\", \"path\": \"/metrics\", \"summary\": \"Prometheus metrics\"}");
  }
  items.insert(items.end(), extra.begin(), extra.end());
  return absl::StrCat("{\"routes\": [\n  ", absl::StrJoin(items, ",\n  "), "\n]}\n");
}

}  // namespace vertex::http
