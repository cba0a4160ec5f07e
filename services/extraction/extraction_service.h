// ExtractionServiceImpl: the gRPC adapter of workflow::ExtractionEngine
// (proto/vertex/v1/extraction.proto). Extract answers one page;
// ExtractStream answers each page of a stream in order, a failed page
// getting its error in its response instead of ending the stream.
//
// Admission: with an `extractions` semaphore (util::FifoSemaphore; the
// servers make one with --max-concurrent-extractions N > 0; by default
// none), each page's extraction (one Extract call, one page of a
// stream) first takes a permit, first come first served, so that a burst
// queues instead of time-slicing the cores between every call in flight. A
// call that is cancelled or whose deadline passes while it waits ends with
// CANCELLED or DEADLINE_EXCEEDED without extracting (a stream ends at that
// page). Without a semaphore every call extracts at once.
//
// Thread-safety: gRPC calls handlers from many threads; the engine and the
// semaphore are thread-safe.
#ifndef VERTEX_SERVICES_EXTRACTION_EXTRACTION_SERVICE_H_
#define VERTEX_SERVICES_EXTRACTION_EXTRACTION_SERVICE_H_

#include <optional>
#include <string>

#include "common/util/fifo_semaphore.h"
#include "common/workflow/extraction_engine.h"
#include "vertex/v1/extraction.grpc.pb.h"

namespace vertex::server {

class ExtractionServiceImpl final : public v1::ExtractionService::Service {
 public:
  // `engine` and `extractions` (may be null: no admission) must outlive the
  // service.
  explicit ExtractionServiceImpl(workflow::ExtractionEngine* engine, util::FifoSemaphore* extractions = nullptr);

  grpc::Status Extract(grpc::ServerContext* context, const v1::ExtractRequest* request,
                       v1::ExtractResponse* response) override;
  grpc::Status ExtractStream(grpc::ServerContext* context,
                             grpc::ServerReaderWriter<v1::ExtractResponse, v1::ExtractRequest>* stream) override;

 private:
  // A permit for one extraction of `context`'s call (nullopt without a
  // semaphore), or the admission's error: CANCELLED, DEADLINE_EXCEEDED.
  absl::StatusOr<std::optional<util::FifoSemaphore::Permit>> Enter(const grpc::ServerContext& context) const;

  workflow::ExtractionEngine* engine_;
  util::FifoSemaphore* extractions_;
};

// One line on what `extractions` did (for the log at shutdown): its limit,
// permits, how many waited, mean and max wait, longest queue, refusals.
std::string DescribeAdmission(const util::FifoSemaphore& extractions);

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_EXTRACTION_EXTRACTION_SERVICE_H_
