// The libcurl fetcher against the loopback HTTP server of tests/testing: one
// test per documented error code, robots.txt handling, gzip, and politeness
// (per-host gap, one request at a time per host, hosts in parallel).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/fetch/fetcher.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/http_server.h"

namespace vertex::fetch {
namespace {

using test_support::HttpRequest;
using test_support::HttpResponse;
using test_support::HttpServer;
using ::testing::HasSubstr;

HttpResponse Html(std::string body, std::string content_type = "text/html; charset=utf-8") {
  HttpResponse response;
  response.body = std::move(body);
  response.content_type = std::move(content_type);
  return response;
}

HttpResponse Status(int status) {
  HttpResponse response = Html("status");
  response.status = status;
  return response;
}

HttpResponse Redirect(const std::string& location) {
  HttpResponse response = Status(302);
  response.headers.emplace_back("Location", location);
  return response;
}

HttpResponse Hang() {
  HttpResponse response;
  response.hang = true;
  return response;
}

HttpResponse Delayed(std::string body, int delay_ms) {
  HttpResponse response = Html(std::move(body));
  response.delay_ms = delay_ms;
  return response;
}

HttpResponse Gzipped(std::string body) {
  HttpResponse response = Html(std::move(body));
  response.gzip = true;
  return response;
}

// Answers from a fixed table of paths; anything else is 404.
HttpServer::Handler Routes(std::map<std::string, HttpResponse> routes) {
  return [routes = std::move(routes)](const HttpRequest& request) {
    auto it = routes.find(request.path);
    if (it != routes.end()) return it->second;
    return Status(404);
  };
}

FetchOptions FastOptions() {
  FetchOptions options;
  options.per_host_delay_ms = 0;
  options.connect_timeout_ms = 3000;
  options.total_timeout_ms = 5000;
  return options;
}

// The paths the server was asked for, in order.
std::vector<std::string> Paths(const HttpServer& server) {
  std::vector<std::string> paths;
  for (const HttpRequest& r : server.requests()) paths.push_back(r.path);
  return paths;
}

void ExpectError(const absl::StatusOr<FetchResult>& result, absl::StatusCode code,
                 const std::string& url, const std::string& reason) {
  ASSERT_FALSE(result.ok()) << url << " fetched, HTTP " << result->http_status;
  EXPECT_EQ(result.status().code(), code) << result.status().ToString();
  EXPECT_THAT(std::string(result.status().message()), HasSubstr(url));
  EXPECT_THAT(std::string(result.status().message()), HasSubstr(reason));
}

class FetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("no_proxy", "127.0.0.1,localhost", 1);  // the server is on loopback
    ASSERT_TRUE(server_.Start().ok());
  }

  std::string Url(const std::string& path) const { return server_.base_url() + path; }

  HttpServer server_{Routes({})};
};

TEST_F(FetchTest, OkGivesBodyContentTypeAndFinalUrlAfterRedirect) {
  server_.SetHandler(Routes({
      {"/start", Redirect("/middle")},
      {"/middle", Redirect(Url("/end?x=1"))},
      {"/end?x=1", Html("hello", "text/plain")},
  }));
  auto fetcher = NewCurlFetcher(FastOptions());
  absl::StatusOr<FetchResult> result = fetcher->Fetch(Url("/start"));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->url, Url("/start"));
  EXPECT_EQ(result->final_url, Url("/end?x=1"));
  EXPECT_EQ(result->http_status, 200);
  EXPECT_EQ(result->content_type, "text/plain");
  EXPECT_EQ(result->body, "hello");
  EXPECT_GE(result->elapsed_ms, 0);
  EXPECT_EQ(Paths(server_),
            (std::vector<std::string>{"/robots.txt", "/start", "/middle", "/end?x=1"}));
}

