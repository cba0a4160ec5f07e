#include "common/workflow/listing_eval.h"

#include <chrono>
#include <deque>
#include <memory>

#include "absl/strings/str_cat.h"
#include "common/extract/record_proto.h"
#include "common/learn/record_learner.h"
#include "common/rule/url.h"
#include "common/util/status_macros.h"
#include "listing_schemas.h"

namespace vertex::workflow {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::shared_ptr<const annotate::Gazetteer> GazetteerOf(const std::vector<std::string>& terms) {
  auto g = std::make_shared<annotate::Gazetteer>();
  for (const std::string& t : terms) g->Add(t);
  return g;
}

}  // namespace

const char* ListingSchemaJson(demo::ListingDomain domain) {
  return domain == demo::ListingDomain::kRealEstate ? kRealEstateSchemaJson : kUsedCarsSchemaJson;
}

absl::StatusOr<schema::CompiledSchema> ListingSchema(demo::ListingDomain domain) {
  return schema::CompiledSchema::FromJson(ListingSchemaJson(domain), demo::ListingDomainName(domain) + ".json");
}

annotate::GazetteerSet ListingGazetteers(demo::ListingDomain domain, double coverage, uint64_t seed) {
  annotate::GazetteerSet out;
  out["uk_places"] = GazetteerOf(demo::GazetteerSample(demo::ListingPlaceNames(), coverage, seed));
  if (domain == demo::ListingDomain::kUsedCars) {
    std::vector<std::string> makes, models;
    for (const demo::CarMake& m : demo::ListingCarMakes()) {
      makes.push_back(m.make);
      models.insert(models.end(), m.models.begin(), m.models.end());
    }
    out["car_makes"] = GazetteerOf(demo::GazetteerSample(makes, coverage, seed));
    out["car_models"] = GazetteerOf(demo::GazetteerSample(models, coverage, seed));
  }
  return out;
}

eval::PredictedPage PredictionOfTyping(const amber::Typing& typing, const html::Page& page,
                                       const schema::CompiledSchema& schema) {
  eval::PredictedPage out;
  const std::string base = rule::PageBaseUrl(page);
  for (const amber::DataArea& area : typing.areas) {
    eval::PredictedArea& a = out.areas.emplace_back();
    for (const amber::Record& record : area.records) {
      eval::PredictedRecord& r = a.records.emplace_back();
      for (html::Node top : record.nodes) {
        for (html::Node n = top; n; n = n.NextInDocument(top)) {
          if (!n.is_element() || n.tag() != "a" || !n.has_attribute("href")) continue;
          absl::StatusOr<std::string> url = rule::ResolveUrl(base, n.attribute("href"));
          if (url.ok()) r.links.push_back(*url);
        }
      }
      for (const amber::AttributeMatch& m : record.attributes) {
        eval::PredictedValue& v = r.attributes[schema.attribute(static_cast<size_t>(m.attribute)).name()];
        v.value = m.value;
        v.text = m.node.Text();
      }
    }
  }
  return out;
}

eval::PredictedPage PredictionOfResponse(const v1::ExtractResponse& response, const schema::CompiledSchema& schema) {
  eval::PredictedPage out;
  for (const v1::ListRecord& record : response.records()) {
    while (out.areas.size() <= record.data_area()) out.areas.emplace_back();
    eval::PredictedRecord& r = out.areas[record.data_area()].records.emplace_back();
    for (const v1::ExtractedAttribute& a : record.attributes()) {
      if (a.values_size() == 0) continue;
      const int k = schema.Find(a.attribute());
      if (k >= 0 && schema.attribute(static_cast<size_t>(k)).type() == "url") {
        r.links.insert(r.links.end(), a.values().begin(), a.values().end());
      }
      r.attributes[a.attribute()] = {a.values(0), a.values(0)};
    }
  }
  return out;
}

eval::PredictedPage PredictionOfRecords(const extract::ListResult& list, const schema::CompiledSchema& schema) {
  extract::Record record;
  record.record_level = true;
  record.list_records = list.records;
  v1::ExtractResponse response;
  extract::RecordToResponse(record, "", false, &response);
  return PredictionOfResponse(response, schema);
}

absl::StatusOr<ListingEvalReport> EvalListingSite(const schema::CompiledSchema& schema, const demo::ListingSite& site,
                                                  const annotate::GazetteerSet& gazetteers,
                                                  const ListingEvalOptions& options) {
  ListingEvalReport report;
  report.pages = site.pages.size();
  VERTEX_ASSIGN_OR_RETURN(annotate::Annotator annotator, annotate::Annotator::Create(schema, gazetteers));
  html::Parser parser;
  std::deque<html::Page> pages;
  std::deque<amber::Typing> typings;
  for (const demo::ListingPage& p : site.pages) {
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<html::Page> page = parser.Parse(p.html, p.url);
    report.parse_seconds += SecondsSince(start);
    if (!page.ok()) return absl::Status(page.status().code(), p.file_name + ": " + std::string(page.status().message()));
    pages.push_back(*std::move(page));
    start = std::chrono::steady_clock::now();
    VERTEX_ASSIGN_OR_RETURN(amber::Typing typing,
                            amber::Run(pages.back(), annotator.Annotate(pages.back()), schema, options.amber));
    report.amber_seconds += SecondsSince(start);
    report.amber += eval::ScoreListPage(PredictionOfTyping(typing, pages.back(), schema), p.truth);
    typings.push_back(std::move(typing));
  }
  if (!options.rule) return report;
  std::vector<learn::RecordPage> learning;
  for (size_t i = 0; i < pages.size() && i < options.learn_pages + options.support_pages; ++i) {
    learning.push_back({&pages[i], i < options.learn_pages ? &typings[i] : nullptr});
  }
  absl::StatusOr<learn::RecordLearnResult> learnt = learn::LearnRecordRule(schema, learning, "amber");
  if (!learnt.ok()) {
    report.rule_error = std::string(learnt.status().message());
    for (const demo::ListingPage& p : site.pages) report.rule += eval::ScoreListPage({}, p.truth);
    return report;
  }
  report.record_rule = learnt->rule;
  report.rule_notes = learnt->notes;
  v1::Rule rule;
  rule.set_cluster_id("c0");
  *rule.mutable_record() = learnt->rule;
  absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(rule, schema);
  if (!compiled.ok()) return absl::InternalError("learnt record rule does not compile: " + compiled.status().ToString());
  for (size_t i = 0; i < pages.size(); ++i) {
    auto start = std::chrono::steady_clock::now();
    VERTEX_ASSIGN_OR_RETURN(extract::ListResult list, compiled->ApplyRecords(pages[i]));
    report.rule_seconds += SecondsSince(start);
    report.rule += eval::ScoreListPage(PredictionOfRecords(list, schema), site.pages[i].truth);
  }
  return report;
}

}  // namespace vertex::workflow
