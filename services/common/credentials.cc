#include "services/common/credentials.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/support/channel_arguments.h>

#include <algorithm>
#include <limits>

#include "common/util/file.h"
#include "common/util/status_macros.h"

namespace vertex::rpc {
namespace {

absl::StatusOr<std::string> ReadIfNamed(const std::string& path) {
  if (path.empty()) return std::string();
  return util::ReadFile(path, 1 << 20);
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const ServerConfig& config) {
  if (config.tls_cert.empty() != config.tls_key.empty()) {
    return absl::InvalidArgumentError("a TLS certificate needs its private key and the reverse");
  }
  if (!config.tls_ca.empty() && config.tls_cert.empty()) {
    return absl::InvalidArgumentError("a client CA (mutual TLS) needs a server certificate and key");
  }
  if (config.tls_cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options(config.tls_ca.empty()
                                                ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                                : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  options.pem_root_certs = config.tls_ca;
  options.pem_key_cert_pairs.push_back({config.tls_key, config.tls_cert});
  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::SslServerCredentials(options);
  if (credentials == nullptr) return absl::InvalidArgumentError("gRPC rejected the TLS certificate or key");
  return credentials;
}

absl::StatusOr<ClientTls> ReadClientTls(const std::string& ca_file, const std::string& cert_file,
                                        const std::string& key_file) {
  ClientTls tls;
  VERTEX_ASSIGN_OR_RETURN(tls.ca, ReadIfNamed(ca_file));
  VERTEX_ASSIGN_OR_RETURN(tls.cert, ReadIfNamed(cert_file));
  VERTEX_ASSIGN_OR_RETURN(tls.key, ReadIfNamed(key_file));
  return tls;
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(const ClientTls& tls) {
  if (tls.cert.empty() != tls.key.empty()) {
    return absl::InvalidArgumentError("a TLS client certificate needs its private key and the reverse");
  }
  if (tls.ca.empty() && tls.cert.empty()) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = tls.ca;
  options.pem_cert_chain = tls.cert;
  options.pem_private_key = tls.key;
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::SslCredentials(options);
  if (credentials == nullptr) return absl::InvalidArgumentError("gRPC rejected the TLS client material");
  return credentials;
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target,
                                           const std::shared_ptr<grpc::ChannelCredentials>& credentials,
                                           int64_t max_message_bytes) {
  const int limit = static_cast<int>(std::clamp<int64_t>(max_message_bytes, 0, std::numeric_limits<int32_t>::max()));
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(limit);
  args.SetMaxSendMessageSize(limit);
  return grpc::CreateCustomChannel(target, credentials, args);
}

}  // namespace vertex::rpc
