#include "services/http/routes.h"


namespace vertex::http {
namespace {

// One line per route: method, pattern, RPC, raw body field, summary.
constexpr Route kReadableRoutes[] = {
    {"POST", "/v1/extract", "vertex.v1.ExtractionService/Extract", "html",
     "the record of one page: JSON ExtractRequest, or the page itself (Content-Type text/html) with ?url=&site="},
    {"GET", "/v1/sites", "vertex.v1.LearningService/ListSites", "", "every site with its schema and clusters"},
    {"POST", "/v1/sites/{site}", "vertex.v1.LearningService/RegisterSite", "", "register a site (RegisterSite)"},
    {"DELETE", "/v1/sites/{site}", "vertex.v1.LearningService/DeleteSite", "", "delete a site and its rules"},
    {"POST", "/v1/sites/{site}/pages", "vertex.v1.LearningService/AddSamplePages", "",
     "add sample pages and cluster them (AddSamplePages)"},
    {"GET", "/v1/sites/{site}/tasks", "vertex.v1.LearningService/GetAnnotationTasks", "",
     "the pages to annotate next (?cluster_id=&max_pages=&include_html=)"},
    {"POST", "/v1/sites/{site}/learn", "vertex.v1.LearningService/Learn", "", "learn a cluster's rule from annotations"},
    {"GET", "/v1/sites/{site}/rules", "vertex.v1.LearningService/ListRules", "", "the site's clusters and rule versions"},
    {"GET", "/v1/sites/{site}/clusters/{cluster_id}/rules", "vertex.v1.LearningService/GetRule", "",
     "a cluster's current rule"},
    {"GET", "/v1/sites/{site}/clusters/{cluster_id}/rules/{version}", "vertex.v1.LearningService/GetRule", "",
     "one version of a cluster's rule"},
    {"POST", "/v1/sites/{site}/clusters/{cluster_id}/rollback", "vertex.v1.LearningService/RollbackRule", "",
     "make a stored version current ({\"version\": N} or ?version=N)"},
    {"POST", "/v1/sites/{site}/relearn", "vertex.v1.LearningService/Relearn", "", "relearn a site's broken clusters"},
    {"POST", "/v1/sites/{site}/monitor", "vertex.v1.MonitoringService/Monitor", "",
     "check fresh pages (or the bellwethers) against the rules"},
    {"GET", "/v1/sites/{site}/history", "vertex.v1.MonitoringService/GetHistory", "", "the site's monitor runs (?limit=)"},
    {"POST", "/v1/sites/{site}/feed", "vertex.v1.LearningService/AnnotateFromFeed", "feed_xml",
     "annotate the sample from the site's feed and learn (JSON AnnotateFromFeedRequest, or the feed's XML with ?learn=)"},
    {"GET", "/v1/sites/{site}/editor-page", "vertex.v1.LearningService/GetEditorPage", "",
     "a sample page rendered for the editor, with what the rule extracts (?url=&version=&preview_pages=)"},
};

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    const size_t slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

}  // namespace

std::span<const Route> ReadableRoutes() { return kReadableRoutes; }

std::optional<PathParams> MatchPattern(std::string_view pattern, std::string_view path) {
  const std::vector<std::string_view> want = SplitPath(pattern);
  const std::vector<std::string_view> got = SplitPath(path);
  if (want.size() != got.size()) return std::nullopt;
  PathParams params;
  for (size_t i = 0; i < want.size(); ++i) {
    const std::string_view w = want[i];
    if (w.size() > 2 && w.front() == '{' && w.back() == '}') {
      if (got[i].empty()) return std::nullopt;
      params.emplace_back(std::string(w.substr(1, w.size() - 2)), std::string(got[i]));
    } else if (w != got[i]) {
      return std::nullopt;
    }
  }
  return params;
}

}  // namespace vertex::http
