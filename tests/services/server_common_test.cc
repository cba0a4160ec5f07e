// Tests of services/common without a server: flags and their environment
// overrides, ServerConfigFromArgs, log lines, status conversion, credentials.
#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "common/util/file.h"
#include "common/util/utf8.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "services/common/credentials.h"
#include "services/common/flags.h"
#include "services/common/logging.h"
#include "services/common/server_config.h"
#include "services/common/status.h"
#include "tests/testing/temp_dir.h"

namespace vertex::rpc {
namespace {

using cli::FlagSpec;
using cli::ParsedArgs;
using test_support::TempDir;

const std::vector<FlagSpec> kSpecs = {
    {"catch-up-ms", "MS", "how long to catch up"},
    {"name", "NAME", "a name"},
    {"verbose", "", "say more"},
};

// An environment lookup over a fixed map.
cli::EnvLookup FakeEnv(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

ParsedArgs Parse(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs) {
  absl::StatusOr<ParsedArgs> parsed = cli::ParseArgs(args, specs);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return parsed.ok() ? *parsed : ParsedArgs();
}

TEST(Flags, ParsesForms) {
  const ParsedArgs args = Parse({"--name=a", "--catch-up-ms", "5", "--verbose", "pos", "--", "--name"}, kSpecs);
  EXPECT_EQ(args.String("name", ""), "a");
  EXPECT_EQ(args.Int("catch-up-ms", 0, 0, 10).value(), 5);
  EXPECT_TRUE(args.Has("verbose"));
  EXPECT_EQ(args.positional, (std::vector<std::string>{"pos", "--name"}));
}

TEST(Flags, RejectsUnknownAndValuelessFlags) {
  EXPECT_EQ(cli::ParseArgs({"--nope"}, kSpecs).status().message(), "unknown flag --nope");
  EXPECT_EQ(cli::ParseArgs({"--name"}, kSpecs).status().message(), "flag --name needs a value (NAME)");
  EXPECT_EQ(cli::ParseArgs({"--verbose=1"}, kSpecs).status().message(), "flag --verbose takes no value");
}

TEST(Flags, EnvVarName) {
  EXPECT_EQ(cli::EnvVarName("VERTEX_", "catch-up-ms"), "VERTEX_CATCH_UP_MS");
  EXPECT_EQ(cli::EnvVarName("", "name"), "NAME");
}

TEST(Flags, EnvironmentFillsWhatTheCommandLineLeftOut) {
  ParsedArgs args = Parse({"--name", "cli"}, kSpecs);
  ASSERT_TRUE(cli::ApplyEnvironment(
                  kSpecs, "VERTEX_", &args,
                  FakeEnv({{"VERTEX_NAME", "env"}, {"VERTEX_CATCH_UP_MS", "250"}, {"VERTEX_VERBOSE", "true"}}))
                  .ok());
  EXPECT_EQ(args.String("name", ""), "cli");  // the command line wins
  EXPECT_EQ(args.Int("catch-up-ms", 0, 0, 1000).value(), 250);
  EXPECT_TRUE(args.Has("verbose"));
  EXPECT_EQ(args.from_env.count("name"), 0u);
  EXPECT_EQ(args.from_env.at("catch-up-ms"), "VERTEX_CATCH_UP_MS");
}

TEST(Flags, EnvironmentBooleans) {
  const std::vector<std::pair<std::string, bool>> cases = {{"1", true},  {"true", true},   {"TRUE", true},
                                                           {"0", false}, {"false", false}, {"", false}};
  for (const auto& [value, on] : cases) {
    ParsedArgs args;
    ASSERT_TRUE(cli::ApplyEnvironment(kSpecs, "VERTEX_", &args, FakeEnv({{"VERTEX_VERBOSE", value}})).ok()) << value;
    EXPECT_EQ(args.Has("verbose"), on) << "VERTEX_VERBOSE=" << value;
  }
}

TEST(Flags, BadEnvironmentBooleanNamesTheVariable) {
  ParsedArgs args;
  const absl::Status status = cli::ApplyEnvironment(kSpecs, "VERTEX_", &args, FakeEnv({{"VERTEX_VERBOSE", "yes"}}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("VERTEX_VERBOSE"), std::string::npos) << status;
  EXPECT_NE(status.message().find("'yes'"), std::string::npos) << status;
}

TEST(Flags, CommandLineBooleanIsNotOverriddenByEnvironment) {
  ParsedArgs args = Parse({"--verbose"}, kSpecs);
  ASSERT_TRUE(cli::ApplyEnvironment(kSpecs, "VERTEX_", &args, FakeEnv({{"VERTEX_VERBOSE", "junk"}})).ok());
  EXPECT_TRUE(args.Has("verbose"));
}

TEST(Flags, BadValueFromEnvironmentNamesTheVariable) {
  ParsedArgs args;
  ASSERT_TRUE(cli::ApplyEnvironment(kSpecs, "VERTEX_", &args, FakeEnv({{"VERTEX_CATCH_UP_MS", "soon"}})).ok());
  const absl::Status status = args.Int("catch-up-ms", 0, 0, 10).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("--catch-up-ms (from $VERTEX_CATCH_UP_MS)"), std::string::npos) << status;
}

TEST(Flags, HelpNamesTheEnvironmentVariable) {
  const std::string with_env = cli::FlagHelp(kSpecs, "VERTEX_");
  EXPECT_NE(with_env.find("how long to catch up [env VERTEX_CATCH_UP_MS]\n"), std::string::npos) << with_env;
  const std::string plain = cli::FlagHelp(kSpecs);
  EXPECT_EQ(plain.find("[env"), std::string::npos) << plain;
  EXPECT_NE(plain.find("  --catch-up-ms MS   how long to catch up\n"), std::string::npos) << plain;
}

// --- ServerConfigFromArgs ---

class ServerConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    cert_ = Write("cert.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    key_ = Write("key.pem", "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n");
    token_ = Write("token", "  s3cret\n");
    not_pem_ = Write("not.pem", "hello");
    empty_ = Write("empty", " \n");
  }

  std::string Write(const std::string& name, const std::string& contents) {
    const std::string path = dir_.path() + "/" + name;
    EXPECT_TRUE(util::WriteFile(path, contents).ok());
    return path;
  }

  absl::StatusOr<ServerConfig> FromArgs(const std::vector<std::string>& argv) {
    absl::StatusOr<ParsedArgs> args = cli::ParseArgs(argv, ServerFlagSpecs("0.0.0.0:7000"));
    if (!args.ok()) return args.status();
    return ServerConfigFromArgs(*args, "0.0.0.0:7000");
  }

  TempDir dir_;
  std::string cert_, key_, token_, not_pem_, empty_;
};

TEST_F(ServerConfigTest, Defaults) {
  absl::StatusOr<ServerConfig> config = FromArgs({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->listen, "0.0.0.0:7000");
  EXPECT_EQ(config->port_file, "");
  EXPECT_EQ(config->auth_token, "");
  EXPECT_EQ(config->log_format, "text");
  EXPECT_EQ(config->log_level, "info");
  EXPECT_EQ(config->max_message_bytes, 64 << 20);
  EXPECT_EQ(config->max_memory_bytes, 256 << 20);
  EXPECT_EQ(config->max_threads, 1024);
  EXPECT_EQ(config->drain_seconds, 10);
  EXPECT_EQ(TlsMode(*config), "none");
}

TEST_F(ServerConfigTest, ReadsFilesAndValues) {
  absl::StatusOr<ServerConfig> config = FromArgs({"--listen",
                                                  "127.0.0.1:0",
                                                  "--port-file",
                                                  dir_.path() + "/port",
                                                  "--tls-cert",
                                                  cert_,
                                                  "--tls-key",
                                                  key_,
                                                  "--tls-ca",
                                                  cert_,
                                                  "--auth-token-file",
                                                  token_,
                                                  "--log-format",
                                                  "json",
                                                  "--log-level",
                                                  "debug",
                                                  "--max-message-bytes",
                                                  "1048576",
                                                  "--max-memory-bytes",
                                                  "67108864",
                                                  "--max-threads",
                                                  "32",
                                                  "--drain-seconds",
                                                  "0"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->listen, "127.0.0.1:0");
  EXPECT_EQ(config->port_file, dir_.path() + "/port");
  EXPECT_EQ(config->tls_cert, util::ReadFile(cert_).value());
  EXPECT_EQ(config->tls_key, util::ReadFile(key_).value());
  EXPECT_EQ(config->tls_ca, util::ReadFile(cert_).value());
  EXPECT_EQ(config->auth_token, "s3cret");
  EXPECT_EQ(config->log_format, "json");
  EXPECT_EQ(config->log_level, "debug");
  EXPECT_EQ(config->max_message_bytes, 1048576);
  EXPECT_EQ(config->max_memory_bytes, 64 << 20);
  EXPECT_EQ(config->max_threads, 32);
  EXPECT_EQ(config->drain_seconds, 0);
  EXPECT_EQ(TlsMode(*config), "mtls");
}

TEST_F(ServerConfigTest, AcceptsUnixAndIpv6Addresses) {
  for (const std::string listen : {"unix:/tmp/vertex.sock", "[::]:7000", "localhost:1"}) {
    EXPECT_TRUE(FromArgs({"--listen", listen}).ok()) << listen;
  }
}

TEST_F(ServerConfigTest, ErrorsNameTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string flag;  // expected at the start of the message
  };
  const std::vector<Case> cases = {
      {{"--listen", "nohost"}, "--listen"},
      {{"--listen", "host:99999"}, "--listen"},
      {{"--listen", ":80"}, "--listen"},
      {{"--listen", "unix:"}, "--listen"},
      {{"--port-file="}, "--port-file"},
      {{"--tls-cert", cert_}, "--tls-cert"},
      {{"--tls-key", key_}, "--tls-key"},
      {{"--tls-ca", cert_}, "--tls-ca"},
      {{"--tls-cert", dir_.path() + "/missing.pem", "--tls-key", key_}, "--tls-cert"},
      {{"--tls-cert", cert_, "--tls-key", dir_.path()}, "--tls-key"},
      {{"--tls-cert", not_pem_, "--tls-key", key_}, "--tls-cert"},
      {{"--tls-cert", cert_, "--tls-key", cert_}, "--tls-key"},
      {{"--auth-token", "a", "--auth-token-file", token_}, "--auth-token"},
      {{"--auth-token-file", empty_}, "--auth-token-file"},
      {{"--auth-token-file", dir_.path() + "/missing"}, "--auth-token-file"},
      {{"--auth-token", "two words"}, "--auth-token"},
      {{"--auth-token="}, "--auth-token"},
      {{"--log-format", "xml"}, "--log-format"},
      {{"--log-level", "verbose"}, "--log-level"},
      {{"--log-level", "warning"}, "--log-level"},
      {{"--max-message-bytes", "10"}, "--max-message-bytes"},
      {{"--max-message-bytes", "4294967296"}, "--max-message-bytes"},
      {{"--max-memory-bytes", "1000"}, "--max-memory-bytes"},
      {{"--max-threads", "2"}, "--max-threads"},
      {{"--drain-seconds", "-1"}, "--drain-seconds"},
      {{"--drain-seconds", "ten"}, "--drain-seconds"},
  };
  for (const Case& c : cases) {
    const absl::Status status = FromArgs(c.args).status();
    const std::string input = ::testing::PrintToString(c.args);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << input << ": " << status;
    EXPECT_EQ(status.message().substr(0, c.flag.size()), c.flag) << input << ": " << status;
  }
}

TEST_F(ServerConfigTest, EnvironmentSetsServerFlags) {
  const std::vector<FlagSpec> specs = ServerFlagSpecs("0.0.0.0:7000");
  ParsedArgs args = Parse({"--log-level", "warn"}, specs);
  ASSERT_TRUE(
      cli::ApplyEnvironment(
          specs, "VERTEX_", &args,
          FakeEnv({{"VERTEX_AUTH_TOKEN_FILE", token_}, {"VERTEX_LOG_LEVEL", "trace"}, {"VERTEX_DRAIN_SECONDS", "3"}}))
          .ok());
  absl::StatusOr<ServerConfig> config = ServerConfigFromArgs(args, "0.0.0.0:7000");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->auth_token, "s3cret");
  EXPECT_EQ(config->log_level, "warn");
  EXPECT_EQ(config->drain_seconds, 3);
}

TEST_F(ServerConfigTest, BadEnvironmentValueNamesTheVariable) {
  const std::vector<FlagSpec> specs = ServerFlagSpecs("0.0.0.0:7000");
  ParsedArgs args;
  ASSERT_TRUE(cli::ApplyEnvironment(specs, "VERTEX_", &args, FakeEnv({{"VERTEX_LOG_FORMAT", "xml"}})).ok());
  const absl::Status status = ServerConfigFromArgs(args, "0.0.0.0:7000").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("--log-format (from $VERTEX_LOG_FORMAT)"), std::string::npos) << status;
}

// --- Logging ---

spdlog::details::log_msg Message(spdlog::level::level_enum level, std::string_view text) {
  // 2024-05-01T12:00:00.123Z
  const auto time = std::chrono::system_clock::time_point(std::chrono::milliseconds(int64_t{1714564800123}));
  return spdlog::details::log_msg(time, spdlog::source_loc{}, "learning", level,
                                  spdlog::string_view_t(text.data(), text.size()));
}

// Whether `line` is one JSON object (valid JSON and UTF-8) with string
// fields ts, level, service and msg; `msg` receives the latter.
bool ParsesAsLogObject(const std::string& line, std::string* msg) {
  if (line.empty() || line.back() != '\n' || line.find('\n') != line.size() - 1) return false;
  if (!util::IsValidUtf8(line)) return false;
  google::protobuf::Struct object;
  if (!google::protobuf::util::JsonStringToMessage(line, &object).ok()) return false;
  for (const char* key : {"ts", "level", "service", "msg"}) {
    auto it = object.fields().find(key);
    if (it == object.fields().end() || !it->second.has_string_value()) return false;
  }
  *msg = object.fields().at("msg").string_value();
  return object.fields().size() == 4;
}

TEST(Logging, JsonLine) {
  EXPECT_EQ(FormatLogLine(LogFormat::kJson, "learning", Message(spdlog::level::warn, "hello")),
            "{\"ts\":\"2024-05-01T12:00:00.123Z\",\"level\":\"warn\",\"service\":\"learning\",\"msg\":\"hello\"}\n");
}

TEST(Logging, TextLine) {
  EXPECT_EQ(FormatLogLine(LogFormat::kText, "learning", Message(spdlog::level::err, "it broke")),
            "[2024-05-01T12:00:00.123Z] [error] [learning] it broke\n");
}

TEST(Logging, JsonEscapesTheMessage) {
  struct Case {
    std::string in;
    std::string escaped;  // as it appears in the line
    std::string parsed;   // as a JSON parser reads it back
  };
  const std::vector<Case> cases = {
      {"say \"hi\"", R"(say \"hi\")", "say \"hi\""},
      {"C:\\dir", R"(C:\\dir)", "C:\\dir"},
      {"two\nlines\r\n", R"(two\nlines\r\n)", "two\nlines\r\n"},
      {"tab\tbell\a", R"(tab\tbell\u0007)", "tab\tbell\a"},
      {std::string("nul\0end", 7), R"(nul\u0000end)", std::string("nul\0end", 7)},
      {"\x1f\x7f",
       R"(\u001f)"
       "\x7f",
       "\x1f\x7f"},
      {"caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac"},
      {"bad \xff byte", "bad \xef\xbf\xbd byte", "bad \xef\xbf\xbd byte"},
      {"cut \xe2\x82", "cut \xef\xbf\xbd", "cut \xef\xbf\xbd"},
      {"surrogate \xed\xa0\x80", "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
       "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
  };
  for (const Case& c : cases) {
    const std::string line = FormatLogLine(LogFormat::kJson, "learning", Message(spdlog::level::info, c.in));
    EXPECT_NE(line.find("\"msg\":\"" + c.escaped + "\"}"), std::string::npos)
        << ::testing::PrintToString(c.in) << " -> " << line;
    std::string msg;
    EXPECT_TRUE(ParsesAsLogObject(line, &msg)) << ::testing::PrintToString(c.in) << " -> " << line;
    EXPECT_EQ(msg, c.parsed) << ::testing::PrintToString(c.in);
  }
}

TEST(Logging, EscapesTheServiceName) {
  const std::string line = FormatLogLine(LogFormat::kJson, "a\"b", Message(spdlog::level::info, "x"));
  std::string msg;
  EXPECT_TRUE(ParsesAsLogObject(line, &msg)) << line;
}

TEST(Logging, FormatterThroughALogger) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
  sink->set_formatter(std::make_unique<LogLineFormatter>(LogFormat::kJson, "extraction"));
  spdlog::logger logger("test", sink);
  logger.set_level(spdlog::level::debug);
  logger.info("page {} has \"{}\"", 7, "quotes");
  logger.trace("dropped");
  std::string msg;
  EXPECT_TRUE(ParsesAsLogObject(out.str(), &msg)) << out.str();
  EXPECT_EQ(msg, "page 7 has \"quotes\"");
  EXPECT_NE(out.str().find("\"level\":\"info\",\"service\":\"extraction\""), std::string::npos) << out.str();
}

TEST(Logging, ParseLevelsAndFormats) {
  for (const std::string level : {"trace", "debug", "info", "warn", "error"}) {
    EXPECT_TRUE(ParseLogLevel(level).ok()) << level;
  }
  EXPECT_EQ(ParseLogLevel("warn").value(), spdlog::level::warn);
  EXPECT_EQ(ParseLogLevel("error").value(), spdlog::level::err);
  EXPECT_EQ(ParseLogLevel("INFO").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseLogFormat("json").value(), LogFormat::kJson);
  EXPECT_EQ(ParseLogFormat("logfmt").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Logging, SetUpLoggingRejectsUnknownNames) {
  const absl::Status format = SetUpLogging("xml", "info", "test");
  EXPECT_EQ(format.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(format.message().find("'xml'"), std::string::npos) << format;
  const absl::Status level = SetUpLogging("text", "loud", "test");
  EXPECT_EQ(level.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(level.message().find("'loud'"), std::string::npos) << level;
  EXPECT_TRUE(SetUpLogging("json", "warn", "test").ok());
  EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::warn);
  EXPECT_TRUE(SetUpLogging("text", "info", "test").ok());
}

// --- Status conversion ---

TEST(Status, RoundTripsEveryCode) {
  for (int code = 0; code <= 16; ++code) {
    const absl::Status status(static_cast<absl::StatusCode>(code), code == 0 ? "" : "boom " + std::to_string(code));
    const grpc::Status converted = ToGrpcStatus(status);
    EXPECT_EQ(static_cast<int>(converted.error_code()), code);
    EXPECT_EQ(converted.error_message(), std::string(status.message()));
    EXPECT_EQ(FromGrpcStatus(converted), status) << code;
  }
}

// --- Credentials (errors; working TLS is in server_runner_test) ---

TEST(Credentials, InsecureWithoutMaterial) {
  EXPECT_TRUE(MakeServerCredentials(ServerConfig{}).ok());
  EXPECT_TRUE(MakeChannelCredentials(ClientTls{}).ok());
}

TEST(Credentials, RejectsHalfPairs) {
  ServerConfig cert_only;
  cert_only.tls_cert = "cert";
  EXPECT_EQ(MakeServerCredentials(cert_only).status().code(), absl::StatusCode::kInvalidArgument);
  ServerConfig ca_only;
  ca_only.tls_ca = "ca";
  EXPECT_EQ(MakeServerCredentials(ca_only).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeChannelCredentials(ClientTls{"ca", "cert", ""}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeChannelCredentials(ClientTls{"ca", "", "key"}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Credentials, ReadClientTlsNamesAMissingFile) {
  const absl::StatusOr<ClientTls> tls = ReadClientTls("/nonexistent/ca.pem", "", "");
  EXPECT_EQ(tls.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(tls.status().message().find("/nonexistent/ca.pem"), std::string::npos) << tls.status();
  EXPECT_TRUE(ReadClientTls("", "", "").ok());
}

}  // namespace
}  // namespace vertex::rpc
