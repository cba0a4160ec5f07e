#include "common/monitor/bellwethers.h"

#include <algorithm>
#include <set>
#include <string>

#include "common/monitor/rule_checks.h"
#include "common/util/status_macros.h"

namespace vertex::monitor {
namespace {

int Distance(const shingle::ShingleVector& a, const shingle::ShingleVector& b) {
  int d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += a[i] != b[i];
  return d;
}

}  // namespace

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

absl::Status AddBellwethers(const extract::CompiledRule& rule, const v1::SampleState& state,
                            const v1::SampleCluster& sc, const std::vector<size_t>& annotated,
                            workflow::PagePool& pool, size_t count, store::RuleCommit* commit) {
  if (count == 0) return absl::OkStatus();
  std::vector<shingle::ShingleVector> vectors(static_cast<size_t>(state.urls_size()));
  for (int i = 0; i < state.vectors_size() && i < state.urls_size(); ++i) {
    const std::string& v = state.vectors(i);
    if (v.size() == vectors[i].size()) std::copy(v.begin(), v.end(), vectors[i].begin());
  }
  const std::vector<size_t> members(sc.pages().begin(), sc.pages().end());
  // Twice as many as needed: members the rule fails on are passed over.
  const std::vector<size_t> chosen = ChooseBellwethers(members, annotated, vectors, 2 * count);
  const std::set<size_t> is_annotated(annotated.begin(), annotated.end());
  std::set<std::string> snapshotted;
  for (const v1::PageSnapshot& s : commit->snapshots) snapshotted.insert(s.url());
  std::vector<std::string> urls;
  for (size_t p : chosen) {
    if (urls.size() >= count) break;
    VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(p));
    const site::PageFile* file = pool.File(p);
    v1::GoldenExtraction golden;
    bool complete = true;
    if (rule.record_level()) {
      // A list page is complete with a record (its own statuses aside).
      VERTEX_ASSIGN_OR_RETURN(extract::ListResult list, rule.ApplyRecords(*page));
      complete = !list.records.empty();
      golden = GoldenOfRecords(file->url, list.records, rule.schema());
    } else {
      VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results, rule.Apply(*page));
      for (size_t i = 0; i < results.size(); ++i) {
        complete = complete && !(rule.schema().attribute(i).mandatory() && results[i].values.empty());
      }
      golden = GoldenOf(file->url, results);
    }
    if (!complete && !is_annotated.count(p)) continue;
    urls.push_back(file->url);
    commit->golden.push_back(std::move(golden));
    if (snapshotted.insert(file->url).second) {
      v1::PageSnapshot snap;
      snap.set_url(file->url);
      snap.set_html(file->bytes);
      snap.set_fetched_unix_ms(commit->rule.created_unix_ms());
      commit->snapshots.push_back(std::move(snap));
    }
  }
  commit->bellwether_urls = std::move(urls);
  return absl::OkStatus();
}

}  // namespace vertex::monitor
