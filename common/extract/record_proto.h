// The engine's record (site_extractor.h) as the ExtractionService's
// message, and back: the services answer with it and vertexctl prints it
// with RecordToJson whichever way it ran, so the JSON is the same offline
// and online.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_EXTRACT_RECORD_PROTO_H_
#define VERTEX_COMMON_EXTRACT_RECORD_PROTO_H_

#include <string>

#include "common/extract/site_extractor.h"
#include "vertex/v1/extraction.pb.h"

namespace vertex::extract {

// `record` of a page of `site`. Method, score, candidates and winners are
// filled only with `details`.
v1::ExtractedRecord RecordToProto(const Record& record, const std::string& site, bool details);

// The inverse of RecordToProto (parsed is true unless NO_URL_MATCH; an
// unknown status reads as NO_URL_MATCH, an unknown matched_by as kNone).
Record RecordFromProto(const v1::ExtractedRecord& proto);

// `record` as an ExtractResponse's record and records (ListRecord, one per
// list_records entry, status OK or PARTIAL by its missing_regular; method,
// score, candidates and winners only with `details`). The response's id
// and error fields are left alone. Record.notes are not carried (the
// message has no field for them).
void RecordToResponse(const Record& record, const std::string& site, bool details, v1::ExtractResponse* response);

// The inverse of RecordToResponse: RecordFromProto of the response's
// record, with its records as list_records; record_level when it has any
// (a list page without records reads as a page without attributes, which
// RecordToJson prints the same way).
Record RecordFromResponse(const v1::ExtractResponse& response);

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_RECORD_PROTO_H_
