// Tiny sites for the tests of the adaptive pruning threshold: 1 to 30 pages
// of one template, or 5 + 5 pages of two (common/demo/versioned_site.h),
// with their ground truth, and the checks a run of the simulated editor
// through the APIs (workflow::RunSiteThroughApi, one annotated page per
// cluster) must pass on them: one cluster per template, a rule per cluster,
// and every attribute of every page extracted as the truth says. The same
// checks run offline (tests/workflow) and online (tests/cli).
//
// Thread-safety: pure functions.
#ifndef VERTEX_TESTS_TESTING_TINY_SITES_H_
#define VERTEX_TESTS_TESTING_TINY_SITES_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/demo/versioned_site.h"
#include "common/eval/ground_truth.h"
#include "common/schema/schema.h"
#include "common/workflow/api_editor.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace vertex::test_support {

struct TinySiteCase {
  int templates;
  int pages_per_template;
  std::string Name() const { return absl::StrCat(templates, "x", pages_per_template); }
};

// 1, 2, 5, 10 and 30 pages of one template; 5 + 5 pages of two.
inline const std::vector<TinySiteCase>& TinySiteCases() {
  static const std::vector<TinySiteCase> kCases = {{1, 1}, {1, 2}, {1, 5}, {1, 10}, {1, 30}, {2, 5}};
  return kCases;
}

struct TinySite {
  std::vector<demo::VersionedPage> generated;
  std::vector<workflow::ClientPage> pages;  // file "p<i>.htm"
  eval::GroundTruth truth;                  // by page id "p<i>"
  v1::Schema schema_proto;
  schema::CompiledSchema schema;
};

inline TinySite MakeTinySite(const TinySiteCase& c) {
  demo::VersionedSiteOptions o;
  o.templates = c.templates;
  o.pages_per_template = c.pages_per_template;
  v1::Schema proto;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(demo::VersionedSiteSchemaJson(), &proto).ok());
  TinySite site{demo::GenerateVersionedSite(o), {}, {}, proto, schema::CompiledSchema::FromProto(proto).value()};
  for (size_t i = 0; i < site.generated.size(); ++i) {
    const std::string id = absl::StrCat("p", i);
    site.pages.push_back({id + ".htm", site.generated[i].url, site.generated[i].html});
    for (const auto& [attribute, values] : site.generated[i].truth) site.truth.pages[id][attribute] = values;
  }
  return site;
}

// The checks of a run with one annotated page per cluster.
inline void ExpectTinySiteLearnt(const TinySiteCase& c, const TinySite& site, const workflow::ApiRunReport& report) {
  const std::string name = c.Name();
  EXPECT_EQ(report.sample.clusters_size(), c.templates) << name;
  EXPECT_EQ(report.sample.unassigned_pages(), 0u) << name;
  EXPECT_EQ(report.sample.prune_threshold(), 1u) << name;  // adaptive: clamp(n / 50, 1, 20)
  EXPECT_EQ(report.clusters_with_rule, static_cast<size_t>(c.templates)) << name;
  EXPECT_EQ(report.pages_annotated, static_cast<size_t>(c.templates)) << name;
  ASSERT_EQ(report.records.size(), site.generated.size()) << name;
  std::map<int, std::string> cluster_of_template;
  for (size_t i = 0; i < site.generated.size(); ++i) {
    const v1::ExtractedRecord& record = report.records[i].record();
    EXPECT_EQ(v1::ExtractedRecord::Status_Name(record.status()), "OK") << name << " page " << i;
    // The pages of one template share one cluster, the templates differ.
    auto [it, inserted] = cluster_of_template.emplace(site.generated[i].template_index, record.cluster_id());
    EXPECT_EQ(it->second, record.cluster_id()) << name << " page " << i;
    std::map<std::string, std::vector<std::string>> got;
    for (const v1::ExtractedAttribute& a : record.attributes()) {
      got[a.attribute()].assign(a.values().begin(), a.values().end());
    }
    for (const auto& [attribute, values] : site.generated[i].truth) {
      EXPECT_EQ(absl::StrJoin(got[attribute], "|"), absl::StrJoin(values, "|"))
          << name << " page " << i << " (" << site.generated[i].url << "): " << attribute;
    }
  }
  EXPECT_EQ(cluster_of_template.size(), static_cast<size_t>(c.templates)) << name;
}

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_TESTING_TINY_SITES_H_
