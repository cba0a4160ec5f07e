// A tiny HTTP/1.1 server on 127.0.0.1 for tests: each request is answered by
// a Handler (swappable while running, as when a site moves to a new version),
// every request is logged, and a response can be delayed, gzip-encoded or
// never sent (`hang`). One thread per connection; one request per connection
// (the response carries Content-Length and "Connection: close").
//
// Stop() never hangs: it wakes every connection thread (those waiting for a
// slow client, those in a delay or a hang) and joins them. It cannot
// interrupt a handler that is running (it waits for it): handlers must return.
//
// Thread-safety: all methods are safe from many threads, except that Start()
// and Stop() must not race each other. The handler runs on the connection
// threads, possibly several at once.
#ifndef VERTEX_TESTS_TESTING_HTTP_SERVER_H_
#define VERTEX_TESTS_TESTING_HTTP_SERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace vertex::test_support {

struct HttpRequest {
  std::string method;
  std::string path;                            // with the query, as sent ("/a?b=1")
  std::map<std::string, std::string> headers;  // lower-case names
  int64_t received_unix_ms = 0;                // when the request head was complete
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "text/html; charset=utf-8";     // "" sends none
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. Location
  int delay_ms = 0;                                          // wait this long before answering
  bool gzip = false;  // gzip-encode the body when the request accepts gzip
  bool hang = false;  // read the request, never answer (until Stop)
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;

  explicit HttpServer(Handler handler);
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();  // Stop()

  // Binds 127.0.0.1 on a port the kernel chooses and starts serving.
  // FailedPrecondition when called twice or after Stop; Internal on a socket
  // error.
  absl::Status Start();

  // The bound port (0 before Start) and "http://127.0.0.1:PORT". Both stay
  // valid after Stop (a test of a refused connection reuses them).
  int port() const { return port_; }
  std::string base_url() const;

  // Closes the listener and every connection and joins all threads; hung
  // and delayed requests are released unanswered. Idempotent.
  void Stop();

  // Replaces the handler for the requests that arrive from now on.
  void SetHandler(Handler handler);

  // The requests received so far, in order of arrival.
  std::vector<HttpRequest> requests() const;

 private:
  struct Connection {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  void AcceptLoop();
  void Serve(int fd);
  // Waits until `fd` has `events` (true) or the server stops or `timeout_ms`
  // passes (false); a negative timeout waits for ever.
  bool WaitFor(int fd, short events, int timeout_ms) const;
  // Waits up to `timeout_ms` (for ever if negative) or until Stop.
  void Sleep(int timeout_ms) const;
  HttpResponse Answer(const HttpRequest& request);

  mutable std::mutex mu_;
  Handler handler_;                    // guarded by mu_
  std::vector<HttpRequest> requests_;  // guarded by mu_

  int listen_fd_ = -1;
  int wake_fds_[2] = {-1, -1};  // a byte is written to [1] on Stop
  int port_ = 0;
  bool running_ = false;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  std::list<Connection> connections_;  // the acceptor's, then Stop's
};

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_TESTING_HTTP_SERVER_H_
