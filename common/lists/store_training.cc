#include "common/lists/store_training.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/compiled_rule.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "common/site/site_builder.h"
#include "common/util/status_macros.h"

namespace vertex::lists {
namespace {

// Why things were skipped: a count and the first example of each reason.
class SkipLog {
 public:
  void Add(const std::string& reason, const std::string& example) {
    auto [it, fresh] = entries_.try_emplace(reason, 0, example);
    ++it->second.first;
  }
  void AppendTo(std::vector<std::string>* report) const {
    for (const auto& [reason, entry] : entries_) {
      report->push_back(absl::StrCat("skipped ", entry.first, " x ", reason, " (first: ", entry.second, ")"));
    }
  }

 private:
  std::map<std::string, std::pair<size_t, std::string>> entries_;
};

bool IsListAttribute(const v1::AttributeRule& rule, const schema::CompiledSchema& schema) {
  if (rule.multi_valued()) return true;
  const int i = schema.Find(rule.attribute());
  return i >= 0 && schema.attribute(static_cast<size_t>(i)).multi_valued();
}

bool HasList(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  if (rule.has_record()) return true;
  return std::any_of(rule.attributes().begin(), rule.attributes().end(),
                     [&](const v1::AttributeRule& a) { return IsListAttribute(a, schema); });
}

html::Node ElementOf(html::Node node) { return node.is_element() ? node : node.parent(); }

// Whether `element` holds one of `values`: its text contains it, or its
// value attribute is (the end of) it (URLs come back resolved).
bool HoldsValue(html::Node element, const v1::AttributeRule& rule, const std::vector<std::string>& values) {
  const std::string text = element.Text();
  const std::string attribute = rule.value_attribute().empty() ? "" : element.attribute(rule.value_attribute());
  for (const std::string& v : values) {
    if (v.empty()) continue;
    if (text.find(v) != std::string::npos) return true;
    if (!attribute.empty() && v.size() >= attribute.size() &&
        v.compare(v.size() - attribute.size(), attribute.size(), attribute) == 0) {
      return true;
    }
  }
  return false;
}

// The anchors with an href at or inside `element`.
std::vector<html::Node> AnchorsIn(html::Node element) {
  std::vector<html::Node> out;
  for (html::Node n = element; n; n = n.NextInDocument(element)) {
    if (n.is_element() && n.tag() == "a" && !n.attribute("href").empty()) out.push_back(n);
  }
  return out;
}

// The distinct elements holding the attribute's values, plus their anchors
// when every one has some (a hot-list). Fewer than 2 items: empty.
absl::StatusOr<std::vector<html::Node>> ListNodes(const html::Page& page, const v1::AttributeRule& rule,
                                                  const std::vector<std::string>& values) {
  VERTEX_ASSIGN_OR_RETURN(html::XPath xpath, html::XPath::Compile(rule.xpath()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> selected, xpath.Select(page));
  std::vector<html::Node> items;
  for (html::Node n : selected) {
    html::Node e = ElementOf(n);
    if (!e || std::find(items.begin(), items.end(), e) != items.end()) continue;
    if (HoldsValue(e, rule, values)) items.push_back(e);
  }
  if (items.size() < 2) return std::vector<html::Node>{};
  std::vector<html::Node> anchors;
  for (html::Node item : items) {
    std::vector<html::Node> a = AnchorsIn(item);
    if (a.empty()) return items;  // a plain list
    anchors.insert(anchors.end(), a.begin(), a.end());
  }
  items.insert(items.end(), anchors.begin(), anchors.end());
  return items;
}

// The links of the records (a hot-list): per record start, the first
// element with an href that an attribute read from href selects (relative
// to the start). Empty unless at least 2 records have one.
absl::StatusOr<std::vector<html::Node>> RecordLinks(const html::Page& page, const v1::Rule& rule,
                                                    const std::vector<html::Node>& starts) {
  std::vector<html::Node> links;
  for (const v1::AttributeRule& attribute : rule.record().attributes()) {
    if (attribute.value_attribute() != "href") continue;
    VERTEX_ASSIGN_OR_RETURN(html::XPath xpath, html::XPath::Compile(attribute.xpath()));
    for (html::Node start : starts) {
      VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> selected, xpath.Select(page, start));
      for (html::Node n : selected) {
        if (!n.is_element() || n.attribute("href").empty()) continue;
        if (std::find(links.begin(), links.end(), n) == links.end()) links.push_back(n);
        break;
      }
    }
  }
  if (links.size() < 2) links.clear();
  return links;
}

// The record starts (elements) of a record-level rule.
absl::StatusOr<std::vector<html::Node>> RecordStarts(const html::Page& page, const v1::Rule& rule) {
  VERTEX_ASSIGN_OR_RETURN(html::XPath xpath, html::XPath::Compile(rule.record().record_xpath()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> selected, xpath.Select(page));
  std::vector<html::Node> starts;
  for (html::Node n : selected) {
    if (n.is_element() && starts.size() < extract::kMaxListRecords) starts.push_back(n);
  }
  if (starts.size() < 2) starts.clear();
  return starts;
}

using Skip = std::function<void(const std::string& reason, const std::string& example)>;

// The positives of `rule` on `page`: the union of its lists' (see the
// header); empty when no list has 2 items. `skip` hears of lists skipped.
absl::StatusOr<std::vector<html::Node>> Positives(const html::Page& page, const v1::Rule& rule,
                                                  const extract::CompiledRule& compiled, const std::string& name,
                                                  const Skip& skip) {
  if (rule.has_record()) {
    VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> starts, RecordStarts(page, rule));
    if (starts.empty()) skip("record rules selecting < 2 records on a page", name);
    VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> links, RecordLinks(page, rule, starts));
    starts.insert(starts.end(), links.begin(), links.end());
    return starts;
  }
  const schema::CompiledSchema& schema = compiled.schema();
  VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results, compiled.Apply(page));
  std::vector<html::Node> out;
  for (const v1::AttributeRule& attribute : rule.attributes()) {
    const int i = schema.Find(attribute.attribute());
    if (i < 0 || !IsListAttribute(attribute, schema)) continue;
    const std::vector<std::string>& values = results[static_cast<size_t>(i)].values;
    VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> nodes, ListNodes(page, attribute, values));
    if (nodes.empty()) {
      skip("lists whose values sit in < 2 elements on a page",
           absl::StrCat(name, " ", attribute.attribute(), " (", values.size(), " values)"));
    }
    for (html::Node n : nodes) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
  }
  return out;
}

