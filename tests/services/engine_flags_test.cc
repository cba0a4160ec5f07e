// Tests of services/common/engine_flags (the fetch and relearn flags the
// servers and vertexctl share) and of repeatable flags (ParsedArgs::List).
#include "services/common/engine_flags.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> Specs() {
  std::vector<FlagSpec> specs = FetchFlagSpecs();
  for (const FlagSpec& f : RelearnFlagSpecs()) specs.push_back(f);
  for (const FlagSpec& f : ClusterDefaultFlagSpecs()) specs.push_back(f);
  specs.push_back({"cluster", "ID", "repeatable"});
  return specs;
}

ParsedArgs Parse(const std::vector<std::string>& args) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, Specs());
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return parsed.ok() ? *parsed : ParsedArgs();
}

TEST(FetchFlags, DefaultsAreFetchOptionsDefaults) {
  const fetch::FetchOptions got = FetchOptionsFromArgs(Parse({})).value();
  const fetch::FetchOptions want;
  EXPECT_EQ(got.total_timeout_ms, want.total_timeout_ms);
  EXPECT_EQ(got.connect_timeout_ms, want.connect_timeout_ms);
  EXPECT_EQ(got.max_bytes, want.max_bytes);
  EXPECT_EQ(got.max_redirects, want.max_redirects);
  EXPECT_EQ(got.per_host_delay_ms, want.per_host_delay_ms);
  EXPECT_EQ(got.user_agent, want.user_agent);
  EXPECT_TRUE(got.robots);
  // The help states them.
  const std::string help = FlagHelp(FetchFlagSpecs());
  for (const char* text :
       {"--fetch-timeout-ms MS", "(default 20000)", "--fetch-connect-timeout-ms MS", "(default 5000)",
        "--fetch-max-bytes N", "(default 16777216)", "--fetch-max-redirects N", "(default 5)", "--fetch-delay-ms MS",
        "(default 1000)", "--user-agent UA", "VertexMonitor/1.0", "--ignore-robots"}) {
    EXPECT_NE(help.find(text), std::string::npos) << text;
  }
}

TEST(FetchFlags, ValuesAreTaken) {
  const fetch::FetchOptions o =
      FetchOptionsFromArgs(Parse({"--fetch-timeout-ms", "3000", "--fetch-connect-timeout-ms=700", "--fetch-max-bytes",
                                  "1024", "--fetch-max-redirects", "0", "--fetch-delay-ms", "0", "--user-agent",
                                  "VertexMonitor/2 (test)", "--ignore-robots"}))
          .value();
  EXPECT_EQ(o.total_timeout_ms, 3000);
  EXPECT_EQ(o.connect_timeout_ms, 700);
  EXPECT_EQ(o.max_bytes, 1024u);
  EXPECT_EQ(o.max_redirects, 0);
  EXPECT_EQ(o.per_host_delay_ms, 0);
  EXPECT_EQ(o.user_agent, "VertexMonitor/2 (test)");
  EXPECT_FALSE(o.robots);
}

TEST(FetchFlags, BadValuesNameTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--fetch-timeout-ms", "0"}, "--fetch-timeout-ms must be an integer from 1 to 3600000, not '0'"},
      {{"--fetch-timeout-ms", "1s"}, "--fetch-timeout-ms must be an integer"},
      {{"--fetch-connect-timeout-ms", "-5"}, "--fetch-connect-timeout-ms must be an integer from 1"},
      {{"--fetch-connect-timeout-ms", "30000"},
       "--fetch-connect-timeout-ms (30000) must not exceed --fetch-timeout-ms (20000)"},
      {{"--fetch-max-bytes", "0"}, "--fetch-max-bytes must be an integer from 1 to 1073741824"},
      {{"--fetch-max-redirects", "21"}, "--fetch-max-redirects must be an integer from 0 to 20, not '21'"},
      {{"--fetch-delay-ms", "-1"}, "--fetch-delay-ms must be an integer from 0 to 600000"},
      {{"--user-agent", ""}, "--user-agent: must not be empty"},
      {{"--user-agent", "a\r\nX-Injected: 1"}, "--user-agent: must be printable ASCII"},
      {{"--user-agent", std::string(513, 'a')}, "--user-agent: longer than 512 bytes"},
  };
  for (const auto& [args, message] : cases) {
    const absl::Status s = FetchOptionsFromArgs(Parse(args)).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << args[0];
    EXPECT_NE(s.message().find(message), std::string::npos) << s;
  }
}

TEST(FetchFlags, EnvironmentValuesNameTheVariable) {
  ParsedArgs args = Parse({});
  const std::map<std::string, std::string> env = {{"VERTEX_FETCH_DELAY_MS", "later"}, {"VERTEX_IGNORE_ROBOTS", "1"}};
  ASSERT_TRUE(ApplyEnvironment(Specs(), "VERTEX_", &args, [&](const std::string& name) -> std::optional<std::string> {
                auto it = env.find(name);
                return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
              }).ok());
  EXPECT_TRUE(args.Has("ignore-robots"));
  const absl::Status s = FetchOptionsFromArgs(args).status();
  EXPECT_NE(s.message().find("--fetch-delay-ms (from $VERTEX_FETCH_DELAY_MS) must be an integer"), std::string::npos)
      << s;
}

