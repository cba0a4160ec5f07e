// Behavioural tests of the rule store, run against both engines (in-memory
// and RocksDB) through the same RuleStore interface, plus the key layout and
// the in-memory engine's fault injection. RocksDB-only behaviour (locking,
// crash recovery, secondaries) is in rocksdb_store_test.cc.
#include "common/store/rule_store.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <limits>
#include <set>
#include <thread>

#include "common/store/keys.h"
#include "common/store/memory_kv.h"
#include "common/store/rocksdb_kv.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::store {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string UniqueTempDir(const std::string& name) {
  static std::atomic<int> counter{0};
  const fs::path dir =
      fs::temp_directory_path() / ("vertex_store_test_" + std::to_string(getpid()) + "_" +
                                   std::to_string(counter++) + "_" + name);
  fs::remove_all(dir);
  return dir.string();
}

v1::SiteRecord Site(const std::string& name, const std::string& vertical = "book") {
  v1::SiteRecord site;
  site.set_site(name);
  site.mutable_schema()->set_vertical(vertical);
  v1::AttributeSchema* title = site.mutable_schema()->add_attributes();
  title->set_name("title");
  title->set_mandatory(true);
  site.set_created_unix_ms(1700000000000);
  return site;
}

v1::ClusterRecord Cluster(const std::string& id, const std::string& signature, int64_t importance) {
  v1::ClusterRecord c;
  c.set_cluster_id(id);
  c.set_signature(signature);
  c.set_importance(importance);
  c.set_url_regex("https?://x\\.test/" + id + "/[0-9]+");
  c.add_bellwether_urls("http://x.test/" + id + "/1");
  return c;
}

RuleCommit Commit(const std::string& site, const std::string& cluster, const std::string& tag,
                  int snapshots = 2) {
  RuleCommit commit;
  commit.rule.set_site(site);
  commit.rule.set_cluster_id(cluster);
  v1::AttributeRule* title = commit.rule.add_attributes();
  title->set_attribute("title");
  title->set_method(v1::AttributeRule::XPATH);
  title->set_xpath("//h1[@class='" + tag + "']");
  commit.rule.add_annotated_urls("http://x.test/" + cluster + "/" + tag);
  for (int i = 0; i < snapshots; ++i) {
    v1::PageSnapshot page;
    page.set_url("http://x.test/" + cluster + "/" + std::to_string(i));
    page.set_html(std::string("<h1>\0\xff", 6) + tag + std::to_string(i));
    commit.snapshots.push_back(page);
  }
  v1::GoldenExtraction golden;
  golden.set_url("http://x.test/" + cluster + "/1");
  v1::AttributeValues* values = golden.add_attributes();
  values->set_attribute("title");
  values->add_values("title " + tag);
  commit.golden.push_back(golden);
  return commit;
}

v1::SamplePage SamplePage(const std::string& url) {
  v1::SamplePage page;
  page.set_url(url);
  page.set_html("<p>" + url + "</p>");
  return page;
}

std::vector<std::string> Ids(const std::vector<v1::ClusterRecord>& clusters) {
  std::vector<std::string> ids;
  for (const v1::ClusterRecord& c : clusters) ids.push_back(c.site() + "/" + c.cluster_id());
  return ids;
}

// Every key of `site` left in any family, printed.
std::vector<std::string> KeysOfSite(const KvEngine& engine, const std::string& site) {
  std::vector<std::string> found;
  const std::unique_ptr<KvReader> reader = engine.NewReader();
  for (Family family : kAllFamilies) {
    const absl::Status s = reader->Scan(family, "", [&](std::string_view key, std::string_view) {
      bool mine = key.substr(0, site.size() + 1) == keys::SitePrefix(site);
      if (family == Family::kSites || family == Family::kSampleState) mine = key == site;
      if (family == Family::kBySignature) mine = keys::ParseSignature(key)->site == site;
      if (mine) found.push_back(DescribeKey(family, key));
      return true;
    });
    EXPECT_TRUE(s.ok()) << s;
  }
  return found;
}

size_t KeyCount(const KvEngine& engine) {
  size_t n = 0;
  const std::unique_ptr<KvReader> reader = engine.NewReader();
  for (Family family : kAllFamilies) {
    if (family == Family::kMeta) continue;
    EXPECT_TRUE(reader->Scan(family, "", [&](auto, auto) { return ++n > 0; }).ok());
  }
  return n;
}

void CorruptValue(KvEngine& engine, Family family, const std::string& key,
                  const std::string& bytes = "\x0a\xff garbage") {
  KvBatch batch;
  batch.Put(family, key, bytes);
  ASSERT_TRUE(engine.Write(batch).ok());
}

// ---- The behavioural suite, for each engine --------------------------------

enum class Backend { kMemory, kRocksDb };

void PrintTo(Backend backend, std::ostream* os) {
  *os << (backend == Backend::kMemory ? "Memory" : "RocksDb");
}

class RuleStoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    dir_ = UniqueTempDir("suite");
    Open();
  }

  void TearDown() override {
    store_.reset();
    engine_.reset();
    fs::remove_all(dir_);
  }

  void Open() {
    if (GetParam() == Backend::kMemory) {
      if (engine_ == nullptr) engine_ = std::make_shared<MemoryKv>();
    } else {
      absl::StatusOr<std::unique_ptr<RocksDbKv>> kv = RocksDbKv::Open(dir_, StoreOptions());
      ASSERT_TRUE(kv.ok()) << kv.status();
      engine_ = *std::move(kv);
    }
    absl::StatusOr<std::unique_ptr<RuleStore>> store = NewRuleStore(engine_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  // Closes the store (and the database) and opens it again.
  void Reopen() {
    store_.reset();
    if (GetParam() == Backend::kRocksDb) engine_.reset();
    Open();
  }

  // Registers `site` with `clusters` ("id:signature:importance" each).
  void AddSite(const std::string& site, const std::vector<v1::ClusterRecord>& clusters) {
    ASSERT_TRUE(store_->PutSite(Site(site)).ok());
    ASSERT_TRUE(store_->PutClusters(site, clusters).ok());
  }

  int64_t MustCommit(const RuleCommit& commit) {
    absl::StatusOr<int64_t> version = store_->CommitRule(commit);
    EXPECT_TRUE(version.ok()) << version.status();
    return version.value_or(-1);
  }

  std::string dir_;
  std::shared_ptr<KvEngine> engine_;
  std::unique_ptr<RuleStore> store_;
};

TEST_P(RuleStoreTest, SiteCrudAndNotFound) {
  absl::StatusOr<v1::SiteRecord> missing = store_->GetSite("shop");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("\"shop\""));
  EXPECT_EQ(store_->DeleteSite("shop").code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(store_->ListSites().value(), IsEmpty());

  ASSERT_TRUE(store_->PutSite(Site("shop")).ok());
  ASSERT_TRUE(store_->PutSite(Site("books")).ok());
  v1::SiteRecord got = store_->GetSite("shop").value();
  EXPECT_EQ(got.SerializeAsString(), Site("shop").SerializeAsString());
  EXPECT_THAT(store_->ListSites().value(), ElementsAre("books", "shop"));

  // Replacing the schema keeps the cluster ids the store maintains; ids
  // given to PutSite are ignored.
  ASSERT_TRUE(store_->PutClusters("shop", {Cluster("c0", "s0", 5)}).ok());
  v1::SiteRecord changed = Site("shop", "product");
  changed.add_cluster_ids("bogus");
  ASSERT_TRUE(store_->PutSite(changed).ok());
  got = store_->GetSite("shop").value();
  EXPECT_EQ(got.schema().vertical(), "product");
  EXPECT_THAT(got.cluster_ids(), ElementsAre("c0"));

  ASSERT_TRUE(store_->DeleteSite("shop").ok());
  EXPECT_EQ(store_->GetSite("shop").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteSite("shop").code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(store_->ListSites().value(), ElementsAre("books"));
}

TEST_P(RuleStoreTest, ClusterCrudOrderAndRoutes) {
  EXPECT_EQ(store_->PutClusters("shop", {Cluster("c0", "s0", 1)}).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->ClustersOfSite("shop").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->RoutesOfSite("shop").status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(store_->PutSite(Site("shop")).ok());
  EXPECT_THAT(store_->ClustersOfSite("shop").value(), IsEmpty());
  AddSite("shop", {Cluster("b", "s1", 7), Cluster("a", "s2", 7), Cluster("z", "s3", 40)});

  v1::ClusterRecord b = store_->GetCluster("shop", "b").value();
  EXPECT_EQ(b.site(), "shop");
  EXPECT_EQ(b.signature(), "s1");
  EXPECT_EQ(b.importance(), 7);
  EXPECT_EQ(b.url_regex(), "https?://x\\.test/b/[0-9]+");
  EXPECT_EQ(b.current_version(), 0);
  EXPECT_THAT(b.bellwether_urls(), ElementsAre("http://x.test/b/1"));

  absl::StatusOr<v1::ClusterRecord> missing = store_->GetCluster("shop", "q");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("cluster \"q\""));
  missing = store_->GetCluster("nosite", "b");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("site \"nosite\" not found"));

  // By decreasing importance, ties by id; the site's list agrees.
  EXPECT_THAT(Ids(store_->ClustersOfSite("shop").value()),
              ElementsAre("shop/z", "shop/a", "shop/b"));
  EXPECT_THAT(store_->GetSite("shop").value().cluster_ids(), ElementsAre("z", "a", "b"));
  // Routes carry what rule matching needs and nothing bulky.
  const std::vector<v1::ClusterRecord> routes = store_->RoutesOfSite("shop").value();
  EXPECT_THAT(Ids(routes), ElementsAre("shop/z", "shop/a", "shop/b"));
  EXPECT_EQ(routes[2].url_regex(), b.url_regex());
  EXPECT_EQ(routes[2].signature(), "s1");
  EXPECT_EQ(routes[2].importance(), 7);
  EXPECT_EQ(routes[2].bellwether_urls_size(), 0);

  // Routes follow rule commits.
  MustCommit(Commit("shop", "b", "one"));
  EXPECT_EQ(store_->RoutesOfSite("shop").value()[2].current_version(), 1);
}

TEST_P(RuleStoreTest, PutClustersRejectsBadRecords) {
  ASSERT_TRUE(store_->PutSite(Site("shop")).ok());
  v1::ClusterRecord other_site = Cluster("c", "s", 1);
  other_site.set_site("elsewhere");
  const std::vector<std::pair<std::vector<v1::ClusterRecord>, std::string>> cases = {
      {{Cluster("c", "s", 1), Cluster("c", "t", 2)}, "given twice"},
      {{other_site}, "elsewhere"},
      {{Cluster("", "s", 1)}, "cluster_id is empty"},
      {{Cluster("c", std::string("s\0t", 3), 1)}, "signature"},
  };
  for (const auto& [clusters, message] : cases) {
    const absl::Status s = store_->PutClusters("shop", clusters);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << message;
    EXPECT_THAT(std::string(s.message()), HasSubstr(message));
  }
  EXPECT_THAT(store_->ClustersOfSite("shop").value(), IsEmpty());
}

TEST_P(RuleStoreTest, PutClustersReplacesTheSetOfClusters) {
  AddSite("shop", {Cluster("a", "sa", 3), Cluster("b", "sb", 2), Cluster("c", "sc", 1)});
  MustCommit(Commit("shop", "a", "a1"));
  MustCommit(Commit("shop", "b", "b1"));
  MustCommit(Commit("shop", "b", "b2"));
  ASSERT_TRUE(store_->Rollback("shop", "b", 1).ok());

  // Re-clustering: a and c disappear, b changes signature, d is new.
  v1::ClusterRecord b = Cluster("b", "sb2", 9);
  b.clear_bellwether_urls();
  ASSERT_TRUE(store_->PutClusters("shop", {b, Cluster("d", "sd", 4)}).ok());

  for (const std::string id : {"a", "c"}) {
    EXPECT_EQ(store_->GetCluster("shop", id).status().code(), absl::StatusCode::kNotFound) << id;
    EXPECT_EQ(store_->ListRuleVersions("shop", id).status().code(), absl::StatusCode::kNotFound);
  }
  EXPECT_THAT(store_->ClustersBySignature("sa").value(), IsEmpty());
  EXPECT_THAT(store_->ClustersBySignature("sc").value(), IsEmpty());
  EXPECT_THAT(store_->ClustersBySignature("sb").value(), IsEmpty());
  EXPECT_THAT(Ids(store_->ClustersBySignature("sb2").value()), ElementsAre("shop/b"));
  EXPECT_THAT(Ids(store_->ClustersOfSite("shop").value()), ElementsAre("shop/b", "shop/d"));
  EXPECT_THAT(Ids(store_->RoutesOfSite("shop").value()), ElementsAre("shop/b", "shop/d"));
  EXPECT_THAT(store_->GetSite("shop").value().cluster_ids(), ElementsAre("b", "d"));

  // b keeps its rule state and (none given) its bellwethers.
  const v1::ClusterRecord kept = store_->GetCluster("shop", "b").value();
  EXPECT_EQ(kept.current_version(), 1);
  EXPECT_EQ(kept.latest_version(), 2);
  EXPECT_EQ(kept.importance(), 9);
  EXPECT_THAT(kept.bellwether_urls(), ElementsAre("http://x.test/b/1"));
  EXPECT_EQ(kept.golden(0).attributes(0).values(0), "title b1");
  EXPECT_THAT(store_->ListRuleVersions("shop", "b").value(), ElementsAre(1, 2));
  EXPECT_EQ(store_->GetCluster("shop", "d").value().current_version(), 0);

  // Nothing of a or c is left in any family.
  for (const std::string& key : KeysOfSite(*engine_, "shop")) {
    EXPECT_THAT(key, ::testing::Not(HasSubstr("\"a\""))) << key;
    EXPECT_THAT(key, ::testing::Not(HasSubstr("\"c\""))) << key;
  }
}

TEST_P(RuleStoreTest, ClustersBySignatureSpansSitesAndForgetsDeletions) {
  AddSite("s1", {Cluster("c0", "0a.*.ff", 2), Cluster("c1", "other", 1)});
  AddSite("s2", {Cluster("k", "0a.*.ff", 5)});
  AddSite("s3", {Cluster("m", "0a.*", 5)});  // a prefix of the signature
  EXPECT_THAT(Ids(store_->ClustersBySignature("0a.*.ff").value()), ElementsAre("s1/c0", "s2/k"));
  EXPECT_THAT(Ids(store_->ClustersBySignature("0a.*").value()), ElementsAre("s3/m"));
  EXPECT_THAT(store_->ClustersBySignature("nothing").value(), IsEmpty());

  ASSERT_TRUE(store_->DeleteSite("s1").ok());
  EXPECT_THAT(Ids(store_->ClustersBySignature("0a.*.ff").value()), ElementsAre("s2/k"));
  ASSERT_TRUE(store_->PutClusters("s2", {}).ok());
  EXPECT_THAT(store_->ClustersBySignature("0a.*.ff").value(), IsEmpty());
  EXPECT_THAT(store_->GetSite("s2").value().cluster_ids(), IsEmpty());
}

TEST_P(RuleStoreTest, SiteAndClusterIdsThatArePrefixesStaySeparate) {
  AddSite("ab", {Cluster("c", "x", 1)});
  AddSite("abc", {Cluster("c", "x", 1), Cluster("c1", "y", 1)});
  AddSite("a", {Cluster("bc", "x", 1)});  // "a" + "bc" must not look like "ab" + "c"
  MustCommit(Commit("abc", "c1", "v1"));
  MustCommit(Commit("abc", "c", "v1"));
  MustCommit(Commit("abc", "c", "v2"));
  MustCommit(Commit("ab", "c", "v1"));

  EXPECT_THAT(Ids(store_->ClustersOfSite("ab").value()), ElementsAre("ab/c"));
  EXPECT_THAT(Ids(store_->RoutesOfSite("a").value()), ElementsAre("a/bc"));
  EXPECT_THAT(store_->ListRuleVersions("abc", "c").value(), ElementsAre(1, 2));
  EXPECT_THAT(store_->ListRuleVersions("ab", "c").value(), ElementsAre(1));
  EXPECT_THAT(store_->ListRuleVersions("a", "bc").value(), IsEmpty());
  EXPECT_EQ(store_->Snapshots("a", "bc", kCurrentVersion).value().size(), 0u);

  const size_t keys_of_abc = KeysOfSite(*engine_, "abc").size();
  ASSERT_TRUE(store_->DeleteSite("ab").ok());
  ASSERT_TRUE(store_->PutClusters("abc", {Cluster("c1", "y", 1)}).ok());  // drops "c"
  EXPECT_LT(KeysOfSite(*engine_, "abc").size(), keys_of_abc);
  EXPECT_THAT(store_->ListRuleVersions("abc", "c1").value(), ElementsAre(1));
  EXPECT_EQ(store_->Snapshots("abc", "c1", kCurrentVersion).value().size(), 2u);
  EXPECT_THAT(Ids(store_->ClustersOfSite("a").value()), ElementsAre("a/bc"));
  EXPECT_THAT(Ids(store_->ClustersBySignature("x").value()), ElementsAre("a/bc"));
}

TEST_P(RuleStoreTest, RuleVersionsIncrementAndRollBack) {
  AddSite("shop", {Cluster("c", "sig", 12)});
  EXPECT_EQ(store_->CommitRule(Commit("nosite", "c", "x")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->CommitRule(Commit("shop", "nocluster", "x")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetRule("shop", "c", kCurrentVersion).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_THAT(store_->ListRuleVersions("shop", "c").value(), IsEmpty());

  EXPECT_EQ(MustCommit(Commit("shop", "c", "v1")), 1);
  EXPECT_EQ(MustCommit(Commit("shop", "c", "v2", 3)), 2);
  EXPECT_EQ(MustCommit(Commit("shop", "c", "v3", 1)), 3);
  EXPECT_THAT(store_->ListRuleVersions("shop", "c").value(), ElementsAre(1, 2, 3));

  v1::Rule current = store_->GetRule("shop", "c", kCurrentVersion).value();
  EXPECT_EQ(current.version(), 3);
  EXPECT_EQ(current.annotated_urls(0), "http://x.test/c/v3");
  // Filled in from the cluster.
  EXPECT_EQ(current.signature(), "sig");
  EXPECT_EQ(current.importance(), 12);
  EXPECT_EQ(current.url_regex(), "https?://x\\.test/c/[0-9]+");
  EXPECT_EQ(store_->GetRule("shop", "c", 1).value().attributes(0).xpath(), "//h1[@class='v1']");

  ASSERT_TRUE(store_->Rollback("shop", "c", 1).ok());
  EXPECT_EQ(store_->GetRule("shop", "c", kCurrentVersion).value().version(), 1);
  v1::ClusterRecord cluster = store_->GetCluster("shop", "c").value();
  EXPECT_EQ(cluster.current_version(), 1);
  EXPECT_EQ(cluster.latest_version(), 3);
  EXPECT_EQ(cluster.golden(0).attributes(0).values(0), "title v1");
  EXPECT_EQ(store_->Snapshots("shop", "c", kCurrentVersion).value().size(), 2u);
  EXPECT_EQ(store_->Snapshots("shop", "c", 2).value().size(), 3u);

  // The next commit still gets a new number.
  EXPECT_EQ(MustCommit(Commit("shop", "c", "v4")), 4);
  EXPECT_EQ(store_->GetCluster("shop", "c").value().current_version(), 4);

  const absl::Status unknown = store_->Rollback("shop", "c", 7);
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(unknown.message()), HasSubstr("version 7"));
  EXPECT_EQ(store_->GetCluster("shop", "c").value().current_version(), 4);
  EXPECT_EQ(store_->Rollback("shop", "c", 0).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Rollback("shop", "c", -2).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Rollback("shop", "zz", 1).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetRule("shop", "c", 9).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetRule("shop", "c", -1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Snapshots("shop", "c", 9).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->Snapshots("shop", "c", -1).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_P(RuleStoreTest, CommitStoresSnapshotsGoldenAndBellwethers) {
  AddSite("shop", {Cluster("c", "sig", 1)});
  RuleCommit commit = Commit("shop", "c", "v1", 3);
  commit.bellwether_urls = std::vector<std::string>{"http://x.test/c/7", "http://x.test/c/8"};
  MustCommit(commit);
  const std::vector<v1::PageSnapshot> pages = store_->Snapshots("shop", "c", 1).value();
  ASSERT_EQ(pages.size(), 3u);
  for (size_t i = 0; i < pages.size(); ++i) {
    EXPECT_EQ(pages[i].SerializeAsString(), commit.snapshots[i].SerializeAsString()) << i;
  }
  EXPECT_EQ(pages[0].html().substr(0, 6), std::string("<h1>\0\xff", 6));  // bytes kept
  v1::ClusterRecord cluster = store_->GetCluster("shop", "c").value();
  EXPECT_THAT(cluster.bellwether_urls(), ElementsAre("http://x.test/c/7", "http://x.test/c/8"));
  ASSERT_EQ(cluster.golden_size(), 1);
  EXPECT_EQ(cluster.golden(0).SerializeAsString(), commit.golden[0].SerializeAsString());

  // nullopt keeps the bellwethers; empty golden clears the golden ones.
  RuleCommit second = Commit("shop", "c", "v2", 0);
  second.golden.clear();
  MustCommit(second);
  cluster = store_->GetCluster("shop", "c").value();
  EXPECT_EQ(cluster.bellwether_urls_size(), 2);
  EXPECT_EQ(cluster.golden_size(), 0);
  EXPECT_THAT(store_->Snapshots("shop", "c", kCurrentVersion).value(), IsEmpty());
}

TEST_P(RuleStoreTest, DeleteSiteRemovesEveryKeyOfTheSite) {
  AddSite("gone", {Cluster("c0", "shared", 2), Cluster("c1", "own", 1)});
  AddSite("kept", {Cluster("c0", "shared", 2)});
  for (const std::string site : {"gone", "kept"}) {
    MustCommit(Commit(site, "c0", "v1"));
    MustCommit(Commit(site, "c0", "v2"));
  }
  MustCommit(Commit("gone", "c1", "v1"));
  for (const std::string site : {"gone", "kept"}) {
    ASSERT_TRUE(store_->PutSamplePages(site, {SamplePage("http://x.test/1"), SamplePage("http://x.test/2")}).ok());
  }
  const std::vector<std::string> kept_keys = KeysOfSite(*engine_, "kept");
  ASSERT_GE(KeysOfSite(*engine_, "gone").size(), 18u);

  ASSERT_TRUE(store_->DeleteSite("gone").ok());
  EXPECT_THAT(KeysOfSite(*engine_, "gone"), IsEmpty());
  EXPECT_EQ(KeysOfSite(*engine_, "kept"), kept_keys);
  EXPECT_EQ(KeyCount(*engine_), kept_keys.size());
  EXPECT_THAT(Ids(store_->ClustersBySignature("shared").value()), ElementsAre("kept/c0"));

  // The id can be reused from scratch.
  AddSite("gone", {Cluster("c0", "shared", 2)});
  EXPECT_EQ(MustCommit(Commit("gone", "c0", "again")), 1);
}

TEST_P(RuleStoreTest, SamplePagesAppendReplaceAndCluster) {
  AddSite("shop", {});
  EXPECT_EQ(store_->GetSampleState("shop").value().urls_size(), 0);
  EXPECT_EQ(store_->PutSamplePages("nowhere", {SamplePage("http://x.test/1")}).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->PutSamplePages("shop", {SamplePage("")}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(store_->PutSamplePages("shop", {SamplePage("http://x.test/a"), SamplePage("http://x.test/b")}).value(),
              ElementsAre(0u, 1u));
  v1::SamplePage again = SamplePage("http://x.test/b");
  again.set_html("<p>b2</p>");
  EXPECT_THAT(store_->PutSamplePages("shop", {SamplePage("http://x.test/c"), again}).value(), ElementsAre(2u, 1u));
  v1::SampleState state = store_->GetSampleState("shop").value();
  EXPECT_THAT(state.urls(), ElementsAre("http://x.test/a", "http://x.test/b", "http://x.test/c"));
  EXPECT_EQ(store_->GetSamplePage("shop", 1).value().html(), "<p>b2</p>");
  EXPECT_EQ(store_->GetSamplePage("shop", 3).status().code(), absl::StatusCode::kNotFound);

  // Clustering is stored with the clusters in one write, and only for the
  // sample it was computed from.
  state.add_clusters()->set_cluster_id("c0");
  state.mutable_clusters(0)->add_pages(0);
  ASSERT_TRUE(store_->PutSampleClustering("shop", state, {Cluster("c0", "sig", 3)}).ok());
  EXPECT_EQ(store_->GetSampleState("shop").value().clusters(0).cluster_id(), "c0");
  EXPECT_EQ(store_->GetCluster("shop", "c0").value().importance(), 3);
  v1::SampleState stale = state;
  stale.mutable_urls()->RemoveLast();
  EXPECT_EQ(store_->PutSampleClustering("shop", stale, {}).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(store_->GetCluster("shop", "c0").ok());
}

TEST_P(RuleStoreTest, EditorStateIsKeptAndCommittedWithRules) {
  AddSite("shop", {Cluster("c", "sig", 1)});
  v1::EditorState editor;
  editor.set_state(v1::NEEDS_MORE_PAGES);
  editor.add_annotations()->set_url("http://x.test/1");
  ASSERT_TRUE(store_->PutEditorState("shop", "c", editor).ok());
  EXPECT_EQ(store_->PutEditorState("shop", "nope", editor).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetCluster("shop", "c").value().editor().state(), v1::NEEDS_MORE_PAGES);
  RuleCommit commit = Commit("shop", "c", "v1");
  commit.editor = editor;
  commit.editor->set_state(v1::DONE);
  MustCommit(commit);
  v1::ClusterRecord cluster = store_->GetCluster("shop", "c").value();
  EXPECT_EQ(cluster.editor().state(), v1::DONE);
  EXPECT_EQ(cluster.editor().annotations_size(), 1);
  // Routes do not carry it.
  EXPECT_FALSE(store_->RoutesOfSite("shop").value()[0].has_editor());
}

TEST_P(RuleStoreTest, CandidatesWaitForAcceptOrReject) {
  AddSite("shop", {Cluster("c", "sig", 1)});
  MustCommit(Commit("shop", "c", "v1"));
  RuleCommit candidate = Commit("shop", "c", "repair");
  candidate.candidate = true;
  candidate.golden[0].set_url("http://x.test/c/9");
  candidate.bellwether_urls = std::vector<std::string>{"http://x.test/c/9"};
  EXPECT_EQ(MustCommit(candidate), 2);
  v1::ClusterRecord c = store_->GetCluster("shop", "c").value();
  // Not current: extraction, golden values and bellwethers are the old ones.
  EXPECT_EQ(c.current_version(), 1);
  EXPECT_EQ(c.candidate_version(), 2);
  EXPECT_EQ(c.golden(0).url(), "http://x.test/c/1");
  EXPECT_THAT(c.bellwether_urls(), ElementsAre("http://x.test/c/1"));
  // Reclustering keeps the candidate.
  ASSERT_TRUE(store_->PutClusters("shop", {Cluster("c", "sig2", 1)}).ok());
  EXPECT_EQ(store_->GetCluster("shop", "c").value().candidate_version(), 2);

  EXPECT_EQ(store_->ResolveCandidate("shop", "c", true).value(), 2);
  c = store_->GetCluster("shop", "c").value();
  EXPECT_EQ(c.current_version(), 2);
  EXPECT_EQ(c.candidate_version(), 0);
  EXPECT_EQ(c.golden(0).url(), "http://x.test/c/9");
  EXPECT_THAT(c.bellwether_urls(), ElementsAre("http://x.test/c/9"));
  EXPECT_EQ(store_->ResolveCandidate("shop", "c", true).status().code(), absl::StatusCode::kFailedPrecondition);

  // Rejected: stays stored, never current; the next commit gets a new number.
  EXPECT_EQ(MustCommit(candidate), 3);
  EXPECT_EQ(store_->ResolveCandidate("shop", "c", false).value(), 3);
  c = store_->GetCluster("shop", "c").value();
  EXPECT_EQ(c.current_version(), 2);
  EXPECT_EQ(c.candidate_version(), 0);
  EXPECT_TRUE(store_->GetRule("shop", "c", 3).ok());
  EXPECT_EQ(MustCommit(Commit("shop", "c", "v4")), 4);
  // A learnt version supersedes a pending candidate.
  EXPECT_EQ(MustCommit(candidate), 5);
  EXPECT_EQ(MustCommit(Commit("shop", "c", "v6")), 6);
  EXPECT_EQ(store_->GetCluster("shop", "c").value().candidate_version(), 0);
  EXPECT_EQ(store_->ResolveCandidate("shop", "nope", true).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->ResolveCandidate("nope", "c", true).status().code(), absl::StatusCode::kNotFound);
}

TEST_P(RuleStoreTest, ReplaceSamplePagesStartsAFreshSample) {
  AddSite("shop", {});
  ASSERT_TRUE(store_->PutSamplePages("shop", {SamplePage("http://x.test/a"), SamplePage("http://x.test/b"),
                                              SamplePage("http://x.test/c")})
                  .ok());
  v1::SampleState state = store_->GetSampleState("shop").value();
  state.add_clusters()->set_cluster_id("c0");
  ASSERT_TRUE(store_->PutSampleClustering("shop", state, {Cluster("c0", "sig", 3)}).ok());
  v1::SamplePage b = SamplePage("http://x.test/b");
  b.set_html("<p>new b</p>");
  b.set_shingle_vector("12345678");
  ASSERT_TRUE(store_->ReplaceSamplePages("shop", {b, SamplePage("http://x.test/d")}).ok());
  state = store_->GetSampleState("shop").value();
  EXPECT_THAT(state.urls(), ElementsAre("http://x.test/b", "http://x.test/d"));
  EXPECT_THAT(state.vectors(), ElementsAre("12345678", ""));
  EXPECT_EQ(state.clusters_size(), 0);
  EXPECT_EQ(store_->GetSamplePage("shop", 0).value().html(), "<p>new b</p>");
  EXPECT_EQ(store_->GetSamplePage("shop", 2).status().code(), absl::StatusCode::kNotFound);
  // The clusters and their rules are the clustering's business, not the sample's.
  EXPECT_TRUE(store_->GetCluster("shop", "c0").ok());
  EXPECT_EQ(store_->ReplaceSamplePages("shop", {b, b}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ReplaceSamplePages("shop", {SamplePage("")}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ReplaceSamplePages("nope", {b}).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetSampleState("shop").value().urls_size(), 2);
}

// Relearn's writes (issue 18): the fresh sample, its clustering and the
// new rule versions are one write, each step seeing the ones before it
// (a new cluster gets its first rule; a cluster committed twice gets two
// versions); a failing step writes nothing.
TEST_P(RuleStoreTest, ReplaceSampleAndCommitIsOneWholeWrite) {
  AddSite("shop", {Cluster("c0", "sig0", 2)});
  MustCommit(Commit("shop", "c0", "v1"));
  ASSERT_TRUE(store_->PutSamplePages("shop", {SamplePage("http://x.test/old")}).ok());
  const std::vector<v1::SamplePage> pages = {SamplePage("http://x.test/a"), SamplePage("http://x.test/b")};
  v1::SampleState state;
  for (const v1::SamplePage& p : pages) state.add_urls(p.url());
  state.add_clusters()->set_cluster_id("c0");
  state.add_clusters()->set_cluster_id("c1");
  RuleCommit repaired = Commit("shop", "c0", "repair");
  repaired.candidate = true;
  const std::vector<RuleCommit> commits = {repaired, Commit("shop", "c1", "new"), Commit("shop", "c1", "again")};
  const size_t keys_before = KeyCount(*engine_);

  // A failing step: nothing of the earlier ones is written.
  v1::SampleState stale = state;
  stale.add_urls("http://x.test/other");
  EXPECT_EQ(store_->ReplaceSampleAndCommit("shop", pages, stale, {Cluster("c0", "sig0", 2)}, commits).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->ReplaceSampleAndCommit("shop", pages, state, {Cluster("c0", "sig0", 2)}, commits).status().code(),
            absl::StatusCode::kNotFound);  // c1 is not among the clusters
  RuleCommit elsewhere = Commit("other", "c0", "x");
  EXPECT_EQ(store_->ReplaceSampleAndCommit("shop", pages, state, {}, {elsewhere}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(KeyCount(*engine_), keys_before);
  EXPECT_THAT(store_->GetSampleState("shop").value().urls(), ElementsAre("http://x.test/old"));

  auto* memory = dynamic_cast<MemoryKv*>(engine_.get());
  const int64_t writes_before = memory != nullptr ? memory->WritesForTesting() : 0;
  absl::StatusOr<std::vector<int64_t>> versions = store_->ReplaceSampleAndCommit(
      "shop", pages, state, {Cluster("c0", "sig0", 2), Cluster("c1", "sig1", 1)}, commits);
  ASSERT_TRUE(versions.ok()) << versions.status();
  EXPECT_THAT(*versions, ElementsAre(2, 1, 2));
  if (memory != nullptr) EXPECT_EQ(memory->WritesForTesting(), writes_before + 1);
  const v1::SampleState stored = store_->GetSampleState("shop").value();
  EXPECT_THAT(stored.urls(), ElementsAre("http://x.test/a", "http://x.test/b"));
  EXPECT_EQ(stored.clusters_size(), 2);
  EXPECT_EQ(store_->GetSamplePage("shop", 1).value().url(), "http://x.test/b");
  const v1::ClusterRecord c0 = store_->GetCluster("shop", "c0").value();
  EXPECT_EQ(c0.current_version(), 1);
  EXPECT_EQ(c0.candidate_version(), 2);
  const v1::ClusterRecord c1 = store_->GetCluster("shop", "c1").value();
  EXPECT_EQ(c1.current_version(), 2);
  EXPECT_EQ(c1.latest_version(), 2);
  EXPECT_EQ(store_->GetRule("shop", "c1", 1).value().attributes(0).xpath(), "//h1[@class='new']");
  EXPECT_EQ(store_->Snapshots("shop", "c1", 2).value().size(), 2u);
  EXPECT_EQ(store_->GetSite("shop").value().cluster_ids_size(), 2);
}

TEST_P(RuleStoreTest, MonitorHistoryIsNewestFirstAndCapped) {
  AddSite("shop", {});
  AddSite("shop2", {});
  auto run = [](const std::string& site, int64_t ms, v1::ClusterVerdict::Verdict verdict) {
    v1::MonitorRun r;
    r.set_site(site);
    r.set_started_unix_ms(ms);
    r.set_verdict(verdict);
    return r;
  };
  ASSERT_TRUE(store_->AppendMonitorRun(run("shop", 1000, v1::ClusterVerdict::OK)).ok());
  ASSERT_TRUE(store_->AppendMonitorRun(run("shop", 3000, v1::ClusterVerdict::CHANGED)).ok());
  ASSERT_TRUE(store_->AppendMonitorRun(run("shop", 2000, v1::ClusterVerdict::UNREACHABLE)).ok());
  // Two runs of the same millisecond are both kept.
  ASSERT_TRUE(store_->AppendMonitorRun(run("shop", 3000, v1::ClusterVerdict::BROKEN)).ok());
  ASSERT_TRUE(store_->AppendMonitorRun(run("shop2", 5000, v1::ClusterVerdict::OK)).ok());
  std::vector<v1::MonitorRun> runs = store_->MonitorHistory("shop", 10).value();
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].verdict(), v1::ClusterVerdict::BROKEN);
  EXPECT_EQ(runs[1].verdict(), v1::ClusterVerdict::CHANGED);
  EXPECT_EQ(runs[2].started_unix_ms(), 2000);
  EXPECT_EQ(runs[3].started_unix_ms(), 1000);
  EXPECT_EQ(store_->MonitorHistory("shop", 2).value().size(), 2u);
  // Keeping 2 drops the oldest.
  ASSERT_TRUE(store_->AppendMonitorRun(run("shop", 4000, v1::ClusterVerdict::OK), 2).ok());
  runs = store_->MonitorHistory("shop", 10).value();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].started_unix_ms(), 4000);
  EXPECT_EQ(runs[1].verdict(), v1::ClusterVerdict::BROKEN);
  EXPECT_EQ(store_->MonitorHistory("shop2", 10).value().size(), 1u);
  EXPECT_EQ(store_->AppendMonitorRun(run("nope", 1, v1::ClusterVerdict::OK)).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->MonitorHistory("nope", 1).status().code(), absl::StatusCode::kNotFound);
  // Deleted with the site.
  ASSERT_TRUE(store_->DeleteSite("shop").ok());
  EXPECT_THAT(KeysOfSite(*engine_, "shop"), IsEmpty());
}

TEST_P(RuleStoreTest, EverythingSurvivesReopening) {
  AddSite("shop", {Cluster("c", "sig", 3), Cluster("d", "sig", 1)});
  MustCommit(Commit("shop", "c", "v1"));
  MustCommit(Commit("shop", "c", "v2"));
  ASSERT_TRUE(store_->Rollback("shop", "c", 1).ok());
  const std::string before = store_->GetCluster("shop", "c").value().SerializeAsString();
  const size_t keys = KeyCount(*engine_);

  Reopen();
  EXPECT_EQ(store_->GetCluster("shop", "c").value().SerializeAsString(), before);
  EXPECT_EQ(store_->GetRule("shop", "c", kCurrentVersion).value().version(), 1);
  EXPECT_THAT(store_->ListRuleVersions("shop", "c").value(), ElementsAre(1, 2));
  EXPECT_EQ(store_->Snapshots("shop", "c", 2).value().size(), 2u);
  EXPECT_THAT(Ids(store_->ClustersBySignature("sig").value()), ElementsAre("shop/c", "shop/d"));
  EXPECT_THAT(store_->ListSites().value(), ElementsAre("shop"));
  EXPECT_EQ(KeyCount(*engine_), keys);
  EXPECT_EQ(MustCommit(Commit("shop", "c", "v3")), 3);
}

TEST_P(RuleStoreTest, InvalidIdsAreRejectedNamingTheField) {
  AddSite("shop", {Cluster("c", "sig", 1)});
  const std::string nul("a\0b", 3);
  const std::string long_id(kMaxIdBytes + 1, 'x');
  RuleCommit bad_cluster = Commit("shop", "", "v");
  RuleCommit bad_site = Commit(nul, "c", "v");
  struct Case {
    std::string what;
    absl::Status status;
    std::string field;
  };
  const std::vector<Case> cases = {
      {"PutSite empty", store_->PutSite(Site("")), "site is empty"},
      {"PutSite NUL", store_->PutSite(Site(nul)), "site \"a\\000b\" contains a NUL"},
      {"PutSite long", store_->PutSite(Site(long_id)), "at most 200"},
      {"GetSite", store_->GetSite(long_id).status(), "site"},
      {"DeleteSite", store_->DeleteSite(""), "site is empty"},
      {"PutClusters", store_->PutClusters(nul, {}), "site"},
      {"GetCluster", store_->GetCluster("shop", nul).status(), "cluster_id"},
      {"ClustersOfSite", store_->ClustersOfSite("").status(), "site"},
      {"RoutesOfSite", store_->RoutesOfSite(nul).status(), "site"},
      {"ClustersBySignature", store_->ClustersBySignature("").status(), "signature is empty"},
      {"CommitRule cluster", store_->CommitRule(bad_cluster).status(), "rule.cluster_id"},
      {"CommitRule site", store_->CommitRule(bad_site).status(), "rule.site"},
      {"GetRule", store_->GetRule("shop", long_id, 0).status(), "cluster_id"},
      {"ListRuleVersions", store_->ListRuleVersions("", "c").status(), "site"},
      {"Rollback", store_->Rollback("shop", "", 1), "cluster_id"},
      {"Snapshots", store_->Snapshots(nul, "c", 0).status(), "site"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.status.code(), absl::StatusCode::kInvalidArgument) << c.what << ": " << c.status;
    EXPECT_THAT(std::string(c.status.message()), HasSubstr(c.field)) << c.what;
  }
  // The limit itself is fine.
  const std::string longest(kMaxIdBytes, 'y');
  ASSERT_TRUE(store_->PutSite(Site(longest)).ok());
  ASSERT_TRUE(store_->PutClusters(longest, {Cluster(longest, longest, 1)}).ok());
  EXPECT_EQ(MustCommit(Commit(longest, longest, "v")), 1);
  EXPECT_THAT(store_->ListSites().value(), ElementsAre("shop", longest));
}

TEST_P(RuleStoreTest, CorruptValuesAreDataLossNamingTheKey) {
  AddSite("shop", {Cluster("c", "sig", 2), Cluster("d", "sig", 1)});
  MustCommit(Commit("shop", "c", "v1"));
  MustCommit(Commit("shop", "c", "v2"));

  CorruptValue(*engine_, Family::kRules, keys::Rule("shop", "c", 1));
  absl::Status s = store_->GetRule("shop", "c", 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("rules[\"shop\", \"c\", v1]"));
  EXPECT_EQ(store_->Rollback("shop", "c", 1).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(store_->GetRule("shop", "c", 2).value().version(), 2);  // others still readable

  CorruptValue(*engine_, Family::kSnapshots, keys::Page("shop", "c", 2, 1));
  s = store_->Snapshots("shop", "c", 2).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("snapshots[\"shop\", \"c\", v2, #1]"));

  // A parsable value under the wrong key is no better.
  v1::ClusterRecord elsewhere = store_->GetCluster("shop", "d").value();
  CorruptValue(*engine_, Family::kClusters, keys::Cluster("shop", "c"),
               elsewhere.SerializeAsString());
  s = store_->GetCluster("shop", "c").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("clusters[\"shop\", \"c\"]"));

  CorruptValue(*engine_, Family::kClusters, keys::Cluster("shop", "c"));
  for (const absl::Status& status :
       {store_->GetCluster("shop", "c").status(), store_->ClustersOfSite("shop").status(),
        store_->ClustersBySignature("sig").status(),
        store_->CommitRule(Commit("shop", "c", "x")).status()}) {
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_THAT(std::string(status.message()), HasSubstr("clusters[\"shop\", \"c\"]"));
  }
  EXPECT_EQ(store_->RoutesOfSite("shop").value().size(), 2u);  // the index is intact

  CorruptValue(*engine_, Family::kSites, keys::Site("shop"), "\xff\xff\xff");
  s = store_->GetSite("shop").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("sites[\"shop\"]"));
}

TEST_P(RuleStoreTest, DeleteSiteRecoversFromCorruptClusterRecords) {
  AddSite("shop", {Cluster("c", "sig", 2)});
  MustCommit(Commit("shop", "c", "v1"));
  CorruptValue(*engine_, Family::kClusters, keys::Cluster("shop", "c"));
  ASSERT_TRUE(store_->DeleteSite("shop").ok());
  EXPECT_THAT(KeysOfSite(*engine_, "shop"), IsEmpty());

  // With the route corrupt too, the signature entry may stay behind; it is
  // ignored, not reported.
  AddSite("shop", {Cluster("c", "sig", 2)});
  CorruptValue(*engine_, Family::kClusters, keys::Cluster("shop", "c"));
  CorruptValue(*engine_, Family::kRoutes, keys::Cluster("shop", "c"));
  ASSERT_TRUE(store_->DeleteSite("shop").ok());
  EXPECT_THAT(store_->ClustersBySignature("sig").value(), IsEmpty());
}

TEST_P(RuleStoreTest, ConcurrentCommitsGetDistinctVersions) {
  AddSite("shop", {Cluster("c", "sig", 1), Cluster("d", "sig", 1)});
  constexpr int kThreads = 4;
  constexpr int kCommits = 10;
  std::vector<std::vector<int64_t>> versions(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        absl::StatusOr<int64_t> v = store_->CommitRule(Commit("shop", "c", "t", 0));
        if (v.ok()) versions[t].push_back(*v);
        store_->ClustersOfSite("shop").status().IgnoreError();  // readers alongside
      }
    });
  }
  for (std::thread& t : threads) t.join();
  std::set<int64_t> all;
  for (const auto& v : versions) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kCommits));
  EXPECT_EQ(*all.rbegin(), kThreads * kCommits);
  EXPECT_EQ(store_->GetCluster("shop", "c").value().latest_version(), kThreads * kCommits);
}

TEST_P(RuleStoreTest, GazetteerTermsRoundTripReplaceAndSurviveReopening) {
  EXPECT_THAT(store_->GetGazetteerTerms("real_estate", "location").value(), IsEmpty());
  const GazetteerTerms terms = {{"Oxford", {3, 1, false}},
                                {"Walton Street", {1, 2.5, true}},
                                {"Bath/Wells", {0.1, 1e300, false}},
                                {"Citro\xC3\xABn", {0, 0, false}}};
  ASSERT_TRUE(store_->PutGazetteerTerms("real_estate", "location", terms).ok());
  ASSERT_TRUE(store_->PutGazetteerTerms("real_estate", "location_2", {{"Leeds", {1, 0, false}}}).ok());
  ASSERT_TRUE(store_->PutGazetteerTerms("used_cars", "location", {{"York", {2, 0, false}}}).ok());
  const auto same = [](const GazetteerTerms& a, const GazetteerTerms& b) {
    if (a.size() != b.size()) return false;
    for (const auto& [term, s] : a) {
      const auto it = b.find(term);
      if (it == b.end() || it->second.ev_pos != s.ev_pos || it->second.ev_neg != s.ev_neg ||
          it->second.blacklisted != s.blacklisted) {
        return false;
      }
    }
    return true;
  };
  EXPECT_TRUE(same(store_->GetGazetteerTerms("real_estate", "location").value(), terms));
  EXPECT_EQ(store_->GetGazetteerTerms("real_estate", "location_2").value().size(), 1u);
  EXPECT_EQ(store_->GetGazetteerTerms("used_cars", "location").value().size(), 1u);
  std::optional<std::string> raw =
      engine_->NewReader()->Get(Family::kMeta, "gaz/real_estate/location/Walton Street").value();
  EXPECT_EQ(raw, "N 1 2.5");

  // A put replaces the attribute's whole set, and nothing else.
  const GazetteerTerms fewer = {{"Oxford", {4, 1, false}}, {"Cowley", {1, 0, false}}};
  ASSERT_TRUE(store_->PutGazetteerTerms("real_estate", "location", fewer).ok());
  Reopen();
  EXPECT_TRUE(same(store_->GetGazetteerTerms("real_estate", "location").value(), fewer));
  EXPECT_EQ(store_->GetGazetteerTerms("real_estate", "location_2").value().size(), 1u);
  ASSERT_TRUE(store_->PutGazetteerTerms("real_estate", "location", {}).ok());
  EXPECT_THAT(store_->GetGazetteerTerms("real_estate", "location").value(), IsEmpty());
  EXPECT_EQ(store_->GetGazetteerTerms("used_cars", "location").value().size(), 1u);
}

TEST_P(RuleStoreTest, ListModelsAreVersionedAndSurviveReopening) {
  EXPECT_THAT(store_->ListListModelVersions().value(), IsEmpty());
  absl::StatusOr<v1::ListModel> none = store_->GetListModel(kCurrentVersion);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(none.status().message()), HasSubstr("no list model"));

  v1::ListModel model;
  model.set_feature_set("paper");
  model.add_feature_names("tag");
  model.add_nodes()->set_positive_fraction(0.25);
  model.set_trained_from("problems: test");
  model.set_version(77);  // the store assigns versions
  EXPECT_EQ(store_->PutListModel(model).value(), 1);
  model.set_trained_from("store: 3 rules");
  EXPECT_EQ(store_->PutListModel(model).value(), 2);
  Reopen();
  EXPECT_THAT(store_->ListListModelVersions().value(), ElementsAre(1, 2));
  v1::ListModel latest = store_->GetListModel(kCurrentVersion).value();
  EXPECT_EQ(latest.version(), 2);
  EXPECT_EQ(latest.trained_from(), "store: 3 rules");
  v1::ListModel first = store_->GetListModel(1).value();
  EXPECT_EQ(first.trained_from(), "problems: test");
  EXPECT_DOUBLE_EQ(first.nodes(0).positive_fraction(), 0.25);
  EXPECT_EQ(store_->GetListModel(3).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetListModel(-1).status().code(), absl::StatusCode::kInvalidArgument);

  // Models live beside the gazetteer terms, which they leave alone.
  ASSERT_TRUE(store_->PutGazetteerTerms("re", "location", {{"Oxford", {1, 0, false}}}).ok());
  EXPECT_EQ(store_->PutListModel(model).value(), 3);
  EXPECT_EQ(store_->GetGazetteerTerms("re", "location").value().size(), 1u);

  v1::ListModel empty;
  absl::StatusOr<int64_t> bad = store_->PutListModel(empty);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("0 nodes"));
  EXPECT_THAT(store_->ListListModelVersions().value(), ElementsAre(1, 2, 3));
}

