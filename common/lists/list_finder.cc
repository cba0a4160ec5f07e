#include "common/lists/list_finder.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "common/html/editor_html.h"
#include "common/html/xpath.h"
#include "common/lists/cart.h"
#include "common/lists/features.h"
#include "common/rule/url.h"

namespace vertex::lists {
namespace {

// Labels (0/1) for the elements of `features` and how many of them are
// labelled; InvalidArgument when a positive or labelled_until is not an
// element of the page.
absl::Status LabelPage(const LabelledPage& page, const PageFeatures& features, std::vector<uint8_t>* labels,
                       size_t* labelled) {
  absl::flat_hash_map<const _xmlNode*, size_t> index;
  for (size_t i = 0; i < features.size(); ++i) index.emplace(features.elements[i].raw(), i);
  labels->assign(features.size(), 0);
  for (const html::Node& p : page.positives) {
    auto it = index.find(p.raw());
    if (it == index.end()) {
      return absl::InvalidArgumentError(absl::StrCat("page ", page.name, ": a positive is not an element of the page"));
    }
    (*labels)[it->second] = 1;
  }
  *labelled = features.size();
  if (page.labelled_until) {
    auto it = index.find(page.labelled_until.raw());
    if (it == index.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("page ", page.name, ": labelled_until is not an element of the page"));
    }
    *labelled = it->second + 1;
  }
  return absl::OkStatus();
}

// Positives with no positive ancestor, in document order.
std::vector<html::Node> Outermost(const std::vector<html::Node>& positives) {
  absl::flat_hash_set<const _xmlNode*> set;
  for (const html::Node& n : positives) set.insert(n.raw());
  std::vector<html::Node> out;
  for (const html::Node& n : positives) {
    bool inner = false;
    for (html::Node a = n.parent(); a && !inner; a = a.parent()) inner = set.contains(a.raw());
    if (!inner) out.push_back(n);
  }
  return out;
}

// The href of `anchor` resolved against the page URL ("" when it has
// none); the raw value when the page URL cannot serve as a base.
bool Href(html::Node anchor, const html::Page& page, std::string* url) {
  if (anchor.tag() != "a" || !anchor.has_attribute("href")) return false;
  const std::string_view raw = anchor.attribute_view("href");
  absl::StatusOr<std::string> resolved = rule::ResolveUrl(page.url(), raw);
  *url = resolved.ok() ? *std::move(resolved) : std::string(raw);
  return true;
}

// The tag path (html/body/ul) of `element`.
std::string TagPath(html::Node element) {
  std::vector<std::string_view> tags;
  for (html::Node n = element; n; n = n.parent()) tags.push_back(n.tag());
  std::string path;
  for (size_t i = tags.size(); i-- > 0;) {
    path += "/";
    path += tags[i];
  }
  return path;
}

}  // namespace

absl::StatusOr<v1::ListModel> TrainListModel(const std::vector<LabelledPage>& pages, const TrainOptions& options) {
  if (pages.empty()) return absl::InvalidArgumentError("list model: no training page");
  std::vector<PageFeatures> features;
  features.reserve(pages.size());
  CartData data(options.features);
  size_t positives = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    if (pages[p].page == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("list model: page ", p, " (", pages[p].name, ") is null"));
    }
    features.push_back(ComputeFeatures(*pages[p].page, options.features));
    std::vector<uint8_t> labels;
    size_t labelled = 0;
    if (absl::Status s = LabelPage(pages[p], features.back(), &labels, &labelled); !s.ok()) return s;
    for (size_t i = 0; i < labelled; ++i) positives += labels[i];
    if (absl::StatusOr<int32_t> added = data.AddPage(features.back(), labels, labelled, static_cast<int32_t>(p));
        !added.ok()) {
      return added.status();
    }
  }
  if (positives == 0) return absl::InvalidArgumentError("list model: no page has a labelled positive");
  absl::StatusOr<v1::ListModel> model = TrainCart(data, {}, options);
  if (!model.ok()) return model.status();
  model->set_training_pages(static_cast<uint32_t>(pages.size()));
  // The caller (store, CLI) says where the pages came from, in its words.
  model->set_trained_from(absl::StrCat(pages.size(), " labelled pages"));
  return model;
}

absl::StatusOr<std::vector<double>> ScoreElements(const v1::ListModel& model, const html::Page& page) {
  absl::StatusOr<CartModel> cart = CartModel::Load(model);
  if (!cart.ok()) return cart.status();
  const PageFeatures features = ComputeFeatures(page, cart->feature_set());
  std::vector<double> scores(features.size());
  for (size_t i = 0; i < features.size(); ++i) scores[i] = cart->Score(features, i);
  return scores;
}

absl::StatusOr<std::vector<html::Node>> PredictPositives(const v1::ListModel& model, const html::Page& page) {
  absl::StatusOr<CartModel> cart = CartModel::Load(model);
  if (!cart.ok()) return cart.status();
  const PageFeatures features = ComputeFeatures(page, cart->feature_set());
  std::vector<html::Node> out;
  for (size_t i = 0; i < features.size(); ++i) {
    if (cart->Score(features, i) >= 0.5) out.push_back(features.elements[i]);
  }
  return out;
}

