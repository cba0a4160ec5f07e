// Ground truth of result-list pages (many records per page) and the scorer
// that compares a record-level extraction with it (AMBER's evaluation, issue
// 13: data areas, records and attributes, each with precision and recall,
// plus perfect records).
//
// Truth is kept as JSON Lines, one page per line:
//   {"file":"0000.htm","url":"http://host/search?page=1&area=ashford",
//    "areas":[{"records":[{"link":"http://host/property/100123",
//      "attributes":{"price":{"value":"£250,000","text":"Guide price £250,000"},
//                    ...}}]}]}
// Areas and records are in document order. `link` is the record's absolute
// details-page URL (its identity: records are matched by it). Per attribute,
// `value` is what an extractor should return (the price text, the place
// name, the number of bedrooms, the resolved URL of a link) and `text` the
// whole whitespace-normalised text of the element holding it. An attribute
// absent from a record is absent from its map.
//
// Thread-safety: pure functions and plain structs.
#ifndef VERTEX_COMMON_EVAL_LIST_TRUTH_H_
#define VERTEX_COMMON_EVAL_LIST_TRUTH_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace vertex::eval {

// ---------------------------------------------------------------------------
// Ground truth.
// ---------------------------------------------------------------------------

struct TruthValue {
  std::string value;
  std::string text;
};

struct TruthRecord {
  std::string link;
  std::map<std::string, TruthValue> attributes;
};

struct TruthArea {
  std::vector<TruthRecord> records;
};

struct ListTruthPage {
  std::string file;
  std::string url;
  std::vector<TruthArea> areas;
};

// One compact JSON line (no trailing newline) for `page`, keys in the order
// shown above, attributes by name.
std::string ListTruthToJson(const ListTruthPage& page);

// Parses one line written by ListTruthToJson (any JSON whitespace and key
// order are accepted; unknown keys are ignored). InvalidArgument naming
// `where` and the byte offset for malformed JSON, a missing "file" or a
// value of the wrong JSON type; ResourceExhausted for nesting deeper than 32.
absl::StatusOr<ListTruthPage> ListTruthFromJson(std::string_view json,
                                                std::string_view where = "list truth");

// The pages of a JSON Lines text, one per non-blank line; errors as
// ListTruthFromJson's, naming "<name>:<line>". InvalidArgument too when two
// lines give the same "file".
absl::StatusOr<std::vector<ListTruthPage>> ParseListTruth(std::string_view jsonl,
                                                          std::string_view name);

// Writes `pages` as JSON Lines to `path`; errors of util::WriteFile.
absl::Status WriteListTruth(const std::vector<ListTruthPage>& pages, const std::string& path);

// Reads a file written by WriteListTruth; errors of util::ReadFile and
// ParseListTruth (naming the path).
absl::StatusOr<std::vector<ListTruthPage>> ReadListTruth(const std::string& path);

// ---------------------------------------------------------------------------
// Predictions and scores.
// ---------------------------------------------------------------------------

struct PredictedValue {
  std::string value;
  // The whole text of the node the value came from; may be empty.
  std::string text;
};

struct PredictedRecord {
  // Every a@href in the record's nodes, resolved against the page URL.
  std::vector<std::string> links;
  std::map<std::string, PredictedValue> attributes;
};

struct PredictedArea {
  std::vector<PredictedRecord> records;
};

struct PredictedPage {
  std::vector<PredictedArea> areas;
};

// Predicted, true and correct counts of one kind of item.
struct Counts {
  size_t predicted = 0;
  size_t truth = 0;
  size_t correct = 0;

  // correct / predicted, 1 when nothing was predicted.
  double precision() const;
  // correct / truth, 1 when there is no truth.
  double recall() const;
  double f1() const;
  Counts& operator+=(const Counts& o);
};

// The scores of one page or of a sum of pages.
//
// Rules (all on one page):
//  * Records. A predicted record matches the truth record whose link it
//    contains, when its links contain exactly one distinct truth link of the
//    page and that truth record is not matched yet (the first predicted
//    record, in area and record order, wins). records.correct counts
//    matches.
//  * Areas. A predicted area is correct when it has matched records, they
//    all belong to one truth area, they cover at least half of it, and no
//    earlier predicted area was correct for that truth area.
//  * Attributes, over matched records only. A predicted attribute is correct
//    when the truth record has it and the values are equal, or the predicted
//    node text equals the truth text (both compared after
//    html::NormalizeSpace; empty texts never match). attributes.truth counts
//    the truth attributes of matched records; attributes_all_records.truth
//    counts those of every truth record (recall that also charges records
//    not found).
//  * Perfect records: matched records whose every truth attribute is
//    predicted correctly and that have no wrong predicted attribute.
struct ListScores {
  size_t pages = 0;
  Counts areas;
  Counts records;
  Counts attributes;
  Counts attributes_all_records;
  std::map<std::string, Counts> by_attribute;
  size_t perfect_records = 0;

  ListScores& operator+=(const ListScores& o);
};

// Scores one page.
ListScores ScoreListPage(const PredictedPage& predicted, const ListTruthPage& truth);

// A text report of `total`: one line each for areas, records and
// attributes (predicted, truth, correct, P, R, F1), perfect records, then a
// line per attribute.
std::string FormatListScores(const ListScores& total);

}  // namespace vertex::eval

#endif  // VERTEX_COMMON_EVAL_LIST_TRUTH_H_
