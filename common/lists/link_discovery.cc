#include "common/lists/link_discovery.h"

#include <algorithm>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/lists/list_finder.h"
#include "common/rule/url.h"
#include "common/util/status_macros.h"

namespace vertex::lists {
namespace {

// An absolute http(s) URL split; ok false for anything else.
struct UrlParts {
  bool ok = false;
  std::string scheme;     // lower-case
  std::string authority;  // host lower-cased, default port dropped
  std::string path;       // "/" when empty
  std::string query;      // with its '?', or ""
};

UrlParts Split(std::string_view url) {
  UrlParts p;
  const size_t hash = url.find('#');
  if (hash != std::string_view::npos) url = url.substr(0, hash);
  const size_t colon = url.find("://");
  if (colon == std::string_view::npos) return p;
  p.scheme = absl::AsciiStrToLower(std::string(url.substr(0, colon)));
  if (p.scheme != "http" && p.scheme != "https") return p;
  std::string_view rest = url.substr(colon + 3);
  const size_t end = std::min(rest.find('/'), rest.find('?'));
  std::string_view authority = rest.substr(0, std::min(end, rest.size()));
  rest.remove_prefix(authority.size());
  const size_t at = authority.rfind('@');
  const std::string userinfo = at == std::string_view::npos ? "" : std::string(authority.substr(0, at + 1));
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string host = absl::AsciiStrToLower(std::string(authority));
  const std::string default_port = p.scheme == "http" ? ":80" : ":443";
  if (host.size() > default_port.size() && host.ends_with(default_port)) host.resize(host.size() - default_port.size());
  if (host.empty() || host.front() == ':') return p;
  p.authority = userinfo + host;
  const size_t q = rest.find('?');
  p.path = std::string(rest.substr(0, q));
  if (p.path.empty()) p.path = "/";
  if (q != std::string_view::npos) p.query = std::string(rest.substr(q));
  p.ok = true;
  return p;
}

// The normalised form of a split URL (NormalizeUrl).
std::string Joined(const UrlParts& p) {
  return p.ok ? absl::StrCat(p.scheme, "://", p.authority, p.path, p.query) : "";
}

// The first token of an element's class attribute ("" without one).
std::string FirstClass(html::Node n) {
  const std::string_view c = n.attribute_view("class");
  const size_t begin = c.find_first_not_of(" \t\r\n\f");
  if (begin == std::string_view::npos) return "";
  const size_t end = c.find_first_of(" \t\r\n\f", begin);
  return std::string(c.substr(begin, end == std::string_view::npos ? end : end - begin));
}

// The structure of items under `parent`: its tag path from the root, each
// step with its first class token, then the items' tag
// ("/html/body/main.page-category/ul.products/li").
std::string Structure(html::Node parent, std::string_view item_tag) {
  std::vector<std::string> steps;
  for (html::Node n = parent; n; n = n.parent()) {
    const std::string c = FirstClass(n);
    steps.push_back(c.empty() ? std::string(n.tag()) : absl::StrCat(std::string(n.tag()), ".", c));
  }
  std::string path;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) absl::StrAppend(&path, "/", *it);
  return absl::StrCat(path, "/", std::string(item_tag));
}

// One (page, link) found in a hot-list, after the URL filters.
struct Occurrence {
  size_t page = 0;
  std::string url;
  std::string text;
  double score = 0;
};

struct StructureData {
  StructureReport report;
  std::vector<Occurrence> links;
  absl::flat_hash_set<size_t> pages;
};

// Whether link `url` (normalised) found on `page` passes the URL filters.
bool Keep(const UrlParts& link, const UrlParts& page, const DiscoveryOptions& options) {
  if (!link.ok) return false;
  if (!options.other_hosts && link.authority != page.authority) return false;
  if (options.drop_same_path && link.authority == page.authority && link.path == page.path) return false;
  return true;
}

// An anchor's text; for an image link, its image's alt, else its title.
std::string AnchorText(html::Node a) {
  std::string text = a.Text();
  for (html::Node n = a; text.empty() && n; n = n.NextInDocument(a)) {
    if (n.tag() == "img") text = html::NormalizeSpace(n.attribute("alt"));
  }
  return text.empty() ? html::NormalizeSpace(a.attribute("title")) : text;
}

// The anchors of the hot-list inside `item` (their hrefs resolved against
// the page URL, as Decode does, are among `urls`): (url, text), the url
// resolved against `base`, the page's base URL (rule::PageBaseUrl: a <base>
// element), as a browser would follow it.
std::vector<std::pair<std::string, std::string>> ItemLinks(html::Node item, const html::Page& page,
                                                           const std::string& base,
                                                           const absl::flat_hash_set<std::string>& urls) {
  std::vector<std::pair<std::string, std::string>> out;
  for (html::Node n = item; n; n = n.NextInDocument(item)) {
    if (n.tag() != "a" || !n.has_attribute("href")) continue;
    absl::StatusOr<std::string> decoded = rule::ResolveUrl(page.url(), n.attribute_view("href"));
    if (!decoded.ok() || !urls.contains(*decoded)) continue;
    absl::StatusOr<std::string> url = rule::ResolveUrl(base, n.attribute_view("href"));
    if (url.ok()) out.emplace_back(*url, AnchorText(n));
  }
  return out;
}

// Adds one hot-list of page `index` to `by_structure`: its items grouped by
// their parent element (SuggestLists groups by tag path, which may join a
// menu and a listing).
absl::Status AddHotList(const v1::ListSuggestion& s, const html::Page& page, size_t index,
                        const DiscoveryOptions& options, std::map<std::string, StructureData>& by_structure) {
  const std::vector<std::string> xpaths(s.node_xpaths().begin(), s.node_xpaths().end());
  absl::StatusOr<std::vector<html::Node>> items = NodesOfXPaths(page, xpaths);
  if (!items.ok()) return items.status();
  const absl::flat_hash_set<std::string> urls(s.urls().begin(), s.urls().end());
  const UrlParts here = Split(page.url());
  const std::string base = rule::PageBaseUrl(page);
  for (const html::Node& item : *items) {
    std::string structure = Structure(item.parent(), item.tag());
    StructureData& data = by_structure[structure];
    data.report.structure = std::move(structure);
    data.pages.insert(index);
    data.report.expected_items += s.score();
    for (const auto& [url, text] : ItemLinks(item, page, base, urls)) {
      const UrlParts link = Split(url);
      if (!Keep(link, here, options)) continue;
      data.links.push_back({index, Joined(link), text, s.score()});
    }
  }
  return absl::OkStatus();
}

// Adds page `index`'s hot-lists to `by_structure`.
absl::Status CollectPage(const v1::ListModel& model, const html::Page& page, size_t index,
                         const DiscoveryOptions& options, std::map<std::string, StructureData>& by_structure) {
  absl::StatusOr<std::vector<v1::ListSuggestion>> lists = SuggestLists(model, page, options.max_lists_per_page);
  absl::Status status = lists.status();
  for (size_t i = 0; status.ok() && i < lists->size(); ++i) {
    if ((*lists)[i].kind() != v1::ListSuggestion::HOTLIST) continue;
    status = AddHotList((*lists)[i], page, index, options, by_structure);
  }
  if (!status.ok()) return absl::InvalidArgumentError(absl::StrCat(page.url(), ": ", status.message()));
  return absl::OkStatus();
}

// Counts the structure's repeated link occurrences and gives its verdict
// (all but "outranked").
void Judge(size_t pages_with_hotlists, const DiscoveryOptions& options, StructureData& data) {
  StructureReport& r = data.report;
  r.pages = data.pages.size();
  absl::flat_hash_map<std::string, absl::flat_hash_set<size_t>> pages_of;
  for (const Occurrence& o : data.links) pages_of[o.url].insert(o.page);
  r.link_occurrences = 0;
  for (const auto& [url, pages] : pages_of) {
    r.link_occurrences += pages.size();
    const bool repeats = pages.size() >= 2 && pages.size() > options.repeat_page_fraction * r.pages;
    if (repeats) r.repeated += pages.size();
  }
  const bool cross_page = pages_with_hotlists >= options.min_pages_for_cross_page;
  if (r.link_occurrences == 0) {
    r.verdict = "no links";
  } else if (cross_page && r.pages < options.min_page_fraction * pages_with_hotlists) {
    r.verdict = "rare";
  } else if (cross_page && r.pages >= 2 && r.repeated > options.max_repeated_link_fraction * r.link_occurrences) {
    r.verdict = "navigation";
  } else {
    r.verdict = "items";
  }
}

// The links of the kept structures, distinct, in page order.
std::vector<DiscoveredLink> Merge(const std::vector<const StructureData*>& kept,
                                  const std::vector<std::string>& page_urls, const DiscoveryOptions& options) {
  std::vector<std::pair<size_t, const Occurrence*>> all;  // (structure, occurrence)
  for (size_t k = 0; k < kept.size(); ++k) {
    for (const Occurrence& o : kept[k]->links) all.push_back({k, &o});
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.second->page < b.second->page; });
  absl::flat_hash_set<std::string> skip(options.known.begin(), options.known.end());
  for (const std::string& url : page_urls) skip.insert(NormalizeUrl(url));
  std::vector<DiscoveredLink> out;
  absl::flat_hash_map<std::string, size_t> index;
  for (const auto& [k, o] : all) {
    if (skip.contains(o->url)) continue;
    auto [it, inserted] = index.try_emplace(o->url, out.size());
    if (inserted) {
      out.push_back({o->url, o->text, page_urls[o->page], o->score, kept[k]->report.structure});
    } else if (out[it->second].text.empty()) {
      out[it->second].text = o->text;  // the image link came first: take the name
    }
  }
  return out;
}

