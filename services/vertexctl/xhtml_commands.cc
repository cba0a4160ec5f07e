// vertexctl xhtml PAGE [--out FILE]: a page's XHTML serialisation
// (html/serialize.h), the document an exported XSLT stylesheet
// (extract/xslt_export.h) is applied to, so that xsltproc reads it as XML
// (without --html and its parser's warnings) and sees the tree the rule
// engine runs on.
#include <iostream>

#include "common/html/page.h"
#include "common/html/serialize.h"
#include "common/site/page_file.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

// As extract's default: pages past it are refused, not truncated.
constexpr size_t kMaxPageBytes = size_t{64} << 20;

std::vector<FlagSpec> XhtmlFlags() {
  return {{"out", "FILE", "write the XHTML to FILE (default: stdout)"},
          PageBuilderFlag("the HTML parser that builds the page, as the page's site's: gumbo (HTML5) or libxml2"),
          {"help", "", "show this help"}};
}

constexpr char kXhtmlUsage[] =
    "usage: vertexctl xhtml PAGE [--out FILE]\n"
    "\n"
    "Writes the XHTML serialisation of the page file PAGE: the page parsed as the rule engine\n"
    "parses it (any encoding; its URL from a <base href> on the first line, else the file's),\n"
    "written as well-formed XML 1.0 in UTF-8 with elements in no namespace. This is the\n"
    "document a stylesheet from `vertexctl rules export --format xslt` is meant for:\n"
    "  vertexctl xhtml page.htm --out page.xhtml\n"
    "  xsltproc --stringparam page-url URL rule.xsl page.xhtml\n"
    "(no --html, so no HTML parser warnings, and the same tree the engine's XPaths see; give\n"
    "--page-builder gumbo for the pages of a site built with Gumbo).\n"
    "Offline only; reads no store.\n"
    "\n";

absl::Status Xhtml(const ParsedArgs& a) {
  if (a.positional.size() != 1) return absl::InvalidArgumentError("give one page file: vertexctl xhtml PAGE (see --help)");
  VERTEX_ASSIGN_OR_RETURN(site::PageFile file, site::ReadPageFile(a.positional[0], kMaxPageBytes));
  html::ParseOptions parse;
  VERTEX_ASSIGN_OR_RETURN(parse.builder, PageBuilderFromFlags(a));
  html::Parser parser(parse);
  VERTEX_ASSIGN_OR_RETURN(html::Page page, parser.Parse(file.bytes, file.url));
  VERTEX_ASSIGN_OR_RETURN(std::string xhtml, html::SerializeXhtml(page));
  if (!a.Has("out")) {
    std::cout << xhtml;
    return absl::OkStatus();
  }
  return util::WriteFile(a.String("out", ""), xhtml);
}

}  // namespace

int RunXhtml(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = XhtmlFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kXhtmlUsage << "flags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("xhtml", parsed.status());
  const absl::Status s = Xhtml(*parsed);
  return s.ok() ? 0 : ReportError("xhtml", s);
}

}  // namespace vertex::cli
