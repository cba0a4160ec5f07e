#include "common/learn/classifier_trainer.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/rule/features.h"

namespace vertex::learn {
namespace {

// Longer attribute values and texts make no equality feature.
constexpr size_t kMaxValueBytes = 100;
// Mutual information at or below this is treated as 0.
constexpr double kMinInformation = 1e-12;

// ---- Feature generation ----

// The tests that hold on one node, and those generated from it (levels up
// to max_level; the ancestor:: tests of farther ancestors hold but are not
// generated).
struct Profile {
  absl::flat_hash_set<std::string> holds;
  std::vector<std::string> generated;

  void Add(std::string test, bool generate) {
    if (generate) generated.push_back(test);
    holds.insert(std::move(test));
  }
};

// True when `name` can be written as an XPath name test (ASCII NCName).
bool IsPlainName(std::string_view name) {
  if (name.empty()) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
  });
}

// "axis::td", or "axis::*[name()='a:b']" for a name XPath cannot spell.
std::string Step(std::string_view axis, html::Node element) {
  const std::string tag(element.tag());
  if (IsPlainName(tag)) return std::string(axis) + "::" + tag;
  return std::string(axis) + "::*[name()=" + rule::XPathLiteral(tag) + "]";
}

std::string AttributeRef(const std::string& name) {
  return IsPlainName(name) ? "@" + name : "@*[name()=" + rule::XPathLiteral(name) + "]";
}

// Predicates true on `element`: each attribute's presence and value, and
// each class token.
std::vector<std::string> AttributePredicates(html::Node element) {
  std::vector<std::string> out;
  for (const auto& [name, value] : html::AttributeAxis(element)) {
    const std::string ref = AttributeRef(name);
    out.push_back("[" + ref + "]");
    if (value.size() <= kMaxValueBytes) out.push_back("[" + ref + "=" + rule::XPathLiteral(value) + "]");
    if (name != "class") continue;
    for (absl::string_view token :
         absl::StrSplit(html::NormalizeXmlSpace(value), ' ', absl::SkipEmpty())) {
      if (token.size() > kMaxValueBytes) continue;
      out.push_back("[contains(concat(' ',normalize-space(@class),' ')," +
                    rule::XPathLiteral(" " + std::string(token) + " ") + ")]");
    }
  }
  return out;
}

// Every test of `element` reached through `axis`: its tag alone and with
// each attribute predicate.
void AddElementTests(std::string_view axis, html::Node element, bool generate, Profile* profile) {
  const std::string step = Step(axis, element);
  profile->Add(step, generate);
  for (const std::string& predicate : AttributePredicates(element)) {
    profile->Add(step + predicate, generate);
  }
}

html::Node SiblingElement(html::Node n, bool preceding) {
  for (html::Node s = preceding ? n.previous_sibling() : n.next_sibling(); s;
       s = preceding ? s.previous_sibling() : s.next_sibling()) {
    if (s.is_element()) return s;
  }
  return html::Node();
}

// Tag and class of the 1st preceding and following sibling element of
// `slot`, reached from the candidate through `prefix`.
void AddSiblingTests(const std::string& prefix, html::Node slot, bool generate, Profile* profile) {
  for (bool preceding : {true, false}) {
    const html::Node sibling = SiblingElement(slot, preceding);
    if (!sibling) continue;
    const std::string path = prefix + (preceding ? "preceding" : "following") + "-sibling::*[1]";
    profile->Add(path + "[" + Step("self", sibling) + "]", generate);
    if (!sibling.has_attribute("class")) continue;
    const std::string cls = sibling.attribute("class");
    if (cls.size() <= kMaxValueBytes) {
      profile->Add(path + "[@class=" + rule::XPathLiteral(cls) + "]", generate);
    }
  }
}

