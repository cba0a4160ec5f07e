#include "common/rule/classifier.h"

#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace vertex::rule {

// ---- CompiledClassifier ----

namespace {

absl::Status CheckFinite(double value, const std::string& field) {
  if (std::isfinite(value)) return absl::OkStatus();
  return absl::InvalidArgumentError("classifier " + field +
                                    " is not finite: " + std::to_string(value));
}

absl::Status CheckFeatureNumbers(const v1::ClassifierFeature& f, const std::string& where) {
  for (const auto& [value, name] : {std::pair{f.log_present_pos(), "log_present_pos"},
                                    std::pair{f.log_absent_pos(), "log_absent_pos"},
                                    std::pair{f.log_present_neg(), "log_present_neg"},
                                    std::pair{f.log_absent_neg(), "log_absent_neg"}}) {
    if (absl::Status s = CheckFinite(value, where + "." + name); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CompiledClassifier> CompiledClassifier::Create(const v1::Classifier& classifier) {
  if (absl::Status s = CheckFinite(classifier.log_prior_pos(), "log_prior_pos"); !s.ok()) return s;
  if (absl::Status s = CheckFinite(classifier.log_prior_neg(), "log_prior_neg"); !s.ok()) return s;
  std::vector<Feature> features;
  features.reserve(classifier.features_size());
  for (int i = 0; i < classifier.features_size(); ++i) {
    const v1::ClassifierFeature& f = classifier.features(i);
    const std::string where = "feature " + std::to_string(i) + " ('" + f.test() + "')";
    if (absl::Status s = CheckFeatureNumbers(f, where); !s.ok()) return s;
    absl::StatusOr<html::XPath> test = html::XPath::Compile(f.test());
    if (!test.ok()) {
      return absl::InvalidArgumentError(
          "classifier " + where + " does not compile: " + std::string(test.status().message()));
    }
    features.push_back({*std::move(test), f.log_present_pos(), f.log_absent_pos(),
                        f.log_present_neg(), f.log_absent_neg()});
  }
  return CompiledClassifier(classifier.log_prior_pos(), classifier.log_prior_neg(),
                            std::move(features));
}

absl::StatusOr<double> CompiledClassifier::Probability(const html::Page& page,
                                                       html::Node candidate) const {
  if (!candidate) return absl::InvalidArgumentError("classifier candidate is a null node");
  double pos = log_prior_pos_;
  double neg = log_prior_neg_;
  for (const Feature& f : features_) {
    absl::StatusOr<bool> present = f.test.EvaluateBoolean(page, candidate);
    if (!present.ok()) return present.status();
    pos += *present ? f.log_present_pos : f.log_absent_pos;
    neg += *present ? f.log_present_neg : f.log_absent_neg;
  }
  // P(+) = e^pos / (e^pos + e^neg), scaled by e^-max so neither overflows.
  const double top = std::max(pos, neg);
  const double p = std::exp(pos - top);
  return p / (p + std::exp(neg - top));
}

std::vector<size_t> PickWinners(const std::vector<double>& probabilities, bool multi_valued) {
  std::vector<size_t> winners;
  for (size_t i = 0; i < probabilities.size(); ++i) {
    if (!(probabilities[i] > 0.5)) continue;
    if (multi_valued) {
      winners.push_back(i);
    } else if (winners.empty() || probabilities[i] > probabilities[winners[0]]) {
      winners.assign(1, i);
    }
  }
  return winners;
}

}  // namespace vertex::rule
