#include "common/workflow/rule_checks.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/util/status_macros.h"

namespace vertex::workflow {
namespace {

std::vector<std::string> Sorted(const google::protobuf::RepeatedPtrField<std::string>& values) {
  std::vector<std::string> out(values.begin(), values.end());
  std::sort(out.begin(), out.end());
  return out;
}

int Distance(const shingle::ShingleVector& a, const shingle::ShingleVector& b) {
  int d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += a[i] != b[i];
  return d;
}

}  // namespace

v1::GoldenExtraction GoldenOf(const std::string& url, const std::vector<extract::AttributeResult>& results) {
  v1::GoldenExtraction golden;
  golden.set_url(url);
  for (const extract::AttributeResult& r : results) {
    v1::AttributeValues* values = golden.add_attributes();
    values->set_attribute(r.attribute);
    for (const std::string& v : r.values) values->add_values(v);
  }
  return golden;
}

void FieldTest(const schema::CompiledSchema& schema, const std::vector<extract::AttributeResult>& results,
               const v1::GoldenExtraction* golden, v1::PageCheck* check) {
  std::map<std::string, const v1::AttributeValues*> old;
  if (golden != nullptr) {
    for (const v1::AttributeValues& a : golden->attributes()) old[a.attribute()] = &a;
  }
  for (const extract::AttributeResult& r : results) {
    const int k = schema.Find(r.attribute);
    if (k < 0) continue;
    const v1::AttributeSchema& a = schema.attribute(static_cast<size_t>(k));
    if (a.mandatory() && r.values.empty()) check->add_missing_mandatory(r.attribute);
    if (!a.constant()) continue;
    auto it = old.find(r.attribute);
    if (it == old.end()) continue;
    std::vector<std::string> fresh = r.values;
    std::sort(fresh.begin(), fresh.end());
    if (fresh == Sorted(it->second->values())) continue;
    v1::AttributeChange* change = check->add_changed_constants();
    change->set_attribute(r.attribute);
    *change->mutable_golden() = it->second->values();
    for (const std::string& v : r.values) change->add_fresh(v);
  }
}

std::vector<std::string> LostAttributes(const std::vector<extract::AttributeResult>& results,
                                        const v1::GoldenExtraction& golden) {
  std::map<std::string, bool> had;
  for (const v1::AttributeValues& a : golden.attributes()) had[a.attribute()] = a.values_size() > 0;
  std::vector<std::string> lost;
  for (const extract::AttributeResult& r : results) {
    if (r.values.empty() && had[r.attribute]) lost.push_back(r.attribute);
  }
  return lost;
}

bool FailsFieldTest(const v1::PageCheck& check) {
  return !check.parse_error().empty() || check.missing_mandatory_size() > 0 || check.changed_constants_size() > 0;
}

absl::StatusOr<std::vector<extract::AttributeResult>> CheckPage(const extract::CompiledRule& rule,
                                                                std::string_view html, const std::string& url,
                                                                const v1::GoldenExtraction* golden,
                                                                html::Parser& parser, v1::PageCheck* check) {
  check->set_url(url);
  check->set_has_golden(golden != nullptr);
  shingle::Shingler shingler;
  absl::StatusOr<html::Page> page = parser.Parse(html, url, "", &shingler);
  if (!page.ok()) {
    check->set_parse_error(std::string(page.status().message()));
    return std::vector<extract::AttributeResult>();
  }
  check->set_covered(rule.signature().Covers(shingler.Finish()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results, rule.Apply(*page));
  FieldTest(rule.schema(), results, golden, check);
  return results;
}

std::vector<size_t> ChooseBellwethers(const std::vector<size_t>& members, const std::vector<size_t>& first,
                                      const std::vector<shingle::ShingleVector>& vectors, size_t count) {
  std::vector<size_t> chosen;
  std::set<size_t> taken;
  for (size_t p : first) {
    if (chosen.size() >= count) break;
    if (taken.insert(p).second) chosen.push_back(p);
  }
  // nearest[i]: distance of members[i] to its nearest chosen page.
  std::vector<int> nearest(members.size(), shingle::kVectorBytes + 1);
  auto update = [&](size_t page) {
    if (page >= vectors.size()) return;
    for (size_t i = 0; i < members.size(); ++i) {
      if (members[i] < vectors.size()) nearest[i] = std::min(nearest[i], Distance(vectors[members[i]], vectors[page]));
    }
  };
  for (size_t p : chosen) update(p);
  while (chosen.size() < count) {
    size_t best = members.size();
    for (size_t i = 0; i < members.size(); ++i) {
      if (taken.count(members[i])) continue;
      if (best == members.size() || nearest[i] > nearest[best]) best = i;
    }
    if (best == members.size()) break;
    taken.insert(members[best]);
    chosen.push_back(members[best]);
    update(members[best]);
  }
  return chosen;
}

}  // namespace vertex::workflow
