#include "services/vertexctl/backend.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/site/page_file.h"
#include "common/util/status_macros.h"
#include "google/protobuf/util/json_util.h"

namespace vertex::cli {
namespace {

// The engine's ExtractMany spread over threads: each takes the next few
// requests and runs them through the engine's own ExtractMany, so per-page
// errors are the engine's.
class ParallelExtraction final : public workflow::ExtractionApi {
 public:
  ParallelExtraction(std::unique_ptr<workflow::ExtractionEngine> engine, int threads)
      : engine_(std::move(engine)),
        threads_(threads > 0 ? static_cast<size_t>(threads) : std::max(1u, std::thread::hardware_concurrency())) {}

  absl::StatusOr<v1::ExtractResponse> Extract(const v1::ExtractRequest& request) override {
    return engine_->Extract(request);
  }

  absl::StatusOr<std::vector<v1::ExtractResponse>> ExtractMany(
      const std::vector<v1::ExtractRequest>& requests) override {
    constexpr size_t kChunk = 4;
    std::vector<v1::ExtractResponse> out(requests.size());
    std::vector<absl::Status> errors(threads_);
    std::atomic<size_t> next{0};
    const auto work = [&](size_t worker) {
      for (size_t begin = next.fetch_add(kChunk); begin < requests.size(); begin = next.fetch_add(kChunk)) {
        const size_t end = std::min(requests.size(), begin + kChunk);
        absl::StatusOr<std::vector<v1::ExtractResponse>> done =
            engine_->ExtractMany(std::vector<v1::ExtractRequest>(requests.begin() + begin, requests.begin() + end));
        if (!done.ok()) {
          errors[worker] = done.status();
          return;
        }
        std::move(done->begin(), done->end(), out.begin() + begin);
      }
    };
    std::vector<std::thread> pool;
    const size_t n = std::min(threads_, (requests.size() + kChunk - 1) / kChunk);
    for (size_t t = 1; t < n; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& t : pool) t.join();
    for (const absl::Status& s : errors) VERTEX_RETURN_IF_ERROR(s);
    return out;
  }

