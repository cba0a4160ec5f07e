// The settings every Vertex server shares (listen address, TLS, bearer
// token, logging, message size, drain time), their flags, and their
// validation. Files named by flags (certificates, key, token) are read here,
// so a bad path fails at start-up with the flag's name.
//
// Thread-safety: values and pure functions (they read files).
#ifndef VERTEX_SERVICES_COMMON_SERVER_CONFIG_H_
#define VERTEX_SERVICES_COMMON_SERVER_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/flags.h"

namespace vertex::rpc {

inline constexpr int64_t kDefaultMaxMessageBytes = int64_t{64} << 20;
inline constexpr int kDefaultDrainSeconds = 10;
inline constexpr int64_t kDefaultMaxMemoryBytes = int64_t{256} << 20;
inline constexpr int kDefaultMaxThreads = 1024;

struct ServerConfig {
  // gRPC listen address: "host:port" ("127.0.0.1:0" picks a free port),
  // "[::]:port" or "unix:/path".
  std::string listen;
  // When not empty, the bound port is written there once listening.
  std::string port_file;
  // PEM contents (not paths). Empty cert and key: plaintext. A non-empty
  // CA additionally requires clients to present a certificate it signed.
  std::string tls_cert, tls_key, tls_ca;
  // When not empty, write RPCs need `authorization: Bearer <auth_token>`.
  std::string auth_token;
  std::string log_format = "text";  // "text" or "json"
  std::string log_level = "info";   // trace, debug, info, warn or error
  int64_t max_message_bytes = kDefaultMaxMessageBytes;
  // gRPC's memory quota: what its buffers (received messages not yet read,
  // responses not yet sent) may hold before flow control holds clients back.
  int64_t max_memory_bytes = kDefaultMaxMemoryBytes;
  // Threads handling calls at once; a call beyond gets RESOURCE_EXHAUSTED.
  int max_threads = kDefaultMaxThreads;
  // How long shutdown lets in-flight calls finish before cancelling them.
  int drain_seconds = kDefaultDrainSeconds;
  // The HTTP/JSON face (services/http): -1 (the default) off, 0 a free
  // port, else the port; on http_address (default: --listen's host,
  // 127.0.0.1 for a unix: address). The bound port goes to http_port_file
  // when not empty. TLS and the bearer token are the gRPC server's.
  int http_port = -1;
  // One line per call (gRPC and HTTP alike): "text" (an info line of the
  // log), "json" (a JSON object per line on stderr) or "off".
  std::string access_log = "text";
  std::string http_address;
  std::string http_port_file;
};

// The server flags: --listen ADDR (default `default_listen`), --port-file,
// --tls-cert, --tls-key, --tls-ca, --auth-token, --auth-token-file,
// --log-format, --log-level, --max-message-bytes, --max-memory-bytes,
// --max-threads, --drain-seconds, --http-port, --http-address,
// --http-port-file, --access-log.
std::vector<cli::FlagSpec> ServerFlagSpecs(const std::string& default_listen);

// The config the server flags in `args` describe, with the files they name
// read. InvalidArgument naming the flag for: an empty or malformed listen
// address; a certificate without its key or the reverse; --tls-ca without
// --tls-cert; a file that cannot be read or is not PEM; both --auth-token
// and --auth-token-file, or a token that is empty or not printable ASCII;
// an unknown log format or level; an out-of-range number; --http-address
// or --http-port-file without --http-port.
absl::StatusOr<ServerConfig> ServerConfigFromArgs(const cli::ParsedArgs& args, const std::string& default_listen);

// "none", "tls" or "mtls": the transport security `config` asks for.
std::string TlsMode(const ServerConfig& config);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_SERVER_CONFIG_H_
