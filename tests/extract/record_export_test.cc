// Feed exports of records (record_export.h): RFC 4180 quoting, the value
// separator and its escape, columns and --fields, list records and failed
// pages, JSON lines identical to RecordToJson without fields, and the
// schema learnt from the rows when it is not known up front.
#include "common/extract/record_export.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace vertex::extract {
namespace {

// A strict RFC 4180 reader (CRLF records, quoted fields with "" for "), to
// read the exporter's output back independently of its writer.
std::vector<std::vector<std::string>> ReadCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cell;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      EXPECT_TRUE(cell.empty()) << "quote inside an unquoted cell at " << i;
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(cell));
      cell.clear();
    } else if (c == '\r') {
      EXPECT_EQ(i + 1 < text.size() ? text[i + 1] : 0, '\n') << "bare CR at " << i;
      row.push_back(std::move(cell));
      cell.clear();
      rows.push_back(std::move(row));
      row.clear();
      ++i;
    } else {
      EXPECT_NE(c, '\n') << "bare LF outside quotes at " << i;
      cell += c;
    }
    any = true;
  }
  EXPECT_FALSE(quoted) << "unterminated quote";
  EXPECT_TRUE(!any || (cell.empty() && row.empty())) << "last row without CRLF";
  return rows;
}

AttributeResult Attr(const std::string& name, std::vector<std::string> values) {
  AttributeResult a;
  a.attribute = name;
  a.values = std::move(values);
  return a;
}

Record PageRecord() {
  Record r;
  r.url = "http://shop.test/p/1";
  r.status = RecordStatus::kOk;
  r.cluster_id = "c0";
  r.rule_version = 3;
  r.matched_by = MatchedBy::kSignature;
  r.agreement = 7;
  r.parsed = true;
  r.attributes = {Attr("title", {"Chair, \"oak\""}), Attr("designers", {"A|B", "C\\D", " E "}),
                  Attr("price", {})};
  return r;
}

Record ListRecord() {
  Record r = PageRecord();
  r.url = "http://shop.test/list";
  r.attributes.clear();
  r.record_level = true;
  for (size_t i = 0; i < 2; ++i) {
    ListRecordResult lr;
    lr.index = i;
    lr.data_area = 1;
    lr.attributes = {Attr("title", {"item\n" + std::to_string(i)}), Attr("designers", {}), Attr("price", {"9"})};
    if (i == 1) lr.missing_regular = {"designers"};
    r.list_records.push_back(lr);
  }
  return r;
}

Record UnmatchedRecord() {
  Record r;
  r.url = "http://shop.test/about";
  r.status = RecordStatus::kNoShingleMatch;
  r.nearest_cluster = "c1";
  r.nearest_rejected = "title missing";
  r.agreement = 2;
  return r;
}

const std::vector<std::string> kSchema = {"title", "designers", "price"};

TEST(CsvFieldTest, QuotesOnlyWhatRfc4180Needs) {
  const struct {
    std::string in, out;
  } cases[] = {
      {"", ""},
      {"plain", "plain"},
      {"a,b", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""},
      {"cr\rhere", "\"cr\rhere\""},
      {" lead", "\" lead\""},
      {"trail ", "\"trail \""},
      {"\ttab", "\"\ttab\""},
      {"in side", "in side"},
  };
  for (const auto& c : cases) EXPECT_EQ(CsvField(c.in), c.out) << c.in;
}

TEST(JoinValuesTest, SeparatorAndBackslashAreEscapedAndSplitBack) {
  const std::vector<std::vector<std::string>> lists = {
      {}, {"one"}, {"a", "b"}, {"a|b"}, {"back\\slash", "|", "\\|", "x\\"}, {"a", "", "b"}, {"ü|€"}};
  for (const std::vector<std::string>& values : lists) {
    const std::string cell = JoinValues(values);
    if (values.size() == 1 && values[0].find_first_of("|\\") == std::string::npos) {
      EXPECT_EQ(cell, values[0]);
    }
    // Every | that separates is unescaped; every one in a value is escaped.
    size_t separators = 0;
    for (size_t i = 0; i < cell.size(); ++i) {
      if (cell[i] == '\\') {
        ++i;
      } else if (cell[i] == kValueSeparator) {
        ++separators;
      }
    }
    EXPECT_EQ(separators, values.empty() ? 0 : values.size() - 1) << cell;
    EXPECT_EQ(SplitValues(cell), values) << cell;
  }
}