 private:
  const std::unique_ptr<workflow::ExtractionEngine> engine_;
  const size_t threads_;
};

absl::StatusOr<std::unique_ptr<store::RuleStore>> OpenStore(const ParsedArgs& args, StoreMode mode) {
  store::StoreOptions options;
  options.create_if_missing = mode == StoreMode::kCreate;
  return store::OpenRocksDbStore(args.String("store", ""), options);
}

}  // namespace

FlagSpec StoreFlag(const std::string& help) { return {"store", "DIR", help}; }

std::vector<FlagSpec> ServerFlags(const std::string& service) {
  return {
      {"server", "HOST:PORT", "run online against " + service + " at HOST:PORT (instead of --store)"},
      {"token", "TOKEN", std::string("--server: bearer token for write RPCs (default: $") + kTokenEnv + ")"},
      {"tls-ca", "FILE", "--server: PEM roots to verify the server with (TLS; default: plaintext)"},
      {"tls-cert", "FILE", "--server: PEM client certificate, for servers requiring mutual TLS"},
      {"tls-key", "FILE", "--server: PEM private key of --tls-cert"},
      {"timeout", "SECONDS", "--server: deadline of each call (default 60)"},
  };
}

absl::StatusOr<client::ConnectOptions> ConnectOptionsFromFlags(const ParsedArgs& args) {
  client::ConnectOptions options;
  options.server = args.String("server", "");
  if (options.server.empty()) return absl::InvalidArgumentError("--server: no address given (HOST:PORT)");
  const char* env_token = std::getenv(kTokenEnv);
  options.token = args.String("token", env_token == nullptr ? "" : env_token);
  VERTEX_ASSIGN_OR_RETURN(options.timeout_seconds, args.Double("timeout", 60, 0.001, 1e7));
  if (args.Has("timeout")) options.fetch_timeout_seconds = options.timeout_seconds;
  if (args.Has("tls-cert") != args.Has("tls-key")) {
    return absl::InvalidArgumentError("--tls-cert and --tls-key go together");
  }
  VERTEX_ASSIGN_OR_RETURN(options.tls, rpc::ReadClientTls(args.String("tls-ca", ""), args.String("tls-cert", ""),
                                                          args.String("tls-key", "")));
  return options;
}

absl::StatusOr<bool> IsOnline(const ParsedArgs& args) {
  if (args.Has("server") == args.Has("store")) {
    return absl::InvalidArgumentError("give either --store DIR (offline) or --server HOST:PORT (online)");
  }
  return args.Has("server");
}

absl::Status RejectOfflineFlags(const ParsedArgs& args, const std::vector<FlagSpec>& offline_only) {
  if (!args.Has("server")) return absl::OkStatus();
  for (const FlagSpec& f : offline_only) {
    if (f.name != "help" && args.Has(f.name)) {
      return absl::InvalidArgumentError("--" + f.name + " applies to --store only (the server uses its own settings)");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Backend<workflow::LearningApi>> OpenLearning(const ParsedArgs& args, StoreMode mode,
                                                            const workflow::LearningEngineOptions& options) {
  Backend<workflow::LearningApi> b;
  VERTEX_ASSIGN_OR_RETURN(const bool online, IsOnline(args));
  if (online) {
    VERTEX_ASSIGN_OR_RETURN(client::ConnectOptions connect, ConnectOptionsFromFlags(args));
    VERTEX_ASSIGN_OR_RETURN(b.api, client::ConnectLearning(connect));
    return b;
  }
  VERTEX_ASSIGN_OR_RETURN(b.store, OpenStore(args, mode));
  b.api = std::make_unique<workflow::LearningEngine>(b.store.get(), options);
  return b;
}

absl::StatusOr<Backend<workflow::ExtractionApi>> OpenExtraction(const ParsedArgs& args,
                                                                const workflow::ExtractionEngineOptions& options,
                                                                int threads) {
  Backend<workflow::ExtractionApi> b;
  VERTEX_ASSIGN_OR_RETURN(const bool online, IsOnline(args));
  if (online) {
    VERTEX_ASSIGN_OR_RETURN(client::ConnectOptions connect, ConnectOptionsFromFlags(args));
    VERTEX_ASSIGN_OR_RETURN(b.api, client::ConnectExtraction(connect));
    return b;
  }
  VERTEX_ASSIGN_OR_RETURN(b.store, OpenStore(args, StoreMode::kMustExist));
  b.api = std::make_unique<ParallelExtraction>(std::make_unique<workflow::ExtractionEngine>(b.store.get(), options),
                                               threads);
  return b;
}

absl::StatusOr<Backend<workflow::MonitoringApi>> OpenMonitoring(const ParsedArgs& args,
                                                                monitor::MonitorEngineOptions options) {
  Backend<workflow::MonitoringApi> b;
  VERTEX_ASSIGN_OR_RETURN(const bool online, IsOnline(args));
  if (online) {
    VERTEX_ASSIGN_OR_RETURN(client::ConnectOptions connect, ConnectOptionsFromFlags(args));
    VERTEX_ASSIGN_OR_RETURN(b.api, client::ConnectMonitoring(connect));
    return b;
  }
  VERTEX_ASSIGN_OR_RETURN(b.store, OpenStore(args, StoreMode::kMustExist));
  if (options.record == nullptr) {
    store::RuleStore* store = b.store.get();
    options.record = [store](const v1::MonitorRun& run) { return store->AppendMonitorRun(run, kOfflineHistoryKeep); };
  }
  if (options.learning == nullptr) {
    // feed_repair's Relearn and AnnotateFromFeed, on the same store.
    workflow::LearningEngineOptions learning;
    learning.fetcher = options.fetcher;
    options.learning = std::make_shared<workflow::LearningEngine>(b.store.get(), std::move(learning));
  }
  b.api = std::make_unique<monitor::MonitorEngine>(b.store.get(), std::move(options));
  return b;
}

absl::StatusOr<std::string> ProtoJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string json;
  const auto status = google::protobuf::util::MessageToJsonString(message, &json, options);
  if (!status.ok()) {
    return absl::InternalError("cannot print " + message.GetTypeName() + " as JSON: " + std::string(status.message()));
  }
  return json;
}

absl::Status PrintJson(const google::protobuf::Message& message) {
  VERTEX_ASSIGN_OR_RETURN(const std::string json, ProtoJson(message));
  std::cout << json << "\n";
  return absl::OkStatus();
}

std::string BackendHelp(const std::string& service) {
  return absl::StrCat(
      "Offline (--store DIR) the command runs Vertex in this process on the rule store in DIR;\n"
      "online (--server HOST:PORT) it calls ",
      service,
      " at HOST:PORT, with the bearer\n"
      "token of --token, else of $",
      kTokenEnv, " (none when both are empty). Both print the same.\n");
}

absl::Status RequireFlags(const ParsedArgs& args, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (!args.Has(name)) return absl::InvalidArgumentError("--" + name + " is required");
  }
  return absl::OkStatus();
}

absl::Status ForEachPageBatch(
    const std::vector<std::string>& files, const BatchLimits& limits,
    const std::function<absl::Status(std::vector<v1::Page> pages, const std::vector<std::string>& paths, bool last)>&
        send) {
  std::vector<v1::Page> pages;
  std::vector<std::string> paths;
  size_t bytes = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile file,
                            site::ReadPageFile(files[i], limits.max_file_bytes, limits.url));
    if (!pages.empty() && (pages.size() >= limits.max_pages || bytes + file.bytes.size() > limits.max_bytes)) {
      const size_t sent = pages.size();
      VERTEX_RETURN_IF_ERROR(send(std::move(pages), paths, false));
      if (limits.progress != nullptr) limits.progress->Add(sent);
      pages.clear();
      paths.clear();
      bytes = 0;
    }
    bytes += file.bytes.size();
    v1::Page& page = pages.emplace_back();
    page.set_url(std::move(file.url));
    page.set_file(files[i]);
    page.set_html(std::move(file.bytes));
    paths.push_back(files[i]);
  }
  const size_t sent = pages.size();
  VERTEX_RETURN_IF_ERROR(send(std::move(pages), paths, true));
  if (limits.progress != nullptr) limits.progress->Add(sent);
  return absl::OkStatus();
}

