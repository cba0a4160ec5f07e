// gRPC clients of the vertex.v1 services: workflow::LearningApi,
// ExtractionApi and MonitoringApi implemented over the generated stubs, so
// code written against those interfaces (vertexctl, the simulated editor)
// runs against a server exactly as it runs in process against the engines.
//
// Every call gets a deadline (ConnectOptions::timeout_seconds from when it
// starts; fetch_timeout_seconds for the calls that may fetch pages: Relearn,
// AnnotateFromFeed, and Monitor without pages or with a feed) and, when a token is given,
// `authorization: Bearer <token>` metadata (the write RPCs need it). A
// failed call returns its grpc::Status as an absl::Status with the same
// canonical code and the server's message unchanged (rpc::FromGrpcStatus):
// NOT_FOUND from the server stays NOT_FOUND; UNAVAILABLE when the server
// cannot be reached; DEADLINE_EXCEEDED when the deadline passes;
// UNAUTHENTICATED for a missing or wrong token.
//
// ExtractionApi::ExtractMany uses the ExtractStream RPC: all requests are
// written from a helper thread while the calling thread reads the responses
// (one per request, in request order; a failed page carries error_code and
// error). Its deadline is timeout_seconds per 1000 pages, at least
// timeout_seconds.
//
// Monitor and Relearn send a request larger than StreamBudget(options) as
// the client-streaming MonitorStream / RelearnStream (messages of about the
// budget each, one page at least), so a request of any size works and
// means what the unary call means (one run; one fresh sample). Streams get
// fetch_timeout_seconds.
//
// Thread-safety: the returned objects are safe for concurrent use (each call
// has its own grpc::ClientContext; channels and stubs are thread-safe).
#ifndef VERTEX_SERVICES_CLIENT_REMOTE_API_H_
#define VERTEX_SERVICES_CLIENT_REMOTE_API_H_

#include <grpcpp/channel.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "common/workflow/api.h"
#include "services/common/credentials.h"

namespace vertex::client {

using rpc::ClientTls;

struct ConnectOptions {
  // The service's address, "host:port" (or any gRPC target, "unix:/path").
  std::string server;
  // Bearer token sent with every call; "" sends none.
  std::string token;
  // TLS material (PEM contents); all empty: plaintext.
  ClientTls tls;
  // Deadline of each call, from when it starts; ExtractMany's scales with
  // the number of pages (see StreamDeadline).
  double timeout_seconds = 60;
  // Deadline of the calls that may fetch pages, politely (one request at a
  // time per host, a second apart) and so for minutes: Relearn, and Monitor
  // of a request without pages or with a feed (its entry pages, feed_repair).
  double fetch_timeout_seconds = 3600;
  // Largest message sent or received; also sets StreamBudget (also over
  // an existing channel).
  int64_t max_message_bytes = int64_t{64} << 20;
};

// Requests larger than this go as a stream whatever the message size.
inline constexpr int64_t kMaxUnaryBytes = int64_t{16} << 20;

// The largest Monitor or Relearn request sent in one message:
// min(kMaxUnaryBytes, max_message_bytes / 4), leaving room for a server
// whose limit is smaller than this client's.
size_t StreamBudget(const ConnectOptions& options);

// A client of the LearningService at options.server. Does not connect:
// connection errors show up on the first call (UNAVAILABLE).
// InvalidArgument for an empty server, a timeout, fetch timeout or message
// size that is not positive, or TLS material MakeChannelCredentials rejects (a
// certificate without its key or the reverse).
absl::StatusOr<std::unique_ptr<workflow::LearningApi>> ConnectLearning(const ConnectOptions& options);

// A client of the ExtractionService at options.server; errors as
// ConnectLearning.
absl::StatusOr<std::unique_ptr<workflow::ExtractionApi>> ConnectExtraction(const ConnectOptions& options);

// A client of the MonitoringService at options.server; errors as
// ConnectLearning.
absl::StatusOr<std::unique_ptr<workflow::MonitoringApi>> ConnectMonitoring(const ConnectOptions& options);

// The same clients over an existing channel (a ServerRunner's
// InProcessChannel(), say); options.server and tls are not used,
// max_message_bytes only for StreamBudget. `channel` must not be null.
std::unique_ptr<workflow::LearningApi> LearningOverChannel(std::shared_ptr<grpc::Channel> channel,
                                                           const ConnectOptions& options);
std::unique_ptr<workflow::ExtractionApi> ExtractionOverChannel(std::shared_ptr<grpc::Channel> channel,
                                                               const ConnectOptions& options);
std::unique_ptr<workflow::MonitoringApi> MonitoringOverChannel(std::shared_ptr<grpc::Channel> channel,
                                                               const ConnectOptions& options);

// The channel ConnectLearning & co. use: options.server with options.tls
// and options.max_message_bytes. Errors as ConnectLearning.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeClientChannel(const ConnectOptions& options);

// How long ExtractMany of `pages` pages may take: timeout_seconds per 1000
// pages, and at least timeout_seconds.
std::chrono::milliseconds StreamDeadline(const ConnectOptions& options, size_t pages);

}  // namespace vertex::client

#endif  // VERTEX_SERVICES_CLIENT_REMOTE_API_H_