TEST_P(RuleStoreTest, CorruptListModelIsDataLoss) {
  v1::ListModel model;
  model.add_feature_names("tag");
  model.add_nodes();
  ASSERT_EQ(store_->PutListModel(model).value(), 1);
  KvBatch batch;
  batch.Put(Family::kMeta, "model/list/00000000000000000001", "\xff\xff not a proto");
  ASSERT_TRUE(engine_->Write(batch).ok());
  absl::StatusOr<v1::ListModel> got = store_->GetListModel(1);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(got.status().message()), HasSubstr("model/list/"));
  KvBatch junk;
  junk.Put(Family::kMeta, "model/list/x", "");
  ASSERT_TRUE(engine_->Write(junk).ok());
  EXPECT_EQ(store_->ListListModelVersions().status().code(), absl::StatusCode::kDataLoss);
}

TEST_P(RuleStoreTest, GazetteerTermsRejectBadNamesAndStates) {
  ASSERT_TRUE(store_->PutGazetteerTerms("re", "location", {{"Oxford", {1, 0, false}}}).ok());
  const struct {
    std::string vertical, attribute;
    GazetteerTerms terms;
    std::string message;
  } cases[] = {
      {"", "location", {}, "vertical is empty"},
      {"real/estate", "location", {}, "contains a '/'"},
      {std::string("r\0e", 3), "location", {}, "NUL"},
      {"re", "Location", {}, "attribute \"Location\" does not match"},
      {"re", "", {}, "attribute \"\" does not match"},
      {"re", "location", {{"", {}}}, "gazetteer term \"\" is empty"},
      {"re", "location", {{std::string(201, 'x'), {}}}, "longer than 200 bytes"},
      {"re", "location", {{"Bath", {-1, 0, false}}}, "gazetteer term \"Bath\": evidence"},
      {"re", "location", {{"Bath", {0, std::numeric_limits<double>::quiet_NaN(), false}}}, "not finite"},
  };
  for (const auto& c : cases) {
    const absl::Status s = store_->PutGazetteerTerms(c.vertical, c.attribute, c.terms);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message << ": " << s;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message));
  }
  EXPECT_EQ(store_->GetGazetteerTerms("a/b", "location").status().code(), absl::StatusCode::kInvalidArgument);
  // Nothing was written by the failures.
  EXPECT_EQ(store_->GetGazetteerTerms("re", "location").value().size(), 1u);
}

