#include "common/extract/compiled_rule.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/rule/classifier.h"
#include "common/rule/feature_selector.h"
#include "common/rule/text_range.h"
#include "common/rule/url.h"
#include "common/rule/value.h"
#include "common/util/status_macros.h"
#include "re2/re2.h"

namespace vertex::extract {

struct CompiledAttribute {
  const v1::AttributeRule* rule = nullptr;
  size_t schema_index = 0;
  std::optional<html::XPath> xpath;
  // The learnt features, evaluated natively instead of `xpath` (same nodes).
  std::optional<rule::FeatureSelector> native;
  std::optional<rule::CompiledClassifier> classifier;
};

struct CompiledRule::State {
  v1::Rule rule;
  schema::CompiledSchema schema;
  // The signature, then the extra signatures; never empty.
  std::vector<shingle::MaskedVector> signatures;
  // Parallel to the schema's attributes; null rule when none.
  std::vector<CompiledAttribute> attributes;
  // The natively evaluated attributes (parallel to `attributes`; null for
  // the others), indexed once for one walk of each page.
  std::optional<rule::SelectorSet> natives;
  // Record-level rules: the record XPath, and the record attributes
  // (parallel to the schema's attributes; null rule when none).
  std::optional<html::XPath> record_xpath;
  std::vector<CompiledAttribute> record_attributes;
};

namespace {

absl::Status CompileAttribute(const v1::AttributeRule& a, CompiledAttribute* out) {
  const std::string where = absl::StrCat("rule attribute \"", a.attribute(), "\": ");
  absl::StatusOr<html::XPath> xpath = html::XPath::Compile(a.xpath());
  if (!xpath.ok()) return absl::InvalidArgumentError(where + std::string(xpath.status().message()));
  out->xpath.emplace(*std::move(xpath));
  if (a.features_size() > 0) {
    absl::StatusOr<rule::FeatureSelector> native = rule::FeatureSelector::Create(a);
    if (!native.ok()) return absl::InvalidArgumentError(where + std::string(native.status().message()));
    out->native.emplace(*std::move(native));
  }
  if (a.method() == v1::AttributeRule::CLASSIFIER) {
    absl::StatusOr<rule::CompiledClassifier> c = rule::CompiledClassifier::Create(a.classifier());
    if (!c.ok()) return absl::InvalidArgumentError(where + std::string(c.status().message()));
    out->classifier.emplace(*std::move(c));
  } else if (a.method() != v1::AttributeRule::XPATH) {
    return absl::InvalidArgumentError(where + "method is unspecified");
  }
  out->rule = &a;
  return absl::OkStatus();
}

}  // namespace

const char* MethodName(v1::AttributeRule::Method m) {
  switch (m) {
    case v1::AttributeRule::XPATH:
      return "xpath";
    case v1::AttributeRule::CLASSIFIER:
      return "classifier";
    default:
      return "none";
  }
}

namespace {

// `rule`'s signature (all-wildcard when empty), then its extra signatures.
absl::StatusOr<std::vector<shingle::MaskedVector>> ParseSignatures(const v1::Rule& rule) {
  std::vector<shingle::MaskedVector> out = {shingle::MaskedVector(shingle::ShingleVector{}, 0xff)};
  if (!rule.signature().empty()) {
    absl::StatusOr<shingle::MaskedVector> sig = shingle::MaskedVector::Parse(rule.signature());
    if (!sig.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("rule of cluster ", rule.cluster_id(), ": bad signature: ",
                                                     sig.status().message()));
    }
    out[0] = *sig;
  }
  for (const std::string& text : rule.extra_signatures()) {
    absl::StatusOr<shingle::MaskedVector> sig = shingle::MaskedVector::Parse(text);
    if (!sig.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("rule of cluster ", rule.cluster_id(),
                                                     ": bad extra signature: ", sig.status().message()));
    }
    out.push_back(*sig);
  }
  return out;
}

}  // namespace

namespace {

// Compiles `parts` into `out` (parallel to `schema`'s attributes). `what`
// names them in errors ("rule attribute", "record attribute").
absl::Status CompileAttributes(const google::protobuf::RepeatedPtrField<v1::AttributeRule>& parts,
                               const schema::CompiledSchema& schema, const std::string& what,
                               std::vector<CompiledAttribute>* out) {
  out->resize(schema.size());
  for (const v1::AttributeRule& a : parts) {
    const int index = schema.Find(a.attribute());
    if (index < 0) {
      return absl::InvalidArgumentError(absl::StrCat(what, " \"", a.attribute(), "\" is not in schema ",
                                                     schema.vertical()));
    }
    CompiledAttribute& slot = (*out)[index];
    if (slot.rule != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(what, " \"", a.attribute(), "\" appears twice"));
    }
    slot.schema_index = index;
    if (absl::Status s = CompileAttribute(a, &slot); !s.ok()) {
      return absl::InvalidArgumentError(what == "rule attribute" ? std::string(s.message())
                                                                 : absl::StrCat("record ", s.message()));
    }
  }
  return absl::OkStatus();
}