// Judges every structure and keeps the best content ones; returns them,
// and every structure best first in `ranked`.
std::vector<const StructureData*> Rank(const DiscoveryOptions& options, std::map<std::string, StructureData>& by_structure,
                                       std::vector<StructureData*>& ranked) {
  absl::flat_hash_set<size_t> with_hotlists;
  for (const auto& [key, data] : by_structure) with_hotlists.insert(data.pages.begin(), data.pages.end());
  for (auto& [key, data] : by_structure) {
    Judge(with_hotlists.size(), options, data);
    ranked.push_back(&data);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const StructureData* a, const StructureData* b) {
    return a->report.expected_items > b->report.expected_items;
  });
  std::vector<const StructureData*> kept;
  for (StructureData* data : ranked) {
    if (data->report.verdict != "items") continue;
    if (options.max_item_structures > 0 && kept.size() >= options.max_item_structures) {
      data->report.verdict = "outranked";
      continue;
    }
    kept.push_back(data);
  }
  return kept;
}

}  // namespace

struct LinkDiscoverer::State {
  v1::ListModel model;
  DiscoveryOptions options;
  std::map<std::string, StructureData> by_structure;
  std::vector<std::string> page_urls;
};

LinkDiscoverer::LinkDiscoverer(v1::ListModel model, DiscoveryOptions options) : state_(std::make_unique<State>()) {
  state_->model = std::move(model);
  state_->options = std::move(options);
}

