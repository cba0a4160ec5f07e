// Scoring extracted attribute values against ground truth (precision, recall
// and F1 per attribute, summed over pages), and the value forms an editor
// would look for when annotating pages from ground truth.
//
// Comparison is on NormalizeForComparison'd text. Ground truth of some sites
// keeps punctuation next to the value (booksamillion's isbn_13 is ": 978...",
// its publisher ": Zebra"), which no sensible rule extracts; so a truth value
// also matches its trimmed form: the value with the leading and trailing
// "edge punctuation" and spaces removed. Edge punctuation is
//   ASCII  . , : ; ! ? - _ / \ | * ~
//   and    U+2013 EN DASH, U+2014 EM DASH, U+00B7 MIDDLE DOT, U+2022 BULLET,
//          U+00AB and U+00BB (guillemets);
// brackets, quotes and symbols that belong to values ($ % # & @ +) are kept.
//
// Thread-safety: the free functions are pure. A Scorer is not thread-safe;
// use one per thread and combine the counts.
#ifndef VERTEX_COMMON_EVAL_SCORE_H_
#define VERTEX_COMMON_EVAL_SCORE_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace vertex::eval {

// HTML entities decoded (common/html/entities.h), whitespace normalised
// (html::NormalizeSpace: runs collapsed to one space, ends trimmed) and ASCII
// letters lower-cased. Other bytes are kept.
std::string NormalizeForComparison(std::string_view value);

// `value` without leading and trailing edge punctuation and whitespace (see
// above). May return "" (for ": " say).
std::string TrimEdgePunctuation(std::string_view value);

// The forms of a ground-truth value an editor would search the page text for,
// in order of preference: the entity-decoded, space-normalised value, then,
// when different and not empty, that form trimmed by TrimEdgePunctuation.
// Case is kept. Empty when the value is blank.
std::vector<std::string> EditorValueForms(std::string_view truth_value);

// Accumulates per-attribute counts over pages. Usage: call Add once per page
// and attribute, then read scores().
class Scorer {
 public:
  // Counts summed over the pages added for one attribute.
  struct AttributeScore {
    size_t pages_with_truth = 0;  // pages with at least one truth value
    size_t pages_extracted = 0;   // pages with at least one extracted value
    size_t values_extracted = 0;  // extracted values, duplicates included
    size_t values_correct = 0;    // extracted values matching a truth value
    size_t truth_values = 0;      // truth values
    size_t truth_found = 0;       // truth values matched by an extracted value

    // values_correct / values_extracted; 1.0 when nothing was extracted.
    double precision() const;
    // truth_found / truth_values; 1.0 when there are no truth values.
    double recall() const;
    // Harmonic mean of precision and recall; 0.0 when both are 0.
    double f1() const;
  };

  // Adds one page: the values extracted for `attribute` and its ground-truth
  // values (raw, as GroundTruth holds them; empty when absent). An extracted
  // value matches a truth value when their NormalizeForComparison forms are
  // equal, or when both are equal and not empty without the punctuation at
  // their ends (TrimEdgePunctuation): ground truth keeps a label's colon
  // (": Knopf") or drops a trailing period ("Scholastic Inc") where the page
  // shows it. Creates the attribute's entry even when both lists are empty.
  void Add(const std::string& attribute, const std::vector<std::string>& extracted,
           const std::vector<std::string>& truth);

  // By attribute name.
  const std::map<std::string, AttributeScore>& scores() const { return scores_; }

 private:
  std::map<std::string, AttributeScore> scores_;
};

// The scores as compact JSON:
//   {"attributes":{"<name>":{"pages_with_truth":N,"pages_extracted":N,
//     "values_extracted":N,"values_correct":N,"truth_values":N,
//     "truth_found":N,"precision":P,"recall":R,"f1":F},...}}
// with attributes in name order.
std::string ScoresToJson(const Scorer& scorer);

}  // namespace vertex::eval

#endif  // VERTEX_COMMON_EVAL_SCORE_H_
