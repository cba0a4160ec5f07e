#include "common/fetch/fetcher.h"

#include <curl/curl.h>
#include <errno.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/fetch/robots.h"

namespace vertex::fetch {
namespace {

using Clock = std::chrono::steady_clock;

// A robots.txt that could not be read is asked again after this long at most.
constexpr int64_t kRobotsFailureTtlMs = 60000;

// ---- URLs ------------------------------------------------------------------

struct ParsedUrl {
  std::string host_key;        // "scheme://host:port", lower-case host
  std::string host;            // "host" or "host:port" as written, for messages
  std::string path_and_query;  // "/a/b?x=1"
  std::string robots_url;      // "scheme://host[:port]/robots.txt"
};

using CurlUrl = std::unique_ptr<CURLU, decltype(&curl_url_cleanup)>;

// One part of a parsed URL, "" when absent.
std::string UrlPart(CURLU* url, CURLUPart part, unsigned int flags = 0) {
  char* value = nullptr;
  if (curl_url_get(url, part, &value, flags) != CURLUE_OK || value == nullptr) return "";
  std::string out(value);
  curl_free(value);
  return out;
}

absl::StatusOr<ParsedUrl> ParseUrl(const std::string& url) {
  if (url.empty()) return absl::InvalidArgumentError("\"\": empty URL");
  CurlUrl handle(curl_url(), curl_url_cleanup);
  if (handle == nullptr) return absl::ResourceExhaustedError(url + ": out of memory");
  const CURLUcode rc = curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0);
  if (rc != CURLUE_OK) {
    return absl::InvalidArgumentError(
        absl::StrCat(url, ": not an absolute URL (", curl_url_strerror(rc), ")"));
  }
  const std::string scheme = absl::AsciiStrToLower(UrlPart(handle.get(), CURLUPART_SCHEME));
  if (scheme != "http" && scheme != "https") {
    return absl::InvalidArgumentError(url + ": not an http or https URL");
  }
  ParsedUrl out;
  const std::string host = UrlPart(handle.get(), CURLUPART_HOST);
  const std::string port = UrlPart(handle.get(), CURLUPART_PORT);
  out.host = port.empty() ? host : absl::StrCat(host, ":", port);
  out.host_key = absl::StrCat(scheme, "://", absl::AsciiStrToLower(host), ":",
                              UrlPart(handle.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT));
  out.path_and_query = UrlPart(handle.get(), CURLUPART_PATH);
  if (out.path_and_query.empty()) out.path_and_query = "/";
  const std::string query = UrlPart(handle.get(), CURLUPART_QUERY);
  if (!query.empty()) absl::StrAppend(&out.path_and_query, "?", query);
  out.robots_url = absl::StrCat(scheme, "://", out.host, "/robots.txt");
  return out;
}

// ---- One transfer ----------------------------------------------------------

// What one libcurl transfer gave.
struct Transfer {
  CURLcode code = CURLE_OK;
  long http_status = 0;  // NOLINT(runtime/int)
  std::string final_url;
  std::string content_type;
  std::string body;
  bool over_cap = false;   // the body passed the cap (and was cut there)
  bool connected = false;  // a connection was made
  long os_errno = 0;       // NOLINT(runtime/int)
  std::string error;       // libcurl's message, "" if none
  int64_t elapsed_ms = 0;  // of curl_easy_perform
};

struct Sink {
  std::string* body;
  size_t cap;
  bool over = false;
};

// Appends up to the cap; past it, keeps the prefix and aborts the transfer
// (returning less than given makes libcurl fail with CURLE_WRITE_ERROR).
size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  Sink* sink = static_cast<Sink*>(user);
  const size_t length = size * count;
  if (sink->body->size() + length > sink->cap) {
    sink->body->append(data, sink->cap - sink->body->size());
    sink->over = true;
    return 0;
  }
  sink->body->append(data, length);
  return length;
}

void SetOptions(CURL* curl, const FetchOptions& options) {
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(options.max_redirects));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.total_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, options.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &WriteBody);
}

void ReadInfo(CURL* curl, Transfer& t) {
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &t.http_status);
  char* text = nullptr;
  if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &text) == CURLE_OK && text) {
    t.final_url = text;
  }
  text = nullptr;
  if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &text) == CURLE_OK && text) {
    t.content_type = text;
  }
  curl_off_t connect_us = 0;
  curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connect_us);
  t.connected = connect_us > 0 || t.http_status != 0;
  curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &t.os_errno);
}

