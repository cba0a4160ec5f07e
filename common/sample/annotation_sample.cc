#include "common/sample/annotation_sample.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "common/html/text.h"

namespace vertex::sample {
namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
// Fixed-point unit of the greedy's weights: 2^-30. A page's gain is at most
// the total number of items, so int64 overflows only past 2^33 items.
constexpr double kWeightScale = 1073741824.0;

// ---- XPath extraction ----

// Continues the 64-bit FNV-1a hash `state` over `bytes`.
uint64_t Fnv1a(uint64_t state, std::string_view bytes) {
  for (const unsigned char c : bytes) {
    state ^= c;
    state *= kFnvPrime;
  }
  return state;
}

bool IsSkipped(std::string_view tag) {
  return tag == "script" || tag == "style" || tag == "noscript";
}

// The step of `element` in a path string: "span" or "span.price.big".
std::string Step(const html::Node& element) {
  std::string step(element.tag());
  const std::string classes = html::NormalizeSpace(element.attribute("class"));
  if (!classes.empty()) {
    step += '.';
    for (const char c : classes) step += c == ' ' ? '.' : c;
  }
  return step;
}

// The hash of parent's path string + "/" + Step(child): FNV-1a is a
// left-to-right state machine, so this equals PathHash of the whole string.
uint64_t ChildPath(uint64_t parent_path, const html::Node& child) {
  return Fnv1a(Fnv1a(parent_path, "/"), Step(child));
}

void AddText(const html::Node& text, uint64_t path, std::vector<PathContent>* items) {
  const std::string raw = text.RawText();
  if (html::IsBlank(raw)) return;
  items->push_back({path, ContentHash(html::NormalizeSpace(raw))});
}

void Canonicalize(std::vector<PathContent>* items) {
  std::sort(items->begin(), items->end());
  items->erase(std::unique(items->begin(), items->end()), items->end());
}

// ---- Cluster statistics ----

bool IsCanonical(const PageXPaths& page) {
  return std::adjacent_find(page.items.begin(), page.items.end(),
                            [](const PathContent& a, const PathContent& b) { return !(a < b); }) ==
         page.items.end();
}

std::vector<PageXPaths> Canonicalized(const std::vector<PageXPaths>& pages) {
  std::vector<PageXPaths> copy = pages;
  for (PageXPaths& page : copy) Canonicalize(&page.items);
  return copy;
}

// Per-XPath counts of a cluster, XPaths numbered densely in first-seen order,
// and each page's XPaths as such ids. Requires canonical pages.
struct ClusterStats {
  std::vector<uint64_t> path;           // id -> XPath hash
  std::vector<uint32_t> pages;          // F(X)
  std::vector<uint64_t> content_pages;  // Sum over t of F(X,t)
  std::vector<uint64_t> contents;       // |T_X|
  // Page p's distinct XPaths, in item order: ids[begin[p] .. begin[p + 1]).
  std::vector<size_t> begin;
  std::vector<uint32_t> ids;
};

// Calls fn(first, last) for each run of items sharing one path.
template <typename Fn>
void ForEachPathRun(const PageXPaths& page, Fn fn) {
  const std::vector<PathContent>& items = page.items;
  for (size_t i = 0; i < items.size();) {
    size_t j = i + 1;
    while (j < items.size() && items[j].path == items[i].path) ++j;
    fn(i, j);
    i = j;
  }
}

// Fills everything but `contents`.
ClusterStats CountPaths(const std::vector<PageXPaths>& pages) {
  ClusterStats s;
  absl::flat_hash_map<uint64_t, uint32_t> id_of;
  s.begin.reserve(pages.size() + 1);
  s.begin.push_back(0);
  for (const PageXPaths& page : pages) {
    ForEachPathRun(page, [&](size_t first, size_t last) {
      const uint64_t path = page.items[first].path;
      const auto [it, inserted] = id_of.try_emplace(path, static_cast<uint32_t>(s.path.size()));
      if (inserted) {
        s.path.push_back(path);
        s.pages.push_back(0);
        s.content_pages.push_back(0);
      }
      ++s.pages[it->second];
      s.content_pages[it->second] += last - first;
      s.ids.push_back(it->second);
    });
    s.begin.push_back(s.ids.size());
  }
  return s;
}

// |T_X| for every XPath: gathers the contents of each XPath into one segment
// of a shared array (sized by content_pages), then counts each segment's
// distinct values.
std::vector<uint64_t> CountContents(const std::vector<PageXPaths>& pages, const ClusterStats& s) {
  std::vector<size_t> offset(s.path.size() + 1, 0);
  for (size_t id = 0; id < s.path.size(); ++id) offset[id + 1] = offset[id] + s.content_pages[id];
  std::vector<size_t> next(offset.begin(), offset.end() - 1);
  std::vector<uint64_t> all(offset.back());
  for (size_t p = 0; p < pages.size(); ++p) {
    size_t run = s.begin[p];
    ForEachPathRun(pages[p], [&](size_t first, size_t last) {
      const uint32_t id = s.ids[run++];
      for (size_t i = first; i < last; ++i) all[next[id]++] = pages[p].items[i].content;
    });
  }
  std::vector<uint64_t> distinct(s.path.size());
  absl::flat_hash_set<uint64_t> seen;  // twice as fast as sorting the segments
  for (size_t id = 0; id < s.path.size(); ++id) {
    seen.clear();
    seen.reserve(offset[id + 1] - offset[id]);
    seen.insert(all.begin() + offset[id], all.begin() + offset[id + 1]);
    distinct[id] = seen.size();
  }
  return distinct;
}

ClusterStats ComputeStats(const std::vector<PageXPaths>& pages) {
  ClusterStats s = CountPaths(pages);
  s.contents = CountContents(pages, s);
  return s;
}

// I(X) = (M |T_X| - sum_t F(X,t)) / (M |T_X|); the numerator is an exact
// integer (sum_t F(X,t) <= F(X) |T_X| <= M |T_X|), so I is 0 exactly when it
// should be.
double Informativeness(const ClusterStats& s, size_t id, size_t m) {
  const uint64_t mt = static_cast<uint64_t>(m) * s.contents[id];
  return static_cast<double>(mt - s.content_pages[id]) / static_cast<double>(mt);
}

double Weight(const ClusterStats& s, size_t id, size_t m) {
  const uint64_t mt = static_cast<uint64_t>(m) * s.contents[id];
  return static_cast<double>(s.pages[id]) * static_cast<double>(mt - s.content_pages[id]) /
         static_cast<double>(mt);
}

// ---- Greedy selection ----

// Weights in units of 1 / kWeightScale; a positive weight is at least 1 unit
// (defensive: a positive w(X) is at least min(1/2, 1/|T_X|), far above 2^-30
// unless one XPath holds billions of contents).
std::vector<int64_t> FixedPointWeights(const ClusterStats& s, size_t m) {
  std::vector<int64_t> weight(s.path.size());
  for (size_t id = 0; id < s.path.size(); ++id) {
    const double w = Weight(s, id, m);
    weight[id] = w > 0 ? std::max<int64_t>(1, std::llround(w * kWeightScale)) : 0;
  }
  return weight;
}

// The inverted index, XPath id -> pages containing it: holders[offset[id] ..
// offset[id + 1]), built by counting sort over the page lists.
struct Holders {
  std::vector<size_t> offset;
  std::vector<uint32_t> holders;
};

Holders InvertIndex(const ClusterStats& s) {
  Holders h;
  h.offset.assign(s.path.size() + 1, 0);
  for (size_t id = 0; id < s.path.size(); ++id) h.offset[id + 1] = h.offset[id] + s.pages[id];
  std::vector<size_t> next(h.offset.begin(), h.offset.end() - 1);
  h.holders.resize(s.ids.size());
  for (size_t p = 0; p + 1 < s.begin.size(); ++p) {
    for (size_t i = s.begin[p]; i < s.begin[p + 1]; ++i) {
      h.holders[next[s.ids[i]]++] = static_cast<uint32_t>(p);
    }
  }
  return h;
}

// Each page's summed weight: its gain while nothing is covered.
std::vector<int64_t> InitialGains(const ClusterStats& s, const std::vector<int64_t>& weight) {
  std::vector<int64_t> gain(s.begin.size() - 1, 0);
  for (size_t p = 0; p < gain.size(); ++p) {
    for (size_t i = s.begin[p]; i < s.begin[p + 1]; ++i) gain[p] += weight[s.ids[i]];
  }
  return gain;
}

// The page with the largest gain, the lowest index among equals.
size_t ArgMax(const std::vector<int64_t>& gain) {
  size_t best = 0;
  for (size_t p = 1; p < gain.size(); ++p) {
    if (gain[p] > gain[best]) best = p;
  }
  return best;
}

// The greedy loop proper. Gains are kept exact: covering X subtracts w(X)
// from every page holding X, so each page's gain is always the weight of its
// uncovered XPaths, and a picked page's gain drops to 0.
std::vector<SamplePick> Greedy(const ClusterStats& s, size_t m, size_t k) {
  const std::vector<int64_t> weight = FixedPointWeights(s, m);
  const Holders h = InvertIndex(s);
  std::vector<int64_t> gain = InitialGains(s, weight);
  std::vector<bool> covered(s.path.size(), false);
  std::vector<SamplePick> picks;
  while (picks.size() < k) {
    const size_t best = ArgMax(gain);
    // Zero gain ends the loop, except that when every XPath weighs zero page
    // 0 (which then holds every XPath) is still offered once.
    if (gain[best] <= 0 && (!picks.empty() || s.ids.empty())) break;
    picks.push_back({best, static_cast<double>(gain[best]) / kWeightScale});
    for (size_t i = s.begin[best]; i < s.begin[best + 1]; ++i) {
      const uint32_t id = s.ids[i];
      if (covered[id]) continue;
      covered[id] = true;
      if (weight[id] == 0) continue;
      for (size_t j = h.offset[id]; j < h.offset[id + 1]; ++j) gain[h.holders[j]] -= weight[id];
    }
  }
  return picks;
}

}  // namespace

