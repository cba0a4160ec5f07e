#include "common/extract/compiled_rule.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/rule/classifier.h"
#include "common/rule/feature_selector.h"
#include "common/rule/text_range.h"
#include "common/rule/value.h"
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

absl::StatusOr<CompiledRule> CompiledRule::Create(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  auto state = std::make_unique<State>(State{rule, schema, {}, {}});
  absl::StatusOr<std::vector<shingle::MaskedVector>> signatures = ParseSignatures(rule);
  if (!signatures.ok()) return signatures.status();
  state->signatures = *std::move(signatures);
  state->attributes.resize(schema.size());
  for (const v1::AttributeRule& a : state->rule.attributes()) {
    const int index = schema.Find(a.attribute());
    if (index < 0) {
      return absl::InvalidArgumentError(absl::StrCat("rule attribute \"", a.attribute(), "\" is not in schema ",
                                                     schema.vertical()));
    }
    CompiledAttribute& slot = state->attributes[index];
    if (slot.rule != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("rule attribute \"", a.attribute(), "\" appears twice"));
    }
    slot.schema_index = index;
    if (absl::Status s = CompileAttribute(a, &slot); !s.ok()) return s;
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
    const RE2* regex = i < schema.size() ? schema.ValueRegex(i) : nullptr;
    // A regex with a group gives the group, which need not match it again.
    if (regex == nullptr || regex->NumberOfCapturingGroups() > 0) continue;
    for (const std::string& v : results[i].values) {
      if (!RE2::PartialMatch(v, *regex)) {
        return absl::StrCat(results[i].attribute, " \"", v, "\" is not a ",
                            schema.attribute(i).type().empty() ? "match of its regex" : schema.attribute(i).type());
      }
    }
  }
  return "";
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

// `native_nodes`: what a.native selected on the page (SelectAll), if native.
absl::StatusOr<AttributeResult> ApplyAttribute(const CompiledAttribute& a, const schema::CompiledSchema& schema,
                                               const html::Page& page, std::vector<html::Node> native_nodes) {
  AttributeResult r;
  r.method = a.rule->method();
  std::vector<html::Node> selected;
  if (a.native) {
    selected = std::move(native_nodes);
  } else {
    absl::StatusOr<std::vector<html::Node>> by_xpath = a.xpath->Select(page);
    if (!by_xpath.ok()) return absl::InternalError(std::string(by_xpath.status().message()));
    selected = *std::move(by_xpath);
  }
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
    for (std::string& v : rule::NodeValues(page, n, *a.rule, schema, a.schema_index)) {
      r.values.push_back(std::move(v));
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
  std::vector<const rule::FeatureSelector*> natives;
  for (const CompiledAttribute& a : state_->attributes) natives.push_back(a.native ? &*a.native : nullptr);
  std::vector<std::vector<html::Node>> selected = rule::FeatureSelector::SelectAll(natives, page);
  for (size_t i = 0; i < out.size(); ++i) {
    const CompiledAttribute& a = state_->attributes[i];
    if (a.rule != nullptr) {
      absl::StatusOr<AttributeResult> r = ApplyAttribute(a, state_->schema, page, std::move(selected[i]));
      if (!r.ok()) return r.status();
      out[i] = *std::move(r);
    }
    out[i].attribute = state_->schema.attribute(i).name();
  }
  return out;
}

}  // namespace vertex::extract
