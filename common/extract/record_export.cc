#include "common/extract/record_export.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/util/json_writer.h"

namespace vertex::extract {
namespace {

enum PageColumn { kFile, kUrl, kStatus, kCluster, kRuleVersion, kMatchedBy, kAgreement, kRecord, kDataArea,
                  kNearestCluster, kNearestRejected, kError };

constexpr char kAttributePrefix[] = "attributes.";

std::string ErrorJson(const std::string& file, const std::string& url, const std::string& error) {
  util::JsonWriter w;
  w.BeginObject().Key("file").String(file).Key("url").String(url).Key("status").String("ERROR");
  w.Key("error").String(error).EndObject();
  return w.Release();
}

int PageColumnIndex(std::string_view name) {
  const std::vector<std::string>& columns = PageColumns();
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

}  // namespace

absl::StatusOr<ExportFormat> ParseExportFormat(std::string_view name) {
  if (name == "jsonl") return ExportFormat::kJsonl;
  if (name == "csv") return ExportFormat::kCsv;
  return absl::InvalidArgumentError(absl::StrCat("unknown format \"", std::string(name), "\" (jsonl or csv)"));
}

const std::vector<std::string>& PageColumns() {
  static const std::vector<std::string> kColumns = {
      "file", "url", "status", "cluster", "rule_version", "matched_by", "agreement", "record", "data_area",
      "nearest_cluster", "nearest_rejected", "error"};
  return kColumns;
}

std::string CsvField(std::string_view cell) {
  const bool edge_space = !cell.empty() && (cell.front() == ' ' || cell.front() == '\t' || cell.back() == ' ' ||
                                            cell.back() == '\t');
  if (!edge_space && cell.find_first_of("\",\r\n") == std::string_view::npos) return std::string(cell);
  std::string out = "\"";
  for (const char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string JoinValues(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += kValueSeparator;
    for (const char c : values[i]) {
      if (c == '\\' || c == kValueSeparator) out += '\\';
      out += c;
    }
  }
  return out;
}

std::vector<std::string> SplitValues(std::string_view cell) {
  std::vector<std::string> values;
  if (cell.empty()) return values;
  values.emplace_back();
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '\\' && i + 1 < cell.size()) {
      values.back() += cell[++i];
    } else if (cell[i] == kValueSeparator) {
      values.emplace_back();
    } else {
      values.back() += cell[i];
    }
  }
  return values;
}

RecordExporter::RecordExporter(ExportFormat format, std::vector<std::string> fields, std::ostream* out, bool details)
    : format_(format), fields_(std::move(fields)), out_(out), details_(details) {}

absl::StatusOr<RecordExporter> RecordExporter::Create(ExportFormat format, std::vector<std::string> fields,
                                                      std::optional<std::vector<std::string>> schema_attributes,
                                                      std::ostream* out, bool details) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (std::find(fields.begin(), fields.begin() + i, fields[i]) != fields.begin() + i) {
      return absl::InvalidArgumentError(absl::StrCat("field \"", fields[i], "\" is given twice"));
    }
  }
  RecordExporter exporter(format, std::move(fields), out, details);
  if (schema_attributes.has_value()) {
    if (absl::Status s = exporter.SetAttributes(*std::move(schema_attributes)); !s.ok()) return s;
  }
  return exporter;
}

absl::Status RecordExporter::SetAttributes(std::vector<std::string> names) {
  attributes_ = std::move(names);
  columns_.clear();
  std::vector<std::string> valid;
  for (size_t i = 0; i < PageColumns().size(); ++i) {
    columns_.emplace_back(static_cast<int>(i), -1);
    valid.push_back(PageColumns()[i]);
  }
  for (size_t i = 0; i < attributes_->size(); ++i) {
    const std::string& name = (*attributes_)[i];
    columns_.emplace_back(-1, static_cast<int>(i));
    valid.push_back(PageColumnIndex(name) >= 0 ? kAttributePrefix + name : name);
  }
  if (fields_.empty()) return absl::OkStatus();
  std::vector<std::pair<int, int>> chosen;
  for (const std::string& field : fields_) {
    auto it = std::find(valid.begin(), valid.end(), field);
    if (it == valid.end() && absl::StartsWith(field, kAttributePrefix)) {
      it = std::find(valid.begin() + PageColumns().size(), valid.end(), field.substr(sizeof(kAttributePrefix) - 1));
    }
    if (it == valid.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown field \"", field, "\"; valid fields: ", absl::StrJoin(valid, ", ")));
    }
    chosen.push_back(columns_[it - valid.begin()]);
  }
  columns_ = std::move(chosen);
  return absl::OkStatus();
}

