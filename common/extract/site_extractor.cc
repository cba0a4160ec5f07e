#include "common/extract/site_extractor.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"

namespace vertex::extract {

struct SiteExtractor::State {
  schema::CompiledSchema schema;
  std::vector<CompiledRule> rules;
  std::optional<urlpattern::UrlMatcher> urls;
  SiteExtractorOptions options;
};

const char* RecordStatusName(RecordStatus status) {
  switch (status) {
    case RecordStatus::kOk:
      return "OK";
    case RecordStatus::kPartial:
      return "PARTIAL";
    case RecordStatus::kNoUrlMatch:
      return "NO_URL_MATCH";
    case RecordStatus::kNoShingleMatch:
      return "NO_SHINGLE_MATCH";
  }
  return "UNKNOWN";
}

const char* MatchedByName(MatchedBy matched_by) {
  switch (matched_by) {
    case MatchedBy::kSignature:
      return "signature";
    case MatchedBy::kNearest:
      return "nearest";
    case MatchedBy::kNone:
      break;
  }
  return "";
}

absl::StatusOr<SiteExtractor> SiteExtractor::Create(const schema::CompiledSchema& schema,
                                                    const std::vector<v1::Rule>& rules,
                                                    SiteExtractorOptions options) {
  auto state = std::make_unique<State>(State{schema, {}, std::nullopt, options});
  std::vector<v1::Rule> ordered = rules;
  // By decreasing importance, then cluster id: the first match wins.
  std::stable_sort(ordered.begin(), ordered.end(), [](const v1::Rule& a, const v1::Rule& b) {
    if (a.importance() != b.importance()) return a.importance() > b.importance();
    return a.cluster_id() < b.cluster_id();
  });
  std::vector<std::string> patterns;
  for (const v1::Rule& rule : ordered) {
    absl::StatusOr<CompiledRule> compiled = CompiledRule::Create(rule, schema);
    if (!compiled.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("cluster ", rule.cluster_id(), ": ", compiled.status().message()));
    }
    state->rules.push_back(*std::move(compiled));
    patterns.push_back(rule.url_regex().empty() ? ".*" : rule.url_regex());
    // Alone, so that an error names the cluster rather than an index.
    if (absl::StatusOr<urlpattern::UrlMatcher> one = urlpattern::UrlMatcher::Create({patterns.back()}); !one.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("cluster ", rule.cluster_id(), ": URL regex: ",
                                                     one.status().message()));
    }
  }
  absl::StatusOr<urlpattern::UrlMatcher> matcher = urlpattern::UrlMatcher::Create(patterns);
  if (!matcher.ok()) return matcher.status();
  state->urls.emplace(*std::move(matcher));
  return SiteExtractor(std::move(state));
}

SiteExtractor::SiteExtractor(std::unique_ptr<State> state) : state_(std::move(state)) {}
SiteExtractor::SiteExtractor(SiteExtractor&&) noexcept = default;
SiteExtractor& SiteExtractor::operator=(SiteExtractor&&) noexcept = default;
SiteExtractor::~SiteExtractor() = default;

const std::vector<CompiledRule>& SiteExtractor::rules() const { return state_->rules; }
const schema::CompiledSchema& SiteExtractor::schema() const { return state_->schema; }
const SiteExtractorOptions& SiteExtractor::options() const { return state_->options; }

std::vector<size_t> SiteExtractor::MatchUrl(std::string_view url) const {
  std::vector<size_t> out;
  for (int i : state_->urls->Match(url)) out.push_back(static_cast<size_t>(i));
  return out;  // ascending index == decreasing importance
}

absl::StatusOr<Record> SiteExtractor::Extract(std::string_view bytes, const std::string& url, html::Parser& parser,
                                              std::string_view http_content_type) const {
  const std::vector<size_t> by_url = MatchUrl(url);
  if (by_url.empty()) {
    Record r;
    r.url = url;
    r.status = RecordStatus::kNoUrlMatch;
    return r;
  }
  shingle::Shingler shingler;
  absl::StatusOr<html::Page> page = parser.Parse(bytes, url, http_content_type, &shingler);
  if (!page.ok()) return page.status();
  return ExtractMatched(*page, shingler.Finish(), by_url);
}

