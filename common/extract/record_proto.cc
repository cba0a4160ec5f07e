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
  for (const AttributeResult& a : record.attributes) {
    v1::ExtractedAttribute* p = out.add_attributes();
    p->set_attribute(a.attribute);
    for (const std::string& v : a.values) p->add_values(v);
    if (!details) continue;
    p->set_method(MethodName(a.method));
    p->set_score(a.score);
    p->set_candidates(static_cast<uint32_t>(a.candidates));
    p->set_winners(static_cast<uint32_t>(a.winners));
  }
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
  for (const v1::ExtractedAttribute& p : proto.attributes()) {
    AttributeResult a;
    a.attribute = p.attribute();
    a.values.assign(p.values().begin(), p.values().end());
    a.method = MethodFromName(p.method());
    a.score = p.score();
    a.candidates = p.candidates();
    a.winners = p.winners();
    r.attributes.push_back(std::move(a));
  }
  r.missing_mandatory.assign(proto.missing_mandatory().begin(), proto.missing_mandatory().end());
  return r;
}

}  // namespace vertex::extract
