// Transport credentials for Vertex servers and their clients: plaintext,
// TLS, or mutual TLS, from PEM contents; and channels with the servers'
// message size limit.
//
// Thread-safety: pure functions; the credentials and channels they return
// are safe to share between threads (gRPC's guarantee).
#ifndef VERTEX_SERVICES_COMMON_CREDENTIALS_H_
#define VERTEX_SERVICES_COMMON_CREDENTIALS_H_

#include <grpcpp/channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/server_config.h"

namespace vertex::rpc {

// The credentials `config` asks for: insecure without tls_cert; TLS with
// tls_cert and tls_key; and with tls_ca too, clients must present a
// certificate signed by it (GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY).
// InvalidArgument when a certificate lacks its key (or the reverse) or
// tls_ca comes without tls_cert. Malformed PEM is caught by gRPC when the
// server starts (see ServerRunner::Start).
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const ServerConfig& config);

// A client's TLS material, PEM contents (not paths). All empty: plaintext.
struct ClientTls {
  std::string ca;    // roots that signed the server's certificate; "": the system's roots
  std::string cert;  // client certificate chain, for servers requiring mutual TLS
  std::string key;   // private key of `cert`
};

// Reads ClientTls from files; an empty path leaves that part empty. The
// error of util::ReadFile (naming the path) when a file cannot be read.
absl::StatusOr<ClientTls> ReadClientTls(const std::string& ca_file, const std::string& cert_file,
                                        const std::string& key_file);

// Insecure credentials when `tls` is all empty, else TLS ones (presenting
// `tls.cert` when given). InvalidArgument when cert comes without key or the
// reverse.
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(const ClientTls& tls);

// A channel to `target` ("host:port") whose calls may send and receive
// messages of up to `max_message_bytes` (clamped to INT32_MAX). Never null;
// connection errors show up on the first call.
std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target,
                                           const std::shared_ptr<grpc::ChannelCredentials>& credentials,
                                           int64_t max_message_bytes = kDefaultMaxMessageBytes);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_CREDENTIALS_H_