absl::StatusOr<Record> SiteExtractor::ExtractParsed(const html::Page& page,
                                                    const shingle::ShingleVector& vector) const {
  const std::vector<size_t> by_url = MatchUrl(page.url());
  if (by_url.empty()) {
    Record r;
    r.url = page.url();
    r.status = RecordStatus::kNoUrlMatch;
    r.parsed = true;
    return r;
  }
  return ExtractMatched(page, vector, by_url);
}

namespace {

// The record `rule` gives `page` with `attributes`: OK, or PARTIAL naming
// the mandatory attributes without a value.
Record RecordOf(const html::Page& page, const CompiledRule& rule, std::vector<AttributeResult> attributes) {
  Record r;
  r.url = page.url();
  r.parsed = true;
  r.cluster_id = rule.proto().cluster_id();
  r.rule_version = rule.proto().version();
  r.attributes = std::move(attributes);
  for (size_t i = 0; i < r.attributes.size(); ++i) {
    if (rule.schema().attribute(i).mandatory() && r.attributes[i].values.empty()) {
      r.missing_mandatory.push_back(r.attributes[i].attribute);
    }
  }
  r.status = r.missing_mandatory.empty() ? RecordStatus::kOk : RecordStatus::kPartial;
  return r;
}

// The records `rule` (record-level) gives `page`: OK with at least one.
Record ListRecordOf(const html::Page& page, const CompiledRule& rule, ListResult list) {
  Record r;
  r.url = page.url();
  r.parsed = true;
  r.cluster_id = rule.proto().cluster_id();
  r.rule_version = rule.proto().version();
  r.record_level = true;
  r.list_records = std::move(list.records);
  r.notes = std::move(list.notes);
  r.status = r.list_records.empty() ? RecordStatus::kPartial : RecordStatus::kOk;
  return r;
}

// `rule`'s output on `page` as a record; `*failure` gets why nearest
// matching would reject it ("" when it would not).
absl::StatusOr<Record> Evaluate(const html::Page& page, const CompiledRule& rule, std::string* failure) {
  if (rule.record_level()) {
    VERTEX_ASSIGN_OR_RETURN(ListResult list, rule.ApplyRecords(page));
    *failure = ListMatchFailure(rule, list);
    return ListRecordOf(page, rule, std::move(list));
  }
  VERTEX_ASSIGN_OR_RETURN(std::vector<AttributeResult> attributes, rule.Apply(page));
  *failure = NearestMatchFailure(rule, attributes);
  return RecordOf(page, rule, std::move(attributes));
}

}  // namespace

absl::StatusOr<Record> SiteExtractor::ExtractMatched(const html::Page& page, const shingle::ShingleVector& vector,
                                                     const std::vector<size_t>& by_url) const {
  for (size_t i : by_url) {
    const CompiledRule& rule = state_->rules[i];
    const shingle::MaskedVector* covering = rule.CoveringSignature(vector);
    if (covering == nullptr) continue;
    std::string unused;
    VERTEX_ASSIGN_OR_RETURN(Record r, Evaluate(page, rule, &unused));
    r.matched_by = MatchedBy::kSignature;
    r.agreement = covering->kept();
    return r;
  }
  if (state_->options.nearest) return ExtractNearest(page, vector, by_url);
  Record r;
  r.url = page.url();
  r.parsed = true;
  r.status = RecordStatus::kNoShingleMatch;
  return r;
}