// The nearest non-blank text before the node and the node's first word.
void AddTextTests(html::Node node, Profile* profile) {
  const rule::Candidate candidate(node);
  std::string left;
  if (candidate.Value(rule::Kind::kOutLeftText, 0, 0, &left) && left.size() <= kMaxValueBytes) {
    profile->Add(
        "preceding::text()[normalize-space()!=''][1][normalize-space()=" + rule::XPathLiteral(left) + "]",
        true);
  }
  const std::string& text = candidate.text();
  const std::string word = text.substr(0, text.find(' '));
  if (!word.empty() && word.size() <= kMaxValueBytes) {
    profile->Add("self::node()[substring-before(concat(normalize-space(),' '),' ')=" +
                     rule::XPathLiteral(word) + "]",
                 true);
  }
}

Profile BuildProfile(html::Node node, int max_level) {
  Profile profile;
  if (node.is_text()) {
    profile.Add("self::text()", true);
  } else {
    AddElementTests("self", node, true, &profile);
  }
  AddSiblingTests("", node, true, &profile);
  const html::Node parent = node.parent();
  if (parent) {
    AddElementTests("parent", parent, max_level >= 1, &profile);
    AddSiblingTests("parent::*/", parent, max_level >= 1, &profile);
  }
  int level = 1;
  for (html::Node a = parent; a; a = a.parent(), ++level) {
    AddElementTests("ancestor", a, level >= 2 && level <= max_level, &profile);
  }
  AddTextTests(node, &profile);
  return profile;
}

// ---- Validation and ranking ----

absl::Status CheckNodes(const std::vector<html::Node>& nodes, const char* what) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!nodes[i]) {
      return absl::InvalidArgumentError(std::string(what) + " " + std::to_string(i) +
                                        " is a null node");
    }
  }
  return absl::OkStatus();
}

absl::Status Validate(const std::vector<html::Node>& positives,
                      const std::vector<html::Node>& negatives, const ClassifierOptions& options) {
  if (positives.empty()) {
    return absl::InvalidArgumentError("classifier training needs at least one positive");
  }
  if (absl::Status s = CheckNodes(positives, "positive"); !s.ok()) return s;
  if (absl::Status s = CheckNodes(negatives, "negative"); !s.ok()) return s;
  if (negatives.empty()) {
    return absl::FailedPreconditionError(
        "classifier training has no negatives: nothing to tell apart");
  }
  if (!(options.smoothing > 0) || !std::isfinite(options.smoothing)) {
    return absl::InvalidArgumentError("classifier smoothing must be > 0 and finite, got " +
                                      std::to_string(options.smoothing));
  }
  if (options.max_level < 0) {
    return absl::InvalidArgumentError("classifier max_level must be >= 0, got " +
                                      std::to_string(options.max_level));
  }
  return absl::OkStatus();
}

// Profiles of the positives, then of the negatives.
std::vector<Profile> BuildProfiles(const std::vector<html::Node>& positives,
                                   const std::vector<html::Node>& negatives, int max_level) {
  std::vector<Profile> profiles;
  profiles.reserve(positives.size() + negatives.size());
  for (html::Node n : positives) profiles.push_back(BuildProfile(n, max_level));
  for (html::Node n : negatives) profiles.push_back(BuildProfile(n, max_level));
  return profiles;
}

// Every generated test, sorted.
std::vector<std::string> GeneratedTests(const std::vector<Profile>& profiles) {
  absl::flat_hash_set<std::string> seen;
  for (const Profile& p : profiles) seen.insert(p.generated.begin(), p.generated.end());
  std::vector<std::string> tests(seen.begin(), seen.end());
  std::sort(tests.begin(), tests.end());
  return tests;
}