LinkDiscoverer::~LinkDiscoverer() = default;

absl::Status LinkDiscoverer::AddPage(const html::Page& page) {
  std::map<std::string, StructureData> found;
  const size_t index = state_->page_urls.size();
  VERTEX_RETURN_IF_ERROR(CollectPage(state_->model, page, index, state_->options, found));
  state_->page_urls.push_back(page.url());
  for (auto& [key, data] : found) {
    StructureData& into = state_->by_structure[key];
    into.report.structure = key;
    into.report.expected_items += data.report.expected_items;
    into.pages.insert(index);
    for (Occurrence& o : data.links) into.links.push_back(std::move(o));
  }
  return absl::OkStatus();
}

size_t LinkDiscoverer::pages() const { return state_->page_urls.size(); }

Discovery LinkDiscoverer::Finish() const {
  std::map<std::string, StructureData> by_structure = state_->by_structure;
  std::vector<StructureData*> ranked;
  const std::vector<const StructureData*> kept = Rank(state_->options, by_structure, ranked);
  Discovery discovery;
  discovery.links = Merge(kept, state_->page_urls, state_->options);
  for (const StructureData* data : ranked) discovery.structures.push_back(data->report);
  return discovery;
}

absl::StatusOr<Discovery> DiscoverLinks(const v1::ListModel& model, const std::vector<const html::Page*>& pages,
                                        const DiscoveryOptions& options) {
  LinkDiscoverer discoverer(model, options);
  for (size_t i = 0; i < pages.size(); ++i) {
    if (pages[i] == nullptr) return absl::InvalidArgumentError(absl::StrCat("page ", i, " is null"));
    VERTEX_RETURN_IF_ERROR(discoverer.AddPage(*pages[i]));
  }
  return discoverer.Finish();
}

std::string NormalizeUrl(std::string_view url) { return Joined(Split(url)); }

std::string UrlHost(std::string_view url) {
  const UrlParts p = Split(url);
  if (!p.ok) return "";
  const size_t at = p.authority.rfind('@');
  return at == std::string::npos ? p.authority : p.authority.substr(at + 1);
}

std::string UrlPath(std::string_view url) {
  const UrlParts p = Split(url);
  return p.ok ? p.path : "";
}

}  // namespace vertex::lists