TEST_F(FetchTest, NoContentTypeIsEmpty) {
  server_.SetHandler(Routes({{"/raw", Html("x", "")}}));
  absl::StatusOr<FetchResult> result = NewCurlFetcher(FastOptions())->Fetch(Url("/raw"));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->content_type, "");
}

TEST_F(FetchTest, TooManyRedirectsIsFailedPrecondition) {
  server_.SetHandler([](const HttpRequest& request) {
    if (request.path == "/robots.txt") return Status(404);
    return Redirect(request.path + "x");  // /loop -> /loopx -> /loopxx ...
  });
  FetchOptions options = FastOptions();
  options.max_redirects = 2;
  ExpectError(NewCurlFetcher(options)->Fetch(Url("/loop")), absl::StatusCode::kFailedPrecondition,
              Url("/loop"), "too many redirects (> 2)");
  EXPECT_EQ(Paths(server_),
            (std::vector<std::string>{"/robots.txt", "/loop", "/loopx", "/loopxx"}));
}

TEST_F(FetchTest, HttpErrorsMapToCanonicalCodes) {
  server_.SetHandler(Routes({
      {"/404", Status(404)},
      {"/410", Status(410)},
      {"/500", Status(500)},
      {"/503", Status(503)},
      {"/403", Status(403)},
      {"/304", Status(304)},
  }));
  auto fetcher = NewCurlFetcher(FastOptions());
  const struct {
    std::string path;
    absl::StatusCode code;
  } cases[] = {
      {"/404", absl::StatusCode::kNotFound},
      {"/410", absl::StatusCode::kNotFound},
      {"/500", absl::StatusCode::kUnavailable},
      {"/503", absl::StatusCode::kUnavailable},
      {"/403", absl::StatusCode::kFailedPrecondition},
      {"/304", absl::StatusCode::kFailedPrecondition},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    ExpectError(fetcher->Fetch(Url(c.path)), c.code, Url(c.path), "HTTP " + c.path.substr(1));
  }
}

TEST_F(FetchTest, ConnectionRefusedIsUnavailable) {
  HttpServer gone(Routes({}));
  ASSERT_TRUE(gone.Start().ok());
  const std::string url = gone.base_url() + "/page";
  gone.Stop();

  FetchOptions options = FastOptions();
  options.robots = false;
  ExpectError(NewCurlFetcher(options)->Fetch(url), absl::StatusCode::kUnavailable, url,
              "connection refused");
  // With robots.txt on, the first request is robots.txt's: still Unavailable
  // (a down host is not a robots.txt that disallows).
  ExpectError(NewCurlFetcher(FastOptions())->Fetch(url), absl::StatusCode::kUnavailable, url,
              "robots.txt unreachable (connection refused)");
}

