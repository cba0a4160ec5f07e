#include "common/cluster/cluster.h"

#include <map>
#include <set>

#include "common/util/random.h"
#include "gtest/gtest.h"

namespace vertex::cluster {
namespace {

using shingle::MaskedVector;
using shingle::ShingleVector;

MaskedVector M(const char* text) { return MaskedVector::Parse(text).value(); }

TEST(ClusterTest, ReproducesExample31OfThePaper) {
  const std::vector<ShingleVector> v = {
      {0, 0, 0, 0, 0, 1, 2, 4}, {0, 0, 0, 0, 0, 1, 5, 3}, {0, 0, 0, 0, 0, 6, 2, 3}};
  ClusterOptions options;
  options.prune_threshold = 1;  // the example keeps every non-zero count
  const Clustering c = ClusterVectors(v, options);
  // The narrative's mv1 covers v1 and v3, mv3 covers v2 and v3; after the
  // second pass their counts are 2 and 1 (mv2, covering v1 and v2, is 0).
  ASSERT_EQ(c.clusters.size(), 2u);
  EXPECT_EQ(c.clusters[0].signature, M("00.00.00.00.00.*.02.*"));
  EXPECT_EQ(c.clusters[0].importance, 2);
  EXPECT_EQ(c.clusters[0].members, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(c.clusters[1].signature, M("00.00.00.00.00.*.*.03"));
  EXPECT_EQ(c.clusters[1].importance, 1);
  EXPECT_EQ(c.clusters[1].members, (std::vector<size_t>{1}));
  EXPECT_TRUE(c.unassigned.empty());

  // With the threshold at 2, mv3 (count 1) is pruned and v2 is lost.
  options.prune_threshold = 2;
  const Clustering pruned = ClusterVectors(v, options);
  ASSERT_EQ(pruned.clusters.size(), 1u);
  EXPECT_EQ(pruned.clusters[0].members, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(pruned.unassigned, std::vector<size_t>{1});
}

TEST(ClusterTest, EqualCountsPreferTheMoreGeneralSignature) {
  // 25 identical pages: the 8/8, 7/8 and 6/8 vectors all count 25; the
  // cluster gets a 6/8 signature, which also covers slight variants.
  std::vector<ShingleVector> v(25, ShingleVector{9, 8, 7, 6, 5, 4, 3, 2});
  const Clustering c = ClusterVectors(v);
  ASSERT_EQ(c.clusters.size(), 1u);
  EXPECT_EQ(c.clusters[0].signature.kept(), 6);
  EXPECT_EQ(c.clusters[0].importance, 25);
  EXPECT_EQ(c.clusters[0].members.size(), 25u);
}

struct Synthetic {
  std::vector<ShingleVector> vectors;
  std::vector<int> label;  // template, or -1 for a one-off page
};

// Pages of `templates` templates: each page is its template's vector with up
// to two bytes changed (pages >= 6/8 similar), plus one-off noise pages.
Synthetic MakeSite(int templates, int pages_per_template, int noise, uint64_t seed) {
  util::Rng rng(seed);
  std::vector<ShingleVector> base(templates);
  for (auto& b : base) {
    for (auto& x : b) x = static_cast<uint8_t>(rng.Uniform(256));
  }
  Synthetic s;
  for (int t = 0; t < templates; ++t) {
    for (int p = 0; p < pages_per_template; ++p) {
      ShingleVector v = base[t];
      const int changes = static_cast<int>(rng.Uniform(3));
      // Variation concentrates on two "unstable" bytes, as real optional
      // sections do.
      for (int k = 0; k < changes; ++k) v[6 + k] = static_cast<uint8_t>(rng.Uniform(256));
      s.vectors.push_back(v);
      s.label.push_back(t);
    }
  }
  for (int n = 0; n < noise; ++n) {
    ShingleVector v;
    for (auto& x : v) x = static_cast<uint8_t>(rng.Uniform(256));
    s.vectors.push_back(v);
    s.label.push_back(-1);
  }
  // Interleave deterministically.
  for (size_t i = s.vectors.size(); i > 1; --i) {
    const size_t j = rng.Uniform(i);
    std::swap(s.vectors[i - 1], s.vectors[j]);
    std::swap(s.label[i - 1], s.label[j]);
  }
  return s;
}

TEST(ClusterTest, RecoversTemplatesAndPrunesNoise) {
  const Synthetic s = MakeSite(6, 300, 40, 99);
  const Clustering c = ClusterVectors(s.vectors);
  ASSERT_EQ(c.clusters.size(), 6u);
  std::set<int> seen;
  for (const Cluster& cl : c.clusters) {
    std::map<int, int> labels;
    for (size_t m : cl.members) labels[s.label[m]]++;
    ASSERT_EQ(labels.size(), 1u) << cl.signature.ToText();
    EXPECT_NE(labels.begin()->first, -1);
    EXPECT_EQ(labels.begin()->second, 300);
    EXPECT_TRUE(seen.insert(labels.begin()->first).second);
    for (size_t m : cl.members) EXPECT_TRUE(cl.signature.Covers(s.vectors[m]));
  }
  EXPECT_EQ(c.unassigned.size(), 40u);
  for (size_t u : c.unassigned) EXPECT_EQ(s.label[u], -1);
  for (size_t i = 1; i < c.clusters.size(); ++i) {
    EXPECT_GE(c.clusters[i - 1].importance, c.clusters[i].importance);
  }
}

TEST(ClusterTest, ThresholdDecidesWhichSmallTemplatesSurvive) {
  Synthetic s = MakeSite(1, 100, 0, 3);
  const Synthetic small = MakeSite(1, 15, 0, 4);
  s.vectors.insert(s.vectors.end(), small.vectors.begin(), small.vectors.end());
  ClusterOptions paper;
  paper.prune_threshold = kPaperPruneThreshold;
  EXPECT_EQ(ClusterVectors(s.vectors, paper).clusters.size(), 1u);
  EXPECT_EQ(ClusterVectors(s.vectors, paper).unassigned.size(), 15u);
  EXPECT_EQ(ClusterVectors(s.vectors, paper).prune_threshold, 20);
  // Adaptive (the default): 115 / 50 = 2, the small template survives.
  EXPECT_EQ(ClusterVectors(s.vectors).prune_threshold, 2);
  EXPECT_EQ(ClusterVectors(s.vectors).clusters.size(), 2u);
  ClusterOptions low;
  low.prune_threshold = 10;
  EXPECT_EQ(ClusterVectors(s.vectors, low).clusters.size(), 2u);
  EXPECT_TRUE(ClusterVectors(s.vectors, low).unassigned.empty());
}

TEST(ClusterTest, AdaptivePruneThreshold) {
  const std::vector<std::pair<size_t, int64_t>> cases = {
      {0, 1}, {1, 1}, {2, 1}, {49, 1}, {50, 1}, {99, 1}, {100, 2}, {999, 19}, {1000, 20}, {2000, 20}, {20000, 20},
  };
  for (const auto& [size, want] : cases) {
    EXPECT_EQ(AdaptivePruneThreshold(size), want) << size;
    EXPECT_EQ(EffectivePruneThreshold(ClusterOptions(), size), want) << size;
  }
  ClusterOptions explicit_threshold;
  explicit_threshold.prune_threshold = 7;
  EXPECT_EQ(EffectivePruneThreshold(explicit_threshold, 10), 7);
  EXPECT_EQ(EffectivePruneThreshold(explicit_threshold, 5000), 7);
}

// A site of one page, or two of one template, forms its cluster.
TEST(ClusterTest, TinySamplesFormTheirCluster) {
  for (int pages : {1, 2, 5, 30}) {
    const Synthetic s = MakeSite(1, pages, 0, 5);
    const Clustering c = ClusterVectors(s.vectors);
    EXPECT_EQ(c.prune_threshold, 1) << pages;
    ASSERT_EQ(c.clusters.size(), 1u) << pages;
    EXPECT_EQ(c.clusters[0].members.size(), static_cast<size_t>(pages));
    EXPECT_TRUE(c.unassigned.empty()) << pages;
  }
  const Synthetic one = MakeSite(1, 1, 0, 6);
  ClusterOptions paper;
  paper.prune_threshold = kPaperPruneThreshold;
  EXPECT_TRUE(ClusterVectors(one.vectors, paper).clusters.empty());
  EXPECT_EQ(ClusterVectors(one.vectors, paper).unassigned, std::vector<size_t>{0});
}

TEST(ClusterTest, EmptyInput) {
  const Clustering c = ClusterVectors({});
  EXPECT_TRUE(c.clusters.empty());
  EXPECT_TRUE(c.unassigned.empty());
}

TEST(ClusterTest, AssignToClusterPicksTheMostImportantCoveringSignature) {
  std::vector<Cluster> clusters(2);
  clusters[0].signature = M("01.02.03.04.05.06.*.*");
  clusters[0].importance = 50;
  clusters[1].signature = M("01.02.03.04.05.*.*.08");
  clusters[1].importance = 80;
  EXPECT_EQ(AssignToCluster(clusters, {1, 2, 3, 4, 5, 6, 7, 8}), std::optional<size_t>(1));
  EXPECT_EQ(AssignToCluster(clusters, {1, 2, 3, 4, 5, 6, 7, 9}), std::optional<size_t>(0));
  EXPECT_EQ(AssignToCluster(clusters, {9, 2, 3, 4, 5, 6, 7, 8}), std::nullopt);
}

TEST(SampleSiteTest, SizeBoundsAndDeterminism) {
  struct Case {
    size_t site;
    double rate;
    size_t min, max, expected;
  };
  const std::vector<Case> cases = {
      {100000, 0.2, 1000, 20000, 20000}, {50000, 0.2, 1000, 20000, 10000},
      {2000, 0.2, 1000, 20000, 1000},    {2000, 0.2, 0, 20000, 400},
      {300, 0.2, 1000, 20000, 300},      {0, 0.2, 1000, 20000, 0},
      {10, 1.0, 0, 5, 5},
  };
  for (const Case& c : cases) {
    SampleOptions o;
    o.rate = c.rate;
    o.min_pages = c.min;
    o.max_pages = c.max;
    const std::vector<size_t> s = SampleSite(c.site, o);
    EXPECT_EQ(s.size(), c.expected) << c.site;
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    EXPECT_EQ(std::set<size_t>(s.begin(), s.end()).size(), s.size());
    if (!s.empty()) {
      EXPECT_LT(s.back(), c.site);
    }
  }
  SampleOptions a, b;
  b.seed = 2;
  a.min_pages = b.min_pages = 0;
  EXPECT_EQ(SampleSite(10000, a), SampleSite(10000, a));
  EXPECT_NE(SampleSite(10000, a), SampleSite(10000, b));
}

}  // namespace
}  // namespace vertex::cluster