uint64_t PathHash(std::string_view path) { return Fnv1a(kFnvOffset, path); }

uint64_t ContentHash(std::string_view normalized_text) {
  return Fnv1a(kFnvOffset, normalized_text);
}

PageXPaths ExtractXPaths(const html::Page& page) {
  PageXPaths out;
  const html::Node root = page.root();
  if (!root) return out;
  // The open elements from the root down, with their path hashes; `cursor`
  // is the next child of open.back() to visit.
  struct Open {
    html::Node element;
    uint64_t path;
  };
  std::vector<Open> open = {{root, PathHash(Step(root))}};
  html::Node cursor = root.first_child();
  while (!open.empty()) {
    if (!cursor) {  // open.back() is finished: resume after it.
      cursor = open.back().element.next_sibling();
      open.pop_back();
      continue;
    }
    if (cursor.is_element() && !IsSkipped(cursor.tag())) {
      open.push_back({cursor, ChildPath(open.back().path, cursor)});
      cursor = cursor.first_child();
      continue;
    }
    if (cursor.is_text()) AddText(cursor, open.back().path, &out.items);
    cursor = cursor.next_sibling();
  }
  Canonicalize(&out.items);
  return out;
}

std::vector<XPathWeight> ComputeXPathWeights(const std::vector<PageXPaths>& pages) {
  if (!std::all_of(pages.begin(), pages.end(), IsCanonical)) {
    return ComputeXPathWeights(Canonicalized(pages));
  }
  const ClusterStats s = ComputeStats(pages);
  std::vector<XPathWeight> out(s.path.size());
  for (size_t id = 0; id < s.path.size(); ++id) {
    out[id] = {s.path[id],
               s.pages[id],
               s.contents[id],
               s.content_pages[id],
               Informativeness(s, id, pages.size()),
               Weight(s, id, pages.size())};
  }
  std::sort(out.begin(), out.end(),
            [](const XPathWeight& a, const XPathWeight& b) { return a.path < b.path; });
  return out;
}

std::vector<SamplePick> SelectAnnotationSample(const std::vector<PageXPaths>& pages,
                                               const SampleOptions& options) {
  if (!std::all_of(pages.begin(), pages.end(), IsCanonical)) {
    return SelectAnnotationSample(Canonicalized(pages), options);
  }
  if (pages.empty() || options.max_pages == 0) return {};
  return Greedy(ComputeStats(pages), pages.size(), options.max_pages);
}

}  // namespace vertex::sample
