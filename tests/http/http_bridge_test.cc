// The pieces of the HTTP face without a server: route patterns, the
// embedded static files and their types, the request message built from a
// body and parameters (and each of its errors), the status mapping and the
// JSON of errors.
#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"
#include "services/http/routes.h"
#include "services/http/rpc_bridge.h"
#include "services/http/static_files.h"
#include "vertex/v1/extraction.pb.h"
#include "vertex/v1/learning.pb.h"
#include "vertex/v1/monitoring.pb.h"

namespace vertex::http {
namespace {

using ::testing::HasSubstr;

const google::protobuf::MethodDescriptor& Method(const std::string& service, const std::string& name) {
  // The generated pool knows the files linked in: reference each.
  static const google::protobuf::Descriptor* const kLinked[] = {v1::ExtractRequest::descriptor(),
                                                               v1::LearnRequest::descriptor(),
                                                               v1::GetHistoryRequest::descriptor()};
  (void)kLinked;
  const auto* s = google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(service);
  EXPECT_NE(s, nullptr) << service;
  return *s->FindMethodByName(name);
}

TEST(MatchPattern, FillsParametersSegmentBySegment) {
  auto p = MatchPattern("/v1/sites/{site}/clusters/{cluster_id}/rules", "/v1/sites/shop/clusters/c7/rules");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p, (PathParams{{"site", "shop"}, {"cluster_id", "c7"}}));
  EXPECT_FALSE(MatchPattern("/v1/sites/{site}/rules", "/v1/sites//rules"));
  EXPECT_FALSE(MatchPattern("/v1/sites/{site}/rules", "/v1/sites/shop/rules/"));
  EXPECT_FALSE(MatchPattern("/v1/sites/{site}/rules", "/v1/sites/shop"));
  EXPECT_FALSE(MatchPattern("/v1/extract", "/v1/extracts"));
  EXPECT_TRUE(MatchPattern("/v1/extract", "/v1/extract"));
}

TEST(ReadableRoutes, EachNamesAUnaryRpcAndItsParametersAreFields) {
  for (const Route& r : ReadableRoutes()) {
    const std::string rpc(r.rpc);
    const size_t slash = rpc.find('/');
    ASSERT_NE(slash, std::string::npos) << rpc;
    const google::protobuf::MethodDescriptor& m = Method(rpc.substr(0, slash), rpc.substr(slash + 1));
    EXPECT_FALSE(m.client_streaming() || m.server_streaming()) << rpc;
    std::string pattern(r.pattern);
    for (size_t open = pattern.find('{'); open != std::string::npos; open = pattern.find('{', open + 1)) {
      const std::string field = pattern.substr(open + 1, pattern.find('}', open) - open - 1);
      EXPECT_NE(m.input_type()->FindFieldByName(field), nullptr) << r.pattern << " " << field;
    }
    if (!r.raw_body_field.empty()) {
      EXPECT_NE(m.input_type()->FindFieldByName(std::string(r.raw_body_field)), nullptr) << r.pattern;
    }
  }
}

TEST(StaticFiles, TheIndexAndStaticPathsAreEmbeddedAndSafe) {
  ASSERT_TRUE(FindStaticFile("/").has_value());
  EXPECT_STREQ(FindStaticFile("/")->path, "index.html");
  ASSERT_TRUE(FindStaticFile("/static/style.css").has_value());
  EXPECT_GT(FindStaticFile("/static/style.css")->size, 0u);
  for (const char* bad : {"/static/../index.html", "/static/./style.css", "/static//style.css",
                          "/style.css", "/static/none.css", ""}) {
    EXPECT_FALSE(FindStaticFile(bad).has_value()) << bad;
  }
  // Every embedded file has a known type.
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    EXPECT_NE(ContentTypeOf(f.path), "application/octet-stream") << f.path;
  }
  EXPECT_EQ(ContentTypeOf("a/b.JS"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("x.png"), "image/png");
  EXPECT_EQ(ContentTypeOf("dir.d/noext"), "application/octet-stream");
}

TEST(BuildRequestMessage, BodyThenPathThenQuery) {
  BridgeRequest r;
  r.body = R"({"cluster_id": "c1", "annotations": [], "preview_pages": 3})";
  r.content_type = "application/json";
  r.path_params = {{"site", "shop"}};
  r.query = {{"allow_attribute_loss", "true"}};
  auto m = BuildRequestMessage(Method("vertex.v1.LearningService", "Learn"), r);
  ASSERT_TRUE(m.ok()) << m.status();
  const auto& learn = dynamic_cast<const v1::LearnRequest&>(**m);
  EXPECT_EQ(learn.site(), "shop");
  EXPECT_EQ(learn.cluster_id(), "c1");
  EXPECT_EQ(learn.preview_pages(), 3u);
  EXPECT_TRUE(learn.allow_attribute_loss());
}

TEST(BuildRequestMessage, ARawBodyFillsTheRoutesFieldAndContentType) {
  BridgeRequest r;
  r.body = "<html><p>caf\xe9</p></html>";
  r.content_type = "text/html; charset=windows-1252";
  r.raw_body_field = "html";
  r.query = {{"url", "http://shop.example/p/1"}, {"details", "1"}};
  auto m = BuildRequestMessage(Method("vertex.v1.ExtractionService", "Extract"), r);
  ASSERT_TRUE(m.ok()) << m.status();
  const auto& extract = dynamic_cast<const v1::ExtractRequest&>(**m);
  EXPECT_EQ(extract.html(), r.body);
  EXPECT_EQ(extract.content_type(), r.content_type);
  EXPECT_EQ(extract.url(), "http://shop.example/p/1");
  EXPECT_TRUE(extract.details());
  // JSON bodies still go through the mapping: bytes are base64.
  r.body = R"({"url": "u", "html": "PHA+aGk8L3A+"})";
  r.content_type = "application/json";
  r.query.clear();
  m = BuildRequestMessage(Method("vertex.v1.ExtractionService", "Extract"), r);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(dynamic_cast<const v1::ExtractRequest&>(**m).html(), "<p>hi</p>");
}

// The feed route: the feed's XML as it is served (application/rss+xml,
// application/atom+xml, ...) fills feed_xml; the flags come in the query.
TEST(BuildRequestMessage, AFeedPostedAsXmlFillsFeedXml) {
  for (const char* type : {"application/rss+xml", "application/atom+xml; charset=utf-8", "text/xml",
                           "application/xml"}) {
    BridgeRequest r;
    r.body = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel/></rss>";
    r.content_type = type;
    r.raw_body_field = "feed_xml";
    r.path_params = {{"site", "blog"}};
    r.query = {{"learn", "true"}, {"feed_url", "http://blog.example/feed/"}};
    auto m = BuildRequestMessage(Method("vertex.v1.LearningService", "AnnotateFromFeed"), r);
    ASSERT_TRUE(m.ok()) << type << ": " << m.status();
    const auto& feed = dynamic_cast<const v1::AnnotateFromFeedRequest&>(**m);
    EXPECT_EQ(feed.feed_xml(), r.body) << type;
    EXPECT_EQ(feed.site(), "blog");
    EXPECT_TRUE(feed.learn());
    EXPECT_EQ(feed.feed_url(), "http://blog.example/feed/");
  }
}

TEST(BuildRequestMessage, ARepeatedParameterTakesEachValue) {
  BridgeRequest r;
  r.query = {{"sites", "a"}, {"sites", "b"}};
  auto m = BuildRequestMessage(Method("vertex.v1.LearningService", "TrainListModel"), r);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(dynamic_cast<const v1::TrainListModelRequest&>(**m).sites_size(), 2);
}

TEST(BuildRequestMessage, RejectsWithAMessageNamingTheProblem) {
  struct Case {
    std::string body;
    PathParams path;
    std::multimap<std::string, std::string> query;
    std::string want;
  };
  const Case cases[] = {
      {"{\"site\": ", {}, {}, "request body is not a JSON vertex.v1.GetHistoryRequest"},
      {"{\"site\": \"s\", \"colour\": 1}", {}, {}, "colour"},
      {"[1, 2]", {}, {}, "request body is not a JSON"},
      {"{\"limit\": \"ten\"}", {}, {}, "limit"},
      {"", {}, {{"colour", "red"}}, "unknown query parameter 'colour': vertex.v1.GetHistoryRequest has no such field"},
      {"", {}, {{"limit", "-1"}}, "parameter limit: '-1' is not a uint32"},
      {"", {}, {{"limit", "99999999999"}}, "parameter limit: '99999999999' is not a uint32"},
      {"{\"site\": \"a\"}", {{"site", "b"}}, {}, "field site is 'a' in the body but 'b' in the path"},
  };
  for (const Case& k : cases) {
    BridgeRequest r;
    r.body = k.body;
    r.path_params = k.path;
    r.query = k.query;
    auto m = BuildRequestMessage(Method("vertex.v1.MonitoringService", "GetHistory"), r);
    ASSERT_FALSE(m.ok()) << k.want;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(m.status().message()), HasSubstr(k.want)) << k.body;
  }
  // The same value in body and path is fine.
  BridgeRequest same;
  same.body = "{\"site\": \"a\"}";
  same.path_params = {{"site", "a"}};
  EXPECT_TRUE(BuildRequestMessage(Method("vertex.v1.MonitoringService", "GetHistory"), same).ok());
  // A message field cannot be a parameter.
  BridgeRequest nested;
  nested.query = {{"schema", "x"}};
  auto m = BuildRequestMessage(Method("vertex.v1.LearningService", "RegisterSite"), nested);
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(std::string(m.status().message()), HasSubstr("schema names a message field"));
}