TEST(RecordExporterTest, JsonLinesWithoutFieldsAreRecordToJsonByteForByte) {
  std::ostringstream out;
  auto exporter = RecordExporter::Create(ExportFormat::kJsonl, {}, std::nullopt, &out, /*details=*/true);
  ASSERT_TRUE(exporter.ok()) << exporter.status();
  ASSERT_TRUE(exporter->Add(PageRecord(), "p1.htm").ok());
  ASSERT_TRUE(exporter->Add(ListRecord(), "list.htm").ok());
  ASSERT_TRUE(exporter->Add(UnmatchedRecord(), "about.htm").ok());
  ASSERT_TRUE(exporter->Finish().ok());
  EXPECT_EQ(out.str(), RecordToJson(PageRecord(), "p1.htm", true) + "\n" + RecordToJson(ListRecord(), "list.htm", true) +
                           "\n" + RecordToJson(UnmatchedRecord(), "about.htm", true) + "\n");
}

TEST(RecordExporterTest, CsvHasEveryColumnAndOneRowPerRecord) {
  std::ostringstream out;
  auto exporter = RecordExporter::Create(ExportFormat::kCsv, {}, kSchema, &out);
  ASSERT_TRUE(exporter.ok()) << exporter.status();
  const Record page = PageRecord(), list = ListRecord(), unmatched = UnmatchedRecord();
  ASSERT_TRUE(exporter->Add(page, "p1.htm").ok());
  ASSERT_TRUE(exporter->Add(list, "list.htm").ok());
  ASSERT_TRUE(exporter->Add(unmatched, "about.htm").ok());
  ASSERT_TRUE(exporter->AddError("bad.htm", "file:///bad.htm", absl::NotFoundError("gone, \"really\"")).ok());
  ASSERT_TRUE(exporter->Finish().ok());
  const auto rows = ReadCsv(out.str());
  ASSERT_EQ(rows.size(), 1u + 1 + 2 + 1 + 1) << out.str();
  std::vector<std::string> header = PageColumns();
  header.insert(header.end(), kSchema.begin(), kSchema.end());
  EXPECT_EQ(rows[0], header);
  for (const auto& row : rows) EXPECT_EQ(row.size(), header.size());
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  // The detail page: its fields and each attribute's values split back.
  EXPECT_EQ(rows[1][col["file"]], "p1.htm");
  EXPECT_EQ(rows[1][col["url"]], page.url);
  EXPECT_EQ(rows[1][col["status"]], RecordStatusName(page.status));
  EXPECT_EQ(rows[1][col["cluster"]], page.cluster_id);
  EXPECT_EQ(rows[1][col["rule_version"]], std::to_string(page.rule_version));
  EXPECT_EQ(rows[1][col["matched_by"]], MatchedByName(page.matched_by));
  EXPECT_EQ(rows[1][col["agreement"]], std::to_string(page.agreement));
  EXPECT_EQ(rows[1][col["record"]], "");
  for (const AttributeResult& a : page.attributes) EXPECT_EQ(SplitValues(rows[1][col[a.attribute]]), a.values);
  // The list page: a row per record with its own status and values.
  for (size_t i = 0; i < 2; ++i) {
    const auto& row = rows[2 + i];
    const ListRecordResult& lr = list.list_records[i];
    EXPECT_EQ(row[col["record"]], std::to_string(lr.index));
    EXPECT_EQ(row[col["data_area"]], std::to_string(lr.data_area));
    EXPECT_EQ(row[col["status"]], lr.missing_regular.empty() ? "OK" : "PARTIAL");
    for (const AttributeResult& a : lr.attributes) EXPECT_EQ(SplitValues(row[col[a.attribute]]), a.values);
  }
  EXPECT_EQ(rows[4][col["nearest_cluster"]], unmatched.nearest_cluster);
  EXPECT_EQ(rows[4][col["nearest_rejected"]], unmatched.nearest_rejected);
  EXPECT_EQ(rows[4][col["title"]], "");
  EXPECT_EQ(rows[5][col["status"]], "ERROR");
  EXPECT_EQ(rows[5][col["error"]], absl::NotFoundError("gone, \"really\"").ToString());
  EXPECT_EQ(rows[5][col["cluster"]], "");
}

TEST(RecordExporterTest, FieldsChooseColumnsInTheirOrder) {
  std::ostringstream csv, jsonl;
  const std::vector<std::string> fields = {"price", "url", "title", "status"};
  auto c = RecordExporter::Create(ExportFormat::kCsv, fields, kSchema, &csv);
  auto j = RecordExporter::Create(ExportFormat::kJsonl, fields, kSchema, &jsonl);
  ASSERT_TRUE(c.ok() && j.ok());
  for (RecordExporter* e : {&*c, &*j}) {
    ASSERT_TRUE(e->Add(PageRecord(), "p1.htm").ok());
    ASSERT_TRUE(e->AddError("bad.htm", "u", absl::DataLossError("x")).ok());
    ASSERT_TRUE(e->Finish().ok());
  }
  const auto rows = ReadCsv(csv.str());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], fields);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"", PageRecord().url, "Chair, \"oak\"", "OK"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"", "u", "", "ERROR"}));
  // JSON lines: the chosen page fields in order, then the chosen attributes.
  EXPECT_EQ(jsonl.str(),
            "{\"url\":\"http://shop.test/p/1\",\"status\":\"OK\",\"attributes\":{\"price\":[],\"title\":[\"Chair, "
            "\\\"oak\\\"\"]}}\n{\"url\":\"u\",\"status\":\"ERROR\"}\n");
}