FlagSpec UrlFlag(const std::string& help) { return {"url", "URL", help}; }

absl::StatusOr<std::string> UrlFromFlags(const ParsedArgs& args, const std::vector<std::string>& files) {
  if (!args.Has("url")) return std::string();
  const std::string url = args.String("url", "");
  if (files.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("--url names the URL of one page file; ", files.size(),
                                                   " files given"));
  }
  if (!site::IsAbsoluteUrl(url)) {
    return absl::InvalidArgumentError("--url '" + url + "' is not an absolute URL (e.g. https://example.com/p/1)");
  }
  return url;
}

absl::StatusOr<std::vector<v1::Page>> PageBatches::Next() {
  std::vector<v1::Page> pages;
  size_t bytes = 0;
  while (next_ < files_.size() && (pages.empty() || pages.size() < limits_.max_pages)) {
    if (!pending_.has_value()) {
      VERTEX_ASSIGN_OR_RETURN(site::PageFile file,
                              site::ReadPageFile(files_[next_], limits_.max_file_bytes, limits_.url));
      pending_ = std::move(file);
    }
    if (!pages.empty() && bytes + pending_->bytes.size() > limits_.max_bytes) break;  // the next batch's first
    bytes += pending_->bytes.size();
    v1::Page& page = pages.emplace_back();
    page.set_url(std::move(pending_->url));
    page.set_html(std::move(pending_->bytes));
    pending_.reset();
    ++next_;
  }
  if (limits_.progress != nullptr) limits_.progress->Add(pages.size());
  return pages;
}

}  // namespace vertex::cli
