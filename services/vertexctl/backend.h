// How vertexctl commands reach Vertex, and what they share. A command runs
// either offline, over a local rule store (--store DIR: the engines of
// common/workflow in this process), or online (--server HOST:PORT: the gRPC
// clients of services/client, with --token or $VERTEX_AUTH_TOKEN, --tls-*
// and --timeout). Commands are written against workflow::LearningApi,
// ExtractionApi and MonitoringApi, so they print the same either way.
//
// Thread-safety: run from main only; the APIs a Backend holds are safe for
// concurrent use.
#ifndef VERTEX_SERVICES_VERTEXCTL_BACKEND_H_
#define VERTEX_SERVICES_VERTEXCTL_BACKEND_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/monitor/monitor_engine.h"
#include "common/site/page_file.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "google/protobuf/message.h"
#include "services/client/remote_api.h"
#include "services/common/flags.h"
#include "services/vertexctl/progress.h"
#include "vertex/v1/learning.pb.h"

namespace vertex::cli {

// The environment variable --token defaults to.
inline constexpr char kTokenEnv[] = "VERTEX_AUTH_TOKEN";

// --store DIR with `help`.
FlagSpec StoreFlag(const std::string& help);

// The online flags: --server (the address of `service`, e.g. "the learning
// service"), --token, --tls-ca, --tls-cert, --tls-key, --timeout (without
// it, calls get 60 s and the calls that fetch pages 3600 s: see
// client::ConnectOptions).
std::vector<FlagSpec> ServerFlags(const std::string& service);

// The connection the online flags in `args` describe: the token from
// --token, else $VERTEX_AUTH_TOKEN; the TLS files read; --timeout as the
// deadline of every call, those that fetch pages included. InvalidArgument
// naming the flag for a bad --timeout or a certificate without its key;
// the read error naming a TLS file that cannot be read.
absl::StatusOr<client::ConnectOptions> ConnectOptionsFromFlags(const ParsedArgs& args);

// Whether the command runs online: true for --server, false for --store.
// InvalidArgument when neither or both are given.
absl::StatusOr<bool> IsOnline(const ParsedArgs& args);

// InvalidArgument when a flag of `offline_only` is given with --server
// ("--threads applies to --store only ...").
absl::Status RejectOfflineFlags(const ParsedArgs& args, const std::vector<FlagSpec>& offline_only);

// An API and, offline, the store its engine runs on (destroyed after it).
template <typename Api>
struct Backend {
  std::unique_ptr<store::RuleStore> store;  // null online
  std::unique_ptr<Api> api;
  Api* operator->() const { return api.get(); }
};

// Whether an offline command may create a missing store directory.
enum class StoreMode { kCreate, kMustExist };

// The LearningApi the flags ask for: a LearningEngine with `options` over
// the store in --store (opened as `mode` says), or a client of --server.
// Errors: IsOnline's, the store's (NotFound for a missing store with
// kMustExist; "in use by another process" when locked), ConnectLearning's.
absl::StatusOr<Backend<workflow::LearningApi>> OpenLearning(const ParsedArgs& args, StoreMode mode,
                                                            const workflow::LearningEngineOptions& options);

// The ExtractionApi the flags ask for: offline an ExtractionEngine with
// `options` over the existing store, whose ExtractMany runs on `threads`
// threads (0: one per core); online a client of --server. Errors as
// OpenLearning.
absl::StatusOr<Backend<workflow::ExtractionApi>> OpenExtraction(const ParsedArgs& args,
                                                                const workflow::ExtractionEngineOptions& options,
                                                                int threads);

// The MonitoringApi the flags ask for: a MonitorEngine with `options` over
// the existing store, or a client of --server. Offline, when options.record
// is null, the engine records its runs in that store itself
// (RuleStore::AppendMonitorRun, keeping the newest kOfflineHistoryKeep runs
// per site, as the learning service does by default), and when
// options.learning is null, feed_repair goes to a LearningEngine over that
// store with options.fetcher. Errors as OpenLearning.
absl::StatusOr<Backend<workflow::MonitoringApi>> OpenMonitoring(const ParsedArgs& args,
                                                                monitor::MonitorEngineOptions options);

// Monitoring runs kept per site when vertexctl records them offline.
inline const size_t kOfflineHistoryKeep = workflow::LearningEngineOptions().history_keep;

// `message` in the protobuf JSON mapping on one line: field names as in the
// .proto, fields with default values included (0, "", false, []), int64 as
// strings, enums by name. Internal when protobuf cannot print it (a string
// field that is not UTF-8).
absl::StatusOr<std::string> ProtoJson(const google::protobuf::Message& message);

// Prints ProtoJson(message) and a newline to stdout; its error otherwise.
absl::Status PrintJson(const google::protobuf::Message& message);

// The paragraph of a command's --help on --store and --server; `service`
// names the service --server reaches ("the learning service").
std::string BackendHelp(const std::string& service);

// InvalidArgument "--NAME is required" for the first of `names` missing.
absl::Status RequireFlags(const ParsedArgs& args, const std::vector<std::string>& names);

// Page files read for sending: at most `max_pages` pages and about
// `max_bytes` bytes per batch (a larger page goes alone). Each file's URL is
// its `<base href>` first line, else file:// and its absolute path.
struct BatchLimits {
  size_t max_pages = 200;
  size_t max_bytes = size_t{32} << 20;
  // Files larger than this are an error (ResourceExhausted naming them).
  size_t max_file_bytes = size_t{64} << 20;
  // --url: the URL of the one file (its <base href> ignored); "" to take
  // each file's own (UrlFromFlags checks there is one file).
  std::string url;
  // Advanced by the pages of each batch once sent (read, for PageBatches);
  // not owned; may be null.
  Progress* progress = nullptr;
};

// --url URL, with `help` naming the command's page argument.
FlagSpec UrlFlag(const std::string& help);

// The --url of `args` for the page `files`: "" when absent.
// InvalidArgument when it is given with more or fewer than one file ("--url
// names the URL of one page file; N files given") or is not an absolute
// URL (site::IsAbsoluteUrl).
absl::StatusOr<std::string> UrlFromFlags(const ParsedArgs& args, const std::vector<std::string>& files);

// Calls `send(pages, paths, last)` for each batch of `files`, in order
// (`paths[i]` is the file of `pages[i]`); stops at its first error. Read
// errors name the file (NotFound, ResourceExhausted).
absl::Status ForEachPageBatch(
    const std::vector<std::string>& files, const BatchLimits& limits,
    const std::function<absl::Status(std::vector<v1::Page> pages, const std::vector<std::string>& paths, bool last)>&
        send);

// The pages of `files` read a batch at a time (BatchLimits), so that a
// directory of any size is never held whole: what monitor and relearn send.
class PageBatches {
 public:
  PageBatches(std::vector<std::string> files, BatchLimits limits)
      : files_(std::move(files)), limits_(limits) {}
  // The next batch; empty at the end. Read errors as ForEachPageBatch.
  absl::StatusOr<std::vector<v1::Page>> Next();

 private:
  std::vector<std::string> files_;
  BatchLimits limits_;
  size_t next_ = 0;                       // the next file of files_
  std::optional<site::PageFile> pending_;  // files_[next_], read already
};

// Batches of at most 8 MiB: well under any server's message limit.
inline BatchLimits StreamBatchLimits() {
  BatchLimits limits;
  limits.max_bytes = size_t{8} << 20;
  return limits;
}

// A call's messages (workflow::MessageReader): `fields` with the first
// batch of `pages`, then one message per further batch. `pages` must
// outlive the reader.
template <typename Request>
workflow::MessageReader<Request> RequestMessages(Request fields, PageBatches* pages) {
  return [fields = std::move(fields), pages, first = true](Request* message) mutable -> absl::StatusOr<bool> {
    absl::StatusOr<std::vector<v1::Page>> batch = pages->Next();
    if (!batch.ok()) return batch.status();
    if (batch->empty() && !first) return false;
    message->Clear();
    if (first) *message = fields;
    first = false;
    for (v1::Page& p : *batch) *message->add_pages() = std::move(p);
    return true;
  };
}

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_VERTEXCTL_BACKEND_H_
