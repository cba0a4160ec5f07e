// The Naive Bayes classifier of the Vertex paper (III-C.3) that picks the
// value node among the candidates an imprecise XPath (the rXPath) selects.
//
// Training: positives are the annotated nodes the rXPath selects on
// annotated pages, negatives the other nodes it selects there. Features are
// boolean XPath 1.0 tests with the candidate as context node, generated
// from both classes:
//   - level 0 (the node): self::td, self::text(), and for an element every
//     attribute as presence and as name=value, e.g. self::td[@width],
//     self::td[@width='10'];
//   - level 1 (the parent element): the same with parent::, e.g.
//     parent::font[@color='red'];
//   - levels 2..max_level: the same with ancestor:: (as in the paper: such a
//     test holds when ANY ancestor satisfies it), e.g. ancestor::div[@id='m'];
//   - the class attribute also per whitespace-separated token:
//     parent::td[contains(concat(' ',normalize-space(@class),' '),' p ')];
//   - the 1st preceding/following sibling element of the node and of its
//     parent: tag and class, e.g. preceding-sibling::*[1][self::b],
//     parent::*/following-sibling::*[1][@class='x'];
//   - the nearest non-blank text before the node (normalised, as
//     features.h's kOutLeftText):
//     preceding::text()[normalize-space()!=''][1][normalize-space()='Price:'];
//   - the node's own first word:
//     self::node()[substring-before(concat(normalize-space(),' '),' ')='$5'].
// Names that are not plain XPath names ("a:b") are tested with
// *[name()='a:b'] / @*[name()='a:b']; attribute values and texts longer
// than 100 bytes make no name=value or text feature. Features are evaluated
// natively while training (XPath normalize-space semantics, see
// NormalizeXmlSpace); GenerateFeaturesForTesting exposes that evaluation so
// tests can compare it with libxml2's. Features holding on fewer than
// min_support training nodes (and not on every positive) are dropped; the
// rest are ranked by mutual information with the label, and the top
// max_features with MI > 0 are kept (ties: the shorter test, then the
// lexicographically smaller).
//
// rule/classifier.h evaluates the trained classifier.
//
// Thread-safety: TrainClassifier is a pure function (the nodes' pages must
// outlive the call).
#ifndef VERTEX_COMMON_LEARN_CLASSIFIER_TRAINER_H_
#define VERTEX_COMMON_LEARN_CLASSIFIER_TRAINER_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::learn {

struct ClassifierOptions {
  // Features kept after ranking by mutual information.
  size_t max_features = 40;
  // A feature must hold on at least this many training nodes, or on every
  // positive, to be ranked at all. A feature seen once or twice (a
  // neighbour's text, one page's value) says little about other pages, yet
  // its smoothed absence would count against every candidate there and
  // push the value below 0.5.
  size_t min_support = 3;
  // Laplace alpha: P(f present | c) = (n_fc + alpha) / (n_c + 2 alpha), and
  // P(c) = (n_c + alpha) / (n + 2 alpha). Must be > 0 and finite.
  double smoothing = 1.0;
  // Farthest ancestor features are generated from (0: the node only).
  // Must be >= 0.
  int max_level = 6;
};

// Trains a classifier telling `positives` from `negatives` (element or text
// nodes of live pages). The result has smoothed log priors and, per kept
// feature, its test and smoothed log-likelihoods (natural logarithms); it
// has no features when none has MI > 0. Errors: InvalidArgument when
// `positives` is empty, a node is null (the message says which), or the
// options are out of range; FailedPrecondition when `negatives` is empty
// (there is nothing to tell apart).
absl::StatusOr<v1::Classifier> TrainClassifier(const std::vector<html::Node>& positives,
                                               const std::vector<html::Node>& negatives,
                                               const ClassifierOptions& options = {});

// Test-only: every feature TrainClassifier would generate for these nodes
// (before selection), sorted by test, with its native value on each node:
// holds[i] for positives[i], then holds[positives.size() + j] for
// negatives[j]. Same errors as TrainClassifier.
struct GeneratedFeature {
  std::string test;
  std::vector<bool> holds;
};
absl::StatusOr<std::vector<GeneratedFeature>> GenerateFeaturesForTesting(
    const std::vector<html::Node>& positives, const std::vector<html::Node>& negatives,
    const ClassifierOptions& options = {});

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_CLASSIFIER_TRAINER_H_
