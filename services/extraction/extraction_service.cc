#include "services/extraction/extraction_service.h"

#include "services/server/handler.h"

namespace vertex::server {

ExtractionServiceImpl::ExtractionServiceImpl(workflow::ExtractionEngine* engine) : engine_(engine) {}

grpc::Status ExtractionServiceImpl::Extract(grpc::ServerContext* context, const v1::ExtractRequest* request,
                                            v1::ExtractResponse* response) {
  return Handle(*context, "Extract", "site=" + request->site() + " url=" + request->url(), false, "",
                [&] { return engine_->ExtractConst(*request); }, response);
}

grpc::Status ExtractionServiceImpl::ExtractStream(
    grpc::ServerContext* context, grpc::ServerReaderWriter<v1::ExtractResponse, v1::ExtractRequest>* stream) {
  if (grpc::Status admitted = Admit(*context, false, ""); !admitted.ok()) return admitted;
  v1::ExtractRequest request;
  size_t pages = 0, failed = 0;
  while (stream->Read(&request)) {
    ++pages;
    absl::StatusOr<v1::ExtractResponse> response = engine_->ExtractConst(request);
    if (!response.ok()) ++failed;
    const v1::ExtractResponse out =
        response.ok() ? *std::move(response) : workflow::FailedExtractResponse(request.id(), response.status());
    if (!stream->Write(out)) break;
  }
  if (failed > 0) spdlog::info("ExtractStream: {} pages, {} failed", pages, failed);
  return grpc::Status::OK;
}

}  // namespace vertex::server