// Collects the labelled pages of one site into `set`.
class Collector {
 public:
  Collector(const store::RuleStore& store, const StoreTrainingOptions& options, StoreTrainingSet* set)
      : store_(store), parse_(options.parse), set_(set) {}

  absl::Status AddSite(const std::string& site) {
    VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord record, store_.GetSite(site));
    parser_ = std::make_unique<html::Parser>(site::SiteParseOptions(parse_, record));
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(record.schema());
    if (!schema.ok()) {
      log_.Add("sites whose schema does not compile", site + ": " + std::string(schema.status().message()));
      return absl::OkStatus();
    }
    VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> clusters, store_.ClustersOfSite(site));
    for (const v1::ClusterRecord& cluster : clusters) {
      if (cluster.current_version() <= 0) continue;
      VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, store_.GetRule(site, cluster.cluster_id(), store::kCurrentVersion));
      if (!HasList(rule, *schema)) continue;
      VERTEX_RETURN_IF_ERROR(AddRule(rule, *schema));
    }
    return absl::OkStatus();
  }

  // The summary, then the skips.
  void Finish() {
    size_t positives = 0;
    for (const LabelledPage& p : set_->pages) positives += p.positives.size();
    set_->sites = static_cast<uint32_t>(sites_.size());
    set_->report.insert(set_->report.begin(),
                        absl::StrCat("used ", set_->rules, " of ", set_->candidate_rules, " rules with a list (",
                                     set_->sites, " sites): ", set_->pages.size(), " of ", snapshots_,
                                     " snapshot pages, ", positives, " positive elements"));
    log_.AppendTo(&set_->report);
  }

 private:
  absl::Status AddRule(const v1::Rule& rule, const schema::CompiledSchema& schema) {
    ++set_->candidate_rules;
    const std::string where = rule.site() + "/" + rule.cluster_id();
    absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(rule, schema);
    if (!compiled.ok()) {
      log_.Add("rules that do not compile", where + ": " + std::string(compiled.status().message()));
      return absl::OkStatus();
    }
    VERTEX_ASSIGN_OR_RETURN(std::vector<v1::PageSnapshot> snapshots,
                            store_.Snapshots(rule.site(), rule.cluster_id(), store::kCurrentVersion));
    bool used = false;
    for (const v1::PageSnapshot& snapshot : snapshots) used |= AddSnapshot(rule, *compiled, snapshot, where);
    if (used) {
      ++set_->rules;
      sites_.insert(rule.site());
    }
    return absl::OkStatus();
  }

  bool AddSnapshot(const v1::Rule& rule, const extract::CompiledRule& compiled, const v1::PageSnapshot& snapshot,
                   const std::string& where) {
    ++snapshots_;
    const std::string name = where + " " + snapshot.url();
    if (!seen_.insert(std::hash<std::string>{}(snapshot.html())).second) {
      log_.Add("duplicated snapshot pages", name);
      return false;
    }
    absl::StatusOr<html::Page> page = parser_->Parse(snapshot.html(), snapshot.url());
    if (!page.ok()) {
      log_.Add("snapshot pages that do not parse", name + ": " + std::string(page.status().message()));
      return false;
    }
    const Skip skip = [this](const std::string& reason, const std::string& example) { log_.Add(reason, example); };
    absl::StatusOr<std::vector<html::Node>> positives = Positives(*page, rule, compiled, name, skip);
    if (!positives.ok()) {
      log_.Add("snapshot pages the rule fails on", name + ": " + std::string(positives.status().message()));
      return false;
    }
    if (positives->empty()) {
      log_.Add("snapshot pages with no list of >= 2 items", name);
      return false;
    }
    set_->parsed.push_back(*std::move(page));
    LabelledPage labelled;
    labelled.page = &set_->parsed.back();
    labelled.positives = *std::move(positives);
    labelled.name = name;
    set_->pages.push_back(std::move(labelled));
    return true;
  }

  const store::RuleStore& store_;
  const html::ParseOptions parse_;
  std::unique_ptr<html::Parser> parser_;  // with the builder of the site being added
  StoreTrainingSet* set_;
  SkipLog log_;
  absl::flat_hash_set<size_t> seen_;
  std::set<std::string> sites_;
  size_t snapshots_ = 0;
};

}  // namespace