absl::Status RecordExporter::Add(const Record& record, const std::string& file) {
  if (format_ == ExportFormat::kJsonl && fields_.empty()) {
    *out_ << RecordToJson(record, file, details_) << "\n";
    return absl::OkStatus();
  }
  Row page{file, record.url, RecordStatusName(record.status), record.cluster_id, MatchedByName(record.matched_by),
           record.rule_version, record.agreement};
  if (record.status == RecordStatus::kNoShingleMatch) {
    page.nearest_cluster = record.nearest_cluster;
    page.nearest_rejected = record.nearest_rejected;
  }
  if (!record.record_level || record.list_records.empty()) {
    page.attributes = record.attributes;
    return Emit(page);
  }
  for (const ListRecordResult& r : record.list_records) {
    Row row = page;
    row.status = RecordStatusName(r.missing_regular.empty() ? RecordStatus::kOk : RecordStatus::kPartial);
    row.record = r.index;
    row.data_area = r.data_area;
    row.attributes = r.attributes;
    if (absl::Status s = Emit(row); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status RecordExporter::AddError(const std::string& file, const std::string& url, const absl::Status& error) {
  if (format_ == ExportFormat::kJsonl && fields_.empty()) {
    *out_ << ErrorJson(file, url, error.ToString()) << "\n";
    return absl::OkStatus();
  }
  Row row{file, url, "ERROR"};
  row.error = error.ToString();
  return Emit(row);
}

absl::Status RecordExporter::Emit(const Row& row) {
  if (!attributes_.has_value() && !row.attributes.empty()) {
    std::vector<std::string> names;
    for (const AttributeResult& a : row.attributes) names.push_back(a.attribute);
    if (absl::Status s = SetAttributes(std::move(names)); !s.ok()) return s;
    if (absl::Status s = Flush(); !s.ok()) return s;
  }
  if (!attributes_.has_value()) {
    held_.push_back(row);
    return absl::OkStatus();
  }
  if (format_ == ExportFormat::kCsv && !header_written_) {
    *out_ << CsvHeader() << "\r\n";
    header_written_ = true;
  }
  *out_ << (format_ == ExportFormat::kCsv ? CsvRow(row) + "\r\n" : JsonRow(row) + "\n");
  return absl::OkStatus();
}

absl::Status RecordExporter::Flush() {
  std::vector<Row> held = std::move(held_);
  held_.clear();
  for (const Row& row : held) {
    if (absl::Status s = Emit(row); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status RecordExporter::Finish() {
  if (format_ == ExportFormat::kJsonl && fields_.empty()) return absl::OkStatus();
  if (!attributes_.has_value()) {
    // No row had attributes: the chosen fields that are no page column are
    // taken as the schema's attributes (unchecked; their cells are empty).
    std::vector<std::string> names;
    for (const std::string& f : fields_) {
      if (PageColumnIndex(f) >= 0) continue;
      names.push_back(absl::StartsWith(f, kAttributePrefix) ? f.substr(sizeof(kAttributePrefix) - 1) : f);
    }
    if (absl::Status s = SetAttributes(std::move(names)); !s.ok()) return s;
  }
  if (absl::Status s = Flush(); !s.ok()) return s;
  if (format_ == ExportFormat::kCsv && !header_written_) {
    *out_ << CsvHeader() << "\r\n";
    header_written_ = true;
  }
  out_->flush();
  return out_->good() ? absl::OkStatus() : absl::DataLossError("cannot write the records (stdout)");
}

std::string RecordExporter::CsvHeader() const {
  std::vector<std::string> cells;
  for (const auto& [page, attribute] : columns_) {
    if (page >= 0) {
      cells.push_back(CsvField(PageColumns()[page]));
    } else {
      const std::string& name = (*attributes_)[attribute];
      cells.push_back(CsvField(PageColumnIndex(name) >= 0 ? kAttributePrefix + name : name));
    }
  }
  return absl::StrJoin(cells, ",");
}

namespace {

// The row's cell for a page column, as text; nullopt when it does not apply.
template <typename Row>
std::optional<std::string> PageCell(const Row& row, int column) {
  const bool failed = row.error.has_value();
  switch (column) {
    case kFile: return row.file;
    case kUrl: return row.url;
    case kStatus: return row.status;
    case kCluster: return failed ? std::nullopt : std::optional<std::string>(row.cluster);
    case kRuleVersion: return failed ? std::nullopt : std::optional<std::string>(absl::StrCat(row.rule_version));
    case kMatchedBy: return failed ? std::nullopt : std::optional<std::string>(row.matched_by);
    case kAgreement: return failed ? std::nullopt : std::optional<std::string>(absl::StrCat(row.agreement));
    case kRecord:
      return row.record ? std::optional<std::string>(absl::StrCat(*row.record)) : std::nullopt;
    case kDataArea:
      return row.data_area ? std::optional<std::string>(absl::StrCat(*row.data_area)) : std::nullopt;
    case kNearestCluster: return row.nearest_cluster;
    case kNearestRejected: return row.nearest_rejected;
    case kError: return row.error;
  }
  return std::nullopt;
}

bool IsNumberColumn(int column) {
  return column == kRuleVersion || column == kAgreement || column == kRecord || column == kDataArea;
}

}  // namespace

const AttributeResult* RecordExporter::Find(const Row& row, int attribute) const {
  const std::string& name = (*attributes_)[attribute];
  if (static_cast<size_t>(attribute) < row.attributes.size() && row.attributes[attribute].attribute == name) {
    return &row.attributes[attribute];
  }
  for (const AttributeResult& a : row.attributes) {
    if (a.attribute == name) return &a;
  }
  return nullptr;
}

std::string RecordExporter::CsvRow(const Row& row) const {
  std::vector<std::string> cells;
  for (const auto& [page, attribute] : columns_) {
    if (page >= 0) {
      cells.push_back(CsvField(PageCell(row, page).value_or("")));
    } else if (const AttributeResult* a = Find(row, attribute); a != nullptr) {
      cells.push_back(CsvField(JoinValues(a->values)));
    } else {
      cells.emplace_back();
    }
  }
  return absl::StrJoin(cells, ",");
}

std::string RecordExporter::JsonRow(const Row& row) const {
  util::JsonWriter w;
  w.BeginObject();
  bool any_attribute = false;
  for (const auto& [page, attribute] : columns_) {
    any_attribute |= attribute >= 0;
    const std::optional<std::string> cell = page >= 0 ? PageCell(row, page) : std::nullopt;
    if (!cell.has_value()) continue;
    w.Key(PageColumns()[page]);
    if (!IsNumberColumn(page)) {
      w.String(*cell);
    } else if (page == kRuleVersion || page == kAgreement) {
      w.Int(page == kRuleVersion ? row.rule_version : row.agreement);
    } else {
      w.Uint(page == kRecord ? *row.record : *row.data_area);
    }
  }
  if (any_attribute && !row.error.has_value()) {
    w.Key("attributes").BeginObject();
    for (const auto& [page, attribute] : columns_) {
      const AttributeResult* a = attribute < 0 ? nullptr : Find(row, attribute);
      if (a == nullptr) continue;
      w.Key(a->attribute).BeginArray();
      for (const std::string& v : a->values) w.String(v);
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndObject();
  return w.Release();
}

}  // namespace vertex::extract
