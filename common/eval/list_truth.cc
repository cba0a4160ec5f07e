#include "common/eval/list_truth.h"

#include <cstdint>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/html/text.h"
#include "common/util/file.h"
#include "common/util/json_reader.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"

namespace vertex::eval {
namespace {

using util::Json;

// ---------------------------------------------------------------------------
// JSON -> truth.
// ---------------------------------------------------------------------------

absl::Status TypeError(std::string_view where, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(std::string(where), ": ", std::string(what)));
}

// The string member `key` of `object`; "" when absent; an error when not a string.
absl::StatusOr<std::string> StringMember(const Json& object, std::string_view key,
                                         std::string_view where) {
  const Json* v = object.Find(key);
  if (v == nullptr || v->kind == Json::Kind::kNull) return std::string();
  if (v->kind != Json::Kind::kString) {
    return TypeError(where, absl::StrCat("\"", std::string(key), "\" is not a string"));
  }
  return v->scalar;
}

// The array member `key` of `object`; nullptr when absent.
absl::StatusOr<const std::vector<Json>*> ArrayMember(const Json& object, std::string_view key,
                                                     std::string_view where) {
  const Json* v = object.Find(key);
  if (v == nullptr || v->kind == Json::Kind::kNull) return nullptr;
  if (v->kind != Json::Kind::kArray) {
    return TypeError(where, absl::StrCat("\"", std::string(key), "\" is not an array"));
  }
  return &v->items;
}

absl::StatusOr<TruthRecord> RecordFromJson(const Json& j, std::string_view where) {
  if (j.kind != Json::Kind::kObject) return TypeError(where, "a record is not an object");
  TruthRecord record;
  VERTEX_ASSIGN_OR_RETURN(record.link, StringMember(j, "link", where));
  const Json* attributes = j.Find("attributes");
  if (attributes == nullptr || attributes->kind == Json::Kind::kNull) return record;
  if (attributes->kind != Json::Kind::kObject) {
    return TypeError(where, "\"attributes\" is not an object");
  }
  for (size_t m = 0; m < attributes->member_names.size(); ++m) {
    const std::string& name = attributes->member_names[m];
    const Json& v = attributes->member_values[m];
    if (v.kind != Json::Kind::kObject) {
      return TypeError(where, absl::StrCat("attribute \"", name, "\" is not an object"));
    }
    TruthValue value;
    VERTEX_ASSIGN_OR_RETURN(value.value, StringMember(v, "value", where));
    VERTEX_ASSIGN_OR_RETURN(value.text, StringMember(v, "text", where));
    record.attributes[name] = std::move(value);
  }
  return record;
}

}  // namespace

