#include "tests/testing/http_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace vertex::test_support {
namespace {

constexpr size_t kMaxHeadBytes = 64 * 1024;
constexpr size_t kMaxBodyBytes = 1 << 20;

int64_t UnixMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 304:
      return "Not Modified";
    case 307:
      return "Temporary Redirect";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 410:
      return "Gone";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

// The gzip encoding of `data` ("" only if zlib fails, which it does not for
// in-memory buffers).
std::string Gzip(const std::string& data) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return "";
  }
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return rc == Z_STREAM_END ? out : "";
}

// Parses "METHOD PATH VERSION\r\nName: value\r\n...". False when malformed.
bool ParseHead(absl::string_view head, HttpRequest& request) {
  std::vector<absl::string_view> lines = absl::StrSplit(head, "\r\n");
  if (lines.empty()) return false;
  std::vector<absl::string_view> parts = absl::StrSplit(lines[0], ' ', absl::SkipEmpty());
  if (parts.size() != 3) return false;
  request.method = std::string(parts[0]);
  request.path = std::string(parts[1]);
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == absl::string_view::npos) continue;
    std::string name = absl::AsciiStrToLower(lines[i].substr(0, colon));
    request.headers[name] = std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
  }
  return true;
}

std::string Serialize(const HttpResponse& response, const HttpRequest& request) {
  std::string body = response.body;
  std::string head =
      absl::StrCat("HTTP/1.1 ", response.status, " ", ReasonPhrase(response.status), "\r\n");
  auto accept = request.headers.find("accept-encoding");
  if (response.gzip && accept != request.headers.end() &&
      absl::StrContains(accept->second, "gzip")) {
    body = Gzip(body);
    absl::StrAppend(&head, "Content-Encoding: gzip\r\n");
  }
  if (!response.content_type.empty()) {
    absl::StrAppend(&head, "Content-Type: ", response.content_type, "\r\n");
  }
  for (const auto& [name, value] : response.headers) {
    absl::StrAppend(&head, name, ": ", value, "\r\n");
  }
  absl::StrAppend(&head, "Content-Length: ", body.size(), "\r\nConnection: close\r\n\r\n");
  if (request.method != "HEAD") head += body;
  return head;
}

}  // namespace

HttpServer::HttpServer(Handler handler) : handler_(std::move(handler)) {}

HttpServer::~HttpServer() { Stop(); }

std::string HttpServer::base_url() const { return absl::StrCat("http://127.0.0.1:", port_); }

absl::Status HttpServer::Start() {
  if (running_ || stopping_) {
    return absl::FailedPreconditionError("HttpServer: Start after Start or Stop");
  }
  if (pipe2(wake_fds_, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", strerror(errno)));
  }
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return absl::InternalError(absl::StrCat("socket: ", strerror(errno)));
  const int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t length = sizeof(addr);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listen_fd_, 64) != 0 ||
      getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
    return absl::InternalError(absl::StrCat("bind 127.0.0.1:0: ", strerror(errno)));
  }
  port_ = ntohs(addr.sin_port);
  running_ = true;
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return absl::OkStatus();
}

void HttpServer::Stop() {
  if (stopping_.exchange(true)) return;
  if (wake_fds_[1] >= 0) {
    const char byte = 'x';
    (void)!write(wake_fds_[1], &byte, 1);
  }
  if (acceptor_.joinable()) acceptor_.join();
  for (Connection& c : connections_) c.thread.join();
  connections_.clear();
  for (int* fd : {&listen_fd_, &wake_fds_[0], &wake_fds_[1]}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  running_ = false;
}

void HttpServer::SetHandler(Handler handler) {
  std::lock_guard<std::mutex> lock(mu_);
  handler_ = std::move(handler);
}

std::vector<HttpRequest> HttpServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

bool HttpServer::WaitFor(int fd, short events, int timeout_ms) const {
  pollfd fds[2] = {{fd, events, 0}, {wake_fds_[0], POLLIN, 0}};
  const int n = fd >= 0 ? 2 : 1;
  pollfd* first = fd >= 0 ? &fds[0] : &fds[1];
  while (true) {
    const int rc = poll(first, n, timeout_ms);
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0 || stopping_ || fds[1].revents != 0) return false;
    return true;
  }
}

void HttpServer::Sleep(int timeout_ms) const { WaitFor(-1, 0, timeout_ms); }

void HttpServer::AcceptLoop() {
  while (WaitFor(listen_fd_, POLLIN, -1)) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (!it->done->load()) {
        ++it;
        continue;
      }
      it->thread.join();
      it = connections_.erase(it);
    }
    if (fd < 0) continue;
    auto done = std::make_shared<std::atomic<bool>>(false);
    connections_.push_back({std::thread([this, fd, done] {
                              Serve(fd);
                              close(fd);
                              done->store(true);
                            }),
                            done});
  }
}

HttpResponse HttpServer::Answer(const HttpRequest& request) {
  Handler handler;
  {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.push_back(request);
    handler = handler_;
  }
  if (!handler) {
    HttpResponse none;
    none.status = 500;
    none.body = "no handler";
    return none;
  }
  return handler(request);
}

// Phases: read the head (and discard a body of Content-Length bytes), log and
// answer it, wait out a delay or a hang, then write the response.
void HttpServer::Serve(int fd) {
  std::string data;
  size_t head_end = std::string::npos;
  char buffer[8192];
  while (head_end == std::string::npos) {
    if (data.size() > kMaxHeadBytes || !WaitFor(fd, POLLIN, -1)) return;
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) return;
    data.append(buffer, static_cast<size_t>(n));
    head_end = data.find("\r\n\r\n");
  }
  HttpRequest request;
  if (!ParseHead(absl::string_view(data).substr(0, head_end), request)) return;
  request.received_unix_ms = UnixMillis();
  size_t body_bytes = 0;
  auto length = request.headers.find("content-length");
  if (length != request.headers.end()) {
    body_bytes = std::strtoull(length->second.c_str(), nullptr, 10);
  }
  size_t have = data.size() - head_end - 4;
  while (have < body_bytes && have < kMaxBodyBytes && WaitFor(fd, POLLIN, -1)) {
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) return;
    have += static_cast<size_t>(n);
  }

  const HttpResponse response = Answer(request);
  if (response.hang) {
    Sleep(-1);
    return;
  }
  if (response.delay_ms > 0) {
    Sleep(response.delay_ms);
    if (stopping_) return;
  }
  const std::string out = Serialize(response, request);
  for (size_t sent = 0; sent < out.size();) {
    if (!WaitFor(fd, POLLOUT, -1)) return;
    const ssize_t n = send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
  shutdown(fd, SHUT_WR);
}

}  // namespace vertex::test_support
