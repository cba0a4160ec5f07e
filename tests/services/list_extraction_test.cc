// The ExtractionService (services/extraction) on a record-level rule, in
// process: Extract and ExtractStream of a list page answer with the page's
// records (ListRecord: index, data area, status, attributes,
// missing_regular) beside the page's record, and a detail page of the same
// site keeps its single record.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "common/store/rule_store.h"
#include "common/workflow/extraction_engine.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "services/extraction/extraction_service.h"
#include "tests/testing/rule_builders.h"
#include "vertex/v1/extraction.grpc.pb.h"

namespace vertex {
namespace {

using test_support::XPathAttributeRule;

constexpr char kSite[] = "homes";
constexpr char kSchemaJson[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true}]})";

constexpr char kListPage[] =
    "<html><body><ul class=results><li><h3>Flat A</h3><b>£100</b></li><li><h3>Flat B</h3></li></ul>"
    "<ul class=results><li><h3>Flat C</h3><b>£300</b></li></ul></body></html>";

// A list cluster (/search/...) with a record rule and a detail cluster
// (/flat/...) with a detail rule.
std::unique_ptr<store::RuleStore> StoreWithRules() {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  v1::SiteRecord site;
  site.set_site(kSite);
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(kSchemaJson, site.mutable_schema()).ok());
  EXPECT_TRUE(store->PutSite(site).ok());
  v1::ClusterRecord list, detail;
  list.set_cluster_id("list");
  list.set_url_regex(R"(http://homes\.test/search/.*)");
  detail.set_cluster_id("detail");
  detail.set_url_regex(R"(http://homes\.test/flat/.*)");
  EXPECT_TRUE(store->PutClusters(kSite, {list, detail}).ok());
  store::RuleCommit commit;
  commit.rule.set_site(kSite);
  commit.rule.set_cluster_id("list");
  v1::RecordRule* record = commit.rule.mutable_record();
  record->set_record_xpath("//ul[@class='results']/li");
  record->set_record_length(1);
  *record->add_attributes() = XPathAttributeRule("title", "h3/text()");
  *record->add_attributes() = XPathAttributeRule("price", "b/text()");
  EXPECT_TRUE(store->CommitRule(commit).ok());
  store::RuleCommit detail_commit;
  detail_commit.rule.set_site(kSite);
  detail_commit.rule.set_cluster_id("detail");
  *detail_commit.rule.add_attributes() = XPathAttributeRule("title", "//h1/text()");
  *detail_commit.rule.add_attributes() = XPathAttributeRule("price", "//b/text()");
  EXPECT_TRUE(store->CommitRule(detail_commit).ok());
  return store;
}

class ListExtractionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder builder;
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ = v1::ExtractionService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }
  void TearDown() override { server_->Shutdown(); }

  static v1::ExtractRequest Request(const std::string& url, const std::string& html) {
    v1::ExtractRequest r;
    r.set_id(url);
    r.set_site(kSite);
    r.set_url(url);
    r.set_html(html);
    return r;
  }

  std::unique_ptr<store::RuleStore> store_ = StoreWithRules();
  workflow::ExtractionEngine engine_{store_.get(), workflow::ExtractionEngineOptions()};
  server::ExtractionServiceImpl service_{&engine_};
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ExtractionService::Stub> stub_;
};

void ExpectListRecords(const v1::ExtractResponse& r) {
  EXPECT_EQ(r.record().status(), v1::ExtractedRecord::OK);
  EXPECT_EQ(r.record().cluster_id(), "list");
  EXPECT_EQ(r.record().attributes_size(), 0);
  ASSERT_EQ(r.records_size(), 3);
  const char* titles[] = {"Flat A", "Flat B", "Flat C"};
  const uint32_t areas[] = {0, 0, 1};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.records(i).index(), static_cast<uint32_t>(i));
    EXPECT_EQ(r.records(i).data_area(), areas[i]);
    ASSERT_EQ(r.records(i).attributes_size(), 2);
    EXPECT_EQ(r.records(i).attributes(0).attribute(), "title");
    ASSERT_EQ(r.records(i).attributes(0).values_size(), 1);
    EXPECT_EQ(r.records(i).attributes(0).values(0), titles[i]);
  }
  EXPECT_EQ(r.records(0).status(), v1::ExtractedRecord::OK);
  EXPECT_EQ(r.records(1).status(), v1::ExtractedRecord::PARTIAL);
  ASSERT_EQ(r.records(1).missing_regular_size(), 1);
  EXPECT_EQ(r.records(1).missing_regular(0), "price");
  EXPECT_EQ(r.records(2).attributes(1).values(0), "£300");
}

TEST_F(ListExtractionTest, ExtractOfAListPageReturnsItsRecords) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  v1::ExtractResponse response;
  const grpc::Status status = stub_->Extract(&context, Request("http://homes.test/search/1", kListPage), &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ExpectListRecords(response);
}

TEST_F(ListExtractionTest, ExtractStreamCarriesRecordsAndDetailPagesKeepTheirRecord) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stream = stub_->ExtractStream(&context);
  // One page at a time: the in-process transport holds a response until it
  // is read.
  v1::ExtractResponse list, detail;
  ASSERT_TRUE(stream->Write(Request("http://homes.test/search/1", kListPage)));
  ASSERT_TRUE(stream->Read(&list));
  ASSERT_TRUE(stream->Write(Request("http://homes.test/flat/9", "<html><body><h1>Flat Z</h1><b>£900</b></body></html>")));
  ASSERT_TRUE(stream->Read(&detail));
  ASSERT_TRUE(stream->WritesDone());
  ASSERT_TRUE(stream->Finish().ok());
  ExpectListRecords(list);
  EXPECT_EQ(detail.records_size(), 0);
  EXPECT_EQ(detail.record().status(), v1::ExtractedRecord::OK);
  ASSERT_EQ(detail.record().attributes_size(), 2);
  EXPECT_EQ(detail.record().attributes(1).values(0), "£900");
}

}  // namespace
}  // namespace vertex
