// LearningEngine::AnnotateFromFeed: the site's sample pages annotated from
// its feed (WTM's matcher, feed/feed_matcher.h) and, with `learn`, each
// touched cluster learnt from some of them into a candidate that becomes
// current when it reproduces the feed on the others (learning_engine.h,
// feed_check.h; the contract is the RPC's comment in learning.proto).
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/feed/feed_matcher.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/feed_check.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/sample_view.h"

namespace vertex::workflow {
namespace {

constexpr const char* kFeedFields[] = {"title", "link", "date", "author", "body", "categories"};
// Sample pages parsed and matched at a time: each batch's parsed pages are
// let go before the next, so a large sample is never held parsed whole.
constexpr size_t kMatchBatchPages = 200;

bool IsFeedField(const std::string& field) {
  return std::any_of(std::begin(kFeedFields), std::end(kFeedFields), [&](const char* f) { return field == f; });
}

absl::Status CheckFeedSource(const v1::AnnotateFromFeedRequest& request) {
  if (request.feed_url().empty() && request.feed_xml().empty()) {
    return absl::InvalidArgumentError("no feed: give feed_xml (its bytes) or feed_url (fetched)");
  }
  return absl::OkStatus();
}

// Feed field -> schema attribute: the request's (each checked), else each
// field to the attribute of its name where the schema has one.
absl::StatusOr<std::map<std::string, std::string>> FieldToAttribute(const v1::AnnotateFromFeedRequest& request,
                                                                    const schema::CompiledSchema& schema) {
  std::map<std::string, std::string> out;
  if (request.field_to_attribute().empty()) {
    for (const char* f : kFeedFields) {
      if (schema.Find(f) >= 0) out[f] = f;
    }
    return out;
  }
  for (const auto& [field, attribute] : request.field_to_attribute()) {
    if (!IsFeedField(field)) {
      return absl::InvalidArgumentError("field_to_attribute: unknown feed field \"" + field + "\" (the fields: " +
                                        absl::StrJoin(kFeedFields, ", ") + ")");
    }
    if (schema.Find(attribute) < 0) {
      std::vector<std::string> names;
      for (size_t k = 0; k < schema.size(); ++k) names.push_back(schema.attribute(k).name());
      return absl::InvalidArgumentError("field_to_attribute: \"" + field + "\" -> unknown attribute \"" + attribute +
                                        "\" (schema " + schema.vertical() + " has " + absl::StrJoin(names, ", ") +
                                        ")");
    }
    out[field] = attribute;
  }
  return out;
}

absl::StatusOr<feed::Feed> LoadFeed(const v1::AnnotateFromFeedRequest& request, fetch::Fetcher* fetcher) {
  if (request.feed_xml().empty()) return feed::FetchFeed(*fetcher, request.feed_url());
  feed::FeedParseOptions options;
  options.url = request.feed_url();
  absl::StatusOr<feed::Feed> parsed = feed::ParseFeed(request.feed_xml(), options);
  if (!parsed.ok()) return absl::Status(parsed.status().code(), "feed_xml: " + std::string(parsed.status().message()));
  return parsed;
}

// The sample indices of the pages to annotate: page_urls, else all.
absl::StatusOr<std::vector<uint32_t>> PagesToMatch(const v1::AnnotateFromFeedRequest& request,
                                                   const v1::SampleState& state) {
  std::vector<uint32_t> out;
  if (request.page_urls().empty()) {
    for (int i = 0; i < state.urls_size(); ++i) out.push_back(static_cast<uint32_t>(i));
    return out;
  }
  std::map<std::string, uint32_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of.emplace(state.urls(i), static_cast<uint32_t>(i));
  for (int i = 0; i < request.page_urls_size(); ++i) {
    auto it = index_of.find(request.page_urls(i));
    if (it == index_of.end()) {
      return absl::NotFoundError(absl::StrCat("page_urls[", i, "]: ", request.page_urls(i),
                                              " is not a sample page of site \"", request.site(), "\""));
    }
    if (std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
  }
  return out;
}

// Every stored sample page (file = URL), no cluster: a PagePool's view.
site::SiteClustering AllPagesView(const v1::SampleState& state) {
  site::SiteClustering view;
  for (int i = 0; i < state.urls_size(); ++i) view.pages.push_back({state.urls(i), state.urls(i), {}, false});
  return view;
}

// MatchFeed over the sample pages, batch by batch, merged.
struct SampleMatch {
  std::vector<feed::PageAnnotations> pages;
  std::vector<uint32_t> indices;  // parallel to pages: sample indices
  std::vector<feed::FieldMatch> matches;
};

// The "page" reports (an item with no entry page) of every batch, kept for
// the items no batch had the entry page of.
struct NoEntryReports {
  std::set<std::string> with_entry;
  std::vector<feed::FieldMatch> reports;  // one per item link, first seen
  std::set<std::string> reported;
};

void MergeBatch(const feed::Feed& feed, const std::vector<uint32_t>& batch, const std::vector<const html::Page*>& pages,
                feed::FeedMatchResult result, SampleMatch* out, NoEntryReports* no_entry) {
  std::map<std::string, uint32_t> index_of;
  for (size_t i = 0; i < pages.size(); ++i) index_of.emplace(pages[i]->url(), batch[i]);
  for (feed::PageAnnotations& p : result.pages) {
    auto it = index_of.find(p.url);
    if (it == index_of.end()) continue;  // not a page given: never expected
    if (p.kind == feed::PageKind::kEntry) {
      for (int k : p.items) no_entry->with_entry.insert(feed.items[static_cast<size_t>(k)].link);
    }
    out->indices.push_back(it->second);
    out->pages.push_back(std::move(p));
  }
  for (feed::FieldMatch& m : result.matches) {
    if (m.page_url.empty()) {
      if (no_entry->reported.insert(m.item_link).second) no_entry->reports.push_back(std::move(m));
    } else {
      out->matches.push_back(std::move(m));
    }
  }
}

absl::StatusOr<SampleMatch> MatchSample(const feed::Feed& feed, const std::vector<uint32_t>& which,
                                        const v1::SampleState& state, const html::ParseOptions& parse,
                                        const PageLoader& loader, PageCacheView cache,
                                        const feed::FeedMatchOptions& options) {
  const site::SiteClustering view = AllPagesView(state);
  SampleMatch out;
  NoEntryReports no_entry;
  for (size_t start = 0; start < which.size(); start += kMatchBatchPages) {
    PagePool pool(view, parse, loader, cache);
    std::vector<uint32_t> batch(which.begin() + static_cast<std::ptrdiff_t>(start),
                                which.begin() + static_cast<std::ptrdiff_t>(std::min(which.size(),
                                                                                     start + kMatchBatchPages)));
    std::vector<const html::Page*> pages;
    for (uint32_t index : batch) {
      VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(index));
      pages.push_back(page);
    }
    MergeBatch(feed, batch, pages, feed::MatchFeed(feed, pages, options), &out, &no_entry);
  }
  for (feed::FieldMatch& m : no_entry.reports) {
    if (!no_entry.with_entry.count(m.item_link)) out.matches.push_back(std::move(m));
  }
  return out;
}

v1::FeedFieldMatch MatchToProto(const feed::FieldMatch& m) {
  v1::FeedFieldMatch out;
  out.set_item_link(m.item_link);
  out.set_field(m.field);
  out.set_page_url(m.page_url);
  out.set_found(m.found);
  out.set_wtm_error(static_cast<int32_t>(m.wtm_error));
  out.set_wtm_error_name(feed::WtmErrorName(m.wtm_error));
  out.set_how(m.how);
  out.set_value(m.value);
  out.set_xpath(m.xpath);
  return out;
}

v1::FeedPageAnnotations PageToProto(const feed::PageAnnotations& p, const feed::Feed& feed,
                                    const PageLocation& where) {
  v1::FeedPageAnnotations out;
  out.set_url(p.url);
  out.set_kind(p.kind == feed::PageKind::kList ? "list" : "entry");
  out.set_cluster_id(where.cluster_id);
  for (int k : p.items) out.add_item_links(feed.items[static_cast<size_t>(k)].link);
  for (const v1::Annotation& a : p.annotations) *out.add_annotations() = a;
  return out;
}

// The page as a cluster is learnt and checked from it.
FeedAnnotatedPage AnnotatedPageOf(const feed::PageAnnotations& p, uint32_t index, const feed::Feed& feed,
                                  const std::vector<const feed::FieldMatch*>& matches) {
  FeedAnnotatedPage out;
  out.index = index;
  out.url = p.url;
  out.list = p.kind == feed::PageKind::kList;
  for (int k : p.items) out.items.push_back(&feed.items[static_cast<size_t>(k)]);
  out.annotations = p.annotations;
  for (const feed::FieldMatch* m : matches) {
    if (!m->found) continue;
    for (size_t pos = 0; pos < out.items.size(); ++pos) {
      if (out.items[pos]->link == m->item_link) out.found[m->field].push_back(pos);
    }
  }
  for (auto& [field, positions] : out.found) {
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  }
  return out;
}

// Per cluster (in `records` order) with annotated member or attached pages,
// its learning input.
std::vector<FeedClusterInput> ClusterInputs(const SampleMatch& matched, const feed::Feed& feed,
                                            const std::vector<PageLocation>& where,
                                            const std::vector<v1::ClusterRecord>& records,
                                            const std::map<std::string, std::string>& field_to_attribute,
                                            size_t learn_pages, bool allow_attribute_loss) {
  std::map<std::string, std::vector<const feed::FieldMatch*>> matches_of;  // page URL -> its matches
  for (const feed::FieldMatch& m : matched.matches) matches_of[m.page_url].push_back(&m);
  std::map<std::string, FeedClusterInput> by_cluster;
  for (size_t i = 0; i < matched.pages.size(); ++i) {
    const uint32_t index = matched.indices[i];
    if (index >= where.size() || where[index].cluster_id.empty() || matched.pages[i].annotations.empty()) continue;
    FeedClusterInput& input = by_cluster[where[index].cluster_id];
    input.pages.push_back(AnnotatedPageOf(matched.pages[i], index, feed, matches_of[matched.pages[i].url]));
  }
  std::vector<FeedClusterInput> out;
  for (const v1::ClusterRecord& r : records) {
    auto it = by_cluster.find(r.cluster_id());
    if (it == by_cluster.end()) continue;
    it->second.cluster_id = r.cluster_id();
    for (const auto& [field, attribute] : field_to_attribute) it->second.attribute_field.emplace(attribute, field);
    it->second.learn_pages = learn_pages;
    it->second.allow_attribute_loss = allow_attribute_loss;
    out.push_back(std::move(it->second));
  }
  return out;
}

// Whether a Learn error is the cluster's (reported as NOT_LEARNT) rather
// than the call's (the store failing).
bool IsClusterError(const absl::Status& s) {
  return absl::IsInvalidArgument(s) || absl::IsNotFound(s) || absl::IsFailedPrecondition(s) ||
         absl::IsResourceExhausted(s);
}

// Learning rounds after the first: each moves a checked page the candidate
// failed on to the pages learnt from (as an editor annotates the page the
// rule fails on), while another page is left to check.
constexpr int kMaxRefineRounds = 2;

// "title reproduced the feed on 10 of 12 pages; date on 0 of 12".
std::string FailedChecks(const std::vector<v1::FeedClusterLearn::AttributeCheck>& checks) {
  std::vector<std::string> parts;
  for (const v1::FeedClusterLearn::AttributeCheck& a : checks) {
    if (a.reproduced() < a.pages()) {
      parts.push_back(absl::StrCat(a.attribute(), " reproduced the feed on ", a.reproduced(), " of ", a.pages(),
                                   a.pages() == 1 ? " page" : " pages"));
    }
  }
  return absl::StrJoin(parts, "; ");
}

std::string Pages(size_t n) { return absl::StrCat(n, n == 1 ? " page" : " pages"); }

// The Learn request of `input`'s pages `learnt` (positions), without the
// annotations of `left_out` attributes.
v1::LearnRequest FeedLearnRequest(const std::string& site, const FeedClusterInput& input,
                                  const std::vector<size_t>& learnt, const std::set<std::string>& left_out) {
  v1::LearnRequest request;
  request.set_site(site);
  request.set_cluster_id(input.cluster_id);
  request.set_replace(true);
  request.set_allow_attribute_loss(input.allow_attribute_loss);
  for (size_t k : learnt) {
    for (const v1::Annotation& a : input.pages[k].annotations) {
      if (!left_out.count(a.attribute())) *request.add_annotations() = a;
    }
  }
  return request;
}

// The annotated attribute (not in `left_out`) a Learn error names as
// "\"name\""; "" when it names none.
std::string AttributeNamed(const absl::Status& s, const FeedClusterInput& input,
                           const std::set<std::string>& left_out) {
  for (const FeedAnnotatedPage& page : input.pages) {
    for (const v1::Annotation& a : page.annotations) {
      if (!left_out.count(a.attribute()) && absl::StrContains(s.message(), "\"" + a.attribute() + "\"")) {
        return a.attribute();
      }
    }
  }
  return "";
}

// A candidate's verdict on the pages it was not learnt from.
struct Judgement {
  v1::FeedClusterLearn::Outcome outcome = v1::FeedClusterLearn::CANDIDATE;
  std::string reason;
  FeedCheckResult result;
};

// Applies `rule` (the candidate) to the `checked` pages (positions in
// input.pages) and judges it (feed_check.h).
absl::StatusOr<Judgement> JudgeCandidate(const store::RuleStore& store, const std::string& site,
                                         const schema::CompiledSchema& schema, const html::ParseOptions& parse,
                                         PageCacheView cache, const FeedClusterInput& input,
                                         const std::vector<size_t>& checked, const v1::Rule& rule) {
  Judgement j;
  if (checked.empty()) {
    j.reason = absl::StrCat("no annotated page left to check the rule on (", Pages(input.pages.size()),
                            " annotated)");
    return j;
  }
  VERTEX_ASSIGN_OR_RETURN(const extract::CompiledRule compiled, extract::CompiledRule::Create(rule, schema));
  VERTEX_ASSIGN_OR_RETURN(const v1::SampleState state, store.GetSampleState(site));
  const site::SiteClustering view = AllPagesView(state);
  PagePool pool(view, parse, StoreLoader(&store, site), cache);
  std::vector<const html::Page*> pages;
  std::vector<const FeedAnnotatedPage*> annotated;
  for (size_t k : checked) {
    VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(input.pages[k].index));
    pages.push_back(page);
    annotated.push_back(&input.pages[k]);
  }
  absl::StatusOr<FeedCheckResult> result = CheckRuleOnFeedPages(compiled, pages, annotated, input.attribute_field);
  if (absl::IsFailedPrecondition(result.status())) {
    j.reason = std::string(result.status().message());
    return j;
  }
  if (!result.ok()) return result.status();
  j.result = *std::move(result);
  std::vector<std::string> names;
  for (const v1::FeedClusterLearn::AttributeCheck& a : j.result.checks) names.push_back(a.attribute());
  if (names.empty()) {
    j.reason = "no annotated attribute of the rule to check on the other pages";
  } else if (!j.result.failed.empty()) {
    j.reason = FailedChecks(j.result.checks);
  } else if (checked.size() < MinCheckedPages(input)) {
    j.reason = absl::StrCat("the rule reproduced the feed on the ", Pages(checked.size()),
                            " checked, but a list cluster's rule is accepted only when checked on at least ",
                            Pages(MinCheckedPages(input)), " it was not learnt from (", Pages(input.pages.size()),
                            " annotated)");
  } else {
    j.outcome = v1::FeedClusterLearn::ACCEPTED;
    j.reason = absl::StrCat("every attribute checked (", absl::StrJoin(names, ", "), ") reproduced the feed on the ",
                            Pages(checked.size()), " the rule was not learnt from");
  }
  return j;
}

// The annotated attributes (of every page of `input`) the learnt rule has
// no part for, with Learn's diagnostic code where it gave one: "no rule for
// author, title (ambiguous)".
std::string Unlearnt(const FeedClusterInput& input, const v1::LearnResponse& learnt) {
  const std::set<std::string> has = RuleAttributes(learnt.rule());
  std::set<std::string> missing;
  for (const FeedAnnotatedPage& page : input.pages) {
    for (const v1::Annotation& a : page.annotations) {
      if (!has.count(a.attribute())) missing.insert(a.attribute());
    }
  }
  std::vector<std::string> named;
  for (const std::string& m : missing) {
    std::string code;
    for (const v1::AttributeDiagnostic& d : learnt.diagnostics()) {
      if (d.attribute() == m && !d.learnt()) code = d.code();
    }
    named.push_back(code.empty() ? m : m + " (" + code + ")");
  }
  return named.empty() ? "" : "no rule for " + absl::StrJoin(named, ", ");
}

}  // namespace

