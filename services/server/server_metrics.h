// The /metrics collectors of what a server holds (read at each scrape):
// the rule store's rules per site and size on disk, and the extraction
// admission queue. Each returned collector reads through the pointers it is
// given, which must stay valid while the HTTP server runs (Serve() stops it
// before its `close` callback closes the store).
//
// Thread-safety: the collectors may run on any thread, concurrently with
// the store's other users.
#ifndef VERTEX_SERVICES_SERVER_SERVER_METRICS_H_
#define VERTEX_SERVICES_SERVER_SERVER_METRICS_H_

#include "common/store/rocksdb_kv.h"
#include "common/store/rule_store.h"
#include "common/util/fifo_semaphore.h"
#include "services/common/metrics.h"

namespace vertex::server {

// vertex_rules_current{site} (clusters with a current rule) and
// vertex_rule_versions{site} (rule versions stored), vertex_sites; a store
// error is counted in vertex_metrics_errors instead.
rpc::Collector RuleStoreCollector(const store::RuleStore* store);

// vertex_store_sst_bytes (rocksdb.total-sst-files-size) and
// vertex_store_live_data_bytes (rocksdb.estimate-live-data-size) and
// vertex_store_memtable_bytes (rocksdb.cur-size-all-mem-tables), summed
// over the column families.
rpc::Collector RocksDbCollector(const store::RocksDbKv* kv);

// vertex_extraction_admission_in_flight (pages being extracted),
// vertex_extraction_admission_waiting (queued) and _limit (0: none) of
// --max-concurrent-extractions.
rpc::Collector AdmissionCollector(const util::FifoSemaphore* extractions);

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_SERVER_METRICS_H_
