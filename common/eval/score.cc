#include "common/eval/score.h"

#include <algorithm>
#include <array>

#include "common/html/entities.h"
#include "common/html/text.h"
#include "common/util/json_writer.h"

namespace vertex::eval {
namespace {

// Multi-byte edge punctuation and spaces (UTF-8): en and em dash, middle dot,
// bullet, guillemets, no-break space.
constexpr std::array<std::string_view, 7> kWideEdge = {
    "\xE2\x80\x93", "\xE2\x80\x94", "\xC2\xB7", "\xE2\x80\xA2", "\xC2\xAB", "\xC2\xBB", "\xC2\xA0"};

bool IsAsciiEdge(char c) {
  constexpr std::string_view kAsciiEdge = ".,:;!?-_/\\|*~ \t\n\r\f\v";
  return kAsciiEdge.find(c) != std::string_view::npos;
}

// Length of the edge character that starts (at_end: ends) `s`, or 0.
size_t EdgeLength(std::string_view s, bool at_end) {
  if (s.empty()) return 0;
  if (IsAsciiEdge(at_end ? s.back() : s.front())) return 1;
  for (std::string_view wide : kWideEdge) {
    if (at_end ? s.ends_with(wide) : s.starts_with(wide)) return wide.size();
  }
  return 0;
}

std::string DecodeAndNormalizeSpace(std::string_view value) {
  return html::NormalizeSpace(html::DecodeHtmlEntities(value));
}

std::string FoldAsciiCase(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// The comparison forms of a truth value: normalised, and normalised trimmed.
std::array<std::string, 2> TruthForms(std::string_view truth_value) {
  const std::string decoded = DecodeAndNormalizeSpace(truth_value);
  return {FoldAsciiCase(decoded), FoldAsciiCase(TrimEdgePunctuation(decoded))};
}

double Ratio(size_t numerator, size_t denominator) {
  if (denominator == 0) return 1.0;
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

}  // namespace

std::string NormalizeForComparison(std::string_view value) {
  return FoldAsciiCase(DecodeAndNormalizeSpace(value));
}

std::string TrimEdgePunctuation(std::string_view value) {
  while (size_t n = EdgeLength(value, /*at_end=*/false)) value.remove_prefix(n);
  while (size_t n = EdgeLength(value, /*at_end=*/true)) value.remove_suffix(n);
  return std::string(value);
}

std::vector<std::string> EditorValueForms(std::string_view truth_value) {
  std::string decoded = DecodeAndNormalizeSpace(truth_value);
  if (decoded.empty()) return {};
  std::string trimmed = TrimEdgePunctuation(decoded);
  std::vector<std::string> forms = {std::move(decoded)};
  if (!trimmed.empty() && trimmed != forms[0]) forms.push_back(std::move(trimmed));
  return forms;
}

double Scorer::AttributeScore::precision() const { return Ratio(values_correct, values_extracted); }

double Scorer::AttributeScore::recall() const { return Ratio(truth_found, truth_values); }

double Scorer::AttributeScore::f1() const {
  const double p = precision();
  const double r = recall();
  return p + r == 0.0 ? 0.0 : 2.0 * p * r / (p + r);
}

void Scorer::Add(const std::string& attribute, const std::vector<std::string>& extracted,
                 const std::vector<std::string>& truth) {
  AttributeScore& score = scores_[attribute];
  score.pages_with_truth += truth.empty() ? 0 : 1;
  score.pages_extracted += extracted.empty() ? 0 : 1;
  score.values_extracted += extracted.size();
  score.truth_values += truth.size();
  std::vector<std::array<std::string, 2>> truth_forms;
  for (const std::string& value : truth) truth_forms.push_back(TruthForms(value));
  std::vector<bool> found(truth.size(), false);
  for (const std::string& value : extracted) {
    const std::array<std::string, 2> forms = TruthForms(value);
    bool correct = false;
    for (size_t i = 0; i < truth_forms.size(); ++i) {
      // As is, or both without the punctuation at their ends.
      if (forms[0] != truth_forms[i][0] && (forms[1].empty() || forms[1] != truth_forms[i][1])) continue;
      correct = true;
      found[i] = true;
    }
    score.values_correct += correct ? 1 : 0;
  }
  score.truth_found += std::count(found.begin(), found.end(), true);
}

std::string ScoresToJson(const Scorer& scorer) {
  util::JsonWriter json;
  json.BeginObject().Key("attributes").BeginObject();
  for (const auto& [attribute, score] : scorer.scores()) {
    json.Key(attribute).BeginObject();
    json.Key("pages_with_truth").Uint(score.pages_with_truth);
    json.Key("pages_extracted").Uint(score.pages_extracted);
    json.Key("values_extracted").Uint(score.values_extracted);
    json.Key("values_correct").Uint(score.values_correct);
    json.Key("truth_values").Uint(score.truth_values);
    json.Key("truth_found").Uint(score.truth_found);
    json.Key("precision").Double(score.precision());
    json.Key("recall").Double(score.recall());
    json.Key("f1").Double(score.f1());
    json.EndObject();
  }
  json.EndObject().EndObject();
  return json.Release();
}

}  // namespace vertex::eval
