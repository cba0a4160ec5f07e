// load_gen: a load generator for the ExtractionService of a running server
// (vertexd or vertex-extraction), measured against the in-process engine on
// the same pages in the same run (DESIGN.md "Measured here": compare ratios,
// not absolute figures, on this shared 2-core machine).
//
//   load_gen setup  learns a site into a RocksDB store in process (the
//                   simulated editor of workflow/api_editor.h), so a server
//                   can then be started on that store.
//   load_gen run    drives the server with one load (stream or unary,
//                   closed loop or at a fixed rate) and reports pages/s,
//                   latency percentiles and errors, between two runs of
//                   the in-process 2-thread extraction rate.
//   load_gen sweep  peak stream throughput over concurrency 1, 2, 4, then
//                   unary latency at half of that peak, against the
//                   targets (RPC peak >= 0.8 x in-process 2-thread rate;
//                   p99 <= 10 ms at half of peak), and two streams at the
//                   same half-peak rate right after: the server's CPU per
//                   page of unary against streamed pages at one rate (a
//                   server at half load spends more CPU per page than at
//                   peak, whatever the call kind). With --uncapped-server
//                   (a second server on a copy of the store, started with
//                   --max-concurrent-extractions 0) the half-peak unary
//                   load runs on both servers, --rounds times each,
//                   alternating, at the same rate, and p50/p99 of each are
//                   printed side by side: the server's admission cap
//                   (bench load: one extraction per core, the others queued
//                   FIFO) against none, in one run. `bash deploy/vertex.sh
//                   bench load` starts both servers and runs this.
//
// Latency is measured per page from the write of its request (closed
// loop), or from its scheduled time (--rate: open loop, so a slow server
// cannot hide its queueing: no coordinated omission), to its response.
// The first second of each load is warm-up: its completions do not count.
// Pages/s counts completions inside the measured window; the latency
// percentiles cover every request issued inside it, waited for to the end.
//
// Threads: each worker owns its channel (its own connection), stub and
// figures; a stream worker runs a writer and a reader thread that share
// only the queue of requests in flight (under a mutex). Figures are merged
// after the workers are joined.
#include <grpcpp/grpcpp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/eval/ground_truth.h"
#include "common/extract/record_proto.h"
#include "common/extract/site_extractor.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/store/rocksdb_kv.h"
#include "common/store/rule_store.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/site_store.h"
#include "services/common/balanced_target.h"
#include "services/common/flags.h"
#include "vertex/v1/extraction.grpc.pb.h"
#include "vertex/v1/learning.grpc.pb.h"

namespace vertex::bench {
namespace {

using Clock = std::chrono::steady_clock;
using cli::FlagSpec;
using cli::ParsedArgs;
using Stub = v1::ExtractionService::Stub;
using Stream = grpc::ClientReaderWriter<v1::ExtractRequest, v1::ExtractResponse>;

constexpr double kWarmupSeconds = 1;
constexpr int kBaselineThreads = 2;
constexpr size_t kProbePages = 20;
constexpr double kThroughputTarget = 0.8;  // RPC peak / in-process 2-thread rate
constexpr double kP99TargetMs = 10;        // unary, at half of peak

// ---------------------------------------------------------------- usage

constexpr char kUsage[] =
    "usage: load_gen setup|run|sweep|soak|scale [flags]   (load_gen MODE --help for the flags of MODE)\n"
    "\n"
    "  setup  learn a site into a RocksDB store in process (register, add pages, an editor simulated\n"
    "         from the ground truth, learn, extract, score; prints the report), then close the store,\n"
    "         so that a server can be started on it\n"
    "  run    drive a server's ExtractionService with one load and report pages/s, latency\n"
    "         p50/p90/p99/max, errors, client CPU; before and after it, the in-process extraction rate\n"
    "         on 2 threads on the same pages, and the ratio RPC / in-process; a last line 'JSON {...}'\n"
    "  sweep  stream mode at concurrency 1, 2 and 4 (the best is the peak), then unary mode at half\n"
    "         of the peak rate on 4 workers (twice; and as often on --uncapped-server, a server started\n"
    "         with --max-concurrent-extractions 0, alternating) and 2 streams at that rate; prints them\n"
    "         against the targets (RPC peak >= 0.8 x the in-process 2-thread rate; p99 <= 10 ms at half\n"
    "         of peak), the server CPU per page of unary vs stream at that rate, and a last line 'JSON {...}'\n"
    "  soak   a steady load on one or more servers for --duration seconds, sampling the resident\n"
    "         memory (VmRSS) and open file descriptors of the given processes; prints them over time,\n"
    "         start / after warm-up / end / max, and whether they stayed flat (exit 1 when not)\n"
    "  scale  N extraction replicas at peak through one round-robin target: pages/s in total and per\n"
    "         replica, each replica's share of the calls, CPU seconds and pages per CPU-second, the client's CPU\n"    "\n"
    "Every load has 1 s of warm-up that is not counted. Exit status: 0 when the measurements ran\n"
    "(a missed target is reported, not an error), 1 on any error (bad flags, missing directory,\n"
    "server unreachable, site unknown to the server or without rules).\n";

constexpr char kSetupUsage[] =
    "usage: load_gen setup --store DIR --pages DIR --truth DIR --site NAME --schema FILE\n"
    "Learns SITE into the RocksDB store in DIR (created when missing; the site is registered or its\n"
    "schema replaced) with the in-process LearningEngine and ExtractionEngine, as\n"
    "workflow::RunSiteThroughApi does, and prints the precision/recall report. The store must not be\n"
    "open in another process (stop the server first).\n";

constexpr char kRunUsage[] =
    "usage: load_gen run --server HOST:PORT --site NAME --pages DIR (--store DIR | --schema FILE)\n"
    "                    [--concurrency N] [--seconds S] [--mode stream|unary] [--rate R] [--window W]\n"
    "                    [--server-pid PID]\n"
    "Loads the pages into memory once, checks the server (reachable, the site known, its records equal\n"
    "to the in-process ones on the first pages), then measures in this order: the in-process rate\n"
    "(2 threads, S s), the RPC load (1 s warm-up + S s), the in-process rate again.\n"
    "  stream: N ExtractStream streams, each with at most W requests in flight, pages round-robin;\n"
    "  unary:  N threads calling Extract back to back.\n"
    "  --rate R: open loop, R pages/s on a fixed schedule spread over the N workers; latency from the\n"
    "          scheduled time.\n"
    "The in-process extractor comes from the store in --store opened as a RocksDB secondary, else from\n"
    "the server's rules (LearningService.ListRules + GetRule) compiled with the schema in --schema.\n";

constexpr char kSweepUsage[] =
    "usage: load_gen sweep --server HOST:PORT --site NAME --pages DIR (--store DIR | --schema FILE)\n"
    "                      [--seconds S] [--window W] [--server-pid PID]\n"
    "                      [--uncapped-server HOST:PORT [--uncapped-server-pid PID]] [--rounds N]\n"
    "                      [--unary-workers N]\n"
    "As run, with the loads chosen: stream mode at concurrency 1, 2 and 4 (closed loop; the best\n"
    "pages/s is the peak), then unary mode at --rate = half of the peak on --unary-workers workers,\n"
    "--rounds times, then 2 streams at that rate. Prints each load, the in-process 2-thread rate before\n"
    "and after, the two targets: RPC peak >= 0.8 x in-process 2-thread rate; p99 <= 10 ms at half of\n"
    "peak (percentiles over all rounds); and the server's CPU per page of the unary load against the\n"
    "streams at the same rate (needs --server-pid).\n"
    "Cap or no cap, in one run: serve a copy of the store with a second server started with\n"
    "--max-concurrent-extractions 0 and give it as --uncapped-server; the half-peak unary load (same\n"
    "rate: half of --server's peak) then runs on both, alternately (the first server of each round\n"
    "alternates too), and p50/p99 of each and their difference are printed. `bash deploy/vertex.sh\n"
    "bench load` does all this.\n";

constexpr char kSoakUsage[] =
    "usage: load_gen soak --server HOST:PORT[,HOST:PORT...] --site NAME --pages DIR --pid NAME=PID[,...]\n"
    "                     [--duration S] [--sample-seconds S] [--concurrency N] [--rate R]\n"
    "Drives each server with --concurrency streams at --rate pages/s (open loop) for --duration seconds\n"
    "and samples VmRSS (/proc/PID/status) and the open fds (/proc/PID/fd) of each --pid every\n"
    "--sample-seconds. Warm-up is the first 10% of the run (at least 30 s when the run is 5 min or\n"
    "longer). Flat: at the end, RSS <= 1.10 x its value after warm-up + 8 MB, and as many fds as\n"
    "after warm-up (+-2: a connection being opened or closed as the sample is taken).\n";

std::vector<FlagSpec> SetupFlags() {
  return {{"store", "DIR", "the RocksDB rule store (created when missing)"},
          {"pages", "DIR", "the site's pages (*.htm, *.html; first line <base href=URL>)"},
          {"truth", "DIR", "the ground-truth directory (<vertical>-<site>-<attribute>.txt)"},
          {"site", "NAME", "the site's name, as in the ground-truth file names"},
          {"schema", "FILE", "the vertical's schema (JSON)"},
          {"help", "", "this help"}};
}

// The flags run and sweep share.
std::vector<FlagSpec> TargetFlags() {
  return {{"server", "HOST:PORT", "the server's address, or several: a static list or dns:///NAME:PORT (round robin)"},
          {"site", "NAME", "the site whose rules the server applies"},
          {"pages", "DIR", "the pages to send"},
          {"store", "DIR", "the server's store, read as a RocksDB secondary for the in-process rate"},
          {"schema", "FILE", "without --store: the site's schema, to compile the server's rules"},
          {"seconds", "S", "measured seconds of each load and of each in-process run (default 5)"},
          {"window", "W", "stream mode: requests in flight per stream (default 4)"},
          {"server-pid", "PID", "the server's process id, to report its CPU use (/proc/PID/stat)"},
          {"help", "", "this help"}};
}

std::vector<FlagSpec> SweepFlags() {
  std::vector<FlagSpec> flags = TargetFlags();
  flags.insert(flags.end() - 1,
               {{"uncapped-server", "HOST:PORT",
                 "a second server on a copy of the store, started with --max-concurrent-extractions 0: the "
                 "half-peak unary load runs on both, alternately, and both are printed"},
                {"uncapped-server-pid", "PID", "the second server's process id, to report its CPU use"},
                {"rounds", "N", "half-peak unary loads per server, alternating between the servers (default 2)"},
                {"unary-workers", "N", "client threads of the half-peak unary load (default 4)"}});
  return flags;
}

std::vector<FlagSpec> RunFlags() {
  std::vector<FlagSpec> flags = TargetFlags();
  flags.insert(flags.end() - 1, {{"concurrency", "N", "streams (stream mode) or threads (unary mode) (default 4)"},
                                 {"mode", "MODE", "stream or unary (default stream)"},
                                 {"rate", "R", "open loop: R pages/s on a fixed schedule (default: closed loop)"}});
  return flags;
}

// The parsed flags of `mode`; nullopt after printing its help.
absl::StatusOr<std::optional<ParsedArgs>> ParseModeArgs(const std::vector<std::string>& args,
                                                        const std::vector<FlagSpec>& specs, const char* usage,
                                                        const std::vector<std::string>& required) {
  VERTEX_ASSIGN_OR_RETURN(ParsedArgs parsed, cli::ParseArgs(args, specs));
  if (parsed.Has("help")) {
    std::cout << usage << "\nflags:\n" << cli::FlagHelp(specs);
    return std::nullopt;
  }
  if (!parsed.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + parsed.positional[0]);
  for (const std::string& name : required) {
    if (!parsed.Has(name)) return absl::InvalidArgumentError("--" + name + " is required");
  }
  return parsed;
}

// ---------------------------------------------------------------- figures

// What one worker measured; only its own threads write it.
struct WorkerStats {
  std::vector<double> latency_ms;  // requests issued inside the window
  size_t completed = 0;            // responses received inside the window
  size_t answered = 0;             // responses received, warm-up and drain included
  size_t errors = 0;               // over the whole load, warm-up included
  std::string first_error;
  std::map<std::string, size_t> per_server;  // completed inside the window, by server (IP:PORT)
  std::map<std::string, size_t> answered_per_server;  // answered, warm-up and drain included, by server

