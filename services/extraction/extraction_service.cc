#include "services/extraction/extraction_service.h"

#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "services/server/handler.h"

namespace vertex::server {

ExtractionServiceImpl::ExtractionServiceImpl(workflow::ExtractionEngine* engine, util::FifoSemaphore* extractions)
    : engine_(engine), extractions_(extractions) {}

absl::StatusOr<std::optional<util::FifoSemaphore::Permit>> ExtractionServiceImpl::Enter(
    const grpc::ServerContext& context) const {
  if (extractions_ == nullptr) return std::nullopt;
  absl::StatusOr<util::FifoSemaphore::Permit> permit =
      extractions_->Acquire(absl::FromChrono(context.deadline()), [&context] { return context.IsCancelled(); });
  if (!permit.ok()) return permit.status();
  return std::optional<util::FifoSemaphore::Permit>(*std::move(permit));
}

grpc::Status ExtractionServiceImpl::Extract(grpc::ServerContext* context, const v1::ExtractRequest* request,
                                            v1::ExtractResponse* response) {
  return Handle(
      *context, "Extract", "site=" + request->site() + " url=" + request->url(), false, "",
      [&]() -> absl::StatusOr<v1::ExtractResponse> {
        absl::StatusOr<std::optional<util::FifoSemaphore::Permit>> permit = Enter(*context);
        if (!permit.ok()) return permit.status();
        return engine_->ExtractConst(*request);
      },
      response);
}

grpc::Status ExtractionServiceImpl::ExtractStream(
    grpc::ServerContext* context, grpc::ServerReaderWriter<v1::ExtractResponse, v1::ExtractRequest>* stream) {
  if (grpc::Status admitted = Admit(*context, false, ""); !admitted.ok()) return admitted;
  v1::ExtractRequest request;
  size_t pages = 0, failed = 0;
  while (stream->Read(&request)) {
    ++pages;
    absl::StatusOr<std::optional<util::FifoSemaphore::Permit>> permit = Enter(*context);
    if (!permit.ok()) {
      return Failed("ExtractStream", absl::StrFormat("page %zu id=%s", pages, request.id()), permit.status());
    }
    absl::StatusOr<v1::ExtractResponse> response = engine_->ExtractConst(request);
    permit->reset();  // free the slot before waiting on the client
    if (!response.ok()) ++failed;
    const v1::ExtractResponse out =
        response.ok() ? *std::move(response) : workflow::FailedExtractResponse(request.id(), response.status());
    if (!stream->Write(out)) break;
  }
  if (failed > 0) spdlog::info("ExtractStream: {} pages, {} failed", pages, failed);
  return grpc::Status::OK;
}

std::string DescribeAdmission(const util::FifoSemaphore& extractions) {
  const util::FifoSemaphore::Stats s = extractions.stats();
  const double mean_ms = s.waited > 0 ? absl::ToDoubleMilliseconds(s.total_wait) / static_cast<double>(s.waited) : 0;
  return absl::StrFormat(
      "extraction admission (%s): %d extractions, %d waited (mean %.2f ms, max %.2f ms, queue up to %d); refused: "
      "%d past their deadline, %d cancelled",
      extractions.limit() == 0 ? std::string("no limit") : "limit " + std::to_string(extractions.limit()), s.admitted,
      s.waited, mean_ms, absl::ToDoubleMilliseconds(s.max_wait), s.max_queued, s.expired, s.cancelled);
}

}  // namespace vertex::server