TEST_P(RuleStoreTest, CorruptGazetteerTermIsDataLossNamingTheKey) {
  ASSERT_TRUE(store_->PutGazetteerTerms("re", "location", {{"Oxford", {1, 0, false}}}).ok());
  CorruptValue(*engine_, Family::kMeta, keys::GazetteerTerm("re", "location", "Oxford"), "U one 0");
  const absl::Status s = store_->GetGazetteerTerms("re", "location").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("default[\"gaz/re/location/Oxford\"]"));
  // A put over the corrupt value repairs it.
  ASSERT_TRUE(store_->PutGazetteerTerms("re", "location", {{"Oxford", {2, 0, false}}}).ok());
  EXPECT_EQ(store_->GetGazetteerTerms("re", "location").value().at("Oxford").ev_pos, 2);
}

INSTANTIATE_TEST_SUITE_P(Engines, RuleStoreTest,
                         ::testing::Values(Backend::kMemory, Backend::kRocksDb),
                         [](const auto& info) {
                           return info.param == Backend::kMemory ? "Memory" : "RocksDb";
                         });

// ---- Key layout -----------------------------------------------------------

TEST(KeysTest, LayoutSortsAndPrints) {
  EXPECT_EQ(keys::Cluster("ab", "c"), std::string("ab\0c", 4));
  EXPECT_LT(keys::Rule("s", "c", 9), keys::Rule("s", "c", 10));
  EXPECT_LT(keys::Rule("s", "c", 255), keys::Rule("s", "c", 256));
  EXPECT_LT(keys::Page("s", "c", 1, 0xffff), keys::Page("s", "c", 2, 0));
  EXPECT_NE(keys::Cluster("ab", "c").substr(0, 3), keys::SitePrefix("abc"));
  EXPECT_EQ(keys::ParseRuleVersion(keys::Rule("s", "c", 258)), 258);
  const auto entry = keys::ParseSignature(keys::Signature("0a.*", "s", "c"));
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->signature + "|" + entry->site + "|" + entry->cluster, "0a.*|s|c");
  EXPECT_FALSE(keys::ParseSignature("no-separators").has_value());

  const std::vector<std::pair<std::string, std::string>> printed = {
      {DescribeKey(Family::kSites, "shop"), "sites[\"shop\"]"},
      {DescribeKey(Family::kClusters, keys::Cluster("shop", "c\n")),
       "clusters[\"shop\", \"c\\n\"]"},
      {DescribeKey(Family::kRules, keys::Rule("s", "c", 3)), "rules[\"s\", \"c\", v3]"},
      {DescribeKey(Family::kGolden, keys::Page("s", "c", 3, 7)), "golden[\"s\", \"c\", v3, #7]"},
      {DescribeKey(Family::kBySignature, keys::Signature("g", "s", "c")),
       "by_signature[\"g\", \"s\", \"c\"]"},
      {DescribeKey(Family::kRules, "bad\x01"), "rules[\"bad\\001\"]"},
      {DescribeKey(Family::kMeta, kFormatKey), "default[\"format\"]"},
      {DescribeKey(Family::kHistory, keys::HistoryRun("s", 1700000000000, 2)), "history[\"s\", t1700000000000, #2]"},
  };
  for (const auto& [got, want] : printed) EXPECT_EQ(got, want);
}

