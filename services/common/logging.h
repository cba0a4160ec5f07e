// Logging set-up for the servers: spdlog's default logger writes to stderr,
// one line per message, as text ("[2024-05-01T12:00:00.123Z] [info]
// [learning] message") or as JSON ({"ts":"2024-05-01T12:00:00.123Z",
// "level":"info","service":"learning","msg":"message"}). JSON lines are
// always valid JSON and UTF-8: the message is escaped per RFC 8259 and bytes
// that are not UTF-8 become U+FFFD. Timestamps are UTC with milliseconds.
//
// Thread-safety: SetUpLogging() replaces spdlog's process-wide default
// logger; call it from main before other threads log. A LogLineFormatter is
// used by one sink, which serializes calls; FormatLogLine() is pure.
#ifndef VERTEX_SERVICES_COMMON_LOGGING_H_
#define VERTEX_SERVICES_COMMON_LOGGING_H_

#include <spdlog/details/log_msg.h>
#include <spdlog/formatter.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace vertex::rpc {

enum class LogFormat { kText, kJson };

// kText for "text", kJson for "json"; InvalidArgument naming `name` else.
absl::StatusOr<LogFormat> ParseLogFormat(const std::string& name);

// The spdlog level of "trace", "debug", "info", "warn" or "error";
// InvalidArgument naming `name` else.
absl::StatusOr<spdlog::level::level_enum> ParseLogLevel(const std::string& name);

// The line (ending in '\n') that `msg` becomes in `format` for service
// `service_name`.
std::string FormatLogLine(LogFormat format, const std::string& service_name, const spdlog::details::log_msg& msg);

// An spdlog formatter writing FormatLogLine() lines; for a sink's
// set_formatter().
class LogLineFormatter final : public spdlog::formatter {
 public:
  LogLineFormatter(LogFormat format, std::string service_name);

  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
  std::unique_ptr<spdlog::formatter> clone() const override;

 private:
  LogFormat format_;
  std::string service_name_;
};

// Makes spdlog's default logger write `format` ("text" or "json") lines for
// `service_name` to stderr, dropping messages below `level` (trace, debug,
// info, warn, error). InvalidArgument naming the format or level when it is
// unknown; the previous logger then stays.
absl::Status SetUpLogging(const std::string& format, const std::string& level, const std::string& service_name);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_LOGGING_H_