TEST(RecordExporterTest, UnknownOrRepeatedFieldsAreErrorsListingTheValidOnes) {
  std::ostringstream out;
  auto e = RecordExporter::Create(ExportFormat::kCsv, {"url", "titel"}, kSchema, &out);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(e.status().message().find("unknown field \"titel\""), std::string::npos) << e.status();
  for (const char* valid : {"file", "nearest_rejected", "title", "designers", "price"}) {
    EXPECT_NE(e.status().message().find(valid), std::string::npos) << valid;
  }
  e = RecordExporter::Create(ExportFormat::kJsonl, {"url", "url"}, kSchema, &out);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("\"url\" is given twice"), std::string::npos) << e.status();
  // Schema unknown up front: the check waits for the first record with
  // attributes, and nothing is written before it.
  e = RecordExporter::Create(ExportFormat::kCsv, {"url", "titel"}, std::nullopt, &out);
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->Add(UnmatchedRecord(), "about.htm").ok());
  const absl::Status s = e->Add(PageRecord(), "p1.htm");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("unknown field \"titel\""), std::string::npos) << s;
  EXPECT_EQ(out.str(), "");
}

TEST(RecordExporterTest, SchemaLearntFromTheRowsGivesTheSameOutput) {
  for (const ExportFormat format : {ExportFormat::kCsv, ExportFormat::kJsonl}) {
    for (const std::vector<std::string>& fields :
         {std::vector<std::string>{}, std::vector<std::string>{"designers", "file", "record"}}) {
      if (format == ExportFormat::kJsonl && fields.empty()) continue;
      std::ostringstream known, learnt;
      auto k = RecordExporter::Create(format, fields, kSchema, &known);
      auto l = RecordExporter::Create(format, fields, std::nullopt, &learnt);
      ASSERT_TRUE(k.ok() && l.ok());
      for (RecordExporter* e : {&*k, &*l}) {
        ASSERT_TRUE(e->Add(UnmatchedRecord(), "about.htm").ok());
        ASSERT_TRUE(e->AddError("bad.htm", "u", absl::DataLossError("x")).ok());
        ASSERT_TRUE(e->Add(ListRecord(), "list.htm").ok());
        ASSERT_TRUE(e->Add(PageRecord(), "p1.htm").ok());
        ASSERT_TRUE(e->Finish().ok());
      }
      EXPECT_EQ(learnt.str(), known.str());
      EXPECT_FALSE(known.str().empty());
    }
  }
}

TEST(RecordExporterTest, NoRowWithAttributesKeepsTheChosenColumns) {
  std::ostringstream out;
  auto e = RecordExporter::Create(ExportFormat::kCsv, {"status", "title"}, std::nullopt, &out);
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE(e->Add(UnmatchedRecord(), "about.htm").ok());
  ASSERT_TRUE(e->Finish().ok());
  EXPECT_EQ(ReadCsv(out.str()), (std::vector<std::vector<std::string>>{{"status", "title"}, {"NO_SHINGLE_MATCH", ""}}));
  std::ostringstream empty;
  e = RecordExporter::Create(ExportFormat::kCsv, {}, kSchema, &empty);
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE(e->Finish().ok());
  EXPECT_EQ(ReadCsv(empty.str()).size(), 1u);  // the header alone
}

TEST(RecordExporterTest, AnAttributeNamedLikeAPageColumnIsPrefixed) {
  const std::vector<std::string> schema = {"url", "title"};
  Record r = PageRecord();
  r.attributes = {Attr("url", {"http://maker.test/"}), Attr("title", {"T"})};
  std::ostringstream out;
  auto e = RecordExporter::Create(ExportFormat::kCsv, {"url", "attributes.url", "attributes.title"}, schema, &out);
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_TRUE(e->Add(r, "p.htm").ok());
  ASSERT_TRUE(e->Finish().ok());
  EXPECT_EQ(ReadCsv(out.str()), (std::vector<std::vector<std::string>>{
                                    {"url", "attributes.url", "title"}, {r.url, "http://maker.test/", "T"}}));
}

TEST(ParseExportFormatTest, NamesTheBadValue) {
  EXPECT_EQ(*ParseExportFormat("csv"), ExportFormat::kCsv);
  EXPECT_EQ(*ParseExportFormat("jsonl"), ExportFormat::kJsonl);
  const auto bad = ParseExportFormat("xml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("\"xml\""), std::string::npos);
}

}  // namespace
}  // namespace vertex::extract