TEST(KeysTest, ValidateId) {
  EXPECT_TRUE(ValidateId("site", "booksamillion").ok());
  EXPECT_TRUE(ValidateId("site", "a/b c\xc3\xa9").ok());  // any bytes but NUL
  EXPECT_TRUE(ValidateId("site", std::string(kMaxIdBytes, 'a')).ok());
  EXPECT_EQ(ValidateId("site", "").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateId("site", std::string(1, '\0')).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateId("site", std::string(kMaxIdBytes + 1, 'a')).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GazetteerTermCodec, ShortestRoundTripAndRejects) {
  const GazetteerTermState states[] = {{0, 0, false}, {3, 0.5, true}, {0.1, 1e300, false}, {1.0 / 3, 7, true}};
  for (const GazetteerTermState& s : states) {
    const std::string value = EncodeGazetteerTerm(s);
    const std::optional<GazetteerTermState> back = DecodeGazetteerTerm(value);
    ASSERT_TRUE(back.has_value()) << value;
    EXPECT_EQ(back->ev_pos, s.ev_pos) << value;
    EXPECT_EQ(back->ev_neg, s.ev_neg) << value;
    EXPECT_EQ(back->blacklisted, s.blacklisted) << value;
  }
  EXPECT_EQ(EncodeGazetteerTerm({3, 0.5, true}), "N 3 0.5");
  EXPECT_EQ(EncodeGazetteerTerm({12, 0, false}), "U 12 0");
  for (const char* bad : {"", "U", "U 1", "U 1 ", "X 1 2", "u 1 2", "U  1 2", "U 1 2 3", "U 1 2x", "U -1 2",
                          "U nan 2", "U inf 2", "U 1,5 2", "N 1e999 0"}) {
    EXPECT_FALSE(DecodeGazetteerTerm(bad).has_value()) << bad;
  }
  EXPECT_EQ(keys::GazetteerTerm("used_cars", "model", "3 Series"), "gaz/used_cars/model/3 Series");
}

// ---- The in-memory engine's faults -------------------------------------------

TEST(MemoryStoreTest, FailedWritesApplyNothing) {
  auto kv = std::make_shared<MemoryKv>();
  std::unique_ptr<RuleStore> store = NewRuleStore(kv).value();
  ASSERT_TRUE(store->PutSite(Site("shop")).ok());
  ASSERT_TRUE(store->PutClusters("shop", {Cluster("c", "sig", 1)}).ok());
  ASSERT_EQ(store->CommitRule(Commit("shop", "c", "v1")).value(), 1);
  const size_t keys = KeyCount(*kv);

  kv->FailWritesAfterForTesting(0, absl::UnavailableError("disk on fire"));
  const absl::StatusOr<int64_t> failed = store->CommitRule(Commit("shop", "c", "v2"));
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(store->DeleteSite("shop").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(KeyCount(*kv), keys);
  EXPECT_EQ(store->GetCluster("shop", "c").value().current_version(), 1);
  EXPECT_THAT(store->ListRuleVersions("shop", "c").value(), ElementsAre(1));

  kv->ClearFaultsForTesting();
  EXPECT_EQ(store->CommitRule(Commit("shop", "c", "v2")).value(), 2);

  kv->FailWritesAfterForTesting(1, absl::InternalError("later"));
  EXPECT_TRUE(store->CommitRule(Commit("shop", "c", "v3")).ok());
  EXPECT_EQ(store->CommitRule(Commit("shop", "c", "v4")).status().code(),
            absl::StatusCode::kInternal);
  kv->FailReadsForTesting(absl::UnavailableError("reads down"));
  EXPECT_EQ(store->GetSite("shop").status().code(), absl::StatusCode::kUnavailable);
  kv->ClearFaultsForTesting();
  EXPECT_EQ(store->GetCluster("shop", "c").value().latest_version(), 3);
}

// A crash during a relearn's write (a failing batch) leaves the old sample,
// clustering and rules: none of the three parts alone.
TEST(MemoryStoreTest, FailedReplaceSampleAndCommitAppliesNothing) {
  auto kv = std::make_shared<MemoryKv>();
  std::unique_ptr<RuleStore> store = NewRuleStore(kv).value();
  ASSERT_TRUE(store->PutSite(Site("shop")).ok());
  ASSERT_TRUE(store->PutClusters("shop", {Cluster("c", "sig", 1)}).ok());
  ASSERT_EQ(store->CommitRule(Commit("shop", "c", "v1")).value(), 1);
  ASSERT_TRUE(store->PutSamplePages("shop", {SamplePage("http://x.test/old")}).ok());
  const size_t keys = KeyCount(*kv);
  v1::SampleState state;
  state.add_urls("http://x.test/new");
  kv->FailWritesAfterForTesting(0, absl::UnavailableError("crash"));
  EXPECT_EQ(store->ReplaceSampleAndCommit("shop", {SamplePage("http://x.test/new")}, state,
                                          {Cluster("c", "sig2", 1)}, {Commit("shop", "c", "v2")})
                .status()
                .code(),
            absl::StatusCode::kUnavailable);
  kv->ClearFaultsForTesting();
  EXPECT_EQ(KeyCount(*kv), keys);
  EXPECT_THAT(store->GetSampleState("shop").value().urls(), ElementsAre("http://x.test/old"));
  EXPECT_EQ(store->GetCluster("shop", "c").value().signature(), "sig");
  EXPECT_THAT(store->ListRuleVersions("shop", "c").value(), ElementsAre(1));
}

TEST(MemoryStoreTest, NewInMemoryStoreIsEmptyAndWorks) {
  std::unique_ptr<RuleStore> store = NewInMemoryStore();
  EXPECT_THAT(store->ListSites().value(), IsEmpty());
  ASSERT_TRUE(store->PutSite(Site("s")).ok());
  EXPECT_THAT(store->ListSites().value(), ElementsAre("s"));
}

TEST(MemoryStoreTest, AnotherFormatIsRefused) {
  auto kv = std::make_shared<MemoryKv>();
  KvBatch batch;
  batch.Put(Family::kMeta, std::string(kFormatKey), "vertex.rule_store.v99");
  ASSERT_TRUE(kv->Write(batch).ok());
  const absl::Status s = NewRuleStore(kv).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("v99"));
}

}  // namespace
}  // namespace vertex::store