absl::StatusOr<StoreTrainingSet> CollectStoreTraining(const store::RuleStore& store,
                                                      const StoreTrainingOptions& options) {
  std::vector<std::string> sites = options.sites;
  if (sites.empty()) {
    VERTEX_ASSIGN_OR_RETURN(sites, store.ListSites());
  }
  StoreTrainingSet set;
  Collector collector(store, options, &set);
  for (const std::string& site : sites) VERTEX_RETURN_IF_ERROR(collector.AddSite(site));
  collector.Finish();
  return set;
}

absl::StatusOr<StoreTrainingResult> TrainListModelFromStore(store::RuleStore* store,
                                                            const StoreTrainingOptions& options,
                                                            int64_t now_unix_ms) {
  VERTEX_ASSIGN_OR_RETURN(StoreTrainingSet set, CollectStoreTraining(*store, options));
  if (set.pages.empty()) {
    return absl::FailedPreconditionError(
        "the store holds no (rule, snapshot page) pair with a list of at least 2 items to train the list "
        "finder on (" +
        absl::StrJoin(set.report, "; ") +
        "); learn rules for a site with a multi-valued attribute or a record-level schema first");
  }
  StoreTrainingResult result;
  VERTEX_ASSIGN_OR_RETURN(result.model, TrainListModel(set.pages, options.train));
  result.model.set_trained_from(absl::StrCat("store: ", set.rules, " rules of ", set.sites, " sites, ",
                                             set.pages.size(), " snapshot pages"));
  result.model.set_created_unix_ms(now_unix_ms);
  VERTEX_ASSIGN_OR_RETURN(int64_t version, store->PutListModel(result.model));
  result.model.set_version(version);
  result.rules = set.rules;
  result.pages = static_cast<uint32_t>(set.pages.size());
  result.report = std::move(set.report);
  return result;
}

absl::StatusOr<StoreTrainingResult> TrainListModelFromProblems(store::RuleStore* store, const std::string& dir,
                                                               const TrainOptions& options, int64_t now_unix_ms) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<ListProblem> problems, LoadProblems(dir));
  std::deque<html::Page> parsed;
  std::vector<LabelledPage> pages;
  size_t out_of_class = 0;
  html::Parser parser;
  for (const ListProblem& problem : problems) {
    if (problem.out_of_class) {
      ++out_of_class;
      continue;
    }
    absl::StatusOr<html::Page> page = parser.Parse(problem.html, problem.url);
    if (!page.ok()) {
      return absl::InvalidArgumentError("problem " + problem.id + " in " + dir +
                                        ": the page does not parse: " + std::string(page.status().message()));
    }
    parsed.push_back(*std::move(page));
    absl::StatusOr<std::vector<html::Node>> positives = NodesOfXPaths(parsed.back(), problem.positive_xpaths);
    if (!positives.ok()) {
      return absl::InvalidArgumentError("problem " + problem.id + " in " + dir + ": " +
                                        std::string(positives.status().message()));
    }
    pages.push_back({&parsed.back(), *std::move(positives), html::Node(), problem.id});
  }
  if (pages.empty()) {
    return absl::FailedPreconditionError(absl::StrCat("the problem set ", dir, " holds no in-class problem (",
                                                      problems.size(), " problems, ", out_of_class,
                                                      " out of class)"));
  }
  StoreTrainingResult result;
  VERTEX_ASSIGN_OR_RETURN(result.model, TrainListModel(pages, options));
  result.model.set_trained_from(absl::StrCat("problems: ", dir, ", ", pages.size(), " pages"));
  result.model.set_created_unix_ms(now_unix_ms);
  VERTEX_ASSIGN_OR_RETURN(int64_t version, store->PutListModel(result.model));
  result.model.set_version(version);
  result.pages = static_cast<uint32_t>(pages.size());
  result.report.push_back(absl::StrCat("used ", pages.size(), " of ", problems.size(), " problems of ", dir, " (",
                                       out_of_class, " out of class left out)"));
  return result;
}

}  // namespace vertex::lists
