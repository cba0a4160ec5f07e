// Fuzz target: the RPC request messages through the engines the services
// adapt (workflow/learning_engine.h, workflow/extraction_engine.h,
// monitor/monitor_engine.h), in process over an in-memory store, without a
// network server: the same calls vertexd's handlers make.
//
// At start-up the demo site "shop" is registered, sampled and learnt through
// the LearningApi (workflow/api_editor.h RunSiteThroughApi), and the store's
// contents are kept. Each input gets a fresh store holding exactly those
// contents, so every input sees the same state (a call that writes cannot
// affect the next input).
//
// Input: the first byte chooses the RPC (byte % kCalls, in the order of the
// switch below); the rest is its request message in binary protobuf.
//
// Checked beyond "no crash": no call answers Internal or Unknown (those are
// for bugs: every documented error of the engines is a client error or a
// precondition); Extract answers one record for the page it was given.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/monitor/monitor_engine.h"
#include "common/store/memory_kv.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "tests/fuzz/fuzz_demo.h"

namespace vertex::fuzz {
namespace {

constexpr int kCalls = 20;

// The store after the demo site was learnt, as one batch that recreates it.
const store::KvBatch& LearntStore() {
  static const store::KvBatch* contents = [] {
    QuietProtobufLogs();
    auto kv = std::make_shared<store::MemoryKv>();
    absl::StatusOr<std::unique_ptr<store::RuleStore>> rules = store::NewRuleStore(kv);
    Check(rules.ok(), "NewRuleStore: " + rules.status().ToString());
    {
      workflow::ExtractionEngine extraction(rules->get(), {});
      workflow::LearningEngine learning(rules->get(), {});
      std::vector<demo::GeneratedPage> demo = DemoPages();
      std::vector<workflow::ClientPage> pages;
      for (const demo::GeneratedPage& p : demo) pages.push_back({p.file_name, p.url, p.html});
      absl::StatusOr<workflow::ApiRunReport> report = workflow::RunSiteThroughApi(
          learning, extraction, "shop", ProductSchema(), pages, ProductTruth(demo));
      Check(report.ok(), "learning the demo site: " + report.status().ToString());
      Check(report->clusters_with_rule > 0, "the demo site got no rule");
    }
    auto* batch = new store::KvBatch;
    std::unique_ptr<store::KvReader> reader = kv->NewReader();
    for (store::Family family : store::kAllFamilies) {
      absl::Status scanned = reader->Scan(family, "", [&](std::string_view key, std::string_view value) {
        batch->Put(family, std::string(key), std::string(value));
        return true;
      });
      Check(scanned.ok(), "scanning the learnt store: " + scanned.ToString());
    }
    return batch;
  }();
  return *contents;
}

template <typename Request>
bool Parse(std::string_view bytes, Request* request) {
  return request->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

// Runs `call` on the request parsed from `bytes` (nothing when the bytes do
// not parse) and checks its status.
template <typename Request, typename Call>
void Run(const char* name, std::string_view bytes, Call call) {
  Request request;
  if (!Parse(bytes, &request)) return;
  auto response = call(request);
  CheckNotInternal(response.status(), name);
}

struct Engines {
  explicit Engines(store::RuleStore* rules)
      : extraction(rules, {}),
        learning(rules, {}),
        monitor(rules, MonitorOptions(rules)) {}

  static monitor::MonitorEngineOptions MonitorOptions(store::RuleStore* rules) {
    monitor::MonitorEngineOptions options;
    options.record = [rules](const v1::MonitorRun& run) { return rules->AppendMonitorRun(run); };
    return options;
  }

  workflow::ExtractionEngine extraction;
  workflow::LearningEngine learning;
  monitor::MonitorEngine monitor;
};

void Dispatch(int call, std::string_view bytes, Engines& e) {
  workflow::LearningEngine& l = e.learning;
  switch (call) {
    case 0:
      Run<v1::ExtractRequest>("Extract", bytes, [&](const v1::ExtractRequest& r) {
        absl::StatusOr<v1::ExtractResponse> response = e.extraction.Extract(r);
        if (response.ok()) Check(response->record().url() == r.url(), "Extract: the record's URL is not the page's");
        return response;
      });
      break;
    case 1:
      Run<v1::ExtractRequest>("ExtractMany", bytes, [&](const v1::ExtractRequest& r) {
        absl::StatusOr<std::vector<v1::ExtractResponse>> responses = e.extraction.ExtractMany({r, r});
        if (responses.ok()) Check(responses->size() == 2, "ExtractMany: one response per request");
        return responses;
      });
      break;
    case 2: Run<v1::RegisterSiteRequest>("RegisterSite", bytes, [&](const auto& r) { return l.RegisterSite(r); }); break;
    case 3: Run<v1::AddSamplePagesRequest>("AddSamplePages", bytes, [&](const auto& r) { return l.AddSamplePages(r); }); break;
    case 4: Run<v1::GetAnnotationTasksRequest>("GetAnnotationTasks", bytes, [&](const auto& r) { return l.GetAnnotationTasks(r); }); break;
    case 5: Run<v1::LearnRequest>("Learn", bytes, [&](const auto& r) { return l.Learn(r); }); break;
    case 6: Run<v1::GetRuleRequest>("GetRule", bytes, [&](const auto& r) { return l.GetRule(r); }); break;
    case 7: Run<v1::ListRulesRequest>("ListRules", bytes, [&](const auto& r) { return l.ListRules(r); }); break;
    case 8: Run<v1::ExportRuleRequest>("ExportRule", bytes, [&](const auto& r) { return l.ExportRule(r); }); break;
    case 9: Run<v1::RollbackRuleRequest>("RollbackRule", bytes, [&](const auto& r) { return l.RollbackRule(r); }); break;
    case 10: Run<v1::DeleteSiteRequest>("DeleteSite", bytes, [&](const auto& r) { return l.DeleteSite(r); }); break;
    case 11: Run<v1::RelearnRequest>("Relearn", bytes, [&](const auto& r) { return l.Relearn(r); }); break;
    case 12: Run<v1::ResolveCandidateRequest>("ResolveCandidate", bytes, [&](const auto& r) { return l.ResolveCandidate(r); }); break;
    case 13: Run<v1::RecordMonitorRunRequest>("RecordMonitorRun", bytes, [&](const auto& r) { return l.RecordMonitorRun(r); }); break;
    case 14: Run<v1::LocatePagesRequest>("LocatePages", bytes, [&](const auto& r) { return l.LocatePages(r); }); break;
    case 15: Run<v1::MonitorRequest>("Monitor", bytes, [&](const auto& r) { return e.monitor.Monitor(r); }); break;
    case 16: Run<v1::GetHistoryRequest>("GetHistory", bytes, [&](const auto& r) { return e.monitor.GetHistory(r); }); break;
    case 17: Run<v1::ListSitesRequest>("ListSites", bytes, [&](const auto& r) { return l.ListSites(r); }); break;
    case 18: Run<v1::GetEditorPageRequest>("GetEditorPage", bytes, [&](const auto& r) { return l.GetEditorPage(r); }); break;
    case 19: Run<v1::AnnotateFromFeedRequest>("AnnotateFromFeed", bytes, [&](const auto& r) { return l.AnnotateFromFeed(r); }); break;
  }
}

}  // namespace
}  // namespace vertex::fuzz

// The learning at start-up runs here, before libFuzzer's per-input timeout
// applies.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  vertex::fuzz::LearntStore();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  if (size == 0) return 0;
  const store::KvBatch& contents = fuzz::LearntStore();
  auto kv = std::make_shared<store::MemoryKv>();
  fuzz::Check(kv->Write(contents).ok(), "restoring the learnt store");
  absl::StatusOr<std::unique_ptr<store::RuleStore>> rules = store::NewRuleStore(kv);
  fuzz::Check(rules.ok(), "NewRuleStore: " + rules.status().ToString());
  fuzz::Engines engines(rules->get());
  fuzz::Dispatch(data[0] % fuzz::kCalls, fuzz::AsView(data + 1, size - 1), engines);
  return 0;
}
