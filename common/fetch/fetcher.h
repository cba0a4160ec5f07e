// A polite HTTP(S) fetcher for the monitoring service: Fetcher is the
// interface (so callers can be tested with fakes), NewCurlFetcher the libcurl
// implementation. "Polite" means one request at a time per host, a gap of
// per_host_delay_ms between them, and robots.txt obeyed (RFC 9309).
//
// Thread-safety: Fetcher implementations must be safe to call from many
// threads; the libcurl one is. Requests to one host (scheme, host and port)
// are serialized; different hosts proceed in parallel.
#ifndef VERTEX_COMMON_FETCH_FETCHER_H_
#define VERTEX_COMMON_FETCH_FETCHER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace vertex::fetch {

struct FetchOptions {
  int connect_timeout_ms = 5000;
  int total_timeout_ms = 20000;
  // Body cap, after decompression; a larger body is ResourceExhausted.
  size_t max_bytes = 16 << 20;
  int max_redirects = 5;
  // Sent as User-Agent; its product token ("VertexMonitor") selects the
  // robots.txt group.
  std::string user_agent =
      "VertexMonitor/1.0 (+https://github.com/vertex/vertex; monitoring bellwether pages)";
  // Minimum gap between the END of one request to a host (robots.txt
  // included) and the start of the next one to it.
  int per_host_delay_ms = 1000;
  // Honour robots.txt: fetched once per host and cached for robots_ttl_ms
  // (a robots.txt that could not be read is retried after at most 60 s).
  bool robots = true;
  int64_t robots_ttl_ms = 3600000;
};

struct FetchResult {
  std::string url;           // as asked
  std::string final_url;     // after redirects
  long http_status = 0;      // NOLINT(runtime/int): libcurl's type
  std::string content_type;  // the Content-Type header, "" if none
  std::string body;          // decoded (gzip/deflate undone)
  int64_t elapsed_ms = 0;    // the page request itself (no robots.txt, no wait)
};

class Fetcher {
 public:
  virtual ~Fetcher() = default;

  // Fetches `url` (absolute http:// or https://), following redirects.
  // OK only for HTTP 2xx. Errors, whose message is "URL: reason":
  //   InvalidArgument    URL not absolute http/https, or unparsable
  //   PermissionDenied   robots.txt was read and disallows the path
  //                      ("robots.txt of HOST disallows /path")
  //   Unavailable        connection refused, DNS failure, HTTP 5xx
  //                      ("HTTP 500"), other transport errors; also a
  //                      robots.txt answering 5xx or unreachable
  //                      ("robots.txt unreachable (connection refused)")
  //   DeadlineExceeded   connect or total timeout ("timed out after N ms"),
  //                      of the page or of its robots.txt
  //   NotFound           HTTP 404 or 410
  //   FailedPrecondition other non-2xx (4xx; 3xx without a usable Location;
  //                      "too many redirects (> 5)")
  //   ResourceExhausted  body over max_bytes ("page larger than N bytes")
  virtual absl::StatusOr<FetchResult> Fetch(const std::string& url) = 0;
};

// The libcurl implementation. Redirects are followed only to http/https;
// robots.txt and the per-host gap are those of the host asked for, not of
// the hosts redirected to. HTTP proxies in the environment (http_proxy, ...)
// are used as libcurl does. Calls curl_global_init once per process.
std::unique_ptr<Fetcher> NewCurlFetcher(FetchOptions options);

}  // namespace vertex::fetch

#endif  // VERTEX_COMMON_FETCH_FETCHER_H_