absl::StatusOr<v1::LearnResponse> LearningEngine::LearnFeedAnnotations(const std::string& site,
                                                                       const schema::CompiledSchema& schema,
                                                                       const FeedClusterInput& input,
                                                                       const std::vector<size_t>& learnt,
                                                                       std::set<std::string>* left_out,
                                                                       std::vector<std::string>* notes) {
  while (true) {
    absl::StatusOr<v1::LearnResponse> r = LearnCandidateLocked(FeedLearnRequest(site, input, learnt, *left_out), schema);
    if (r.ok() || !absl::IsInvalidArgument(r.status())) return r;
    const std::string attribute = AttributeNamed(r.status(), input, *left_out);
    if (attribute.empty()) return r;
    left_out->insert(attribute);
    notes->push_back(attribute + " left out (Learn refused its annotations: " + std::string(r.status().message()) +
                     ")");
  }
}

absl::StatusOr<v1::FeedClusterLearn> LearningEngine::LearnClusterFromFeed(const std::string& site,
                                                                          const schema::CompiledSchema& schema,
                                                                          const FeedClusterInput& input) {
  v1::FeedClusterLearn out;
  out.set_cluster_id(input.cluster_id);
  out.set_outcome(v1::FeedClusterLearn::NOT_LEARNT);
  VERTEX_ASSIGN_OR_RETURN(const v1::SampleState state, store_->GetSampleState(site));
  VERTEX_ASSIGN_OR_RETURN(const html::ParseOptions parse, SiteParse(site));
  const v1::SampleCluster* sc = FindSampleCluster(state, input.cluster_id);
  const std::vector<size_t> chosen = FeedLearnOrder(
      input.pages, sc == nullptr ? std::vector<uint32_t>{}
                                 : std::vector<uint32_t>(sc->annotation_order().begin(), sc->annotation_order().end()));
  const size_t min_checked = MinCheckedPages(input);
  size_t n = FeedLearnCount(chosen.size(), input.learn_pages);
  if (input.learn_pages == 0 && n > 1 && chosen.size() - n < min_checked) {
    n = std::max<size_t>(1, chosen.size() - std::min(chosen.size(), min_checked));  // leave a list's checks
  }
  std::vector<size_t> learnt(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<size_t> checked(chosen.begin() + static_cast<std::ptrdiff_t>(n), chosen.end());
  std::set<std::string> left_out;
  std::vector<std::string> notes;
  for (int round = 0;; ++round) {
    absl::StatusOr<v1::LearnResponse> r = LearnFeedAnnotations(site, schema, input, learnt, &left_out, &notes);
    if (!r.ok() && !IsClusterError(r.status())) return r.status();
    out.clear_learnt_from();
    out.clear_checked_on();
    for (size_t k : learnt) out.add_learnt_from(input.pages[k].url);
    for (size_t k : checked) out.add_checked_on(input.pages[k].url);
    if (!r.ok() || r->refused() || r->version() == 0) {
      std::string why = !r.ok() ? "Learn failed: " + r.status().ToString() : r->refused_reason();
      if (r.ok() && !r->refused()) {
        std::vector<std::string> codes;
        for (const v1::AttributeDiagnostic& d : r->diagnostics()) codes.push_back(d.attribute() + ": " + d.code());
        why = "no attribute was learnt (" + absl::StrJoin(codes, ", ") + ")";
      }
      if (r.ok()) *out.mutable_learn() = *r;
      notes.insert(notes.begin(), why);
      out.set_reason(absl::StrJoin(notes, "; "));
      return out;
    }
    *out.mutable_learn() = *r;
    out.set_version(r->version());
    VERTEX_ASSIGN_OR_RETURN(Judgement j, JudgeCandidate(*store_, site, schema, parse, CacheFor(site, state), input,
                                                        checked, r->rule()));
    out.set_outcome(j.outcome);
    out.mutable_checks()->Assign(j.result.checks.begin(), j.result.checks.end());
    out.set_reason(j.reason);
    if (j.outcome == v1::FeedClusterLearn::ACCEPTED || j.result.failed.empty() || round >= kMaxRefineRounds ||
        checked.size() < min_checked + 1) {
      break;
    }
    learnt.push_back(checked[j.result.failed[0]]);
    checked.erase(checked.begin() + static_cast<std::ptrdiff_t>(j.result.failed[0]));
  }
  if (out.outcome() == v1::FeedClusterLearn::ACCEPTED) {
    VERTEX_RETURN_IF_ERROR(store_->ResolveCandidate(site, input.cluster_id, true).status());
  }
  if (const std::string unlearnt = Unlearnt(input, out.learn()); !unlearnt.empty()) notes.push_back(unlearnt);
  if (!notes.empty()) out.set_reason(out.reason() + "; " + absl::StrJoin(notes, "; "));
  return out;
}

absl::Status LearningEngine::FetchMissingEntries(const std::string& site, const feed::Feed& feed,
                                                 v1::AnnotateFromFeedResponse* response) {
  VERTEX_ASSIGN_OR_RETURN(const v1::SampleState state, store_->GetSampleState(site));
  std::set<std::string> known;
  for (const std::string& url : state.urls()) known.insert(feed::NormalizeUrl(url));
  std::vector<v1::Page> pages;
  for (const feed::FeedItem& item : feed.items) {
    if (item.link.empty()) continue;
    const std::string key = feed::NormalizeUrl(item.link);
    if (key.empty()) {
      response->add_fetch_errors(item.link + ": not a URL that can be fetched");
      continue;
    }
    if (!known.insert(key).second) continue;
    absl::StatusOr<fetch::FetchResult> got = options_.fetcher->Fetch(item.link);
    if (!got.ok()) {
      response->add_fetch_errors(std::string(got.status().message()));
      continue;
    }
    v1::Page& page = pages.emplace_back();
    page.set_url(item.link);
    page.set_html(std::move(got->body));
  }
  std::set<std::string> failed;
  for (size_t start = 0; start < pages.size(); start += options_.max_pages_per_call) {
    const size_t end = std::min(pages.size(), start + options_.max_pages_per_call);
    v1::AddSamplePagesRequest add;
    add.set_site(site);
    add.set_defer_clustering(end < pages.size());
    for (size_t i = start; i < end; ++i) *add.add_pages() = pages[i];
    VERTEX_ASSIGN_OR_RETURN(const v1::AddSamplePagesResponse added, AddSamplePages(add));
    for (const v1::PageError& e : added.errors()) {
      failed.insert(e.url());
      response->add_fetch_errors(e.url() + ": " + e.error());
    }
  }
  for (const v1::Page& p : pages) {
    if (!failed.count(p.url())) response->add_fetched(p.url());
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::AnnotateFromFeedResponse> LearningEngine::AnnotateFromFeed(
    const v1::AnnotateFromFeedRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(const schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site.schema()));
  VERTEX_RETURN_IF_ERROR(CheckFeedSource(request));
  VERTEX_ASSIGN_OR_RETURN(const auto field_to_attribute, FieldToAttribute(request, schema));
  const bool fetch_feed = request.feed_xml().empty();
  if (options_.fetcher == nullptr && (fetch_feed || request.fetch_missing())) {
    return absl::FailedPreconditionError(std::string(fetch_feed ? "feed_url" : "fetch_missing") +
                                         ": this server has no fetcher to fetch pages with (give feed_xml, and the "
                                         "entry pages with AddSamplePages)");
  }
  VERTEX_ASSIGN_OR_RETURN(const feed::Feed feed, LoadFeed(request, options_.fetcher.get()));
  v1::AnnotateFromFeedResponse response;
  response.set_feed_format(feed::FeedFormatName(feed.format));
  response.set_feed_items(static_cast<uint32_t>(feed.items.size()));
  if (request.fetch_missing()) VERTEX_RETURN_IF_ERROR(FetchMissingEntries(request.site(), feed, &response));
  {
    absl::MutexLock lock(SiteLock(request.site()));
    VERTEX_RETURN_IF_ERROR(AnnotateLocked(request, schema, field_to_attribute, feed, &response));
  }
  if (request.learn() || response.fetched_size() > 0) Notify(request.site());
  return response;
}

absl::Status LearningEngine::AnnotateLocked(const v1::AnnotateFromFeedRequest& request,
                                            const schema::CompiledSchema& schema,
                                            const std::map<std::string, std::string>& field_to_attribute,
                                            const feed::Feed& feed, v1::AnnotateFromFeedResponse* response) {
  const std::string& site = request.site();
  VERTEX_ASSIGN_OR_RETURN(const v1::SampleState state, store_->GetSampleState(site));
  if (request.learn() && state.clustered_unix_ms() <= 0) {
    return absl::FailedPreconditionError("the sample of site \"" + site +
                                         "\" was never clustered: add sample pages before learning from the feed");
  }
  VERTEX_ASSIGN_OR_RETURN(const std::vector<uint32_t> which, PagesToMatch(request, state));
  VERTEX_ASSIGN_OR_RETURN(const html::ParseOptions parse, SiteParse(site));
  feed::FeedMatchOptions options;
  options.field_to_attribute = field_to_attribute;
  VERTEX_ASSIGN_OR_RETURN(const SampleMatch matched, MatchSample(feed, which, state, parse, StoreLoader(store_, site),
                                                                 CacheFor(site, state), options));
  VERTEX_ASSIGN_OR_RETURN(const std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(site));
  const std::vector<PageLocation> where = LocateSamplePages(state, records);
  for (size_t i = 0; i < matched.pages.size(); ++i) {
    *response->add_pages() = PageToProto(matched.pages[i], feed, where[matched.indices[i]]);
  }
  for (const feed::FieldMatch& m : matched.matches) *response->add_matches() = MatchToProto(m);
  if (!request.learn()) return absl::OkStatus();
  for (const FeedClusterInput& input :
       ClusterInputs(matched, feed, where, records, field_to_attribute, request.learn_pages(),
                     request.allow_attribute_loss())) {
    VERTEX_ASSIGN_OR_RETURN(*response->add_clusters(), LearnClusterFromFeed(site, schema, input));
  }
  return absl::OkStatus();
}

}  // namespace vertex::workflow