// GETs `url` with `options`, keeping at most `cap` bytes of the body.
Transfer Perform(const std::string& url, const FetchOptions& options, size_t cap) {
  Transfer t;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (curl == nullptr) {
    t.code = CURLE_FAILED_INIT;
    return t;
  }
  char error[CURL_ERROR_SIZE] = {0};
  Sink sink{&t.body, cap};
  SetOptions(curl.get(), options);
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
  const Clock::time_point start = Clock::now();
  t.code = curl_easy_perform(curl.get());
  t.elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  t.over_cap = sink.over;
  t.error = error;
  ReadInfo(curl.get(), t);
  return t;
}

// ---- Outcomes --------------------------------------------------------------

struct Failure {
  absl::StatusCode code;
  std::string reason;
};

// Why a transfer with code != CURLE_OK failed. A body over the cap is not
// handled here (the caller decides what it means).
Failure TransportFailure(const Transfer& t, const FetchOptions& options) {
  switch (t.code) {
    case CURLE_OPERATION_TIMEDOUT:
      if (!t.connected && options.connect_timeout_ms < options.total_timeout_ms) {
        return {absl::StatusCode::kDeadlineExceeded,
                absl::StrCat("connect timed out after ", options.connect_timeout_ms, " ms")};
      }
      return {absl::StatusCode::kDeadlineExceeded,
              absl::StrCat("timed out after ", options.total_timeout_ms, " ms")};
    case CURLE_COULDNT_CONNECT:
      if (t.os_errno == ECONNREFUSED) return {absl::StatusCode::kUnavailable, "connection refused"};
      return {absl::StatusCode::kUnavailable,
              t.os_errno != 0 ? absl::StrCat("cannot connect (", strerror(t.os_errno), ")")
                              : absl::StrCat("cannot connect (", t.error, ")")};
    case CURLE_COULDNT_RESOLVE_HOST:
      return {absl::StatusCode::kUnavailable, "cannot resolve the host name"};
    case CURLE_TOO_MANY_REDIRECTS:
      return {absl::StatusCode::kFailedPrecondition,
              absl::StrCat("too many redirects (> ", options.max_redirects, ")")};
    case CURLE_UNSUPPORTED_PROTOCOL:
      return {absl::StatusCode::kFailedPrecondition, "redirected to a URL that is not http(s)"};
    case CURLE_URL_MALFORMAT:
      return {absl::StatusCode::kFailedPrecondition, absl::StrCat("bad redirect (", t.error, ")")};
    default:
      return {absl::StatusCode::kUnavailable,
              t.error.empty() ? std::string(curl_easy_strerror(t.code)) : t.error};
  }
}

// Why an HTTP status is not a success; nullopt for 2xx.
std::optional<Failure> HttpFailure(long status) {  // NOLINT(runtime/int)
  if (status >= 200 && status < 300) return std::nullopt;
  const std::string reason = absl::StrCat("HTTP ", status);
  if (status == 404 || status == 410) return Failure{absl::StatusCode::kNotFound, reason};
  if (status >= 500) return Failure{absl::StatusCode::kUnavailable, reason};
  return Failure{absl::StatusCode::kFailedPrecondition, reason};
}

absl::Status ErrorFor(const std::string& url, const Failure& f, const char* prefix = "",
                      const char* suffix = "") {
  return absl::Status(f.code, absl::StrCat(url, ": ", prefix, f.reason, suffix));
}

// ---- The fetcher -----------------------------------------------------------

// What is known of one host. `mu` is held for the whole of a request to the
// host (robots.txt included), which serializes them.
struct HostState {
  std::mutex mu;
  std::optional<Clock::time_point> last_end;  // of the last request to the host
  std::optional<Clock::time_point> robots_expiry;
  Robots robots;
  std::optional<Failure> robots_failure;  // why robots.txt could not be read
};

class CurlFetcher final : public Fetcher {
 public:
  explicit CurlFetcher(FetchOptions options) : options_(std::move(options)) {}

  absl::StatusOr<FetchResult> Fetch(const std::string& url) override;

 private:
  std::shared_ptr<HostState> HostFor(const std::string& key);
  // Waits for the host's gap, performs, records the end. Needs host.mu.
  Transfer PoliteTransfer(HostState& host, const std::string& url, size_t cap);
  // Reads robots.txt unless a cached answer is still fresh. Needs host.mu.
  void RefreshRobots(HostState& host, const ParsedUrl& parsed);
  // The robots answer of one transfer of robots.txt (RFC 9309 2.3.1).
  void ApplyRobots(HostState& host, const Transfer& t);

