#include "services/common/server_config.h"

#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/common/logging.h"

namespace vertex::rpc {
namespace {

constexpr size_t kMaxFlagFileBytes = 1 << 20;
constexpr int64_t kMinMessageBytes = 1024;
constexpr int64_t kMaxDrainSeconds = 3600;

absl::Status FlagError(const cli::ParsedArgs& args, const std::string& flag, const std::string& problem) {
  return absl::InvalidArgumentError(args.Label(flag) + ": " + problem);
}

// The contents of the file flag `flag` names; InvalidArgument naming the
// flag when it cannot be read.
absl::StatusOr<std::string> ReadFlagFile(const cli::ParsedArgs& args, const std::string& flag) {
  const std::string path = args.String(flag, "");
  if (path.empty()) return FlagError(args, flag, "needs a file name");
  absl::StatusOr<std::string> data = util::ReadFile(path, kMaxFlagFileBytes);
  if (!data.ok()) return FlagError(args, flag, std::string(data.status().message()));
  return data;
}

// The PEM file of flag `flag` ("" when absent); InvalidArgument naming the
// flag when it cannot be read or holds no `marker`.
absl::StatusOr<std::string> ReadPemFlag(const cli::ParsedArgs& args, const std::string& flag,
                                        const std::string& marker) {
  if (!args.Has(flag)) return std::string();
  VERTEX_ASSIGN_OR_RETURN(std::string pem, ReadFlagFile(args, flag));
  if (pem.find(marker) == std::string::npos) {
    return FlagError(args, flag, "'" + args.String(flag, "") + "' is not PEM (no '" + marker + "')");
  }
  return pem;
}

absl::Status ValidateListen(const cli::ParsedArgs& args, const std::string& listen) {
  if (listen.rfind("unix:", 0) == 0 && listen.size() > 5) return absl::OkStatus();
  const size_t colon = listen.rfind(':');
  int port = -1;
  if (colon == std::string::npos || colon == 0 || !absl::SimpleAtoi(listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return FlagError(args, "listen", "'" + listen + "' is not HOST:PORT (port 0-65535) or unix:PATH");
  }
  return absl::OkStatus();
}

struct TlsFiles {
  std::string cert, key, ca;
};

absl::StatusOr<TlsFiles> ReadTlsFlags(const cli::ParsedArgs& args) {
  TlsFiles tls;
  VERTEX_ASSIGN_OR_RETURN(tls.cert, ReadPemFlag(args, "tls-cert", "-----BEGIN CERTIFICATE-----"));
  VERTEX_ASSIGN_OR_RETURN(tls.key, ReadPemFlag(args, "tls-key", "PRIVATE KEY-----"));
  VERTEX_ASSIGN_OR_RETURN(tls.ca, ReadPemFlag(args, "tls-ca", "-----BEGIN CERTIFICATE-----"));
  if (!tls.cert.empty() && tls.key.empty()) return FlagError(args, "tls-cert", "needs --tls-key");
  if (tls.cert.empty() && !tls.key.empty()) return FlagError(args, "tls-key", "needs --tls-cert");
  if (!tls.ca.empty() && tls.cert.empty()) {
    return FlagError(args, "tls-ca", "(client certificates) needs --tls-cert and --tls-key");
  }
  return tls;
}

// The bearer token of --auth-token or --auth-token-file (trimmed); "" when
// neither is given.
absl::StatusOr<std::string> ReadAuthToken(const cli::ParsedArgs& args) {
  if (args.Has("auth-token") && args.Has("auth-token-file")) {
    return FlagError(args, "auth-token", "give --auth-token or --auth-token-file, not both");
  }
  const bool from_file = args.Has("auth-token-file");
  const std::string flag = from_file ? "auth-token-file" : "auth-token";
  if (!args.Has(flag)) return std::string();
  std::string token = args.String(flag, "");
  if (from_file) {
    VERTEX_ASSIGN_OR_RETURN(token, ReadFlagFile(args, flag));
  }
  token = std::string(absl::StripAsciiWhitespace(token));
  if (token.empty()) return FlagError(args, flag, "the token is empty");
  for (unsigned char c : token) {
    if (c < 0x21 || c > 0x7e) return FlagError(args, flag, "the token must be printable ASCII without spaces");
  }
  return token;
}

absl::Status ValidateLogging(const cli::ParsedArgs& args, const ServerConfig& config) {
  if (absl::Status s = ParseLogFormat(config.log_format).status(); !s.ok()) {
    return FlagError(args, "log-format", std::string(s.message()));
  }
  if (absl::Status s = ParseLogLevel(config.log_level).status(); !s.ok()) {
    return FlagError(args, "log-level", std::string(s.message()));
  }
  return absl::OkStatus();
}

// The host part of a HOST:PORT listen address ("[::1]:7070" -> "::1");
// 127.0.0.1 for unix:.
std::string ListenHost(const std::string& listen) {
  if (listen.rfind("unix:", 0) == 0) return "127.0.0.1";
  std::string host = listen.substr(0, listen.rfind(':'));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return host;
}

absl::Status ReadHttpFlags(const cli::ParsedArgs& args, ServerConfig* config) {
  if (!args.Has("http-port")) {
    for (const char* flag : {"http-address", "http-port-file"}) {
      if (args.Has(flag)) return FlagError(args, flag, "needs --http-port");
    }
    return absl::OkStatus();
  }
  VERTEX_ASSIGN_OR_RETURN(const int64_t port, args.Int("http-port", -1, 0, 65535));
  config->http_port = static_cast<int>(port);
  config->http_address = args.String("http-address", ListenHost(config->listen));
  if (config->http_address.empty()) return FlagError(args, "http-address", "needs a host");
  config->http_port_file = args.String("http-port-file", "");
  if (args.Has("http-port-file") && config->http_port_file.empty()) {
    return FlagError(args, "http-port-file", "needs a file name");
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<cli::FlagSpec> ServerFlagSpecs(const std::string& default_listen) {
  return {
      {"listen", "ADDR", "gRPC address to listen on: HOST:PORT or unix:PATH (default " + default_listen + ")"},
      {"port-file", "FILE", "write the bound port to FILE once listening (for --listen HOST:0)"},
      {"tls-cert", "FILE", "PEM server certificate (chain): serve TLS; needs --tls-key"},
      {"tls-key", "FILE", "PEM private key of --tls-cert"},
      {"tls-ca", "FILE", "PEM CA: clients must present a certificate it signed (mutual TLS)"},
      {"auth-token", "TOKEN", "write RPCs need `authorization: Bearer TOKEN`"},
      {"auth-token-file", "FILE", "as --auth-token, the token read from FILE (trimmed)"},
      {"log-format", "FORMAT", "text or json (one JSON object per line) on stderr (default text)"},
      {"log-level", "LEVEL", "trace, debug, info, warn or error (default info)"},
      {"max-message-bytes", "N", "largest message sent or received (default 67108864)"},
      {"max-memory-bytes", "N",
       "memory gRPC's buffers may hold (unread requests, unsent responses) before flow control holds clients "
       "back (default 268435456)"},
      {"max-threads", "N", "calls handled at once; more get RESOURCE_EXHAUSTED (default 1024)"},
      {"drain-seconds", "N", "on SIGTERM, let in-flight calls finish for up to N s (default 10)"},
      {"http-port", "N",
       "also serve the HTTP/JSON API, /metrics and the web pages on port N (0: a free port; default: no HTTP), "
       "with the TLS and bearer token of gRPC"},
      {"http-address", "HOST", "the HTTP listen address (default: --listen's host; 127.0.0.1 for unix:)"},
      {"http-port-file", "FILE", "write the bound HTTP port to FILE once listening"},
      {"access-log", "FORMAT",
       "one line per call, gRPC and HTTP alike (method, site, code, ms, peer): text (an info line of the log; the "
       "default), json (one JSON object per line on stderr) or off"},
  };
}

absl::StatusOr<ServerConfig> ServerConfigFromArgs(const cli::ParsedArgs& args, const std::string& default_listen) {
  ServerConfig config;
  config.listen = args.String("listen", default_listen);
  VERTEX_RETURN_IF_ERROR(ValidateListen(args, config.listen));
  config.port_file = args.String("port-file", "");
  if (args.Has("port-file") && config.port_file.empty()) return FlagError(args, "port-file", "needs a file name");
  VERTEX_ASSIGN_OR_RETURN(TlsFiles tls, ReadTlsFlags(args));
  config.tls_cert = std::move(tls.cert);
  config.tls_key = std::move(tls.key);
  config.tls_ca = std::move(tls.ca);
  VERTEX_ASSIGN_OR_RETURN(config.auth_token, ReadAuthToken(args));
  config.log_format = args.String("log-format", config.log_format);
  config.log_level = args.String("log-level", config.log_level);
  VERTEX_RETURN_IF_ERROR(ValidateLogging(args, config));
  VERTEX_ASSIGN_OR_RETURN(config.max_message_bytes, args.Int("max-message-bytes", kDefaultMaxMessageBytes,
                                                             kMinMessageBytes, std::numeric_limits<int32_t>::max()));
  VERTEX_ASSIGN_OR_RETURN(config.max_memory_bytes,
                          args.Int("max-memory-bytes", kDefaultMaxMemoryBytes, int64_t{16} << 20, int64_t{1} << 40));
  VERTEX_ASSIGN_OR_RETURN(const int64_t threads, args.Int("max-threads", kDefaultMaxThreads, 8, 100000));
  config.max_threads = static_cast<int>(threads);
  VERTEX_ASSIGN_OR_RETURN(const int64_t drain, args.Int("drain-seconds", kDefaultDrainSeconds, 0, kMaxDrainSeconds));
  config.drain_seconds = static_cast<int>(drain);
  VERTEX_RETURN_IF_ERROR(ReadHttpFlags(args, &config));
  config.access_log = args.String("access-log", config.access_log);
  if (config.access_log != "text" && config.access_log != "json" && config.access_log != "off") {
    return FlagError(args, "access-log", "'" + config.access_log + "' is not text, json or off");
  }
  return config;
}

std::string TlsMode(const ServerConfig& config) {
  if (config.tls_cert.empty()) return "none";
  return config.tls_ca.empty() ? "tls" : "mtls";
}

}  // namespace vertex::rpc