  void Error(std::string message) {
    if (errors++ == 0) first_error = std::move(message);
  }
};

// When requests are issued: the load starts at `start`, is measured from
// `warm` to `end` and issues nothing from `end` on.
struct Schedule {
  Clock::time_point start, warm, end;
  double rate = 0;  // pages/s over all workers; 0: closed loop
  int workers = 1;

  // The scheduled time of the j-th request of worker w (open loop).
  Clock::time_point At(int w, int64_t j) const {
    const double seconds = static_cast<double>(w + j * workers) / rate;
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  // `server`: the peer that answered (IP:PORT), counted per server.
  void Record(Clock::time_point issued, Clock::time_point done, WorkerStats& stats, const std::string& server) const {
    if (issued >= warm && issued < end) {
      stats.latency_ms.push_back(std::chrono::duration<double, std::milli>(done - issued).count());
    }
    if (done >= warm && done <= end) {
      ++stats.completed;
      ++stats.per_server[server];
    }
    ++stats.answered;
    ++stats.answered_per_server[server];
  }
};

// CPU time: this process's, the machine's (busy, all processes) and, when
// known, the server's.
struct CpuSnapshot {
  Clock::time_point wall;
  double self = 0, machine = 0, server = -1;
};

double ReadProcessCpu(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // fields 14 and 15: utime, stime
    if (i == 14) utime = std::atof(field.c_str());
    if (i == 15) stime = std::atof(field.c_str());
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double ReadMachineBusyCpu() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  return (user + nice + system + irq + softirq + steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

CpuSnapshot TakeCpuSnapshot(int server_pid) {
  CpuSnapshot s;
  s.wall = Clock::now();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  s.self = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  s.machine = ReadMachineBusyCpu();
  if (server_pid > 0) s.server = ReadProcessCpu(server_pid);
  return s;
}

// CPU seconds spent between two snapshots (server: -1 when unknown), and
// the wall-clock seconds between them.
struct CpuUse {
  double wall = 0, client = 0, machine = 0, server = -1;

  // Cores busy on average; 0 for an empty interval.
  double Cores(double cpu_seconds) const { return wall > 0 ? cpu_seconds / wall : 0; }
  // CPU ms per page for `pages` pages; 0 for none.
  static double MsPerPage(double cpu_seconds, size_t pages) {
    return pages > 0 ? 1000 * cpu_seconds / static_cast<double>(pages) : 0;
  }
};

CpuUse CpuBetween(const CpuSnapshot& a, const CpuSnapshot& b) {
  CpuUse use;
  use.wall = std::chrono::duration<double>(b.wall - a.wall).count();
  use.client = b.self - a.self;
  use.machine = b.machine - a.machine;
  if (a.server >= 0 && b.server >= 0) use.server = b.server - a.server;
  return use;
}

// One load's figures.
struct LoadResult {
  std::string mode;
  int concurrency = 0;
  double rate = 0;  // 0: closed loop
  double seconds = 0;
  size_t completed = 0;  // inside the window
  size_t answered = 0;   // over the whole load (for CPU per page)
  double pages_per_second = 0;
  double p50 = 0, p90 = 0, p99 = 0, max = 0;  // ms
  size_t errors = 0;
  std::string first_error;
  CpuUse cpu;
  std::map<std::string, size_t> per_server;  // completed inside the window, by server (IP:PORT)
  std::map<std::string, size_t> answered_per_server;  // over the whole load, by server
  std::vector<double> latency_ms;                      // sorted; what the percentiles are taken from
};

// Nearest-rank percentile of sorted values; 0 for none.
double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

// out's pages/s (from its completed and seconds) and percentiles.
void SetRateAndLatency(std::vector<double> latency, LoadResult& out) {
  std::sort(latency.begin(), latency.end());
  out.pages_per_second = out.seconds > 0 ? static_cast<double>(out.completed) / out.seconds : 0;
  out.p50 = Percentile(latency, 0.50);
  out.p90 = Percentile(latency, 0.90);
  out.p99 = Percentile(latency, 0.99);
  out.max = latency.empty() ? 0 : latency.back();
  out.latency_ms = std::move(latency);
}

void Merge(const std::vector<WorkerStats>& workers, LoadResult& out) {
  std::vector<double> latency;
  for (const WorkerStats& w : workers) {
    latency.insert(latency.end(), w.latency_ms.begin(), w.latency_ms.end());
    out.completed += w.completed;
    out.answered += w.answered;
    for (const auto& [server, n] : w.per_server) out.per_server[server] += n;
    for (const auto& [server, n] : w.answered_per_server) out.answered_per_server[server] += n;
    if (w.errors > 0 && out.errors == 0) out.first_error = w.first_error;
    out.errors += w.errors;
  }
  SetRateAndLatency(std::move(latency), out);
}

// Several runs of one load as one: pages, errors, seconds and CPU summed,
// percentiles over every latency. Empty `runs`: an empty result.
LoadResult Pool(const std::vector<LoadResult>& runs) {
  LoadResult out;
  if (runs.empty()) return out;
  out.mode = runs[0].mode;
  out.concurrency = runs[0].concurrency;
  out.rate = runs[0].rate;
  out.cpu.server = 0;
  std::vector<double> latency;
  for (const LoadResult& r : runs) {
    out.seconds += r.seconds;
    out.completed += r.completed;
    out.answered += r.answered;
    if (r.errors > 0 && out.errors == 0) out.first_error = r.first_error;
    out.errors += r.errors;
    out.cpu.wall += r.cpu.wall;
    out.cpu.client += r.cpu.client;
    out.cpu.machine += r.cpu.machine;
    out.cpu.server = out.cpu.server < 0 || r.cpu.server < 0 ? -1 : out.cpu.server + r.cpu.server;  // -1: unknown
    latency.insert(latency.end(), r.latency_ms.begin(), r.latency_ms.end());
  }
  SetRateAndLatency(std::move(latency), out);
  return out;
}

// ---------------------------------------------------------------- workers

absl::Status FromGrpc(const grpc::Status& s, const std::string& context) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), context + ": " + s.error_message());
}

// A channel of its own (its own subchannel pool, so its own connections)
// to `server`: one address, or several (rpc::ParseBalancedTarget: a static
// list or dns:///) balanced per call with round_robin. `server` was checked
// by CheckTarget.
std::shared_ptr<grpc::Channel> NewChannel(const std::string& server) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetServiceConfigJSON(rpc::kRoundRobinServiceConfig);
  absl::StatusOr<rpc::BalancedTarget> target = rpc::ParseBalancedTarget(server);
  return grpc::CreateCustomChannel(target.ok() ? target->channel_target : server, grpc::InsecureChannelCredentials(),
                                   args);
}

// --server (or --target): one address, a static list or dns:///NAME:PORT.
absl::Status CheckTarget(const std::string& server) { return rpc::ParseBalancedTarget(server).status(); }

std::chrono::system_clock::time_point DeadlineIn(double seconds) {
  return std::chrono::system_clock::now() +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(seconds));
}