// The record part of a record-level rule.
absl::Status CompileRecordRule(const v1::Rule& rule, const schema::CompiledSchema& schema,
                               std::optional<html::XPath>* record_xpath, std::vector<CompiledAttribute>* out) {
  const v1::RecordRule& r = rule.record();
  const std::string where = absl::StrCat("record rule of cluster ", rule.cluster_id(), ": ");
  if (rule.attributes_size() > 0) {
    return absl::InvalidArgumentError(where + "a record-level rule has no attributes outside its record (found " +
                                      rule.attributes(0).attribute() + ")");
  }
  if (r.record_xpath().empty()) return absl::InvalidArgumentError(where + "record_xpath is empty");
  if (r.record_length() < 1 || r.record_length() > kMaxRecordLength) {
    return absl::InvalidArgumentError(absl::StrCat(where, "record_length ", r.record_length(), " is not in [1, ",
                                                   kMaxRecordLength, "]"));
  }
  absl::StatusOr<html::XPath> xpath = html::XPath::Compile(r.record_xpath());
  if (!xpath.ok()) return absl::InvalidArgumentError(where + "record_xpath: " + std::string(xpath.status().message()));
  record_xpath->emplace(*std::move(xpath));
  return CompileAttributes(r.attributes(), schema, "record attribute", out);
}

}  // namespace

absl::StatusOr<CompiledRule> CompiledRule::Create(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  auto state = std::make_unique<State>(State{rule, schema, {}, {}, std::nullopt, std::nullopt, {}});
  absl::StatusOr<std::vector<shingle::MaskedVector>> signatures = ParseSignatures(rule);
  if (!signatures.ok()) return signatures.status();
  state->signatures = *std::move(signatures);
  VERTEX_RETURN_IF_ERROR(CompileAttributes(state->rule.attributes(), schema, "rule attribute", &state->attributes));
  std::vector<const rule::FeatureSelector*> natives;
  for (const CompiledAttribute& a : state->attributes) natives.push_back(a.native ? &*a.native : nullptr);
  state->natives.emplace(std::move(natives));
  if (state->rule.has_record()) {
    // Features describe paths from the document; the relative XPath is what
    // holds from the record start.
    for (v1::AttributeRule& a : *state->rule.mutable_record()->mutable_attributes()) a.clear_features();
    VERTEX_RETURN_IF_ERROR(
        CompileRecordRule(state->rule, schema, &state->record_xpath, &state->record_attributes));
  }
  return CompiledRule(std::move(state));
}

CompiledRule::CompiledRule(std::unique_ptr<State> state) : state_(std::move(state)) {}
CompiledRule::CompiledRule(CompiledRule&&) noexcept = default;
CompiledRule& CompiledRule::operator=(CompiledRule&&) noexcept = default;
CompiledRule::~CompiledRule() = default;

const v1::Rule& CompiledRule::proto() const { return state_->rule; }
const schema::CompiledSchema& CompiledRule::schema() const { return state_->schema; }
const shingle::MaskedVector& CompiledRule::signature() const { return state_->signatures.front(); }
const std::vector<shingle::MaskedVector>& CompiledRule::signatures() const { return state_->signatures; }

const shingle::MaskedVector* CompiledRule::CoveringSignature(const shingle::ShingleVector& v) const {
  for (const shingle::MaskedVector& s : state_->signatures) {
    if (s.Covers(v)) return &s;
  }
  return nullptr;
}

int CompiledRule::Agreement(const shingle::ShingleVector& v) const {
  int best = 0;
  for (const shingle::MaskedVector& s : state_->signatures) best = std::max(best, s.Agreement(v));
  return best;
}

