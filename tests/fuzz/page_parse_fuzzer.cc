// Fuzz target: page bytes + URL -> Page (html/page.h) with each page
// builder (Gumbo + mirror, libxml2's HTML parser), with the charset
// sniffing (html/charset.h) and the nesting pre-scan (html/nesting.h) on the
// same bytes.
//
// Input: line 1 is the page URL, line 2 the HTTP Content-Type (may be
// empty), the rest the page bytes.
//
// Checked beyond "no crash", for each builder: the decoded text is valid
// UTF-8; a parsed page has an <html> root, reports balanced start/end tags
// to its TagSink, is no deeper than the limit and has a node count equal to
// the nodes a walk of its tree visits; its XHTML serialization succeeds.
#include <cstdint>
#include <string>

#include "common/html/charset.h"
#include "common/html/nesting.h"
#include "common/html/page.h"
#include "common/html/serialize.h"
#include "common/util/utf8.h"
#include "tests/fuzz/fuzz_check.h"

namespace vertex::fuzz {
namespace {

class BalanceSink final : public html::TagSink {
 public:
  void OnTag(uint32_t token) override {
    if (token & kEndTag) {
      --open_;
      Check(open_ >= 0, "TagSink: an end tag without its start tag");
    } else {
      ++open_;
      ++elements_;
    }
  }
  int open() const { return open_; }
  size_t elements() const { return elements_; }

 private:
  int open_ = 0;
  size_t elements_ = 0;
};

void CheckPage(const html::Page& page, const BalanceSink& sink, const html::ParseOptions& options) {
  Check(sink.open() == 0, "TagSink: unbalanced tags on a parsed page");
  Check(page.depth() <= options.max_depth + 1, "a parsed page deeper than max_depth");
  size_t nodes = 0;
  size_t elements = 0;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    ++nodes;
    if (n.is_element()) ++elements;
  }
  Check(nodes == page.node_count(), "node_count() differs from the nodes of the tree: " +
                                        std::to_string(page.node_count()) + " vs " + std::to_string(nodes));
  Check(elements == sink.elements(), "TagSink saw " + std::to_string(sink.elements()) +
                                         " elements, the tree holds " + std::to_string(elements));
  Check(util::IsValidUtf8(page.root().Text()), "a page's text is not valid UTF-8");
  absl::StatusOr<std::string> xhtml = html::SerializeXhtml(page);
  Check(xhtml.ok(), "SerializeXhtml of a parsed page: " + xhtml.status().ToString());
}

}  // namespace
}  // namespace vertex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  auto [url, rest] = fuzz::CutLine(fuzz::AsView(data, size));
  auto [content_type, bytes] = fuzz::CutLine(rest);

  html::CharsetFromContentType(content_type);
  html::CharsetFromMeta(bytes);
  const html::DecodedText decoded = html::DecodeToUtf8(bytes, content_type);
  fuzz::Check(util::IsValidUtf8(decoded.utf8()), "DecodeToUtf8 gave invalid UTF-8 (" + decoded.encoding + ")");
  html::PreScanLimits limits;
  limits.max_depth = 64;
  limits.max_attributes = 64;
  const html::PreScanResult scan = html::PreScanStructure(bytes, limits);
  fuzz::Check(scan.over != html::PreScanResult::Over::kNone || scan.offset_over_limit == std::string_view::npos,
              "PreScanStructure reported an offset with no limit exceeded");
  fuzz::Check(scan.offset_over_limit == std::string_view::npos || scan.offset_over_limit < bytes.size(),
              "PreScanStructure's offset is past the input");

  // Small limits so that the depth, attribute and size errors are reached too.
  html::ParseOptions options;
  options.max_depth = 64;
  options.max_page_bytes = 64 * 1024;
  options.max_attributes = 64;
  // Both page builders, each with the same checks.
  for (html::PageBuilder builder : {html::PageBuilder::kGumbo, html::PageBuilder::kLibxml2}) {
    options.builder = builder;
    html::Parser parser(options);
    fuzz::BalanceSink sink;
    absl::StatusOr<html::Page> page = parser.Parse(bytes, std::string(url), content_type, &sink);
    if (page.ok()) {
      fuzz::Check(page->root().tag() == "html", "a parsed page's root is not <html>");
      fuzz::CheckPage(*page, sink, options);
    } else {
      fuzz::CheckNotInternal(page.status(), "Parse");
    }
  }
  return 0;
}
