// ExtractionServiceImpl: the gRPC adapter of workflow::ExtractionEngine
// (proto/vertex/v1/extraction.proto). Extract answers one page;
// ExtractStream answers each page of a stream in order, a failed page
// getting its error in its response instead of ending the stream.
//
// Thread-safety: gRPC calls handlers from many threads; the engine is
// thread-safe.
#ifndef VERTEX_SERVICES_EXTRACTION_EXTRACTION_SERVICE_H_
#define VERTEX_SERVICES_EXTRACTION_EXTRACTION_SERVICE_H_

#include "common/workflow/extraction_engine.h"
#include "vertex/v1/extraction.grpc.pb.h"

namespace vertex::server {

class ExtractionServiceImpl final : public v1::ExtractionService::Service {
 public:
  // `engine` must outlive the service.
  explicit ExtractionServiceImpl(workflow::ExtractionEngine* engine);

  grpc::Status Extract(grpc::ServerContext* context, const v1::ExtractRequest* request,
                       v1::ExtractResponse* response) override;
  grpc::Status ExtractStream(grpc::ServerContext* context,
                             grpc::ServerReaderWriter<v1::ExtractResponse, v1::ExtractRequest>* stream) override;

 private:
  workflow::ExtractionEngine* engine_;
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_EXTRACTION_EXTRACTION_SERVICE_H_