// I(feature; label) in nats from counts: the feature holds on `a` of `n_pos`
// positives and `b` of `n_neg` negatives. Ratios are formed from integer
// products, so a feature equally frequent in both classes scores exactly 0.
double MutualInformation(size_t a, size_t b, size_t n_pos, size_t n_neg) {
  const double n = static_cast<double>(n_pos + n_neg);
  const double present = static_cast<double>(a + b);
  const double absent = n - present;
  double mi = 0;
  auto term = [&](double joint, double x, double y) {
    if (joint > 0) mi += joint / n * std::log(joint * n / (x * y));
  };
  term(a, present, n_pos);
  term(b, present, n_neg);
  term(n_pos - a, absent, n_pos);
  term(n_neg - b, absent, n_neg);
  return mi;
}

struct Scored {
  std::string test;
  size_t pos = 0;  // positives the test holds on
  size_t neg = 0;  // negatives the test holds on
  double mi = 0;
};

// The top `max_features` tests with MI > 0 and enough support, best first.
std::vector<Scored> SelectFeatures(const std::vector<Profile>& profiles, size_t n_pos,
                                   const ClassifierOptions& options) {
  std::vector<Scored> scored;
  for (std::string& test : GeneratedTests(profiles)) {
    Scored s{std::move(test), 0, 0, 0};
    for (size_t i = 0; i < profiles.size(); ++i) {
      if (profiles[i].holds.contains(s.test)) ++(i < n_pos ? s.pos : s.neg);
    }
    if (s.pos + s.neg < options.min_support && s.pos < n_pos) continue;
    s.mi = MutualInformation(s.pos, s.neg, n_pos, profiles.size() - n_pos);
    if (s.mi > kMinInformation) scored.push_back(std::move(s));
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& x, const Scored& y) {
    if (x.mi != y.mi) return x.mi > y.mi;
    if (x.test.size() != y.test.size()) return x.test.size() < y.test.size();
    return x.test < y.test;
  });
  if (scored.size() > options.max_features) scored.resize(options.max_features);
  return scored;
}

// log((k + alpha) / (n + 2 alpha)).
double SmoothedLog(size_t k, size_t n, double alpha) {
  return std::log((static_cast<double>(k) + alpha) / (static_cast<double>(n) + 2 * alpha));
}

}  // namespace

absl::StatusOr<v1::Classifier> TrainClassifier(const std::vector<html::Node>& positives,
                                               const std::vector<html::Node>& negatives,
                                               const ClassifierOptions& options) {
  if (absl::Status s = Validate(positives, negatives, options); !s.ok()) return s;
  const size_t n_pos = positives.size();
  const size_t n_neg = negatives.size();
  const double alpha = options.smoothing;
  v1::Classifier classifier;
  classifier.set_log_prior_pos(SmoothedLog(n_pos, n_pos + n_neg, alpha));
  classifier.set_log_prior_neg(SmoothedLog(n_neg, n_pos + n_neg, alpha));
  const std::vector<Profile> profiles = BuildProfiles(positives, negatives, options.max_level);
  for (const Scored& s : SelectFeatures(profiles, n_pos, options)) {
    v1::ClassifierFeature* f = classifier.add_features();
    f->set_test(s.test);
    f->set_log_present_pos(SmoothedLog(s.pos, n_pos, alpha));
    f->set_log_absent_pos(SmoothedLog(n_pos - s.pos, n_pos, alpha));
    f->set_log_present_neg(SmoothedLog(s.neg, n_neg, alpha));
    f->set_log_absent_neg(SmoothedLog(n_neg - s.neg, n_neg, alpha));
  }
  return classifier;
}

absl::StatusOr<std::vector<GeneratedFeature>> GenerateFeaturesForTesting(
    const std::vector<html::Node>& positives, const std::vector<html::Node>& negatives,
    const ClassifierOptions& options) {
  if (absl::Status s = Validate(positives, negatives, options); !s.ok()) return s;
  const std::vector<Profile> profiles = BuildProfiles(positives, negatives, options.max_level);
  std::vector<GeneratedFeature> out;
  for (std::string& test : GeneratedTests(profiles)) {
    GeneratedFeature f{std::move(test), {}};
    for (const Profile& p : profiles) f.holds.push_back(p.holds.contains(f.test));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace vertex::learn