TEST(HttpStatusOf, TheDocumentedTable) {
  using C = grpc::StatusCode;
  const std::pair<C, int> table[] = {
      {C::OK, 200},           {C::INVALID_ARGUMENT, 400},   {C::FAILED_PRECONDITION, 400}, {C::OUT_OF_RANGE, 400},
      {C::UNAUTHENTICATED, 401}, {C::PERMISSION_DENIED, 403}, {C::NOT_FOUND, 404},         {C::ALREADY_EXISTS, 409},
      {C::ABORTED, 409},      {C::RESOURCE_EXHAUSTED, 429}, {C::CANCELLED, 499},           {C::UNIMPLEMENTED, 501},
      {C::UNAVAILABLE, 503},  {C::DEADLINE_EXCEEDED, 504},  {C::INTERNAL, 500},            {C::UNKNOWN, 500},
      {C::DATA_LOSS, 500}};
  for (const auto& [code, status] : table) EXPECT_EQ(HttpStatusOf(code), status) << CodeName(code);
  EXPECT_EQ(CodeName(C::RESOURCE_EXHAUSTED), "RESOURCE_EXHAUSTED");
  EXPECT_EQ(CodeName(C::UNAUTHENTICATED), "UNAUTHENTICATED");
}

TEST(ErrorJson, EscapesTheMessage) {
  EXPECT_EQ(ErrorJson("NOT_FOUND", "site \"a\\b\"\n"),
            "{\"code\": \"NOT_FOUND\", \"message\": \"site \\\"a\\\\b\\\"\\n\"}");
  // Bytes that are not UTF-8 become U+FFFD rather than breaking the JSON.
  EXPECT_THAT(ErrorJson("X", "caf\xe9"), HasSubstr("caf\xef\xbf\xbd"));
}