// ExtractStream streams, one at a time: a writer (the caller of Run) keeps
// at most `window` requests in flight; a reader thread matches each
// response with the oldest request in flight (responses come in request
// order). With `stream_pages` > 0 a stream is closed after that many pages
// and a new one opened, so that round robin over several servers (which
// picks a server per stream) spreads the streams; 0: one stream.
class StreamWorker {
 public:
  StreamWorker(const std::string& server, const std::vector<v1::ExtractRequest>& requests, const Schedule& schedule,
               int index, int window, int stream_pages)
      : stub_(v1::ExtractionService::NewStub(NewChannel(server))),
        requests_(requests),
        schedule_(schedule),
        index_(index),
        window_(static_cast<size_t>(window)),
        stream_pages_(stream_pages) {}

  void Run();
  const WorkerStats& stats() const { return stats_; }

 private:
  struct InFlight {
    Clock::time_point issued;
    size_t page;
  };

  // Writes up to stream_pages_ requests (all, with 0); false once the load
  // is over or the stream failed.
  bool WriteLoop(Stream& stream);
  void ReadLoop(Stream& stream, grpc::ClientContext& context);
  // Waits for room in the window; false when the reader has stopped.
  bool WaitForSlot();

  std::unique_ptr<Stub> stub_;
  const std::vector<v1::ExtractRequest>& requests_;
  const Schedule& schedule_;
  const int index_;
  const size_t window_;
  const int stream_pages_;
  int64_t next_ = 0;  // the writer's: index of the next request of this worker
  absl::Mutex mu_;
  std::deque<InFlight> in_flight_ ABSL_GUARDED_BY(mu_);
  bool reader_done_ ABSL_GUARDED_BY(mu_) = false;
  WorkerStats stats_;  // the reader's until it is joined
};

void StreamWorker::Run() {
  for (bool more = true; more && Clock::now() < schedule_.end;) {
    grpc::ClientContext context;
    context.set_deadline(DeadlineIn(std::chrono::duration<double>(schedule_.end - Clock::now()).count() + 120));
    std::unique_ptr<Stream> stream = stub_->ExtractStream(&context);
    {
      absl::MutexLock lock(&mu_);
      reader_done_ = false;
      in_flight_.clear();
    }
    std::thread reader([&] { ReadLoop(*stream, context); });
    more = WriteLoop(*stream);
    stream->WritesDone();
    reader.join();
    const grpc::Status status = stream->Finish();
    if (!status.ok()) {
      stats_.Error(FromGrpc(status, "ExtractStream").ToString());
      return;
    }
  }
}

bool StreamWorker::WaitForSlot() {
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return in_flight_.size() < window_ || reader_done_; };
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(&room));
  return !reader_done_;
}

bool StreamWorker::WriteLoop(Stream& stream) {
  const size_t n = requests_.size();
  const size_t offset = static_cast<size_t>(index_) * n / static_cast<size_t>(schedule_.workers);
  for (int written = 0; stream_pages_ == 0 || written < stream_pages_; ++written) {
    const int64_t j = next_;
    Clock::time_point issued;
    if (schedule_.rate > 0) {
      issued = schedule_.At(index_, j);
      if (issued >= schedule_.end) return false;
      std::this_thread::sleep_until(issued);
      if (!WaitForSlot()) return false;
    } else {
      if (!WaitForSlot()) return false;
      issued = Clock::now();
      if (issued >= schedule_.end) return false;
    }
    ++next_;
    const size_t page = schedule_.rate > 0 ? static_cast<size_t>(index_ + j * schedule_.workers) % n
                                           : (offset + static_cast<size_t>(j)) % n;
    {
      absl::MutexLock lock(&mu_);
      in_flight_.push_back({issued, page});
    }
    if (!stream.Write(requests_[page])) return false;  // the stream failed: Finish says why
  }
  return true;
}

void StreamWorker::ReadLoop(Stream& stream, grpc::ClientContext& context) {
  v1::ExtractResponse response;
  std::string server;
  while (stream.Read(&response)) {
    const Clock::time_point done = Clock::now();
    if (server.empty()) server = rpc::PeerAddress(context.peer());
    std::optional<InFlight> request;
    {
      absl::MutexLock lock(&mu_);
      if (!in_flight_.empty()) {
        request = in_flight_.front();
        in_flight_.pop_front();
      }
    }
    if (!request) {
      stats_.Error("ExtractStream: a response without a request in flight");
      continue;
    }
    schedule_.Record(request->issued, done, stats_, server);
    if (response.error_code() != 0) {
      stats_.Error(absl::StrCat("ExtractStream page ", requests_[request->page].url(), ": code ", response.error_code(),
                                ": ", response.error()));
    } else if (response.id() != requests_[request->page].id()) {
      stats_.Error(absl::StrCat("ExtractStream: response id ", response.id(), " where ", requests_[request->page].id(),
                                " was expected"));
    }
  }
  absl::MutexLock lock(&mu_);
  reader_done_ = true;
}

// Extract called back to back (closed loop) or on the schedule (open loop).
WorkerStats RunUnaryWorker(const std::string& server, const std::vector<v1::ExtractRequest>& requests,
                           const Schedule& schedule, int index) {
  std::unique_ptr<Stub> stub = v1::ExtractionService::NewStub(NewChannel(server));
  WorkerStats stats;
  const size_t n = requests.size();
  const size_t offset = static_cast<size_t>(index) * n / static_cast<size_t>(schedule.workers);
  for (int64_t j = 0;; ++j) {
    const Clock::time_point issued = schedule.rate > 0 ? schedule.At(index, j) : Clock::now();
    if (issued >= schedule.end) break;
    if (schedule.rate > 0) std::this_thread::sleep_until(issued);
    const size_t page = schedule.rate > 0 ? static_cast<size_t>(index + j * schedule.workers) % n
                                          : (offset + static_cast<size_t>(j)) % n;
    grpc::ClientContext context;
    context.set_deadline(DeadlineIn(30));
    v1::ExtractResponse response;
    const grpc::Status status = stub->Extract(&context, requests[page], &response);
    schedule.Record(issued, Clock::now(), stats, rpc::PeerAddress(context.peer()));
    if (!status.ok()) stats.Error(FromGrpc(status, "Extract " + requests[page].url()).ToString());
  }
  return stats;
}

struct LoadSpec {
  std::string mode;  // "stream" or "unary"
  int concurrency = 4;
  double rate = 0;  // 0: closed loop
  double seconds = 5;
  int window = 4;
  int server_pid = 0;
  int stream_pages = 0;  // stream mode: pages per stream before a new one; 0: one stream
};

LoadResult RunLoad(const std::string& server, const std::vector<v1::ExtractRequest>& requests, const LoadSpec& spec) {
  Schedule schedule;
  schedule.start = Clock::now();
  schedule.warm =
      schedule.start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kWarmupSeconds));
  schedule.end =
      schedule.warm + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(spec.seconds));
  schedule.rate = spec.rate;
  schedule.workers = spec.concurrency;
  std::vector<WorkerStats> stats(static_cast<size_t>(spec.concurrency));
  const CpuSnapshot before = TakeCpuSnapshot(spec.server_pid);
  std::vector<std::thread> threads;
  for (int w = 0; w < spec.concurrency; ++w) {
    threads.emplace_back([&, w] {
      if (spec.mode == "unary") {
        stats[w] = RunUnaryWorker(server, requests, schedule, w);
        return;
      }
      StreamWorker worker(server, requests, schedule, w, spec.window, spec.stream_pages);
      worker.Run();
      stats[w] = worker.stats();
    });
  }
  for (std::thread& t : threads) t.join();
  LoadResult out{spec.mode, spec.concurrency, spec.rate, spec.seconds};
  out.cpu = CpuBetween(before, TakeCpuSnapshot(spec.server_pid));
  Merge(stats, out);
  return out;
}

// ---------------------------------------------------------------- in process

struct InProcessResult {
  double pages_per_second = 0;
  size_t pages = 0, errors = 0;
  std::string first_error;
  CpuUse cpu;  // client: this process's threads, i.e. the extraction
};

// SiteExtractor::Extract over the pages, round-robin, on `threads` threads
// (one parser each) for `seconds`.
InProcessResult RunInProcess(const extract::SiteExtractor& extractor, const std::vector<workflow::ClientPage>& pages,
                             double seconds, int threads) {
  std::vector<WorkerStats> stats(static_cast<size_t>(threads));
  const Clock::time_point start = Clock::now();
  const Clock::time_point end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      html::Parser parser;
      for (size_t i = static_cast<size_t>(t) * pages.size() / static_cast<size_t>(threads); Clock::now() < end; ++i) {
        const workflow::ClientPage& page = pages[i % pages.size()];
        absl::StatusOr<extract::Record> record = extractor.Extract(page.bytes, page.url, parser);
        ++stats[t].completed;
        if (!record.ok()) stats[t].Error(page.url + ": " + record.status().ToString());
      }
    });
  }
  for (std::thread& w : workers) w.join();
  InProcessResult out;
  for (const WorkerStats& s : stats) {
    out.pages += s.completed;
    if (s.errors > 0 && out.errors == 0) out.first_error = s.first_error;
    out.errors += s.errors;
  }
  out.pages_per_second = static_cast<double>(out.pages) / std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

