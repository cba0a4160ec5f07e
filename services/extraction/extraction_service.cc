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
    v1::ExtractResponse out;
    if (response.ok()) {
      out = *std::move(response);
    } else {
      ++failed;
      out.set_id(request.id());
      out.set_error_code(static_cast<int32_t>(response.status().code()));
      out.set_error(std::string(response.status().message()));
    }
    if (!stream->Write(out)) break;
  }
  if (failed > 0) spdlog::info("ExtractStream: {} pages, {} failed", pages, failed);
  return grpc::Status::OK;
}

}  // namespace vertex::server