namespace {

// Why value `v` of attribute `i` is invalid: it does not match the
// attribute's regex when it has no capturing group; "" when valid.
std::string ValueFailure(const schema::CompiledSchema& schema, size_t i, const AttributeResult& result) {
  const RE2* regex = i < schema.size() ? schema.ValueRegex(i) : nullptr;
  // A regex with a group gives the group, which need not match it again.
  if (regex == nullptr || regex->NumberOfCapturingGroups() > 0) return "";
  for (const std::string& v : result.values) {
    if (!RE2::PartialMatch(v, *regex)) {
      return absl::StrCat(result.attribute, " \"", v, "\" is not a ",
                          schema.attribute(i).type().empty() ? "match of its regex" : schema.attribute(i).type());
    }
  }
  return "";
}

}  // namespace

std::string NearestMatchFailure(const CompiledRule& rule, const std::vector<AttributeResult>& results) {
  const schema::CompiledSchema& schema = rule.schema();
  std::vector<bool> required(results.size(), false);
  for (size_t i = 0; i < results.size() && i < schema.size(); ++i) required[i] = schema.attribute(i).mandatory();
  for (const std::string& name : rule.proto().always_extracted()) {
    const int i = schema.Find(name);
    if (i >= 0 && static_cast<size_t>(i) < required.size()) required[static_cast<size_t>(i)] = true;
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (required[i] && results[i].values.empty()) return results[i].attribute + " missing";
    if (std::string failure = ValueFailure(schema, i, results[i]); !failure.empty()) return failure;
  }
  return "";
}

std::string ListMatchFailure(const CompiledRule& rule, const ListResult& list) {
  if (list.records.empty()) return "no record";
  bool any_complete = false;
  for (const ListRecordResult& r : list.records) {
    for (size_t i = 0; i < r.attributes.size(); ++i) {
      const std::string failure = ValueFailure(rule.schema(), i, r.attributes[i]);
      if (!failure.empty()) return absl::StrCat(failure, " (record ", r.index, ")");
    }
    any_complete = any_complete || r.missing_regular.empty();
  }
  if (any_complete) return "";
  return absl::StrCat("every record misses a regular attribute (record 0: ",
                      list.records.front().missing_regular.front(), " missing)");
}

namespace {

// The classifier's winners among `nodes`, with the lowest winning P(+).
absl::StatusOr<std::vector<html::Node>> Classify(const CompiledAttribute& a, const html::Page& page,
                                                 const std::vector<html::Node>& nodes, double* score,
                                                 size_t* winners) {
  std::vector<double> p;
  for (html::Node n : nodes) {
    absl::StatusOr<double> prob = a.classifier->Probability(page, n);
    if (!prob.ok()) return prob.status();
    p.push_back(*prob);
  }
  const std::vector<size_t> all = rule::PickWinners(p, /*multi_valued=*/true);
  *winners = all.size();
  std::vector<html::Node> out;
  *score = 1;
  for (size_t i : rule::PickWinners(p, a.rule->multi_valued())) {
    out.push_back(nodes[i]);
    *score = std::min(*score, p[i]);
  }
  if (out.empty()) *score = 0;
  return out;
}

// The attribute's result from `selected`, the nodes its XPath (or its
// features) selected: candidates, classifier, values. Detail and record
// attributes share it. `base_url`: the page's PageBaseUrl when the caller
// computed it once (null: computed when needed).
absl::StatusOr<AttributeResult> ApplyAttribute(const CompiledAttribute& a, const schema::CompiledSchema& schema,
                                               const html::Page& page, std::vector<html::Node> selected,
                                               const std::string* base_url = nullptr) {
  AttributeResult r;
  r.method = a.rule->method();
  std::vector<html::Node> nodes;
  for (html::Node n : selected) {
    if (rule::IsValueCandidate(n)) nodes.push_back(n);
  }
  r.candidates = nodes.size();
  if (a.classifier) {
    absl::StatusOr<std::vector<html::Node>> won = Classify(a, page, nodes, &r.score, &r.winners);
    if (!won.ok()) return won.status();
    nodes = *std::move(won);
  } else {
    r.winners = nodes.size();
    r.score = nodes.empty() ? 0 : 1.0 / nodes.size();
  }
  for (html::Node n : nodes) {
    for (std::string& v : rule::NodeValues(page, n, *a.rule, schema, a.schema_index, base_url)) {
      r.values.push_back(std::move(v));
      r.nodes.push_back(n);
      if (!a.rule->multi_valued()) break;
    }
    if (!r.values.empty() && !a.rule->multi_valued()) break;
  }
  if (r.values.empty()) r.score = 0;
  return r;
}

}  // namespace