std::vector<ListRow> Decode(ListKind kind, const std::vector<html::Node>& positives, const html::Page& page) {
  std::vector<ListRow> rows;
  const std::vector<html::Node> outer = Outermost(positives);
  if (kind == ListKind::kList) {
    for (const html::Node& n : outer) rows.push_back({n.Text(), ""});
    return rows;
  }
  absl::flat_hash_set<const _xmlNode*> positive;
  for (const html::Node& n : positives) positive.insert(n.raw());
  for (const html::Node& y : outer) {
    const std::string text = y.Text();
    bool inner = false;
    for (html::Node z = y.NextInDocument(y); z; z = z.NextInDocument(y)) {
      if (!z.is_element() || !positive.contains(z.raw())) continue;
      inner = true;
      std::string url;
      if (Href(z, page, &url)) rows.push_back({text, std::move(url)});
    }
    std::string url;
    if (!inner && Href(y, page, &url)) rows.push_back({text, std::move(url)});
  }
  return rows;
}

absl::StatusOr<std::vector<v1::ListSuggestion>> SuggestLists(const v1::ListModel& model, const html::Page& page,
                                                             size_t max) {
  absl::StatusOr<CartModel> cart = CartModel::Load(model);
  if (!cart.ok()) return cart.status();
  const PageFeatures features = ComputeFeatures(page, cart->feature_set());
  std::vector<html::Node> positives;
  absl::flat_hash_map<const _xmlNode*, double> score;
  for (size_t i = 0; i < features.size(); ++i) {
    const double p = cart->Score(features, i);
    if (p < 0.5) continue;
    positives.push_back(features.elements[i]);
    score.emplace(features.elements[i].raw(), p);
  }
  // Items repeated by one structure: outermost positives whose parents
  // share a tag path (the cells of every row of a grid, the li of a ul).
  struct Group {
    std::vector<html::Node> items;
  };
  std::vector<std::string> order;
  absl::flat_hash_map<std::string, Group> groups;
  for (const html::Node& item : Outermost(positives)) {
    std::string key = TagPath(item.parent()) + "/" + std::string(item.tag());
    auto [it, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.items.push_back(item);
  }
  std::vector<std::pair<double, v1::ListSuggestion>> ranked;
  for (const std::string& key : order) {
    const Group& g = groups[key];
    if (g.items.size() < 2) continue;  // one item is not a list
    // The group's positives: the items and the positives inside them.
    std::vector<html::Node> members;
    double sum = 0;
    bool anchors = false;
    for (const html::Node& item : g.items) {
      for (html::Node n = item; n; n = n.NextInDocument(item)) {
        auto it = score.find(n.raw());
        if (it == score.end()) continue;
        members.push_back(n);
        sum += it->second;
        if (n.tag() == "a" && n.has_attribute("href")) anchors = true;
      }
    }
    v1::ListSuggestion s;
    const ListKind kind = anchors ? ListKind::kHotList : ListKind::kList;
    s.set_kind(anchors ? v1::ListSuggestion::HOTLIST : v1::ListSuggestion::LIST);
    for (const html::Node& item : g.items) s.add_node_xpaths(AbsoluteXPath(item));
    for (const ListRow& row : Decode(kind, members, page)) {
      s.add_texts(row.text);
      if (kind == ListKind::kHotList) s.add_urls(row.url);
    }
    s.set_score(sum / static_cast<double>(members.size()));
    // Best first: the expected number of true items (sum of
    // probabilities), so a long confident list beats a short one.
    ranked.push_back({sum, std::move(s)});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<v1::ListSuggestion> out;
  for (auto& r : ranked) {
    if (out.size() >= max) break;
    out.push_back(std::move(r.second));
  }
  return out;
}

bool PageScore::perfect() const { return precision >= 1.0 && recall >= 1.0; }

bool PageScore::good(double eps) const {
  return (recall >= 1 - eps && precision >= 1 - eps) || (precision >= 1 - eps && recall >= 0.5 - eps);
}

PageScore ScorePage(const std::vector<html::Node>& predicted, const std::vector<html::Node>& expected) {
  absl::flat_hash_set<const _xmlNode*> want, got;
  for (const html::Node& n : expected) want.insert(n.raw());
  for (const html::Node& n : predicted) got.insert(n.raw());
  PageScore s;
  s.predicted = got.size();
  s.expected = want.size();
  for (const _xmlNode* n : got) s.correct += want.contains(n) ? 1 : 0;
  if (s.predicted > 0) s.precision = static_cast<double>(s.correct) / static_cast<double>(s.predicted);
  if (s.expected > 0) s.recall = static_cast<double>(s.correct) / static_cast<double>(s.expected);
  return s;
}

absl::StatusOr<std::vector<html::Node>> NodesOfXPaths(const html::Page& page,
                                                      const std::vector<std::string>& xpaths) {
  std::vector<html::Node> out;
  out.reserve(xpaths.size());
  for (const std::string& x : xpaths) {
    absl::StatusOr<html::XPath> compiled = html::XPath::Compile(x);
    if (!compiled.ok()) return compiled.status();
    absl::StatusOr<std::vector<html::Node>> nodes = compiled->Select(page);
    if (!nodes.ok()) return nodes.status();
    if (nodes->size() != 1 || !(*nodes)[0].is_element()) {
      return absl::InvalidArgumentError(
          absl::StrCat("XPath ", x, " selects ", nodes->size(), " nodes on ", page.url(), ", not one element"));
    }
    out.push_back((*nodes)[0]);
  }
  return out;
}

std::string AbsoluteXPath(html::Node element) { return html::NodeXPath(element); }

}  // namespace vertex::lists
