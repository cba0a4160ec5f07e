#include "common/extract/record_proto.h"

namespace vertex::extract {
namespace {

v1::ExtractedRecord::Status StatusToProto(RecordStatus status) {
  switch (status) {
    case RecordStatus::kOk:
      return v1::ExtractedRecord::OK;
    case RecordStatus::kPartial:
      return v1::ExtractedRecord::PARTIAL;
    case RecordStatus::kNoUrlMatch:
      return v1::ExtractedRecord::NO_URL_MATCH;
    case RecordStatus::kNoShingleMatch:
      return v1::ExtractedRecord::NO_SHINGLE_MATCH;
  }
  return v1::ExtractedRecord::STATUS_UNSPECIFIED;
}

RecordStatus StatusFromProto(v1::ExtractedRecord::Status status) {
  switch (status) {
    case v1::ExtractedRecord::OK:
      return RecordStatus::kOk;
    case v1::ExtractedRecord::PARTIAL:
      return RecordStatus::kPartial;
    case v1::ExtractedRecord::NO_SHINGLE_MATCH:
      return RecordStatus::kNoShingleMatch;
    default:
      return RecordStatus::kNoUrlMatch;
  }
}

v1::AttributeRule::Method MethodFromName(const std::string& name) {
  if (name == MethodName(v1::AttributeRule::XPATH)) return v1::AttributeRule::XPATH;
  if (name == MethodName(v1::AttributeRule::CLASSIFIER)) return v1::AttributeRule::CLASSIFIER;
  return v1::AttributeRule::METHOD_UNSPECIFIED;
}

MatchedBy MatchedByFromName(const std::string& name) {
  if (name == MatchedByName(MatchedBy::kSignature)) return MatchedBy::kSignature;
  if (name == MatchedByName(MatchedBy::kNearest)) return MatchedBy::kNearest;
  return MatchedBy::kNone;
}

void AttributeToProto(const AttributeResult& a, bool details, v1::ExtractedAttribute* p) {
  p->set_attribute(a.attribute);
  for (const std::string& v : a.values) p->add_values(v);
  if (!details) return;
  p->set_method(MethodName(a.method));
  p->set_score(a.score);
  p->set_candidates(static_cast<uint32_t>(a.candidates));
  p->set_winners(static_cast<uint32_t>(a.winners));
}

AttributeResult AttributeFromProto(const v1::ExtractedAttribute& p) {
  AttributeResult a;
  a.attribute = p.attribute();
  a.values.assign(p.values().begin(), p.values().end());
  a.method = MethodFromName(p.method());
  a.score = p.score();
  a.candidates = p.candidates();
  a.winners = p.winners();
  return a;
}

}  // namespace

v1::ExtractedRecord RecordToProto(const Record& record, const std::string& site, bool details) {
  v1::ExtractedRecord out;
  out.set_url(record.url);
  out.set_site(site);
  out.set_status(StatusToProto(record.status));
  out.set_cluster_id(record.cluster_id);
  out.set_rule_version(record.rule_version);
  out.set_matched_by(MatchedByName(record.matched_by));
  out.set_agreement(static_cast<uint32_t>(record.agreement));
  out.set_nearest_cluster(record.nearest_cluster);
  out.set_nearest_rejected(record.nearest_rejected);
  for (const AttributeResult& a : record.attributes) AttributeToProto(a, details, out.add_attributes());
  for (const std::string& m : record.missing_mandatory) out.add_missing_mandatory(m);
  return out;
}

Record RecordFromProto(const v1::ExtractedRecord& proto) {
  Record r;
  r.url = proto.url();
  r.status = StatusFromProto(proto.status());
  r.cluster_id = proto.cluster_id();
  r.rule_version = proto.rule_version();
  r.matched_by = MatchedByFromName(proto.matched_by());
  r.agreement = static_cast<int>(proto.agreement());
  r.nearest_cluster = proto.nearest_cluster();
  r.nearest_rejected = proto.nearest_rejected();
  r.parsed = r.status != RecordStatus::kNoUrlMatch;
  for (const v1::ExtractedAttribute& p : proto.attributes()) r.attributes.push_back(AttributeFromProto(p));
  r.missing_mandatory.assign(proto.missing_mandatory().begin(), proto.missing_mandatory().end());
  return r;
}

void RecordToResponse(const Record& record, const std::string& site, bool details, v1::ExtractResponse* response) {
  *response->mutable_record() = RecordToProto(record, site, details);
  response->clear_records();
  for (const ListRecordResult& r : record.list_records) {
    v1::ListRecord* p = response->add_records();
    p->set_index(static_cast<uint32_t>(r.index));
    p->set_data_area(static_cast<uint32_t>(r.data_area));
    p->set_status(r.missing_regular.empty() ? v1::ExtractedRecord::OK : v1::ExtractedRecord::PARTIAL);
    for (const AttributeResult& a : r.attributes) AttributeToProto(a, details, p->add_attributes());
    for (const std::string& m : r.missing_regular) p->add_missing_regular(m);
  }
}

Record RecordFromResponse(const v1::ExtractResponse& response) {
  Record r = RecordFromProto(response.record());
  r.record_level = response.records_size() > 0;
  for (const v1::ListRecord& p : response.records()) {
    ListRecordResult l;
    l.index = p.index();
    l.data_area = p.data_area();
    for (const v1::ExtractedAttribute& a : p.attributes()) l.attributes.push_back(AttributeFromProto(a));
    l.missing_regular.assign(p.missing_regular().begin(), p.missing_regular().end());
    r.list_records.push_back(std::move(l));
  }
  return r;
}

}  // namespace vertex::extract