TEST(MessageToJson, ProtoNamesEveryPrimitiveInt64AsStringEnumsByName) {
  v1::ExtractResponse r;
  r.mutable_record()->set_status(v1::ExtractedRecord::PARTIAL);
  const std::string json = MessageToJson(r);
  EXPECT_THAT(json, HasSubstr("\"status\":\"PARTIAL\""));
  EXPECT_THAT(json, HasSubstr("\"matched_by\":\"\""));
  v1::ClusterSummary c;
  c.set_current_version(12);
  EXPECT_THAT(MessageToJson(c), HasSubstr("\"current_version\":\"12\""));
  EXPECT_THAT(MessageToJson(c), HasSubstr("\"cluster_id\":\"\""));
}

// The readable monitor route carries feed monitoring's fields both ways
// (issue 15 item 4): feed_xml as base64, the field map, feed_repair; the
// response's feed test by its proto names.
TEST(BuildRequestMessage, TheMonitorRouteCarriesTheFeedFields) {
  BridgeRequest r;
  r.body = R"({"feed_url": "http://blog.example/feed/", "feed_xml": "PHJzcy8+", "feed_repair": true,
               "feed_field_to_attribute": {"title": "headline"}})";
  r.content_type = "application/json";
  r.path_params = {{"site", "blog"}};
  auto m = BuildRequestMessage(Method("vertex.v1.MonitoringService", "Monitor"), r);
  ASSERT_TRUE(m.ok()) << m.status();
  const auto& monitor = dynamic_cast<const v1::MonitorRequest&>(**m);
  EXPECT_EQ(monitor.site(), "blog");
  EXPECT_EQ(monitor.feed_url(), "http://blog.example/feed/");
  EXPECT_EQ(monitor.feed_xml(), "<rss/>");
  EXPECT_TRUE(monitor.feed_repair());
  EXPECT_EQ(monitor.feed_field_to_attribute().at("title"), "headline");
  r.body.clear();
  r.query = {{"feed_url", "http://blog.example/feed/"}, {"feed_repair", "true"}};
  m = BuildRequestMessage(Method("vertex.v1.MonitoringService", "Monitor"), r);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(dynamic_cast<const v1::MonitorRequest&>(**m).feed_repair());

  v1::MonitorResponse response;
  v1::ClusterFeedCheck* c = response.mutable_feed()->add_clusters();
  c->set_cluster_id("c1");
  c->add_failing_fields("title");
  response.mutable_feed()->add_repairs()->set_outcome(v1::FeedClusterLearn::CANDIDATE);
  const std::string json = MessageToJson(response);
  EXPECT_THAT(json, HasSubstr("\"failing_fields\":[\"title\"]"));
  EXPECT_THAT(json, HasSubstr("\"outcome\":\"CANDIDATE\""));
  EXPECT_THAT(json, HasSubstr("\"repair_errors\":[]"));
}

}  // namespace
}  // namespace vertex::http
