#include "services/common/logging.h"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <string_view>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"

namespace vertex::rpc {
namespace {

struct LevelName {
  const char* name;
  spdlog::level::level_enum level;
};

constexpr LevelName kLevels[] = {
    {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
    {"warn", spdlog::level::warn},   {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
    {"off", spdlog::level::off},
};
// Flags accept the first five of kLevels.
constexpr int kSettableLevels = 5;

const char* LevelLabel(spdlog::level::level_enum level) {
  for (const LevelName& l : kLevels) {
    if (l.level == level) return l.name;
  }
  return "unknown";
}

std::string Iso8601Utc(spdlog::log_clock::time_point time) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::FromChrono(time), absl::UTCTimeZone());
}

std::string_view Payload(const spdlog::details::log_msg& msg) { return {msg.payload.data(), msg.payload.size()}; }

}  // namespace

absl::StatusOr<LogFormat> ParseLogFormat(const std::string& name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return absl::InvalidArgumentError("unknown log format '" + name + "' (text or json)");
}

absl::StatusOr<spdlog::level::level_enum> ParseLogLevel(const std::string& name) {
  for (int i = 0; i < kSettableLevels; ++i) {
    if (name == kLevels[i].name) return kLevels[i].level;
  }
  return absl::InvalidArgumentError("unknown log level '" + name + "' (trace, debug, info, warn or error)");
}

std::string FormatLogLine(LogFormat format, const std::string& service_name, const spdlog::details::log_msg& msg) {
  const std::string ts = Iso8601Utc(msg.time);
  if (format == LogFormat::kText) {
    return "[" + ts + "] [" + LevelLabel(msg.level) + "] [" + service_name + "] " + std::string(Payload(msg)) + "\n";
  }
  util::JsonWriter json;
  json.BeginObject();
  json.Key("ts").String(ts);
  json.Key("level").String(LevelLabel(msg.level));
  json.Key("service").String(service_name);
  json.Key("msg").String(Payload(msg));
  json.EndObject();
  return json.Release() + "\n";
}

LogLineFormatter::LogLineFormatter(LogFormat format, std::string service_name)
    : format_(format), service_name_(std::move(service_name)) {}

void LogLineFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
  const std::string line = FormatLogLine(format_, service_name_, msg);
  dest.append(line.data(), line.data() + line.size());
}

std::unique_ptr<spdlog::formatter> LogLineFormatter::clone() const {
  return std::make_unique<LogLineFormatter>(format_, service_name_);
}

absl::Status SetUpLogging(const std::string& format, const std::string& level, const std::string& service_name) {
  VERTEX_ASSIGN_OR_RETURN(const LogFormat log_format, ParseLogFormat(format));
  VERTEX_ASSIGN_OR_RETURN(const spdlog::level::level_enum log_level, ParseLogLevel(level));
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  sink->set_formatter(std::make_unique<LogLineFormatter>(log_format, service_name));
  auto logger = std::make_shared<spdlog::logger>(service_name, std::move(sink));
  logger->set_level(log_level);
  spdlog::set_default_logger(std::move(logger));
  return absl::OkStatus();
}

}  // namespace vertex::rpc