// Removes the directory it names when destroyed.
class TempDir {
 public:
  static absl::StatusOr<std::unique_ptr<TempDir>> Create(const std::string& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) return absl::InternalError("cannot create a directory " + pattern);
    return std::unique_ptr<TempDir>(new TempDir(pattern));
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// The site's extractor from the store in `dir`, opened as a RocksDB
// secondary (the server keeps the primary) and closed again.
absl::StatusOr<extract::SiteExtractor> ExtractorFromStore(const std::string& dir, const std::string& site) {
  if (!std::filesystem::is_directory(dir)) return absl::NotFoundError("--store " + dir + " is not a directory");
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<TempDir> secondary, TempDir::Create("load_gen_secondary_"));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RocksDbKv> kv,
                          store::RocksDbKv::OpenSecondary(dir, secondary->path()));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> rules,
                          store::NewRuleStore(std::shared_ptr<store::KvEngine>(std::move(kv))));
  return workflow::LoadSiteExtractor(*rules, site);
}

// The site's extractor from the server's current rules (ListRules, then
// GetRule of each cluster's current version) and the schema in `schema_file`.
absl::StatusOr<extract::SiteExtractor> ExtractorFromServer(const std::string& server, const std::string& site,
                                                           const std::string& schema_file) {
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromFile(schema_file));
  std::unique_ptr<v1::LearningService::Stub> stub = v1::LearningService::NewStub(NewChannel(server));
  v1::ListRulesRequest list;
  list.set_site(site);
  v1::ListRulesResponse listed;
  grpc::ClientContext list_context;
  list_context.set_deadline(DeadlineIn(30));
  VERTEX_RETURN_IF_ERROR(FromGrpc(stub->ListRules(&list_context, list, &listed), "ListRules " + site));
  std::vector<v1::Rule> rules;
  for (const v1::ClusterRules& c : listed.clusters()) {
    if (c.cluster().current_version() == 0) continue;
    v1::GetRuleRequest get;
    get.set_site(site);
    get.set_cluster_id(c.cluster().cluster_id());
    v1::GetRuleResponse got;
    grpc::ClientContext context;
    context.set_deadline(DeadlineIn(30));
    VERTEX_RETURN_IF_ERROR(FromGrpc(stub->GetRule(&context, get, &got), "GetRule " + get.cluster_id()));
    rules.push_back(got.rule());
  }
  if (rules.empty()) return absl::FailedPreconditionError("site " + site + " has no rule on the server");
  return extract::SiteExtractor::Create(schema, rules);
}

// ---------------------------------------------------------------- run

struct Target {
  std::string server, site, pages_dir, store, schema;
  double seconds = 5;
  int window = 4;
  int server_pid = 0;
};

struct Loaded {
  std::vector<workflow::ClientPage> pages;
  std::vector<v1::ExtractRequest> requests;
  size_t bytes = 0;
  std::optional<extract::SiteExtractor> extractor;
  std::string extractor_source;
};

absl::StatusOr<Target> TargetFromArgs(const ParsedArgs& a) {
  Target t{a.String("server", ""), a.String("site", ""), a.String("pages", ""), a.String("store", ""),
           a.String("schema", "")};
  VERTEX_RETURN_IF_ERROR(CheckTarget(t.server));
  if (t.store.empty() && t.schema.empty()) {
    return absl::InvalidArgumentError(
        "--store DIR or --schema FILE is required (for the in-process extractor the RPC rate is compared with)");
  }
  VERTEX_ASSIGN_OR_RETURN(t.seconds, a.Double("seconds", 5, 0.5, 3600));
  VERTEX_ASSIGN_OR_RETURN(int64_t window, a.Int("window", 4, 1, 1024));
  VERTEX_ASSIGN_OR_RETURN(int64_t pid, a.Int("server-pid", 0, 1, 1 << 30));
  t.window = static_cast<int>(window);
  t.server_pid = static_cast<int>(pid);
  return t;
}

absl::StatusOr<std::vector<workflow::ClientPage>> LoadPages(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) return absl::NotFoundError("--pages " + dir + " is not a directory");
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths({dir}));
  return workflow::ReadClientPages(files, html::ParseOptions().max_page_bytes);
}

// Reachable within 5 s, and the site known to it with rules (one Extract).
absl::Status CheckServer(const Target& t, const v1::ExtractRequest& first) {
  std::shared_ptr<grpc::Channel> channel = NewChannel(t.server);
  if (!channel->WaitForConnected(DeadlineIn(5))) {
    return absl::UnavailableError("cannot reach the server at " + t.server + " (no connection within 5 s)");
  }
  grpc::ClientContext context;
  context.set_deadline(DeadlineIn(30));
  v1::ExtractResponse response;
  const grpc::Status s = v1::ExtractionService::NewStub(channel)->Extract(&context, first, &response);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
    return absl::NotFoundError("site " + t.site + " is not registered on the server at " + t.server +
                               " (run load_gen setup on its store first): " + s.error_message());
  }
  return FromGrpc(s, "Extract of site " + t.site + " on " + t.server + " (" + first.url() + ")");
}