std::string ListTruthToJson(const ListTruthPage& page) {
  util::JsonWriter w;
  w.BeginObject().Key("file").String(page.file).Key("url").String(page.url);
  w.Key("areas").BeginArray();
  for (const TruthArea& area : page.areas) {
    w.BeginObject().Key("records").BeginArray();
    for (const TruthRecord& record : area.records) {
      w.BeginObject().Key("link").String(record.link).Key("attributes").BeginObject();
      for (const auto& [name, v] : record.attributes) {
        w.Key(name).BeginObject().Key("value").String(v.value).Key("text").String(v.text);
        w.EndObject();
      }
      w.EndObject().EndObject();
    }
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
  return w.Release();
}

absl::StatusOr<ListTruthPage> ListTruthFromJson(std::string_view json, std::string_view where) {
  VERTEX_ASSIGN_OR_RETURN(const Json j, util::ParseJson(json, where));
  if (j.kind != Json::Kind::kObject) return TypeError(where, "the page is not a JSON object");
  ListTruthPage page;
  VERTEX_ASSIGN_OR_RETURN(page.file, StringMember(j, "file", where));
  if (page.file.empty()) return TypeError(where, "no \"file\"");
  VERTEX_ASSIGN_OR_RETURN(page.url, StringMember(j, "url", where));
  VERTEX_ASSIGN_OR_RETURN(const std::vector<Json>* areas, ArrayMember(j, "areas", where));
  if (areas == nullptr) return page;
  for (const Json& a : *areas) {
    if (a.kind != Json::Kind::kObject) return TypeError(where, "an area is not an object");
    TruthArea area;
    VERTEX_ASSIGN_OR_RETURN(const std::vector<Json>* records, ArrayMember(a, "records", where));
    if (records != nullptr) {
      for (const Json& r : *records) {
        VERTEX_ASSIGN_OR_RETURN(TruthRecord record, RecordFromJson(r, where));
        area.records.push_back(std::move(record));
      }
    }
    page.areas.push_back(std::move(area));
  }
  return page;
}

absl::StatusOr<std::vector<ListTruthPage>> ParseListTruth(std::string_view jsonl,
                                                          std::string_view name) {
  std::vector<ListTruthPage> pages;
  std::set<std::string> files;
  size_t line_number = 0;
  for (size_t pos = 0; pos < jsonl.size();) {
    size_t end = jsonl.find('\n', pos);
    if (end == std::string_view::npos) end = jsonl.size();
    const std::string_view line = jsonl.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (html::IsBlank(line)) continue;
    const std::string where = absl::StrCat(std::string(name), ":", line_number);
    VERTEX_ASSIGN_OR_RETURN(ListTruthPage page, ListTruthFromJson(line, where));
    if (!files.insert(page.file).second) {
      return TypeError(where, absl::StrCat("file \"", page.file, "\" listed twice"));
    }
    pages.push_back(std::move(page));
  }
  return pages;
}

absl::Status WriteListTruth(const std::vector<ListTruthPage>& pages, const std::string& path) {
  std::string out;
  for (const ListTruthPage& page : pages) absl::StrAppend(&out, ListTruthToJson(page), "\n");
  return util::WriteFile(path, out);
}

absl::StatusOr<std::vector<ListTruthPage>> ReadListTruth(const std::string& path) {
  VERTEX_ASSIGN_OR_RETURN(const std::string text, util::ReadFile(path));
  return ParseListTruth(text, path);
}

// ---------------------------------------------------------------------------
// Scoring.
// ---------------------------------------------------------------------------

double Counts::precision() const {
  return predicted == 0 ? 1.0 : static_cast<double>(correct) / predicted;
}
double Counts::recall() const { return truth == 0 ? 1.0 : static_cast<double>(correct) / truth; }
double Counts::f1() const {
  const double p = precision(), r = recall();
  return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
}
Counts& Counts::operator+=(const Counts& o) {
  predicted += o.predicted;
  truth += o.truth;
  correct += o.correct;
  return *this;
}

ListScores& ListScores::operator+=(const ListScores& o) {
  pages += o.pages;
  areas += o.areas;
  records += o.records;
  attributes += o.attributes;
  attributes_all_records += o.attributes_all_records;
  for (const auto& [name, c] : o.by_attribute) by_attribute[name] += c;
  perfect_records += o.perfect_records;
  return *this;
}

namespace {

// Where a truth record is: area and index.
struct TruthIndex {
  size_t area = 0;
  size_t record = 0;
};

bool SameValue(const PredictedValue& p, const TruthValue& t) {
  if (html::NormalizeSpace(p.value) == html::NormalizeSpace(t.value)) return true;
  const std::string text = html::NormalizeSpace(p.text);
  return !text.empty() && text == html::NormalizeSpace(t.text);
}

// Scores the attributes of one matched pair into `s`; true when perfect.
bool ScoreAttributes(const PredictedRecord& p, const TruthRecord& t, ListScores* s) {
  bool perfect = true;
  for (const auto& [name, truth] : t.attributes) {
    ++s->attributes.truth;
    ++s->by_attribute[name].truth;
    const auto it = p.attributes.find(name);
    if (it == p.attributes.end() || !SameValue(it->second, truth)) perfect = false;
  }
  for (const auto& [name, predicted] : p.attributes) {
    ++s->attributes.predicted;
    Counts& c = s->by_attribute[name];
    ++c.predicted;
    const auto it = t.attributes.find(name);
    if (it != t.attributes.end() && SameValue(predicted, it->second)) {
      ++s->attributes.correct;
      ++c.correct;
    } else {
      perfect = false;
    }
  }
  return perfect;
}

// The truth record a predicted record matches, if any: exactly one distinct
// truth link among its links.
const TruthIndex* MatchRecord(const PredictedRecord& p,
                              const std::map<std::string, TruthIndex>& by_link) {
  const TruthIndex* found = nullptr;
  std::string found_link;
  for (const std::string& link : p.links) {
    const auto it = by_link.find(link);
    if (it == by_link.end() || link == found_link) continue;
    if (found != nullptr) return nullptr;  // two truth links: ambiguous
    found = &it->second;
    found_link = link;
  }
  return found;
}

}  // namespace

ListScores ScoreListPage(const PredictedPage& predicted, const ListTruthPage& truth) {
  ListScores s;
  s.pages = 1;
  std::map<std::string, TruthIndex> by_link;
  for (size_t a = 0; a < truth.areas.size(); ++a) {
    for (size_t r = 0; r < truth.areas[a].records.size(); ++r) {
      const TruthRecord& t = truth.areas[a].records[r];
      by_link.emplace(t.link, TruthIndex{a, r});
      s.records.truth++;
      s.attributes_all_records.truth += t.attributes.size();
      for (const auto& [name, v] : t.attributes) s.by_attribute[name];  // listed even if missed
    }
  }
  s.areas.truth = truth.areas.size();
  s.areas.predicted = predicted.areas.size();
  std::set<std::pair<size_t, size_t>> matched;
  std::set<size_t> areas_found;
  for (const PredictedArea& area : predicted.areas) {
    std::map<size_t, size_t> per_truth_area;  // truth area -> matched records
    for (const PredictedRecord& p : area.records) {
      ++s.records.predicted;
      const TruthIndex* t = MatchRecord(p, by_link);
      if (t == nullptr || !matched.insert({t->area, t->record}).second) continue;
      ++s.records.correct;
      ++per_truth_area[t->area];
      if (ScoreAttributes(p, truth.areas[t->area].records[t->record], &s)) ++s.perfect_records;
    }
    if (per_truth_area.size() != 1) continue;
    const auto [truth_area, count] = *per_truth_area.begin();
    if (2 * count >= truth.areas[truth_area].records.size() &&
        areas_found.insert(truth_area).second) {
      ++s.areas.correct;
    }
  }
  s.attributes_all_records.predicted = s.attributes.predicted;
  s.attributes_all_records.correct = s.attributes.correct;
  return s;
}

std::string FormatListScores(const ListScores& total) {
  std::string out = absl::StrFormat("%zu page(s)\n%-24s %9s %9s %9s %9s %9s %9s\n", total.pages,
                                    "", "predicted", "truth", "correct", "precision", "recall",
                                    "F1");
  const auto line = [&out](const std::string& name, const Counts& c) {
    absl::StrAppendFormat(&out, "%-24s %9zu %9zu %9zu %9.4f %9.4f %9.4f\n", name, c.predicted,
                          c.truth, c.correct, c.precision(), c.recall(), c.f1());
  };
  line("data areas", total.areas);
  line("records", total.records);
  line("attributes", total.attributes);
  line("attributes (all records)", total.attributes_all_records);
  absl::StrAppendFormat(&out, "perfect records: %zu of %zu truth records (%.4f)\n",
                        total.perfect_records, total.records.truth,
                        total.records.truth == 0
                            ? 1.0
                            : static_cast<double>(total.perfect_records) / total.records.truth);
  for (const auto& [name, c] : total.by_attribute) line("  " + name, c);
  return out;
}

}  // namespace vertex::eval