  const FetchOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<HostState>> hosts_;  // guarded by mu_
};

std::shared_ptr<HostState> CurlFetcher::HostFor(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<HostState>& host = hosts_[key];
  if (host == nullptr) host = std::make_shared<HostState>();
  return host;
}

Transfer CurlFetcher::PoliteTransfer(HostState& host, const std::string& url, size_t cap) {
  if (host.last_end.has_value()) {
    std::this_thread::sleep_until(*host.last_end +
                                  std::chrono::milliseconds(options_.per_host_delay_ms));
  }
  Transfer t = Perform(url, options_, cap);
  host.last_end = Clock::now();
  return t;
}

void CurlFetcher::ApplyRobots(HostState& host, const Transfer& t) {
  host.robots = Robots::AllowAll();
  host.robots_failure.reset();
  const bool transferred = t.code == CURLE_OK || (t.code == CURLE_WRITE_ERROR && t.over_cap);
  if (!transferred) {
    Failure f = TransportFailure(t, options_);
    // Too many redirects and the like: "unavailable", which allows all.
    if (f.code != absl::StatusCode::kUnavailable && f.code != absl::StatusCode::kDeadlineExceeded) {
      return;
    }
    host.robots = Robots::DisallowAll();
    host.robots_failure = std::move(f);
  } else if (t.http_status >= 500) {
    host.robots = Robots::DisallowAll();
    host.robots_failure =
        Failure{absl::StatusCode::kUnavailable, absl::StrCat("HTTP ", t.http_status)};
  } else if (t.http_status >= 200 && t.http_status < 300) {
    host.robots = Robots::Parse(t.body, ProductToken(options_.user_agent));
  }
}

void CurlFetcher::RefreshRobots(HostState& host, const ParsedUrl& parsed) {
  const Clock::time_point now = Clock::now();
  if (host.robots_expiry.has_value() && now < *host.robots_expiry) return;
  const Transfer t = PoliteTransfer(host, parsed.robots_url, Robots::kMaxBytes);
  ApplyRobots(host, t);
  const int64_t ttl = host.robots_failure.has_value()
                          ? std::min(kRobotsFailureTtlMs, options_.robots_ttl_ms)
                          : options_.robots_ttl_ms;
  host.robots_expiry = Clock::now() + std::chrono::milliseconds(ttl);
}

absl::StatusOr<FetchResult> CurlFetcher::Fetch(const std::string& url) {
  absl::StatusOr<ParsedUrl> parsed = ParseUrl(url);
  if (!parsed.ok()) return parsed.status();
  std::shared_ptr<HostState> host = HostFor(parsed->host_key);
  std::lock_guard<std::mutex> host_lock(host->mu);

  if (options_.robots) {
    RefreshRobots(*host, *parsed);
    if (host->robots_failure.has_value()) {
      return ErrorFor(url, *host->robots_failure, "robots.txt unreachable (", ")");
    }
    if (!host->robots.Allowed(parsed->path_and_query)) {
      return absl::PermissionDeniedError(absl::StrCat(url, ": robots.txt of ", parsed->host,
                                                      " disallows ", parsed->path_and_query));
    }
  }

  Transfer t = PoliteTransfer(*host, url, options_.max_bytes);
  if (t.code == CURLE_WRITE_ERROR && t.over_cap) {
    return absl::ResourceExhaustedError(
        absl::StrCat(url, ": page larger than ", options_.max_bytes, " bytes"));
  }
  if (t.code != CURLE_OK) return ErrorFor(url, TransportFailure(t, options_));
  if (std::optional<Failure> f = HttpFailure(t.http_status)) return ErrorFor(url, *f);

  FetchResult result;
  result.url = url;
  result.final_url = t.final_url.empty() ? url : std::move(t.final_url);
  result.http_status = t.http_status;
  result.content_type = std::move(t.content_type);
  result.body = std::move(t.body);
  result.elapsed_ms = t.elapsed_ms;
  return result;
}

}  // namespace

std::unique_ptr<Fetcher> NewCurlFetcher(FetchOptions options) {
  static std::once_flag curl_initialized;
  std::call_once(curl_initialized, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  return std::make_unique<CurlFetcher>(std::move(options));
}

}  // namespace vertex::fetch