// The first pages' records from the server equal the in-process ones (the
// differential check: both sides apply the same rules).
absl::Status CompareRecords(const Target& t, const Loaded& loaded) {
  std::unique_ptr<Stub> stub = v1::ExtractionService::NewStub(NewChannel(t.server));
  html::Parser parser;
  for (size_t i = 0; i < std::min(kProbePages, loaded.requests.size()); ++i) {
    const v1::ExtractRequest& request = loaded.requests[i];
    grpc::ClientContext context;
    context.set_deadline(DeadlineIn(30));
    v1::ExtractResponse response;
    VERTEX_RETURN_IF_ERROR(FromGrpc(stub->Extract(&context, request, &response), "Extract " + request.url()));
    VERTEX_ASSIGN_OR_RETURN(extract::Record record, loaded.extractor->Extract(request.html(), request.url(), parser));
    const v1::ExtractedRecord local = extract::RecordToProto(record, t.site, false);
    if (local.SerializeAsString() != response.record().SerializeAsString()) {
      return absl::FailedPreconditionError(
          "the server's record of " + request.url() + " differs from the in-process one (" + loaded.extractor_source +
          "): server " + response.record().ShortDebugString() + "; in process " + local.ShortDebugString());
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Loaded> Prepare(const Target& t) {
  Loaded out;
  VERTEX_ASSIGN_OR_RETURN(out.pages, LoadPages(t.pages_dir));
  for (size_t i = 0; i < out.pages.size(); ++i) {
    v1::ExtractRequest& r = out.requests.emplace_back();
    r.set_site(t.site);
    r.set_url(out.pages[i].url);
    r.set_html(out.pages[i].bytes);
    r.set_id(std::to_string(i));
    out.bytes += out.pages[i].bytes.size();
  }
  std::fprintf(stderr, "load_gen: %zu pages (%.1f MB) from %s\n", out.pages.size(), out.bytes / 1e6,
               t.pages_dir.c_str());
  VERTEX_RETURN_IF_ERROR(CheckServer(t, out.requests[0]));
  if (!t.store.empty()) {
    VERTEX_ASSIGN_OR_RETURN(out.extractor, ExtractorFromStore(t.store, t.site));
    out.extractor_source = "store " + t.store + " as a RocksDB secondary";
  } else {
    VERTEX_ASSIGN_OR_RETURN(out.extractor, ExtractorFromServer(t.server, t.site, t.schema));
    out.extractor_source = "the server's rules (ListRules + GetRule) and " + t.schema;
  }
  VERTEX_RETURN_IF_ERROR(CompareRecords(t, out));
  std::fprintf(stderr, "load_gen: server %s answers site %s; its first %zu records equal the in-process ones (%s)\n",
               t.server.c_str(), t.site.c_str(), std::min(kProbePages, out.requests.size()),
               out.extractor_source.c_str());
  return out;
}

InProcessResult MeasureInProcess(const Target& t, const Loaded& loaded, const char* when) {
  const CpuSnapshot before = TakeCpuSnapshot(0);
  InProcessResult r = RunInProcess(*loaded.extractor, loaded.pages, t.seconds, kBaselineThreads);
  r.cpu = CpuBetween(before, TakeCpuSnapshot(0));
  std::string errors;
  if (r.errors > 0) errors = absl::StrCat("; ", r.errors, " errors, first: ", r.first_error);
  std::printf(
      "in-process %-6s %d threads, %.1f s: %8.1f pages/s%s\n    cores busy: machine %.2f, extraction %.2f "
      "(%.2f ms CPU/page)\n",
      when, kBaselineThreads, t.seconds, r.pages_per_second, errors.c_str(), r.cpu.Cores(r.cpu.machine),
      r.cpu.Cores(r.cpu.client), CpuUse::MsPerPage(r.cpu.client, r.pages));
  std::fflush(stdout);
  return r;
}

std::string Describe(const LoadResult& r) {
  std::string load = absl::StrFormat("%-6s c=%d", r.mode, r.concurrency);
  absl::StrAppend(&load, r.rate > 0 ? absl::StrFormat(" at %.0f/s", r.rate) : std::string(" closed"));
  std::string out =
      absl::StrFormat("rpc %-22s %.1f s: %8.1f pages/s; latency ms p50 %.2f p90 %.2f p99 %.2f max %.2f; errors %zu",
                      load, r.seconds, r.pages_per_second, r.p50, r.p90, r.p99, r.max, r.errors);
  if (r.errors > 0) absl::StrAppend(&out, " (first: ", r.first_error, ")");
  const CpuUse& c = r.cpu;
  absl::StrAppendFormat(&out, "\n    cores busy: machine %.2f, client %.2f (%.2f ms CPU/page)", c.Cores(c.machine),
                        c.Cores(c.client), CpuUse::MsPerPage(c.client, r.answered));
  if (c.server >= 0) {
    absl::StrAppendFormat(&out, ", server %.2f (%.2f ms CPU/page)", c.Cores(c.server),
                          CpuUse::MsPerPage(c.server, r.answered));
  }
  return out;
}

LoadResult MeasureLoad(const Target& t, const Loaded& loaded, LoadSpec spec) {
  spec.window = t.window;
  spec.server_pid = t.server_pid;
  spec.seconds = t.seconds;
  const LoadResult r = RunLoad(t.server, loaded.requests, spec);
  std::printf("%s\n", Describe(r).c_str());
  std::fflush(stdout);
  return r;
}

void WriteLoadJson(const LoadResult& r, util::JsonWriter& w) {
  w.BeginObject();
  w.Key("mode").String(r.mode).Key("concurrency").Int(r.concurrency).Key("rate").Double(r.rate);
  w.Key("seconds").Double(r.seconds).Key("pages").Uint(r.completed).Key("pages_per_s").Double(r.pages_per_second);
  w.Key("p50_ms").Double(r.p50).Key("p90_ms").Double(r.p90).Key("p99_ms").Double(r.p99).Key("max_ms").Double(r.max);
  w.Key("errors").Uint(r.errors).Key("first_error").String(r.first_error);
  const CpuUse& c = r.cpu;
  w.Key("machine_cores").Double(c.Cores(c.machine)).Key("client_cores").Double(c.Cores(c.client));
  w.Key("client_cpu_ms_per_page").Double(CpuUse::MsPerPage(c.client, r.answered));
  if (c.server >= 0) {
    w.Key("server_cores").Double(c.Cores(c.server));
    w.Key("server_cpu_ms_per_page").Double(CpuUse::MsPerPage(c.server, r.answered));
  }
  w.EndObject();
}

void WriteCommonJson(const Target& t, const Loaded& loaded, const InProcessResult& before, const InProcessResult& after,
                     util::JsonWriter& w) {
  w.Key("server").String(t.server).Key("site").String(t.site).Key("pages").Uint(loaded.pages.size());
  w.Key("window").Int(t.window).Key("warmup_s").Double(kWarmupSeconds);
  w.Key("in_process_threads").Int(kBaselineThreads).Key("in_process_source").String(loaded.extractor_source);
  w.Key("in_process_before_pages_per_s").Double(before.pages_per_second);
  w.Key("in_process_after_pages_per_s").Double(after.pages_per_second);
  w.Key("in_process_errors").Uint(before.errors + after.errors);
  w.Key("in_process_cpu_ms_per_page")
      .Double(CpuUse::MsPerPage(before.cpu.client + after.cpu.client, before.pages + after.pages));
  w.Key("in_process_machine_cores")
      .Double((before.cpu.Cores(before.cpu.machine) + after.cpu.Cores(after.cpu.machine)) / 2);
}

double MeanRate(const InProcessResult& a, const InProcessResult& b) {
  return (a.pages_per_second + b.pages_per_second) / 2;
}

// A load against the in-process runs around it: by pages/s (the target's
// ratio), and by CPU per page (robust to the other processes of a shared
// machine: in-process ms / (server + client ms); -1 without --server-pid).
struct Ratios {
  double in_process = 0;  // pages/s, mean of before and after
  double rate = 0;
  double cpu = -1;
};

Ratios Compare(const LoadResult& load, const InProcessResult& before, const InProcessResult& after) {
  Ratios r;
  r.in_process = MeanRate(before, after);
  r.rate = r.in_process > 0 ? load.pages_per_second / r.in_process : 0;
  const double local = CpuUse::MsPerPage(before.cpu.client + after.cpu.client, before.pages + after.pages);
  if (load.cpu.server >= 0 && load.answered > 0) {
    r.cpu = local / CpuUse::MsPerPage(load.cpu.server + load.cpu.client, load.answered);
  }
  std::printf("ratio rpc / in-process %d-thread rate (mean of before and after, %.1f pages/s): %.3f\n",
              kBaselineThreads, r.in_process, r.rate);
  if (r.cpu >= 0) {
    std::printf("ratio by CPU per page: in-process %.2f ms / (server %.2f + client %.2f ms) over rpc: %.3f\n", local,
                CpuUse::MsPerPage(load.cpu.server, load.answered), CpuUse::MsPerPage(load.cpu.client, load.answered),
                r.cpu);
  }
  return r;
}

void WriteRatiosJson(const Ratios& r, util::JsonWriter& w) {
  w.Key("ratio_rpc_to_in_process").Double(r.rate);
  if (r.cpu >= 0) w.Key("cpu_ratio_in_process_to_rpc").Double(r.cpu);
}

absl::StatusOr<LoadSpec> LoadSpecFromArgs(const ParsedArgs& a) {
  LoadSpec spec;
  spec.mode = a.String("mode", "stream");
  if (spec.mode != "stream" && spec.mode != "unary") {
    return absl::InvalidArgumentError("--mode must be stream or unary, not '" + spec.mode + "'");
  }
  VERTEX_ASSIGN_OR_RETURN(int64_t concurrency, a.Int("concurrency", 4, 1, 256));
  spec.concurrency = static_cast<int>(concurrency);
  if (a.Has("rate")) {
    VERTEX_ASSIGN_OR_RETURN(spec.rate, a.Double("rate", 0, 0.001, 1e6));
  }
  return spec;
}

absl::Status Run(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(Target t, TargetFromArgs(a));
  VERTEX_ASSIGN_OR_RETURN(LoadSpec spec, LoadSpecFromArgs(a));
  VERTEX_ASSIGN_OR_RETURN(Loaded loaded, Prepare(t));
  const InProcessResult before = MeasureInProcess(t, loaded, "before");
  const LoadResult load = MeasureLoad(t, loaded, spec);
  const InProcessResult after = MeasureInProcess(t, loaded, "after");
  const Ratios ratios = Compare(load, before, after);
  util::JsonWriter w;
  w.BeginObject().Key("command").String("run");
  WriteCommonJson(t, loaded, before, after, w);
  w.Key("load");
  WriteLoadJson(load, w);
  WriteRatiosJson(ratios, w);
  w.EndObject();
  std::printf("JSON %s\n", w.str().c_str());
  return absl::OkStatus();
}

// ---------------------------------------------------------------- sweep

// The half-peak unary load on one server, repeated.
struct HalfPeak {
  std::string label;  // "--server" or "--uncapped-server"
  Target target;
  std::vector<LoadResult> rounds;
  LoadResult pooled;  // every round as one
};

struct SweepResult {
  std::vector<LoadResult> stream;  // concurrency 1, 2, 4
  size_t peak = 0;                 // index into stream
  std::vector<HalfPeak> half;      // unary at half of the peak: --server, then --uncapped-server if given
  LoadResult half_stream;          // 2 streams at the same rate, on --server
  Ratios ratios;                   // of the peak
};

// The sweep's own flags: the second server, the rounds, the unary workers.
struct SweepSpec {
  std::optional<Target> uncapped;
  int rounds = 2;
  int unary_workers = 4;
};

absl::StatusOr<SweepSpec> SweepSpecFromArgs(const ParsedArgs& a, const Target& t) {
  SweepSpec spec;
  VERTEX_ASSIGN_OR_RETURN(int64_t rounds, a.Int("rounds", 2, 1, 100));
  VERTEX_ASSIGN_OR_RETURN(int64_t workers, a.Int("unary-workers", 4, 1, 256));
  spec.rounds = static_cast<int>(rounds);
  spec.unary_workers = static_cast<int>(workers);
  if (a.Has("uncapped-server-pid") && !a.Has("uncapped-server")) {
    return absl::InvalidArgumentError("--uncapped-server-pid needs --uncapped-server");
  }
  if (!a.Has("uncapped-server")) return spec;
  spec.uncapped = t;
  spec.uncapped->server = a.String("uncapped-server", "");
  VERTEX_RETURN_IF_ERROR(CheckTarget(spec.uncapped->server));
  VERTEX_ASSIGN_OR_RETURN(int64_t pid, a.Int("uncapped-server-pid", 0, 1, 1 << 30));
  spec.uncapped->server_pid = static_cast<int>(pid);
  return spec;
}

void PrintHalfPeak(const HalfPeak& h) {
  std::printf("  %-17s", h.label.c_str());
  for (size_t i = 0; i < h.rounds.size(); ++i) {
    std::printf(" round %zu: p50 %.2f p99 %.2f;", i + 1, h.rounds[i].p50, h.rounds[i].p99);
  }
  std::printf(" all %zu pages: p50 %.2f ms, p99 %.2f ms, max %.2f ms, errors %zu: %s\n", h.pooled.latency_ms.size(),
              h.pooled.p50, h.pooled.p99, h.pooled.max, h.pooled.errors,
              h.pooled.p99 <= kP99TargetMs ? "met" : "MISSED");
}

void PrintTargets(const SweepResult& s) {
  const LoadResult& peak = s.stream[s.peak];
  std::printf(
      "\ntarget throughput: rpc peak %.1f pages/s (stream, concurrency %d) = %.3f x in-process %d-thread "
      "%.1f pages/s (target >= %.1f): %s\n",
      peak.pages_per_second, peak.concurrency, s.ratios.rate, kBaselineThreads, s.ratios.in_process, kThroughputTarget,
      s.ratios.rate >= kThroughputTarget ? "met" : "MISSED");
  const LoadResult& half = s.half[0].pooled;
  std::printf(
      "target latency:    unary at %.1f pages/s (half of peak), %d workers, %zu round(s) per server "
      "(target p99 <= %.0f ms):\n",
      half.rate, half.concurrency, s.half[0].rounds.size(), kP99TargetMs);
  for (const HalfPeak& h : s.half) PrintHalfPeak(h);
  if (s.half.size() > 1) {
    std::printf("  --server - --uncapped-server: p50 %+.2f ms, p99 %+.2f ms\n", half.p50 - s.half[1].pooled.p50,
                half.p99 - s.half[1].pooled.p99);
  }
  std::printf("same rate, streamed: 2 streams at %.1f pages/s: p50 %.2f ms, p99 %.2f ms\n", s.half_stream.rate,
              s.half_stream.p50, s.half_stream.p99);
  const CpuUse& u = half.cpu;
  const CpuUse& t = s.half_stream.cpu;
  if (u.server >= 0 && t.server >= 0) {
    std::printf("server CPU per page at half of peak: unary %.2f ms, stream %.2f ms (unary - stream %+.2f ms); "
                "at the stream peak %.2f ms\n",
                CpuUse::MsPerPage(u.server, half.answered), CpuUse::MsPerPage(t.server, s.half_stream.answered),
                CpuUse::MsPerPage(u.server, half.answered) - CpuUse::MsPerPage(t.server, s.half_stream.answered),
                CpuUse::MsPerPage(s.stream[s.peak].cpu.server, s.stream[s.peak].answered));
  }
}

void WriteHalfPeakJson(const HalfPeak& h, util::JsonWriter& w) {
  w.BeginObject().Key("server").String(h.target.server).Key("flag").String(h.label);
  w.Key("pooled");
  WriteLoadJson(h.pooled, w);
  w.Key("rounds").BeginArray();
  for (const LoadResult& r : h.rounds) WriteLoadJson(r, w);
  w.EndArray().Key("p99_target_met").Bool(h.pooled.p99 <= kP99TargetMs).EndObject();
}

void WriteSweepJson(const Target& t, const Loaded& loaded, const InProcessResult& before, const InProcessResult& after,
                    const SweepResult& s) {
  util::JsonWriter w;
  w.BeginObject().Key("command").String("sweep");
  WriteCommonJson(t, loaded, before, after, w);
  w.Key("stream").BeginArray();
  for (const LoadResult& r : s.stream) WriteLoadJson(r, w);
  w.EndArray().Key("peak_pages_per_s").Double(s.stream[s.peak].pages_per_second);
  w.Key("peak_concurrency").Int(s.stream[s.peak].concurrency);
  WriteRatiosJson(s.ratios, w);
  w.Key("half_peak");
  WriteLoadJson(s.half[0].pooled, w);
  w.Key("half_peak_servers").BeginArray();
  for (const HalfPeak& h : s.half) WriteHalfPeakJson(h, w);
  w.EndArray().Key("half_peak_stream");
  WriteLoadJson(s.half_stream, w);
  w.Key("throughput_target_met").Bool(s.ratios.rate >= kThroughputTarget);
  w.Key("p99_target_met").Bool(s.half[0].pooled.p99 <= kP99TargetMs).EndObject();
  std::printf("JSON %s\n", w.str().c_str());
}

// The unary load at `rate` on each server of `half`, `rounds` times,
// alternating which server goes first so that neither always follows the
// other's load.
void MeasureHalfPeak(const Loaded& loaded, double rate, int workers, int rounds, std::vector<HalfPeak>& half) {
  for (int round = 0; round < rounds; ++round) {
    for (size_t i = 0; i < half.size(); ++i) {
      HalfPeak& h = half[round % 2 == 0 ? i : half.size() - 1 - i];
      std::printf("%s, round %d: ", h.label.c_str(), round + 1);
      h.rounds.push_back(MeasureLoad(h.target, loaded, {"unary", workers, rate}));
    }
  }
  for (HalfPeak& h : half) h.pooled = Pool(h.rounds);
}

absl::Status Sweep(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(Target t, TargetFromArgs(a));
  VERTEX_ASSIGN_OR_RETURN(SweepSpec spec, SweepSpecFromArgs(a, t));
  VERTEX_ASSIGN_OR_RETURN(Loaded loaded, Prepare(t));
  SweepResult s;
  s.half.push_back({"--server", t});
  if (spec.uncapped) {
    VERTEX_RETURN_IF_ERROR(CheckServer(*spec.uncapped, loaded.requests[0]));
    VERTEX_RETURN_IF_ERROR(CompareRecords(*spec.uncapped, loaded));
    s.half.push_back({"--uncapped-server", *spec.uncapped});
  }
  const InProcessResult before = MeasureInProcess(t, loaded, "before");
  for (int concurrency : {1, 2, 4}) {
    s.stream.push_back(MeasureLoad(t, loaded, {"stream", concurrency}));
    if (s.stream.back().pages_per_second > s.stream[s.peak].pages_per_second) s.peak = s.stream.size() - 1;
  }
  const LoadResult& peak = s.stream[s.peak];
  if (peak.pages_per_second <= 0) {
    return absl::UnavailableError("no page was answered in stream mode: " + peak.first_error);
  }
  MeasureHalfPeak(loaded, peak.pages_per_second / 2, spec.unary_workers, spec.rounds, s.half);
  s.half_stream = MeasureLoad(t, loaded, {"stream", 2, peak.pages_per_second / 2});
  const InProcessResult after = MeasureInProcess(t, loaded, "after");
  std::printf("peak: stream, concurrency %d\n", peak.concurrency);
  s.ratios = Compare(peak, before, after);
  PrintTargets(s);
  WriteSweepJson(t, loaded, before, after, s);
  return absl::OkStatus();
}

// ---------------------------------------------------------------- soak

std::vector<FlagSpec> SoakFlags() {
  return {{"server", "HOST:PORT[,...]", "the servers to load, e.g. vertexd and an extraction replica"},
          {"site", "NAME", "the site whose rules the servers apply"},
          {"pages", "DIR", "the pages to send"},
          {"pid", "NAME=PID[,...]", "the processes whose RSS and open fds are sampled"},
          {"duration", "S", "seconds of load (default 600)"},
          {"sample-seconds", "S", "sampling period (default 5)"},
          {"concurrency", "N", "streams per server (default 2)"},
          {"rate", "R", "pages/s per server, open loop (default 50)"},
          {"help", "", "this help"}};
}

struct Watched {
  std::string name;
  int pid = 0;
};

struct ProcessSample {
  int64_t rss_kb = -1;  // -1: the process is gone
  int fds = -1;
};

// VmRSS and the number of open fds of `pid`.
ProcessSample SampleProcess(int pid) {
  ProcessSample out;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) out.rss_kb = std::atoll(line.c_str() + 6);
  }
  std::error_code ec;
  int fds = 0;
  for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec), end; !ec && it != end;
       it.increment(ec)) {
    ++fds;
  }
  if (!ec) out.fds = fds;
  return out;
}

