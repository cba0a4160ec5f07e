// The HTTP/JSON face's route table: each readable route maps an HTTP method
// and a path pattern to one unary RPC of vertex.v1, its `{name}` segments
// filling the request field `name`. Adding a route is one line in
// kReadableRoutes (routes.cc). Besides these, every unary RPC of every
// service a server hosts is at `POST /v1/rpc/{full.Service}/{Method}`
// (http_server.cc builds those from the service descriptors).
//
// Thread-safety: immutable data and pure functions.
#ifndef VERTEX_SERVICES_HTTP_ROUTES_H_
#define VERTEX_SERVICES_HTTP_ROUTES_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vertex::http {

struct Route {
  // "GET", "POST" or "DELETE".
  std::string_view method;
  // '/'-separated; a segment "{field}" matches one non-empty path segment
  // and sets the request's field `field` (the proto field name).
  std::string_view pattern;
  // The RPC: "vertex.v1.LearningService/Learn".
  std::string_view rpc;
  // When not empty: a request body whose Content-Type is not JSON
  // (text/html, application/xhtml+xml, text/plain,
  // application/octet-stream, and the XML types a feed comes as:
  // application/xml, text/xml, application/rss+xml, application/atom+xml)
  // fills this bytes/string field as is, and its
  // Content-Type fills `content_type` when the message has that field. The
  // other fields then come from the query string.
  std::string_view raw_body_field;
  // One line for GET /v1.
  std::string_view summary;
};

// The readable routes (the table in routes.cc).
std::span<const Route> ReadableRoutes();

// The path parameters, in pattern order, when `path` matches `pattern`
// segment for segment; nullopt otherwise.
using PathParams = std::vector<std::pair<std::string, std::string>>;
std::optional<PathParams> MatchPattern(std::string_view pattern, std::string_view path);

// The prefix of the generic routes: POST /v1/rpc/vertex.v1.ExtractionService/Extract.
inline constexpr std::string_view kGenericRpcPrefix = "/v1/rpc/";

}  // namespace vertex::http

#endif  // VERTEX_SERVICES_HTTP_ROUTES_H_
