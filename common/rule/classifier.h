// Evaluating the Naive Bayes classifier of the Vertex paper (III-C.3) that
// picks the value node among the candidates an imprecise XPath (the rXPath)
// selects; learn/classifier_trainer.h trains it. Every feature is a boolean
// XPath 1.0 test with the candidate as context node.
//
// Thread-safety: a CompiledClassifier is immutable after Create(); its const
// methods may be called from many threads at once. PickWinners is a pure
// function.
#ifndef VERTEX_COMMON_RULE_CLASSIFIER_H_
#define VERTEX_COMMON_RULE_CLASSIFIER_H_

#include <cstddef>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

// A v1::Classifier with its tests compiled, ready to score candidates.
class CompiledClassifier {
 public:
  // Compiles every feature's test. InvalidArgument naming the test when one
  // does not compile, or naming the field when a log-probability is not
  // finite. A classifier without features scores by its priors alone.
  static absl::StatusOr<CompiledClassifier> Create(const v1::Classifier& classifier);

  CompiledClassifier(CompiledClassifier&&) noexcept = default;
  CompiledClassifier& operator=(CompiledClassifier&&) noexcept = default;

  // P(+ | candidate) from the summed log prior and log-likelihoods of every
  // feature (present or absent), normalised with log-sum-exp. In (0, 1) in
  // exact arithmetic; a double rounds to 0 or 1 past a log-odds of about
  // +-37 (for 1) or -745 (for 0). `candidate` is a node of `page`.
  // InvalidArgument for a null candidate or when a test fails to evaluate
  // (the message names it).
  absl::StatusOr<double> Probability(const html::Page& page, html::Node candidate) const;

  size_t feature_count() const { return features_.size(); }

 private:
  struct Feature {
    html::XPath test;
    double log_present_pos;
    double log_absent_pos;
    double log_present_neg;
    double log_absent_neg;
  };
  CompiledClassifier(double log_prior_pos, double log_prior_neg, std::vector<Feature> features)
      : log_prior_pos_(log_prior_pos),
        log_prior_neg_(log_prior_neg),
        features_(std::move(features)) {}

  double log_prior_pos_;
  double log_prior_neg_;
  std::vector<Feature> features_;
};

// The winners among candidates scored `probabilities` (in candidate order).
// Single-valued: the index of the highest probability when it is > 0.5
// (ties: the first), else none. Multi-valued: every index whose probability
// is > 0.5, in order.
std::vector<size_t> PickWinners(const std::vector<double>& probabilities, bool multi_valued);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_CLASSIFIER_H_
