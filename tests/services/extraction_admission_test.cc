// The ExtractionService's admission (services/extraction, in process): with
// every permit of its semaphore held, an Extract call or a stream page
// queues; it ends with DEADLINE_EXCEEDED or CANCELLED when its deadline
// passes or its client cancels while it waits, without extracting, and it
// is answered once a permit is free. Without a semaphore nothing queues.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/store/rule_store.h"
#include "common/util/fifo_semaphore.h"
#include "common/workflow/extraction_engine.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "services/extraction/extraction_service.h"
#include "services/server/server_main.h"
#include "tests/testing/rule_builders.h"
#include "vertex/v1/extraction.grpc.pb.h"

namespace vertex {
namespace {

constexpr char kSite[] = "shop";
constexpr char kPage[] = "<html><body><h1>Lamp</h1></body></html>";

// One cluster (http://shop.test/item/...) whose rule takes the title from <h1>.
std::unique_ptr<store::RuleStore> StoreWithRule() {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  v1::SiteRecord site;
  site.set_site(kSite);
  EXPECT_TRUE(
      google::protobuf::util::JsonStringToMessage(
          R"({"vertical": "product", "attributes": [{"name": "title", "mandatory": true}]})", site.mutable_schema())
          .ok());
  EXPECT_TRUE(store->PutSite(site).ok());
  v1::ClusterRecord cluster;
  cluster.set_cluster_id("item");
  cluster.set_url_regex(R"(http://shop\.test/item/.*)");
  EXPECT_TRUE(store->PutClusters(kSite, {cluster}).ok());
  store::RuleCommit commit;
  commit.rule.set_site(kSite);
  commit.rule.set_cluster_id("item");
  *commit.rule.add_attributes() = test_support::XPathAttributeRule("title", "//h1/text()");
  EXPECT_TRUE(commit.rule.attributes_size() == 1 && store->CommitRule(commit).ok());
  return store;
}

v1::ExtractRequest Request(const std::string& id) {
  v1::ExtractRequest r;
  r.set_id(id);
  r.set_site(kSite);
  r.set_url("http://shop.test/item/" + id);
  r.set_html(kPage);
  return r;
}

std::chrono::system_clock::time_point In(std::chrono::milliseconds ms) { return std::chrono::system_clock::now() + ms; }

void ExpectLamp(const v1::ExtractResponse& r) {
  ASSERT_EQ(r.record().attributes_size(), 1) << r.ShortDebugString();
  ASSERT_EQ(r.record().attributes(0).values_size(), 1) << r.ShortDebugString();
  EXPECT_EQ(r.record().attributes(0).values(0), "Lamp");
}

class ExtractionAdmissionTest : public ::testing::Test {
 protected:
  void Start(util::FifoSemaphore* extractions) {
    service_.emplace(&engine_, extractions);
    grpc::ServerBuilder builder;
    builder.RegisterService(&*service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ = v1::ExtractionService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  grpc::Status Extract(const std::string& id, std::chrono::milliseconds deadline, v1::ExtractResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(In(deadline));
    return stub_->Extract(&context, Request(id), out);
  }

  std::unique_ptr<store::RuleStore> store_ = StoreWithRule();
  workflow::ExtractionEngine engine_{store_.get(), workflow::ExtractionEngineOptions()};
  util::FifoSemaphore extractions_{1, absl::Milliseconds(1)};
  std::optional<server::ExtractionServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ExtractionService::Stub> stub_;
};

TEST_F(ExtractionAdmissionTest, ExtractWaitsForAFreePermit) {
  Start(&extractions_);
  std::optional<absl::StatusOr<util::FifoSemaphore::Permit>> held =
      extractions_.Acquire(absl::InfiniteFuture(), nullptr);
  grpc::Status status;
  v1::ExtractResponse response;
  std::thread call([&] { status = Extract("1", std::chrono::milliseconds(60000), &response); });
  extractions_.AwaitQueuedForTesting(1);
  held.reset();
  call.join();
  ASSERT_TRUE(status.ok()) << status.error_message();
  ExpectLamp(response);
  EXPECT_EQ(extractions_.stats().waited, 1u);
}

TEST_F(ExtractionAdmissionTest, ExtractPastItsDeadlineWhileQueuedNeverExtracts) {
  Start(&extractions_);
  const absl::StatusOr<util::FifoSemaphore::Permit> held = extractions_.Acquire(absl::InfiniteFuture(), nullptr);
  v1::ExtractResponse response;
  const grpc::Status status = Extract("1", std::chrono::milliseconds(100), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << status.error_message();
  extractions_.AwaitQueuedForTesting(0);         // the server's side leaves the queue too
  EXPECT_EQ(extractions_.stats().admitted, 1u);  // the permit held here only
}

TEST_F(ExtractionAdmissionTest, ExtractCancelledWhileQueuedLeavesTheQueue) {
  Start(&extractions_);
  std::optional<absl::StatusOr<util::FifoSemaphore::Permit>> held =
      extractions_.Acquire(absl::InfiniteFuture(), nullptr);
  grpc::ClientContext context;
  context.set_deadline(In(std::chrono::milliseconds(60000)));
  grpc::Status status;
  v1::ExtractResponse response;
  std::thread call([&] { status = stub_->Extract(&context, Request("1"), &response); });
  extractions_.AwaitQueuedForTesting(1);
  context.TryCancel();
  call.join();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << status.error_message();
  extractions_.AwaitQueuedForTesting(0);  // the server's side has left the queue too
  EXPECT_EQ(extractions_.stats().admitted, 1u);
  held.reset();
  ASSERT_TRUE(Extract("2", std::chrono::milliseconds(60000), &response).ok());
  ExpectLamp(response);
}

TEST_F(ExtractionAdmissionTest, AStreamPagePastTheDeadlineWhileQueuedEndsTheStream) {
  Start(&extractions_);
  grpc::ClientContext context;
  context.set_deadline(In(std::chrono::milliseconds(60000)));
  auto stream = stub_->ExtractStream(&context);
  v1::ExtractResponse first;
  ASSERT_TRUE(stream->Write(Request("1")));
  ASSERT_TRUE(stream->Read(&first));  // admitted at once: the permit is free
  ExpectLamp(first);
  const absl::StatusOr<util::FifoSemaphore::Permit> held = extractions_.Acquire(absl::InfiniteFuture(), nullptr);
  ASSERT_TRUE(stream->Write(Request("2")));
  extractions_.AwaitQueuedForTesting(1);
  context.TryCancel();
  v1::ExtractResponse second;
  EXPECT_FALSE(stream->Read(&second));
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  extractions_.AwaitQueuedForTesting(0);
  EXPECT_EQ(extractions_.stats().admitted, 2u);  // page 1 and the permit held here
  EXPECT_EQ(extractions_.stats().cancelled, 1u);
}

TEST_F(ExtractionAdmissionTest, WithoutASemaphoreNothingQueues) {
  Start(nullptr);
  const absl::StatusOr<util::FifoSemaphore::Permit> held = extractions_.Acquire(absl::InfiniteFuture(), nullptr);
  v1::ExtractResponse response;
  const grpc::Status status = Extract("1", std::chrono::milliseconds(60000), &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ExpectLamp(response);
}

TEST_F(ExtractionAdmissionTest, ZeroLimitNeverQueues) {
  util::FifoSemaphore unlimited(0);
  Start(&unlimited);
  std::vector<util::FifoSemaphore::Permit> held;
  for (int i = 0; i < 8; ++i) held.push_back(*unlimited.Acquire(absl::InfiniteFuture(), nullptr));
  v1::ExtractResponse response;
  const grpc::Status status = Extract("1", std::chrono::milliseconds(60000), &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ExpectLamp(response);
  EXPECT_EQ(unlimited.stats().waited, 0u);
}

TEST(DescribeAdmission, SaysWhatTheSemaphoreDid) {
  util::FifoSemaphore s(2);
  { const absl::StatusOr<util::FifoSemaphore::Permit> p = s.Acquire(absl::InfiniteFuture(), nullptr); }
  EXPECT_EQ(s.Acquire(absl::Now() - absl::Seconds(1), nullptr).status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(server::DescribeAdmission(s),
            "extraction admission (limit 2): 1 extractions, 0 waited (mean 0.00 ms, max 0.00 ms, queue up to 0); "
            "refused: 1 past their deadline, 0 cancelled");
  EXPECT_EQ(
      server::DescribeAdmission(util::FifoSemaphore(0)).rfind("extraction admission (no limit): 0 extractions", 0), 0u);
}

absl::StatusOr<size_t> MaxConcurrentExtractions(const std::vector<std::string>& argv) {
  absl::StatusOr<cli::ParsedArgs> args = cli::ParseArgs(argv, server::ExtractionFlagSpecs());
  if (!args.ok()) return args.status();
  return server::MaxConcurrentExtractionsFromArgs(*args);
}

// The default is no limit (0): measured on a quiet 2-core machine, a cap of
// one per core raised p99 with 16 callers in flight (README).
TEST(MaxConcurrentExtractionsFlag, DefaultsToNoLimit) {
  EXPECT_GE(server::UsableCores(), 1);
  EXPECT_EQ(MaxConcurrentExtractions({}).value_or(1), 0u);
  EXPECT_EQ(MaxConcurrentExtractions({"--max-concurrent-extractions", "0"}).value_or(1), 0u);
  EXPECT_EQ(MaxConcurrentExtractions({"--max-concurrent-extractions", "3"}).value_or(0), 3u);
}

TEST(MaxConcurrentExtractionsFlag, RejectsBadValuesNamingTheFlag) {
  for (const char* bad : {"-1", "65537", "two", ""}) {
    const absl::StatusOr<size_t> n = MaxConcurrentExtractions({"--max-concurrent-extractions", bad});
    ASSERT_FALSE(n.ok()) << "'" << bad << "'";
    EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(n.status().message().find("--max-concurrent-extractions"), std::string::npos) << n.status();
  }
}

}  // namespace
}  // namespace vertex
