// vertexctl amber: AMBER's analysis of result pages (common/amber/amber.h)
// with a record-level schema's annotators, offline: data areas, records
// and attributes with their supports, as JSON lines or explained in words.
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/amber/amber.h"
#include "common/annotate/annotator.h"
#include "common/annotate/gazetteer_file.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

constexpr size_t kMaxPageBytes = size_t{64} << 20;

std::vector<FlagSpec> AmberFlags() {
  return {{"schema", "FILE", "a record-level schema, e.g. deploy/schemas/real_estate.json"},
          {"page", "FILE", "a page file (repeatable; directories are read for *.htm, *.html)"},
          {"gazetteer", "NAME=FILE",
           "a gazetteer (one term per line) for the schema attributes naming NAME (repeatable); names not given "
           "use the built-in lists"},
          {"explain", "", "print the analysis in words (areas, pivots, record length, shifts, supports, tag paths)"},
          {"theta-depth", "N", "identify: pivot depths may spread over N levels (default 1)"},
          {"theta-dist", "N", "identify: pivot distances may spread over N (default 2)"},
          {"infer-regular", "X", "align: support above which a regular attribute is inferred (default 0.5)"},
          {"infer-optional", "X", "align: same for optional attributes (default 0.5)"},
          {"keep-regular", "X", "align: support above which an annotated regular attribute is kept (default 0)"},
          {"keep-optional", "X", "align: same for optional attributes (default 0.2)"},
          PageBuilderFlag("the HTML parser that builds the pages: gumbo (HTML5) or libxml2"),
          {"help", "", "show this help"}};
}

constexpr char kAmberUsage[] =
    "usage: vertexctl amber --schema FILE --page FILE [--page FILE...] [--explain] [flags]\n"
    "\n"
    "Runs AMBER (Furche et al. 2012) on result pages, with no rule and no per-site label: the\n"
    "schema's regexes and gazetteers annotate each page's text, `identify` finds the data areas\n"
    "from the pivot attribute's annotations (depth and distance consistency), `segment` cuts\n"
    "each area into records (record length by the mode of the pivots' spacing, the start shift\n"
    "of least irregularity by tree edit distance), `align` types each record's attributes by the\n"
    "support of their tag paths across the area's records. Offline only; reads no store.\n"
    "Prints one JSON line per record:\n"
    "  {\"page\",\"url\",\"area\",\"record\",\"nodes\",\"attributes\":{NAME:{\"value\",\"support\",\n"
    "   \"annotated\",\"tag_path\"}}}\n"
    "and, for a page with no record, {\"page\",\"url\",\"records\":0,\"notes\":[...]} saying why.\n"
    "With --explain, the analysis in words instead. To learn a rule from AMBER's analyses of a\n"
    "site's sample, use `vertexctl learn` with a record-level schema and no --annotations.\n"
    "\n"
    "flags:\n";

absl::StatusOr<amber::Options> OptionsFromFlags(const ParsedArgs& a) {
  amber::Options o;
  VERTEX_ASSIGN_OR_RETURN(int64_t depth, a.Int("theta-depth", o.theta_depth, 0, 100));
  VERTEX_ASSIGN_OR_RETURN(int64_t dist, a.Int("theta-dist", o.theta_dist, 0, 200));
  o.theta_depth = static_cast<int>(depth);
  o.theta_dist = static_cast<int>(dist);
  VERTEX_ASSIGN_OR_RETURN(o.infer_regular, a.Double("infer-regular", o.infer_regular, 0, 1));
  VERTEX_ASSIGN_OR_RETURN(o.infer_optional, a.Double("infer-optional", o.infer_optional, 0, 1));
  VERTEX_ASSIGN_OR_RETURN(o.keep_regular, a.Double("keep-regular", o.keep_regular, 0, 1));
  VERTEX_ASSIGN_OR_RETURN(o.keep_optional, a.Double("keep-optional", o.keep_optional, 0, 1));
  return o;
}

std::string RecordJson(const std::string& file, const html::Page& page, const schema::CompiledSchema& schema,
                       size_t area, size_t index, const amber::Record& r) {
  util::JsonWriter w;
  w.BeginObject();
  w.Key("page").String(file);
  w.Key("url").String(page.url());
  w.Key("area").Int(static_cast<int64_t>(area));
  w.Key("record").Int(static_cast<int64_t>(index));
  w.Key("nodes").Int(static_cast<int64_t>(r.nodes.size()));
  w.Key("attributes").BeginObject();
  for (const amber::AttributeMatch& m : r.attributes) {
    w.Key(schema.attribute(static_cast<size_t>(m.attribute)).name()).BeginObject();
    w.Key("value").String(m.value);
    w.Key("support").Double(m.support);
    w.Key("annotated").Bool(m.annotated);
    w.Key("tag_path").String(m.tag_path);
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return w.Release();
}

absl::Status Amber(const ParsedArgs& a) {
  if (!a.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + a.positional[0]);
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"schema", "page"}));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  if (!schema.proto().record_level()) {
    return absl::InvalidArgumentError("schema " + schema.vertical() +
                                      " is not record-level (\"record_level\": true, with a pivot attribute)");
  }
  VERTEX_ASSIGN_OR_RETURN(amber::Options options, OptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(annotate::GazetteerSet gazetteers, annotate::ReadGazetteerSpecs(a.List("gazetteer")));
  VERTEX_ASSIGN_OR_RETURN(annotate::Annotator annotator, annotate::Annotator::Create(schema, std::move(gazetteers)));
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(a.List("page")));
  html::ParseOptions parse;
  VERTEX_ASSIGN_OR_RETURN(parse.builder, PageBuilderFromFlags(a));
  html::Parser parser(parse);
  for (const std::string& file : files) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile f, site::ReadPageFile(file, kMaxPageBytes));
    absl::StatusOr<html::Page> page = parser.Parse(f.bytes, f.url);
    if (!page.ok()) return absl::Status(page.status().code(), file + ": " + std::string(page.status().message()));
    VERTEX_ASSIGN_OR_RETURN(amber::Typing typing, amber::Run(*page, annotator.Annotate(*page), schema, options));
    if (a.Has("explain")) {
      std::cout << "== " << file << " (" << page->url() << ")\n" << amber::ExplainTyping(typing, *page, schema) << "\n";
      continue;
    }
    size_t records = 0;
    for (size_t k = 0; k < typing.areas.size(); ++k) {
      for (size_t i = 0; i < typing.areas[k].records.size(); ++i) {
        std::cout << RecordJson(file, *page, schema, k, records++, typing.areas[k].records[i]) << "\n";
      }
    }
    if (records == 0) {
      util::JsonWriter w;
      w.BeginObject();
      w.Key("page").String(file);
      w.Key("url").String(page->url());
      w.Key("records").Int(0);
      w.Key("notes").BeginArray();
      for (const std::string& n : typing.notes) w.String(n);
      w.EndArray();
      w.EndObject();
      std::cout << w.Release() << "\n";
    }
  }
  return absl::OkStatus();
}

}  // namespace

int RunAmber(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = AmberFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kAmberUsage << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("amber", parsed.status());
  const absl::Status s = Amber(*parsed);
  return s.ok() ? 0 : ReportError("amber", s);
}

}  // namespace vertex::cli
