// The list finder's RPCs (TrainListModel, GetListModel, SuggestLists)
// through vertexd's learning service: a record-level listing site learnt by
// AMBER through vertexd, the model trained from its record rules over gRPC
// (a write RPC: the bearer token) and equal to the one the in-process engine
// trains on the same site; SuggestLists agrees with the engine's; the
// documented errors arrive with their codes.
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "common/demo/listing_site.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_listing.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/listing_eval.h"
#include "gtest/gtest.h"
#include "services/client/remote_api.h"
#include "tests/services/process.h"
#include "tests/testing/temp_dir.h"

namespace vertex {
namespace {

using test_support::ServerProcess;

constexpr char kToken[] = "list-model-token";

client::ConnectOptions Options(const std::string& address, const std::string& token) {
  client::ConnectOptions o;
  o.server = address;
  o.token = token;
  o.timeout_seconds = 120;
  return o;
}

struct ListingSite {
  demo::ListingSite site;
  schema::CompiledSchema schema;
  std::vector<workflow::ClientPage> pages;
  std::map<std::string, eval::ListTruthPage> truth;
};

ListingSite MakeListingSite() {
  demo::ListingSiteOptions o;
  o.seed = 21;
  o.pages = 30;
  ListingSite s{demo::GenerateListingSite(o).value(), workflow::ListingSchema(o.domain).value(), {}, {}};
  for (const demo::ListingPage& p : s.site.pages) {
    s.pages.push_back({p.file_name, p.url, p.html});
    s.truth[p.url] = p.truth;
  }
  return s;
}

// Registers "homes" and learns its record rules by AMBER through the APIs.
void LearnListingSite(const ListingSite& s, workflow::LearningApi& learning, workflow::ExtractionApi& extraction) {
  v1::RegisterSiteRequest reg;
  reg.set_site("homes");
  *reg.mutable_schema() = s.schema.proto();
  ASSERT_TRUE(learning.RegisterSite(reg).ok());
  v1::LearnGazetteerRequest g;
  g.set_site("homes");
  g.set_attribute("location");
  for (const std::string& t : workflow::ListingGazetteers(demo::ListingDomain::kRealEstate, 1.0, 21).at("uk_places")->Terms()) {
    g.add_seed_terms(t);
  }
  g.set_max_rounds(1);
  for (size_t k = 0; k < 10; ++k) {
    v1::Page* p = g.add_pages();
    p->set_url(s.pages[k].url);
    p->set_html(s.pages[k].bytes);
  }
  ASSERT_TRUE(learning.LearnGazetteer(g).ok());
  ASSERT_TRUE(workflow::RunListingSiteThroughApi(learning, extraction, "homes", s.schema, s.pages, s.truth).ok());
}

TEST(ListModelServiceTest, VertexdTrainsFromRecordRulesAsTheEngineDoes) {
  test_support::TempDir dir("list_model_service");
  const ListingSite site = MakeListingSite();
  ServerProcess vertexd(VERTEXD_BIN, {"--store", dir.path() + "/store", "--auth-token", kToken}, dir.path(),
                        "vertexd");
  ASSERT_NE(vertexd.port(), 0) << vertexd.log();
  auto learning = client::ConnectLearning(Options(vertexd.address(), kToken)).value();
  auto extraction = client::ConnectExtraction(Options(vertexd.address(), kToken)).value();
  // Before any model: NOT_FOUND saying how to train one.
  absl::Status none = learning->GetListModel({}).status();
  EXPECT_EQ(none.code(), absl::StatusCode::kNotFound) << none;
  EXPECT_NE(none.message().find("TrainListModel"), std::string::npos) << none;
  EXPECT_EQ(learning->TrainListModel({}).status().code(), absl::StatusCode::kFailedPrecondition);
  LearnListingSite(site, *learning, *extraction);

  auto anonymous = client::ConnectLearning(Options(vertexd.address(), "")).value();
  EXPECT_EQ(anonymous->TrainListModel({}).status().code(), absl::StatusCode::kUnauthenticated);
  v1::TrainListModelRequest bad;
  bad.set_feature_set("fancy");
  EXPECT_EQ(learning->TrainListModel(bad).status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<v1::TrainListModelResponse> online = learning->TrainListModel({});
  ASSERT_TRUE(online.ok()) << online.status();
  EXPECT_GE(online->rules(), 1u);
  EXPECT_EQ(online->model().version(), 1);
  for (const std::string& line : online->report()) std::cout << line << "\n";

  // The same site in process: the same tree.
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  workflow::ExtractionEngine x(store.get(), {});
  workflow::LearningEngine l(store.get(), {}, [&x](const std::string&) { (void)x.Refresh(); });
  LearnListingSite(site, l, x);
  absl::StatusOr<v1::TrainListModelResponse> offline = l.TrainListModel({});
  ASSERT_TRUE(offline.ok()) << offline.status();
  EXPECT_EQ(online->rules(), offline->rules());
  EXPECT_EQ(online->pages(), offline->pages());
  ASSERT_EQ(online->model().nodes_size(), offline->model().nodes_size());
  for (int i = 0; i < online->model().nodes_size(); ++i) {
    EXPECT_EQ(online->model().nodes(i).ShortDebugString(), offline->model().nodes(i).ShortDebugString());
  }
  // Anonymous reads are allowed; SuggestLists agrees with the engine's.
  absl::StatusOr<v1::GetListModelResponse> shown = anonymous->GetListModel({});
  ASSERT_TRUE(shown.ok()) << shown.status();
  EXPECT_EQ(shown->model().trained_from(), online->model().trained_from());
  size_t with_list = 0;
  for (size_t k = 0; k < site.pages.size(); k += 5) {
    v1::SuggestListsRequest request;
    request.set_url(site.pages[k].url);
    request.set_html(site.pages[k].bytes);
    absl::StatusOr<v1::SuggestListsResponse> got = anonymous->SuggestLists(request);
    ASSERT_TRUE(got.ok()) << got.status();
    absl::StatusOr<v1::SuggestListsResponse> want = l.SuggestLists(request);
    ASSERT_TRUE(want.ok()) << want.status();
    ASSERT_EQ(got->lists_size(), want->lists_size()) << site.pages[k].url;
    for (int i = 0; i < got->lists_size(); ++i) {
      EXPECT_EQ(got->lists(i).ShortDebugString(), want->lists(i).ShortDebugString());
    }
    with_list += got->lists_size() > 0 && got->lists(0).texts_size() >= 2;
  }
  std::cout << "a list of >= 2 items first on " << with_list << " of 6 pages\n";
  EXPECT_GT(with_list, 0u);
  v1::SuggestListsRequest empty;
  empty.set_url("http://homes.test/empty");
  EXPECT_EQ(anonymous->SuggestLists(empty).status().code(), absl::StatusCode::kInvalidArgument);
  empty.set_html("<p>x</p>");
  empty.set_model_version(7);
  EXPECT_EQ(anonymous->SuggestLists(empty).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace vertex