absl::StatusOr<Record> SiteExtractor::ExtractNearest(const html::Page& page, const shingle::ShingleVector& vector,
                                                     const std::vector<size_t>& by_url) const {
  // (agreement, rule index), nearest first; by_url's order (importance,
  // then cluster id) among equals.
  std::vector<std::pair<int, size_t>> order;
  order.reserve(by_url.size());
  for (size_t i : by_url) order.emplace_back(state_->rules[i].Agreement(vector), i);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  Record none;
  none.url = page.url();
  none.parsed = true;
  none.status = RecordStatus::kNoShingleMatch;
  for (const auto& [agreement, i] : order) {
    const CompiledRule& rule = state_->rules[i];
    std::string failure;
    VERTEX_ASSIGN_OR_RETURN(Record r, Evaluate(page, rule, &failure));
    if (failure.empty()) {
      r.matched_by = MatchedBy::kNearest;
      r.agreement = agreement;
      return r;
    }
    if (none.nearest_cluster.empty()) {
      none.nearest_cluster = rule.proto().cluster_id();
      none.agreement = agreement;
      none.nearest_rejected = std::move(failure);
    }
  }
  return none;
}

namespace {

// The page's fields, from "file" to "agreement" (`status` for "status").
void PageFields(const Record& record, const std::string& file, RecordStatus status, util::JsonWriter& w) {
  if (!file.empty()) w.Key("file").String(file);
  w.Key("url").String(record.url);
  w.Key("status").String(RecordStatusName(status));
  w.Key("cluster").String(record.cluster_id);
  w.Key("rule_version").Int(record.rule_version);
  w.Key("matched_by").String(MatchedByName(record.matched_by));
  w.Key("agreement").Int(record.agreement);
}

void AttributeFields(const std::vector<AttributeResult>& attributes, bool details, util::JsonWriter& w) {
  w.Key("attributes").BeginObject();
  for (const AttributeResult& a : attributes) {
    w.Key(a.attribute).BeginArray();
    for (const std::string& v : a.values) w.String(v);
    w.EndArray();
  }
  w.EndObject();
  if (!details) return;
  w.Key("details").BeginObject();
  for (const AttributeResult& a : attributes) {
    w.Key(a.attribute).BeginObject();
    w.Key("method").String(MethodName(a.method));
    w.Key("score").Double(a.score);
    w.Key("candidates").Uint(a.candidates);
    w.EndObject();
  }
  w.EndObject();
}

void StringArray(const char* key, const std::vector<std::string>& values, util::JsonWriter& w) {
  w.Key(key).BeginArray();
  for (const std::string& v : values) w.String(v);
  w.EndArray();
}

// One line per record of a list page.
std::string ListRecordsToJson(const Record& record, const std::string& file, bool details) {
  std::string out;
  for (const ListRecordResult& r : record.list_records) {
    util::JsonWriter w;
    w.BeginObject();
    PageFields(record, file, r.missing_regular.empty() ? RecordStatus::kOk : RecordStatus::kPartial, w);
    w.Key("record").Uint(r.index);
    w.Key("data_area").Uint(r.data_area);
    AttributeFields(r.attributes, details, w);
    if (details) {
      StringArray("missing_regular", r.missing_regular, w);
      if (r.index == record.list_records.front().index) StringArray("notes", record.notes, w);
    }
    w.EndObject();
    if (!out.empty()) out += "\n";
    out += w.Release();
  }
  return out;
}

}  // namespace

std::string RecordToJson(const Record& record, const std::string& file, bool details) {
  if (record.record_level && !record.list_records.empty()) return ListRecordsToJson(record, file, details);
  util::JsonWriter w;
  w.BeginObject();
  PageFields(record, file, record.status, w);
  if (record.status == RecordStatus::kNoShingleMatch) {
    w.Key("nearest_cluster").String(record.nearest_cluster);
    w.Key("nearest_rejected").String(record.nearest_rejected);
  }
  AttributeFields(record.attributes, details, w);
  if (details) StringArray("missing_mandatory", record.missing_mandatory, w);
  w.EndObject();
  return w.Release();
}

}  // namespace vertex::extract