TEST_F(FetchTest, HangingServerIsDeadlineExceeded) {
  server_.SetHandler(Routes({{"/slow", Hang()}}));
  FetchOptions options = FastOptions();
  options.total_timeout_ms = 300;
  const auto start = std::chrono::steady_clock::now();
  ExpectError(NewCurlFetcher(options)->Fetch(Url("/slow")), absl::StatusCode::kDeadlineExceeded,
              Url("/slow"), "timed out after 300 ms");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(FetchTest, HangingRobotsTxtIsDeadlineExceeded) {
  server_.SetHandler(Routes({{"/robots.txt", Hang()}, {"/", Html("home")}}));
  FetchOptions options = FastOptions();
  options.total_timeout_ms = 300;
  ExpectError(NewCurlFetcher(options)->Fetch(Url("/")), absl::StatusCode::kDeadlineExceeded,
              Url("/"), "robots.txt unreachable (timed out after 300 ms)");
  EXPECT_EQ(Paths(server_), std::vector<std::string>{"/robots.txt"});
}

// A listener whose accept queue is full and never accepted from: the kernel
// drops further SYNs, so a connect to it times out (all on loopback).
class FullListener {
 public:
  FullListener() {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(addr);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(listen_fd_, 0) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
      return;
    }
    port_ = ntohs(addr.sin_port);
    for (int i = 0; i < 3; ++i) {  // fill the queue
      const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      (void)!connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
      fillers_.push_back(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ~FullListener() {
    for (int fd : fillers_) close(fd);
    close(listen_fd_);
  }
  int port() const { return port_; }

 private:
  int listen_fd_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

TEST_F(FetchTest, ConnectTimeoutIsDeadlineExceeded) {
  std::string abort_on_overflow;
  std::ifstream("/proc/sys/net/ipv4/tcp_abort_on_overflow") >> abort_on_overflow;
  if (abort_on_overflow == "1") GTEST_SKIP() << "a full accept queue resets here, not drops";
  FullListener full;
  ASSERT_NE(full.port(), 0);
  FetchOptions options = FastOptions();
  options.robots = false;
  options.connect_timeout_ms = 200;
  const std::string url = absl::StrCat("http://127.0.0.1:", full.port(), "/page");
  const auto start = std::chrono::steady_clock::now();
  ExpectError(NewCurlFetcher(options)->Fetch(url), absl::StatusCode::kDeadlineExceeded, url,
              "connect timed out after 200 ms");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(FetchTest, BodyOverMaxBytesIsResourceExhausted) {
  server_.SetHandler(Routes({
      {"/big", Html(std::string(5000, 'x'))},
      {"/exact", Html(std::string(1000, 'y'))},
  }));
  FetchOptions options = FastOptions();
  options.max_bytes = 1000;
  auto fetcher = NewCurlFetcher(options);
  ExpectError(fetcher->Fetch(Url("/big")), absl::StatusCode::kResourceExhausted, Url("/big"),
              "page larger than 1000 bytes");
  absl::StatusOr<FetchResult> exact = fetcher->Fetch(Url("/exact"));
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  EXPECT_EQ(exact->body.size(), 1000u);
}

TEST_F(FetchTest, GzipBodyIsDecodedAndCappedAfterDecoding) {
  std::string page;
  for (int i = 0; i < 2000; ++i) absl::StrAppend(&page, "<p>paragraph ", i, "</p>\n");
  server_.SetHandler(Routes({{"/gz", Gzipped(page)}}));
  FetchOptions options = FastOptions();
  auto fetcher = NewCurlFetcher(options);
  absl::StatusOr<FetchResult> result = fetcher->Fetch(Url("/gz"));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->body, page);
  const HttpRequest request = server_.requests().back();
  EXPECT_THAT(request.headers.at("accept-encoding"), HasSubstr("gzip"));

  // The compressed body is far smaller than the cap; the decoded one is not.
  options.max_bytes = page.size() - 1;
  ExpectError(NewCurlFetcher(options)->Fetch(Url("/gz")), absl::StatusCode::kResourceExhausted,
              Url("/gz"), "page larger than");
}

TEST_F(FetchTest, SendsOurUserAgentToPagesAndRobotsTxt) {
  server_.SetHandler(Routes({{"/", Html("home")}}));
  FetchOptions options = FastOptions();
  ASSERT_TRUE(NewCurlFetcher(options)->Fetch(Url("/")).ok());
  const std::vector<HttpRequest> requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  for (const HttpRequest& r : requests) {
    EXPECT_EQ(r.headers.at("user-agent"), options.user_agent) << r.path;
    EXPECT_EQ(r.method, "GET");
  }
}

TEST_F(FetchTest, RobotsTxtDisallowIsPermissionDeniedAndThePageIsNotAsked) {
  server_.SetHandler(Routes({
      {"/robots.txt", Html("User-agent: *\nDisallow: /private\n", "text/plain")},
      {"/private/x", Html("secret")},
      {"/public", Html("public")},
  }));
  auto fetcher = NewCurlFetcher(FastOptions());
  const std::string host = absl::StrCat("127.0.0.1:", server_.port());
  ExpectError(fetcher->Fetch(Url("/private/x")), absl::StatusCode::kPermissionDenied,
              Url("/private/x"), "robots.txt of " + host + " disallows /private/x");
  EXPECT_TRUE(fetcher->Fetch(Url("/public")).ok());
  // robots.txt was read once (cached) and the private page never asked for.
  EXPECT_EQ(Paths(server_), (std::vector<std::string>{"/robots.txt", "/public"}));
}

TEST_F(FetchTest, RobotsTxtGroupOfOurProductToken) {
  server_.SetHandler(Routes({
      {"/robots.txt", Html("User-agent: *\nDisallow: /\n\nUser-agent: VertexMonitor\n"
                           "Disallow: /no\n")},
      {"/yes", Html("ok")},
  }));
  auto fetcher = NewCurlFetcher(FastOptions());
  EXPECT_TRUE(fetcher->Fetch(Url("/yes")).ok());
  EXPECT_EQ(fetcher->Fetch(Url("/no")).status().code(), absl::StatusCode::kPermissionDenied);
}

TEST_F(FetchTest, RobotsTxtOverItsCapIsCutNotRefused) {
  std::string robots = "User-agent: *\nDisallow: /early\n";
  while (robots.size() < 600 * 1024) robots += "# a long robots.txt, read only in part\n";
  robots += "Disallow: /late\n";
  server_.SetHandler(Routes({{"/robots.txt", Html(robots, "text/plain")},
                             {"/late", Html("late")},
                             {"/early", Html("early")}}));
  FetchOptions options = FastOptions();
  options.max_bytes = 1024;  // the page cap does not apply to robots.txt
  auto fetcher = NewCurlFetcher(options);
  EXPECT_TRUE(fetcher->Fetch(Url("/late")).ok());
  EXPECT_EQ(fetcher->Fetch(Url("/early")).status().code(), absl::StatusCode::kPermissionDenied);
}

TEST_F(FetchTest, RobotsTxtNotFoundAllowsAll) {
  server_.SetHandler(Routes({{"/robots.txt", Status(404)}, {"/page", Html("ok")}}));
  absl::StatusOr<FetchResult> result = NewCurlFetcher(FastOptions())->Fetch(Url("/page"));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->body, "ok");
}

TEST_F(FetchTest, RobotsTxtServerErrorIsUnavailableAndCached) {
  server_.SetHandler(Routes({{"/robots.txt", Status(500)}, {"/page", Html("ok")}}));
  auto fetcher = NewCurlFetcher(FastOptions());
  ExpectError(fetcher->Fetch(Url("/page")), absl::StatusCode::kUnavailable, Url("/page"),
              "robots.txt unreachable (HTTP 500)");
  ExpectError(fetcher->Fetch(Url("/page")), absl::StatusCode::kUnavailable, Url("/page"),
              "robots.txt unreachable (HTTP 500)");
  EXPECT_EQ(Paths(server_), std::vector<std::string>{"/robots.txt"});  // asked once
}

TEST_F(FetchTest, RobotsTxtIsReadAgainAfterItsTtl) {
  server_.SetHandler(Routes({{"/page", Html("v1")}}));
  FetchOptions options = FastOptions();
  options.robots_ttl_ms = 0;
  auto fetcher = NewCurlFetcher(options);
  EXPECT_TRUE(fetcher->Fetch(Url("/page")).ok());
  // The site moves to a version whose robots.txt shuts us out.
  server_.SetHandler(Routes({{"/robots.txt", Html("User-agent: *\nDisallow: /\n")}}));
  EXPECT_EQ(fetcher->Fetch(Url("/page")).status().code(), absl::StatusCode::kPermissionDenied);
}

TEST_F(FetchTest, RobotsCanBeTurnedOff) {
  server_.SetHandler(
      Routes({{"/robots.txt", Html("User-agent: *\nDisallow: /\n")}, {"/page", Html("ok")}}));
  FetchOptions options = FastOptions();
  options.robots = false;
  EXPECT_TRUE(NewCurlFetcher(options)->Fetch(Url("/page")).ok());
  EXPECT_EQ(Paths(server_), std::vector<std::string>{"/page"});
}

TEST_F(FetchTest, PerHostDelayCountsFromTheEndOfTheLastRequest) {
  server_.SetHandler(Routes({{"/a", Delayed("a", 100)}, {"/b", Html("b")}}));
  FetchOptions options = FastOptions();
  options.per_host_delay_ms = 200;
  auto fetcher = NewCurlFetcher(options);
  absl::StatusOr<FetchResult> a = fetcher->Fetch(Url("/a"));
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  absl::StatusOr<FetchResult> b = fetcher->Fetch(Url("/b"));
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_GE(a->elapsed_ms, 90);  // the 100 ms answer is in it
  const std::vector<HttpRequest> r = server_.requests();
  ASSERT_EQ(Paths(server_), (std::vector<std::string>{"/robots.txt", "/a", "/b"}));
  // Lower bounds only (never flaky): robots.txt -> /a at least the gap;
  // /a -> /b at least /a's 100 ms answer plus the gap.
  EXPECT_GE(r[1].received_unix_ms - r[0].received_unix_ms, 180);
  EXPECT_GE(r[2].received_unix_ms - r[1].received_unix_ms, 280);
}

TEST_F(FetchTest, OneRequestAtATimePerHost) {
  std::atomic<int> in_flight{0}, max_in_flight{0};
  server_.SetHandler([&](const HttpRequest& request) {
    const int now = ++in_flight;
    int seen = max_in_flight.load();
    while (now > seen && !max_in_flight.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    --in_flight;
    return Html("page " + request.path);
  });
  auto fetcher = NewCurlFetcher(FastOptions());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 4; ++i) ok += fetcher->Fetch(Url(absl::StrCat("/", t, "/", i))).ok();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 12);
  EXPECT_EQ(max_in_flight.load(), 1);
  EXPECT_EQ(server_.requests().size(), 13u);  // robots.txt once
}

TEST_F(FetchTest, DifferentHostsProceedInParallel) {
  // Each server's page waits (up to 5 s) until the other's has been asked
  // for: done at once if the two requests overlap, a timeout if serialized.
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  auto handler = [&](const HttpRequest& request) {
    if (request.path == "/robots.txt") return Status(404);
    std::unique_lock<std::mutex> lock(mu);
    ++arrived;
    cv.notify_all();
    const bool both = cv.wait_for(lock, std::chrono::seconds(5), [&] { return arrived >= 2; });
    return Html(both ? "both" : "alone");
  };
  server_.SetHandler(handler);
  HttpServer other(handler);
  ASSERT_TRUE(other.Start().ok());
  auto fetcher = NewCurlFetcher(FastOptions());
  absl::StatusOr<FetchResult> a, b;
  std::thread ta([&] { a = fetcher->Fetch(Url("/x")); });
  std::thread tb([&] { b = fetcher->Fetch(other.base_url() + "/x"); });
  ta.join();
  tb.join();
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(a->body, "both");
  EXPECT_EQ(b->body, "both");
}

TEST_F(FetchTest, BadUrlsAreInvalidArgument) {
  auto fetcher = NewCurlFetcher(FastOptions());
  for (const std::string url : {"ftp://x/file", "not a url", "", "/relative/path", "mailto:a@b.c",
                                "file:///etc/passwd", "http://"}) {
    SCOPED_TRACE(url);
    absl::StatusOr<FetchResult> result = fetcher->Fetch(url);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument)
        << result.status().ToString();
    EXPECT_THAT(std::string(result.status().message()),
                HasSubstr(url.empty() ? "\"\": empty URL" : url + ": "));
  }
  EXPECT_TRUE(server_.requests().empty());
}

}  // namespace
}  // namespace vertex::fetch