absl::StatusOr<std::vector<Watched>> ParsePids(const std::string& list) {
  std::vector<Watched> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    const size_t eq = item.find('=');
    Watched w;
    w.name = eq == std::string::npos ? item : item.substr(0, eq);
    w.pid = std::atoi(eq == std::string::npos ? item.c_str() : item.c_str() + eq + 1);
    if (w.pid <= 0 || w.name.empty()) {
      return absl::InvalidArgumentError("--pid: '" + item + "' is not NAME=PID with a positive PID");
    }
    if (SampleProcess(w.pid).rss_kb < 0) {
      return absl::NotFoundError("--pid: process " + std::to_string(w.pid) + " (" + w.name + ") is not running");
    }
    out.push_back(std::move(w));
  }
  if (out.empty()) return absl::InvalidArgumentError("--pid: no process given");
  return out;
}

absl::Status Soak(const ParsedArgs& a) {
  std::vector<std::string> servers;
  std::stringstream list(a.String("server", ""));
  for (std::string s; std::getline(list, s, ',');) {
    if (!s.empty()) servers.push_back(s);
  }
  if (servers.empty()) return absl::InvalidArgumentError("--server: no address given");
  VERTEX_ASSIGN_OR_RETURN(std::vector<Watched> watched, ParsePids(a.String("pid", "")));
  VERTEX_ASSIGN_OR_RETURN(const double duration, a.Double("duration", 600, 1, 7 * 24 * 3600));
  VERTEX_ASSIGN_OR_RETURN(const double period, a.Double("sample-seconds", 5, 0.1, 3600));
  VERTEX_ASSIGN_OR_RETURN(const int64_t concurrency, a.Int("concurrency", 2, 1, 256));
  VERTEX_ASSIGN_OR_RETURN(const double rate, a.Double("rate", 50, 0.001, 1e6));
  Target t{servers[0], a.String("site", ""), a.String("pages", "")};
  Loaded loaded;
  VERTEX_ASSIGN_OR_RETURN(loaded.pages, LoadPages(t.pages_dir));
  for (size_t i = 0; i < loaded.pages.size(); ++i) {
    v1::ExtractRequest& r = loaded.requests.emplace_back();
    r.set_site(t.site);
    r.set_url(loaded.pages[i].url);
    r.set_html(loaded.pages[i].bytes);
    r.set_id(std::to_string(i));
  }
  if (loaded.requests.empty()) return absl::NotFoundError("--pages " + t.pages_dir + " holds no page");
  for (const std::string& server : servers) {
    t.server = server;
    VERTEX_RETURN_IF_ERROR(CheckServer(t, loaded.requests[0]));
  }
  // Warm-up: caches, arenas and connections settle before "flat" is judged.
  const double warmup = duration >= 300 ? std::max(30.0, duration * 0.1) : duration * 0.1;
  std::printf("soak: %zu server(s), %lld streams each at %.0f pages/s, %.0f s; sampling every %.1f s; warm-up %.0f s\n",
              servers.size(), static_cast<long long>(concurrency), rate, duration, period, warmup);
  std::printf("%8s", "t_s");
  for (const Watched& w : watched) std::printf("  %14s  %6s", (w.name + " RSS MB").c_str(), "fds");
  std::printf("\n");
  std::fflush(stdout);

  std::vector<double> times;
  std::vector<std::vector<ProcessSample>> samples;  // [sample][process]
  absl::Mutex mu;
  bool done = false;
  const Clock::time_point start = Clock::now();
  std::thread sampler([&] {
    for (int64_t k = 0;; ++k) {
      const Clock::time_point at =
          start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(k * period));
      {
        absl::MutexLock lock(&mu);
        auto is_done = [&done] { return done; };
        if (mu.AwaitWithDeadline(absl::Condition(&is_done), absl::Now() + absl::FromChrono(at - Clock::now()))) break;
      }
      std::vector<ProcessSample> row;
      for (const Watched& w : watched) row.push_back(SampleProcess(w.pid));
      const double t_s = std::chrono::duration<double>(Clock::now() - start).count();
      std::printf("%8.1f", t_s);
      for (const ProcessSample& p : row) std::printf("  %14.1f  %6d", p.rss_kb / 1024.0, p.fds);
      std::printf("\n");
      std::fflush(stdout);
      times.push_back(t_s);
      samples.push_back(std::move(row));
    }
  });
  std::vector<LoadResult> results(servers.size());
  std::vector<std::thread> loads;
  for (size_t i = 0; i < servers.size(); ++i) {
    loads.emplace_back([&, i] {
      LoadSpec spec;
      spec.mode = "stream";
      spec.concurrency = static_cast<int>(concurrency);
      spec.rate = rate;
      spec.seconds = duration;
      results[i] = RunLoad(servers[i], loaded.requests, spec);
    });
  }
  for (std::thread& l : loads) l.join();
  {
    absl::MutexLock lock(&mu);
    done = true;
  }
  sampler.join();
  // A last sample after the load, so the end value is the settled one.
  times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  std::vector<ProcessSample> last;
  for (const Watched& w : watched) last.push_back(SampleProcess(w.pid));
  samples.push_back(std::move(last));

  size_t errors = 0;
  for (size_t i = 0; i < servers.size(); ++i) {
    std::printf("%s: %s\n", servers[i].c_str(), Describe(results[i]).c_str());
    errors += results[i].errors;
  }
  size_t warm = 0;
  while (warm + 1 < times.size() && times[warm] < warmup) ++warm;
  bool flat = true;
  util::JsonWriter w;
  w.BeginObject().Key("command").String("soak").Key("duration_s").Double(duration).Key("errors").Int(errors);
  w.Key("processes").BeginArray();
  for (size_t p = 0; p < watched.size(); ++p) {
    const ProcessSample& first = samples.front()[p];
    const ProcessSample& settled = samples[warm][p];
    const ProcessSample& end = samples.back()[p];
    int64_t max_rss = 0;
    int max_fds = 0;
    for (const auto& row : samples) {
      max_rss = std::max(max_rss, row[p].rss_kb);
      max_fds = std::max(max_fds, row[p].fds);
    }
    const bool rss_flat = end.rss_kb >= 0 && end.rss_kb <= settled.rss_kb * 1.10 + 8 * 1024;
    const bool fds_flat = end.fds >= 0 && std::abs(end.fds - settled.fds) <= 2;
    flat = flat && rss_flat && fds_flat;
    std::printf(
        "%s (pid %d): RSS MB start %.1f, after warm-up (%.0f s) %.1f, end %.1f, max %.1f: %s; fds start %d, after "
        "warm-up %d, end %d, max %d: %s\n",
        watched[p].name.c_str(), watched[p].pid, first.rss_kb / 1024.0, times[warm], settled.rss_kb / 1024.0,
        end.rss_kb / 1024.0, max_rss / 1024.0, rss_flat ? "flat" : "GREW", first.fds, settled.fds, end.fds, max_fds,
        fds_flat ? "flat" : "CHANGED");
    w.BeginObject().Key("name").String(watched[p].name);
    w.Key("rss_mb_start").Double(first.rss_kb / 1024.0).Key("rss_mb_warm").Double(settled.rss_kb / 1024.0);
    w.Key("rss_mb_end").Double(end.rss_kb / 1024.0).Key("rss_mb_max").Double(max_rss / 1024.0);
    w.Key("fds_start").Int(first.fds).Key("fds_warm").Int(settled.fds).Key("fds_end").Int(end.fds);
    w.Key("fds_max").Int(max_fds).Key("flat").Bool(rss_flat && fds_flat).EndObject();
  }
  w.EndArray().Key("flat").Bool(flat).EndObject();
  std::printf("soak verdict: %s\nJSON %s\n", flat ? "flat" : "NOT FLAT", w.str().c_str());
  if (!flat) return absl::FailedPreconditionError("RSS or open fds grew during the soak (see above)");
  if (errors > 0) return absl::UnavailableError(absl::StrCat(errors, " calls failed during the soak"));
  return absl::OkStatus();
}

