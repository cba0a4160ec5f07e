// Feed exports of extracted records (Scrapy-style): JSON lines or CSV, all
// columns or a chosen few. One row per page, or per record of a list page
// (a record-level rule), or per page that failed (status ERROR).
//
// Columns: the page columns kPageColumns ("file", "url", "status",
// "cluster", "rule_version", "matched_by", "agreement", "record",
// "data_area", "nearest_cluster", "nearest_rejected", "error"), then the
// schema's attributes in schema order. An attribute whose name is a page
// column is the column "attributes.NAME"; every attribute may be named so.
//
// JSON lines without chosen fields are RecordToJson's lines (site_extractor.h),
// byte for byte. With chosen fields, a line holds the chosen page columns
// in the order given (numbers as numbers; "record" and "data_area" only on
// list records, "error" only on ERROR rows, "nearest_*" only on
// NO_SHINGLE_MATCH rows, as RecordToJson has them) and then, when an
// attribute was chosen, "attributes":{"name":["value",...]} with the chosen
// attributes in the order given.
//
// CSV (RFC 4180): a header row, then one row per record; CRLF line ends; a
// cell is quoted ("...", with " doubled) when it holds a quote, a comma, CR
// or LF, or begins or ends with a space or tab. Empty cells where a column
// does not apply. An attribute's cell is its values, each with "\" written
// "\\" and "|" written "\|", joined by "|" (kValueSeparator): split at the
// unescaped "|" and unescape to get the values back (a value-less
// attribute and one empty value both give an empty cell).
//
// The schema's attributes may be unknown when the exporter is made (the
// extraction service does not send the schema): they are then taken from
// the first row that has attributes (a record lists every schema attribute
// in schema order); rows before it are held back, and the header and the
// check of the chosen fields wait for it. When no row has attributes,
// Finish() takes the chosen fields that are no page column as the
// attributes, unchecked (their cells are empty), and writes the held rows.
//
// Thread-safety: a RecordExporter is used from one thread; the free
// functions are pure.
#ifndef VERTEX_COMMON_EXTRACT_RECORD_EXPORT_H_
#define VERTEX_COMMON_EXTRACT_RECORD_EXPORT_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/extract/site_extractor.h"

namespace vertex::extract {

enum class ExportFormat { kJsonl, kCsv };

// "jsonl" or "csv"; InvalidArgument naming the value otherwise.
absl::StatusOr<ExportFormat> ParseExportFormat(std::string_view name);

inline constexpr char kValueSeparator = '|';

// The page columns, in order.
const std::vector<std::string>& PageColumns();

// `cell` as an RFC 4180 field (quoted when it must be).
std::string CsvField(std::string_view cell);

// `values` as one CSV cell's text (escaped and joined as above; not yet
// quoted), and back.
std::string JoinValues(const std::vector<std::string>& values);
std::vector<std::string> SplitValues(std::string_view cell);

class RecordExporter {
 public:
  // An exporter writing `format` to `out` (not owned; must outlive it).
  // `fields`: the columns to write, in order (empty: every column);
  // `schema_attributes`: the schema's attribute names in schema order, or
  // nullopt to take them from the rows; `details`: RecordToJson's details
  // (JSON lines without fields only). InvalidArgument for a field given
  // twice, or, with known attributes, a field that is no column ("unknown
  // field \"x\"; valid: file, url, ...").
  static absl::StatusOr<RecordExporter> Create(ExportFormat format, std::vector<std::string> fields,
                                               std::optional<std::vector<std::string>> schema_attributes,
                                               std::ostream* out, bool details = false);

  // Writes the rows of `record` (read from `file`), or holds them back
  // until the attributes are known. InvalidArgument for an unknown field,
  // once the attributes are learnt from this record.
  absl::Status Add(const Record& record, const std::string& file);
  // Writes a row for a page that failed: status ERROR and `error`.
  absl::Status AddError(const std::string& file, const std::string& url, const absl::Status& error);
  // Writes what is held back (and the CSV header, even with no row).
  absl::Status Finish();

 private:
  // One row: a page, a list record, or a failed page.
  struct Row {
    std::string file, url, status, cluster, matched_by;
    int64_t rule_version = 0;
    int64_t agreement = 0;
    std::optional<uint64_t> record, data_area;
    std::optional<std::string> nearest_cluster, nearest_rejected, error;
    std::vector<AttributeResult> attributes;
  };
  RecordExporter(ExportFormat format, std::vector<std::string> fields, std::ostream* out, bool details);
  absl::Status SetAttributes(std::vector<std::string> names);
  absl::Status Emit(const Row& row);
  absl::Status Flush();
  std::string CsvHeader() const;
  std::string CsvRow(const Row& row) const;
  std::string JsonRow(const Row& row) const;
  // The row's result for attribute column `attribute`, or null.
  const AttributeResult* Find(const Row& row, int attribute) const;

  ExportFormat format_;
  std::vector<std::string> fields_;
  std::ostream* out_;
  bool details_;
  std::optional<std::vector<std::string>> attributes_;
  // The columns written: (page column index or -1, attribute index or -1).
  std::vector<std::pair<int, int>> columns_;
  std::vector<Row> held_;
  bool header_written_ = false;
};

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_RECORD_EXPORT_H_