absl::StatusOr<std::vector<AttributeResult>> CompiledRule::Apply(const html::Page& page) const {
  std::vector<AttributeResult> out(state_->schema.size());
  // Every natively evaluated attribute in one walk of the page.
  std::vector<std::vector<html::Node>> selected = state_->natives->SelectAll(page);
  for (size_t i = 0; i < out.size(); ++i) {
    const CompiledAttribute& a = state_->attributes[i];
    if (a.rule != nullptr) {
      if (!a.native) {
        absl::StatusOr<std::vector<html::Node>> by_xpath = a.xpath->Select(page);
        if (!by_xpath.ok()) return absl::InternalError(std::string(by_xpath.status().message()));
        selected[i] = *std::move(by_xpath);
      }
      absl::StatusOr<AttributeResult> r = ApplyAttribute(a, state_->schema, page, std::move(selected[i]));
      if (!r.ok()) return r.status();
      out[i] = *std::move(r);
    }
    out[i].attribute = state_->schema.attribute(i).name();
  }
  return out;
}

bool CompiledRule::record_level() const { return state_->record_xpath.has_value(); }

namespace {

// Whether `start` has fewer than `length` - 1 element siblings after it.
bool IsShort(html::Node start, int length) {
  int tail = 0;
  for (html::Node n = start.next_sibling(); n && tail < length - 1; n = n.next_sibling()) {
    if (n.is_element()) ++tail;
  }
  return tail < length - 1;
}

// Whether schema attribute `i` is regular (AMBER's Σ_R): its explicit
// `regular`, else its `mandatory`.
bool IsRegular(const schema::CompiledSchema& schema, size_t i) {
  const v1::AttributeSchema& a = schema.attribute(i);
  return a.has_regular() ? a.regular() : a.mandatory();
}

}  // namespace

absl::StatusOr<ListResult> CompiledRule::ApplyRecords(const html::Page& page) const {
  ListResult out;
  if (!record_level()) return out;
  VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> selected, state_->record_xpath->Select(page));
  std::vector<html::Node> starts;
  for (html::Node n : selected) {
    if (n.is_element()) starts.push_back(n);
  }
  out.starts = starts.size();
  if (starts.size() > kMaxListRecords) {
    out.notes.push_back(absl::StrCat("record XPath selected ", starts.size(), " starts: cut at ", kMaxListRecords));
    starts.resize(kMaxListRecords);
  }
  const int length = state_->rule.record().record_length();
  std::vector<html::Node> parents;  // the data areas, in page order
  html::XPathBudget budget(kRecordXPathOperationsPerNode *
                           (static_cast<unsigned long>(page.node_count()) + html::kXPathBudgetFloorNodes));
  // Once per page, not per record (it walks the page).
  const std::string base_url = rule::PageBaseUrl(page);
  size_t short_records = 0;
  for (html::Node start : starts) {
    ListRecordResult record;
    record.index = out.records.size();
    const html::Node parent = start.parent();
    auto area = std::find(parents.begin(), parents.end(), parent);
    record.data_area = static_cast<size_t>(area - parents.begin());
    if (area == parents.end()) parents.push_back(parent);
    record.short_record = length > 1 && IsShort(start, length);
    short_records += record.short_record ? 1 : 0;
    VERTEX_ASSIGN_OR_RETURN(record.attributes, ApplyRecordAttributes(page, start, base_url, &budget));
    for (size_t i = 0; i < record.attributes.size(); ++i) {
      if (IsRegular(state_->schema, i) && record.attributes[i].values.empty()) {
        record.missing_regular.push_back(record.attributes[i].attribute);
      }
    }
    out.records.push_back(std::move(record));
  }
  if (short_records > 0) {
    out.notes.push_back(absl::StrCat(short_records, short_records == 1 ? " record runs" : " records run",
                                     " past their parent's last child (short)"));
  }
  return out;
}

absl::StatusOr<std::vector<AttributeResult>> CompiledRule::ApplyRecordAttributes(const html::Page& page,
                                                                                 html::Node start,
                                                                                 const std::string& base_url,
                                                                                 html::XPathBudget* budget) const {
  std::vector<AttributeResult> out(state_->schema.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const CompiledAttribute& a = state_->record_attributes[i];
    if (a.rule != nullptr) {
      VERTEX_ASSIGN_OR_RETURN(std::vector<html::Node> selected, a.xpath->Select(page, start, budget));
      VERTEX_ASSIGN_OR_RETURN(out[i], ApplyAttribute(a, state_->schema, page, std::move(selected), &base_url));
    }
    out[i].attribute = state_->schema.attribute(i).name();
  }
  return out;
}


}  // namespace vertex::extract