// ---------------------------------------------------------------- scale

std::vector<FlagSpec> ScaleFlags() {
  return {{"target", "TARGET", "the replicas: ipv4:A:P,B:P, a comma list IP:PORT,... or dns:///NAME:PORT"},
          {"replica", "ADDR=PID[,...]", "each replica's address (IP:PORT, as its peer shows) and process id"},
          {"site", "NAME", "the site whose rules the replicas apply"},
          {"pages", "DIR", "the pages to send"},
          {"store", "DIR", "the primary's store, read as a RocksDB secondary: the in-process CPU per page too"},
          {"seconds", "S", "measured seconds of the load (default 10)"},
          {"concurrency", "N", "streams (default 6: a multiple of 1, 2 and 3 replicas)"},
          {"window", "W", "requests in flight per stream (default 4)"},
          {"stream-pages", "P", "pages per stream before it is closed and another opened (default 64)"},
          {"help", "", "this help"}};
}

constexpr char kScaleUsage[] =
    "usage: load_gen scale --target TARGET --replica ADDR=PID[,...] --site NAME --pages DIR [--store DIR]\n"
    "                      [--seconds S] [--concurrency N] [--window W] [--stream-pages P]\n"
    "Drives extraction replicas at peak through one client-side round-robin target (gRPC's round_robin\n"
    "policy over a static list or dns:///): N ExtractStream streams, each reopened every P pages so that\n"
    "round robin (which picks a server per stream) spreads them. Reports the total pages/s; per replica\n"
    "its pages/s and share of the calls (by the peer that answered), its CPU seconds (/proc/PID/stat)\n"
    "and pages per CPU-second; the client's CPU; with --store, the in-process extraction's pages per\n"
    "CPU-second on 2 threads (the ceiling a replica's figure is compared with). Spread: even when every\n"
    "replica of --replica answered between 0.8/N and 1.2/N of the calls. A last line 'JSON {...}'.\n";

struct ReplicaFigures {
  Watched replica;
  size_t pages = 0;     // inside the window
  size_t answered = 0;  // over the whole load
  double cpu_seconds = -1;

  double PagesPerCpuSecond() const { return cpu_seconds > 0 ? answered / cpu_seconds : 0; }
};

// One row per --replica, from a load and the CPU each replica spent in it.
std::vector<ReplicaFigures> FiguresPerReplica(const std::vector<Watched>& replicas, const LoadResult& load,
                                              const std::vector<double>& cpu_before,
                                              const std::vector<double>& cpu_after) {
  std::vector<ReplicaFigures> out;
  for (size_t i = 0; i < replicas.size(); ++i) {
    ReplicaFigures f{replicas[i]};
    if (auto it = load.per_server.find(replicas[i].name); it != load.per_server.end()) f.pages = it->second;
    if (auto it = load.answered_per_server.find(replicas[i].name); it != load.answered_per_server.end()) {
      f.answered = it->second;
    }
    if (cpu_before[i] >= 0 && cpu_after[i] >= 0) f.cpu_seconds = cpu_after[i] - cpu_before[i];
    out.push_back(f);
  }
  return out;
}

std::vector<double> ReplicaCpu(const std::vector<Watched>& replicas) {
  std::vector<double> out;
  for (const Watched& r : replicas) out.push_back(ReadProcessCpu(r.pid));
  return out;
}

