// Fuzz target: URL-pattern inference (urlpattern/url_regex.h) from a list of
// URLs, then the matcher built from the pattern.
//
// Input: one URL per line.
//
// Checked beyond "no crash": errors are InvalidArgument (Internal is the
// documented "pattern does not match one of the URLs" bug); an inferred
// pattern compiles, RE2 fully matches every input URL with it, and a
// UrlMatcher of the pattern matches every URL as pattern 0. The lines are
// also tried as patterns of a UrlMatcher (whose errors are InvalidArgument).
#include <cstdint>
#include <string>
#include <vector>

#include "common/urlpattern/url_regex.h"
#include "re2/re2.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  std::vector<std::string> urls;
  for (std::string_view line : fuzz::SplitLines(fuzz::AsView(data, size))) urls.emplace_back(line);

  absl::StatusOr<std::string> regex = urlpattern::InferUrlRegex(urls);
  if (regex.ok()) {
    RE2 re(*regex);
    fuzz::Check(re.ok(), "the inferred pattern does not compile: " + re.error());
    absl::StatusOr<urlpattern::UrlMatcher> matcher = urlpattern::UrlMatcher::Create({*regex});
    fuzz::Check(matcher.ok(), "UrlMatcher of the inferred pattern: " + matcher.status().ToString());
    for (const std::string& url : urls) {
      fuzz::Check(RE2::FullMatch(url, re), "the pattern " + *regex + " does not match " + url);
      fuzz::Check(matcher->Match(url) == std::vector<int>{0}, "UrlMatcher does not match " + url);
    }
  } else {
    fuzz::Check(regex.status().code() == absl::StatusCode::kInvalidArgument,
                "InferUrlRegex: " + regex.status().ToString());
  }

  absl::StatusOr<urlpattern::UrlMatcher> as_patterns = urlpattern::UrlMatcher::Create(urls);
  if (as_patterns.ok()) {
    for (const std::string& url : urls) as_patterns->Match(url);
  } else {
    fuzz::Check(as_patterns.status().code() == absl::StatusCode::kInvalidArgument,
                "UrlMatcher::Create: " + as_patterns.status().ToString());
  }
  return 0;
}