TEST(RelearnFlags, DefaultsValuesAndErrors) {
  workflow::LearningEngineOptions base;
  base.preview_pages = 3;  // kept
  workflow::LearningEngineOptions o = WithRelearnFlags(Parse({}), base).value();
  EXPECT_EQ(o.bellwethers, workflow::LearningEngineOptions().bellwethers);
  EXPECT_EQ(o.relearn_pages, workflow::LearningEngineOptions().relearn_pages);
  EXPECT_EQ(o.history_keep, workflow::LearningEngineOptions().history_keep);
  EXPECT_EQ(o.preview_pages, 3u);
  o = WithRelearnFlags(Parse({"--bellwethers", "4", "--relearn-pages", "50", "--history-keep", "0"}), base).value();
  EXPECT_EQ(o.bellwethers, 4u);
  EXPECT_EQ(o.relearn_pages, 50u);
  EXPECT_EQ(o.history_keep, 0u);
  const std::string help = FlagHelp(RelearnFlagSpecs());
  for (const char* text : {"--bellwethers N", "(default 15)", "--relearn-pages N", "(default 300)", "--history-keep N",
                           "(default 1000)", "0 keeps all"}) {
    EXPECT_NE(help.find(text), std::string::npos) << text;
  }
  EXPECT_NE(WithRelearnFlags(Parse({"--bellwethers", "0"}), base).status().message().find("--bellwethers must be"),
            std::string::npos);
  EXPECT_NE(WithRelearnFlags(Parse({"--relearn-pages", "x"}), base).status().message().find("--relearn-pages must"),
            std::string::npos);
  EXPECT_NE(WithRelearnFlags(Parse({"--history-keep", "-1"}), base).status().message().find("--history-keep must"),
            std::string::npos);
}

TEST(RepeatableFlags, EveryValueSplitAtCommas) {
  const ParsedArgs args = Parse({"--cluster", "c0", "--cluster=c1,c2", "--cluster", ",c3,"});
  EXPECT_EQ(args.List("cluster"), (std::vector<std::string>{"c0", "c1", "c2", "c3"}));
  EXPECT_EQ(args.String("cluster", ""), ",c3,");  // the last value
  EXPECT_TRUE(args.List("bellwethers").empty());
  ParsedArgs from_env;
  from_env.flags["cluster"] = "c4,c5";  // as ApplyEnvironment sets it
  EXPECT_EQ(from_env.List("cluster"), (std::vector<std::string>{"c4", "c5"}));
}

// The servers' clustering defaults for sites without settings (regression:
// vertexd had no threshold flag).
TEST(ClusterDefaultFlags, DefaultsValuesAndErrors) {
  workflow::LearningEngineOptions base;
  base.bellwethers = 4;  // kept
  workflow::LearningEngineOptions o = WithClusterDefaultFlags(Parse({}), base).value();
  EXPECT_EQ(o.cluster.cluster.prune_threshold, 0);  // adaptive
  EXPECT_EQ(o.cluster.sample.rate, 0.2);
  EXPECT_EQ(o.bellwethers, 4u);
  o = WithClusterDefaultFlags(Parse({"--prune-threshold", "20", "--sample-rate=0.5"}), base).value();
  EXPECT_EQ(o.cluster.cluster.prune_threshold, 20);
  EXPECT_EQ(o.cluster.sample.rate, 0.5);
  o = WithClusterDefaultFlags(Parse({"--prune-threshold", "1000000000", "--sample-rate", "1"}), base).value();
  EXPECT_EQ(o.cluster.cluster.prune_threshold, 1000000000);
  EXPECT_EQ(o.cluster.sample.rate, 1.0);
  const std::string help = FlagHelp(ClusterDefaultFlagSpecs());
  for (const char* text : {"--prune-threshold N", "0: adaptive", "clamp(sample pages / 50, 1, 20)",
                           "a site's settings win", "--sample-rate R", "(default 0.2)", "without settings"}) {
    EXPECT_NE(help.find(text), std::string::npos) << text;
  }
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--prune-threshold", "-1"}, "--prune-threshold must be an integer from 0 to 1000000000, not '-1'"},
      {{"--prune-threshold", "1000000001"}, "--prune-threshold must be an integer from 0 to 1000000000"},
      {{"--prune-threshold", "x"}, "--prune-threshold must be an integer"},
      {{"--sample-rate", "0"}, "--sample-rate must be a number from"},
      {{"--sample-rate", "1.5"}, "--sample-rate must be a number from"},
      {{"--sample-rate", "nan"}, "--sample-rate must be a number from"},
  };
  for (const auto& [args, message] : cases) {
    const absl::Status s = WithClusterDefaultFlags(Parse(args), base).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << args[0] << " " << args[1];
    EXPECT_NE(s.message().find(message), std::string::npos) << s;
  }
}

}  // namespace
}  // namespace vertex::cli