// Even: every replica answered between 0.8/N and 1.2/N of the window's calls.
bool PrintScale(const LoadResult& load, const std::vector<ReplicaFigures>& rows, double in_process_pages_per_cpu_s) {
  const double n = static_cast<double>(rows.size());
  bool even = load.completed > 0;
  std::printf("scale: %zu replica(s): %.1f pages/s in total over %.1f s; errors %zu%s\n", rows.size(),
              load.pages_per_second, load.seconds, load.errors,
              load.errors > 0 ? (" (first: " + load.first_error + ")").c_str() : "");
  for (const ReplicaFigures& f : rows) {
    const double share = load.completed > 0 ? static_cast<double>(f.pages) / load.completed : 0;
    even = even && share >= 0.8 / n && share <= 1.2 / n;
    std::printf(
        "  replica %-21s pid %-7d %8.1f pages/s, share of calls %.3f (1/N = %.3f); CPU %.2f s (%.2f cores); "
        "%.1f pages per CPU-second\n",
        f.replica.name.c_str(), f.replica.pid, f.pages / load.seconds, share, 1 / n, f.cpu_seconds,
        load.cpu.Cores(f.cpu_seconds), f.PagesPerCpuSecond());
  }
  for (const auto& [server, pages] : load.per_server) {
    bool listed = false;
    for (const ReplicaFigures& f : rows) listed = listed || f.replica.name == server;
    if (!listed) std::printf("  server %s (not in --replica) answered %zu calls\n", server.c_str(), pages);
  }
  const CpuUse& c = load.cpu;
  std::printf("  client: CPU %.2f s (%.2f cores, %.2f ms CPU/page); machine %.2f cores busy of %u\n", c.client,
              c.Cores(c.client), CpuUse::MsPerPage(c.client, load.answered), c.Cores(c.machine),
              std::thread::hardware_concurrency());
  if (in_process_pages_per_cpu_s > 0) {
    std::printf("  in process (2 threads, same pages): %.1f pages per CPU-second\n", in_process_pages_per_cpu_s);
  }
  std::printf("  spread over the replicas: %s\n", even ? "even (each within 0.8/N..1.2/N)" : "UNEVEN");
  return even;
}

void WriteScaleJson(const std::string& target, const LoadResult& load, const std::vector<ReplicaFigures>& rows,
                    double in_process_pages_per_cpu_s, bool even) {
  util::JsonWriter w;
  w.BeginObject().Key("command").String("scale").Key("target").String(target);
  w.Key("replicas").Int(static_cast<int64_t>(rows.size())).Key("load");
  WriteLoadJson(load, w);
  w.Key("per_replica").BeginArray();
  for (const ReplicaFigures& f : rows) {
    w.BeginObject().Key("address").String(f.replica.name).Key("pid").Int(f.replica.pid);
    w.Key("pages").Uint(f.pages).Key("pages_per_s").Double(f.pages / load.seconds);
    w.Key("share").Double(load.completed > 0 ? static_cast<double>(f.pages) / load.completed : 0);
    w.Key("cpu_s").Double(f.cpu_seconds).Key("pages_per_cpu_s").Double(f.PagesPerCpuSecond()).EndObject();
  }
  w.EndArray().Key("client_cpu_s").Double(load.cpu.client);
  if (in_process_pages_per_cpu_s > 0) w.Key("in_process_pages_per_cpu_s").Double(in_process_pages_per_cpu_s);
  w.Key("even").Bool(even).EndObject();
  std::printf("JSON %s\n", w.str().c_str());
}

absl::StatusOr<std::vector<Watched>> ParseReplicas(const std::string& list) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<Watched> replicas, ParsePids(list));
  for (const Watched& r : replicas) {
    VERTEX_ASSIGN_OR_RETURN(rpc::BalancedTarget t, rpc::ParseBalancedTarget(r.name));
    if (!t.addresses.empty() || r.name.find(':') == std::string::npos) {
      return absl::InvalidArgumentError("--replica: '" + r.name + "' is not one IP:PORT");
    }
  }
  return replicas;
}

absl::Status Scale(const ParsedArgs& a) {
  Target t{a.String("target", ""), a.String("site", ""), a.String("pages", ""), a.String("store", "")};
  VERTEX_RETURN_IF_ERROR(CheckTarget(t.server));
  VERTEX_ASSIGN_OR_RETURN(std::vector<Watched> replicas, ParseReplicas(a.String("replica", "")));
  VERTEX_ASSIGN_OR_RETURN(t.seconds, a.Double("seconds", 10, 0.5, 3600));
  LoadSpec spec{"stream"};
  VERTEX_ASSIGN_OR_RETURN(const int64_t concurrency, a.Int("concurrency", 6, 1, 256));
  VERTEX_ASSIGN_OR_RETURN(const int64_t window, a.Int("window", 4, 1, 1024));
  VERTEX_ASSIGN_OR_RETURN(const int64_t stream_pages, a.Int("stream-pages", 64, 0, 1 << 30));
  spec.concurrency = static_cast<int>(concurrency);
  spec.window = static_cast<int>(window);
  spec.stream_pages = static_cast<int>(stream_pages);
  spec.seconds = t.seconds;
  Loaded loaded;
  double in_process = 0;  // pages per CPU-second
  if (!t.store.empty()) {
    VERTEX_ASSIGN_OR_RETURN(loaded, Prepare(t));
    const InProcessResult r = MeasureInProcess(t, loaded, "before");
    in_process = r.cpu.client > 0 ? r.pages / r.cpu.client : 0;
  } else {
    VERTEX_ASSIGN_OR_RETURN(loaded.pages, LoadPages(t.pages_dir));
    for (size_t i = 0; i < loaded.pages.size(); ++i) {
      v1::ExtractRequest& r = loaded.requests.emplace_back();
      r.set_site(t.site);
      r.set_url(loaded.pages[i].url);
      r.set_html(loaded.pages[i].bytes);
      r.set_id(std::to_string(i));
    }
    if (loaded.requests.empty()) return absl::NotFoundError("--pages " + t.pages_dir + " holds no page");
  }
  for (const Watched& r : replicas) {  // each replica up and caught up with the site's rules
    VERTEX_RETURN_IF_ERROR(CheckServer(Target{r.name, t.site}, loaded.requests[0]));
  }
  std::printf("scale: target %s, %d streams x window %d, a new stream every %d pages, 1 s warm-up + %.1f s\n",
              t.server.c_str(), spec.concurrency, spec.window, spec.stream_pages, spec.seconds);
  const std::vector<double> cpu_before = ReplicaCpu(replicas);
  const LoadResult load = RunLoad(t.server, loaded.requests, spec);
  const std::vector<ReplicaFigures> rows = FiguresPerReplica(replicas, load, cpu_before, ReplicaCpu(replicas));
  const bool even = PrintScale(load, rows, in_process);
  WriteScaleJson(t.server, load, rows, in_process, even);
  if (load.completed == 0) return absl::UnavailableError("no page was answered: " + load.first_error);
  return absl::OkStatus();
}

// ---------------------------------------------------------------- setup

absl::Status Setup(const ParsedArgs& a) {
  const std::string site = a.String("site", "");
  for (const char* dir : {"pages", "truth"}) {
    if (!std::filesystem::is_directory(a.String(dir, ""))) {
      return absl::NotFoundError(absl::StrCat("--", dir, " ", a.String(dir, ""), " is not a directory"));
    }
  }
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(a.String("truth", ""), site));
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::ClientPage> pages, LoadPages(a.String("pages", "")));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(a.String("store", "")));
  workflow::ExtractionEngine extraction(store.get(), {});
  absl::Status refresh = absl::OkStatus();
  workflow::LearningEngine learning(store.get(), {}, [&](const std::string&) {
    if (absl::StatusOr<size_t> r = extraction.Refresh(); !r.ok()) refresh = r.status();
  });
  VERTEX_ASSIGN_OR_RETURN(workflow::ApiRunReport report,
                          workflow::RunSiteThroughApi(learning, extraction, site, schema, pages, truth));
  VERTEX_RETURN_IF_ERROR(refresh);
  std::printf("%s", workflow::FormatRunReport(site, schema, report).c_str());
  if (report.clusters_with_rule == 0) return absl::FailedPreconditionError("no cluster of " + site + " got a rule");
  std::printf("store %s holds the rules of %s\n", a.String("store", "").c_str(), site.c_str());
  return absl::OkStatus();
}

// ---------------------------------------------------------------- main

int Main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(kUsage, stderr);
    return 1;
  }
  const std::string& mode = args[0];
  if (mode == "--help" || mode == "-h" || mode == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  struct Mode {
    const char* name;
    std::vector<FlagSpec> flags;
    const char* usage;
    std::vector<std::string> required;
    absl::Status (*run)(const ParsedArgs&);
  };
  const Mode modes[] = {{"setup", SetupFlags(), kSetupUsage, {"store", "pages", "truth", "site", "schema"}, Setup},
                        {"run", RunFlags(), kRunUsage, {"server", "site", "pages"}, Run},
                        {"sweep", SweepFlags(), kSweepUsage, {"server", "site", "pages"}, Sweep},
                        {"soak", SoakFlags(), kSoakUsage, {"server", "site", "pages", "pid"}, Soak},
                        {"scale", ScaleFlags(), kScaleUsage, {"target", "replica", "site", "pages"}, Scale}};
  for (const Mode& m : modes) {
    if (mode != m.name) continue;
    absl::StatusOr<std::optional<ParsedArgs>> parsed =
        ParseModeArgs({args.begin() + 1, args.end()}, m.flags, m.usage, m.required);
    absl::Status status = parsed.status();
    if (parsed.ok() && !parsed->has_value()) return 0;
    if (parsed.ok()) status = m.run(**parsed);
    if (status.ok()) return 0;
    std::fprintf(stderr, "load_gen %s: %s\n", m.name, status.ToString().c_str());
    return 1;
  }
  std::fprintf(stderr, "load_gen: unknown mode '%s'\n%s", mode.c_str(), kUsage);
  return 1;
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) { return vertex::bench::Main(argc, argv); }
