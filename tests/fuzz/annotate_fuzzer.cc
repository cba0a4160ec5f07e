// Fuzz target: gazetteer terms, a value regex and a page -> the annotator
// (annotate/annotator.h) and gazetteer learning's components
// (annotate/gazetteer_learner.h).
//
// Input: line 1 is the gazetteer's terms separated by '|', line 2 an RE2
// pattern for the "code" attribute (an invalid one is a schema error, fine),
// the rest the page bytes.
//
// Checked beyond "no crash": every gazetteer match is non-overlapping, in
// order, bounded by non-word bytes and spells its term (folded); every text
// annotation's span lies in its node's text and a regex value is the text of
// its span; within a node annotations are sorted by span then attribute;
// no span holds both disjoint attributes; term components are non-empty,
// at most 200 bytes and valid UTF-8 when the text is.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common/annotate/annotator.h"
#include "common/annotate/gazetteer_learner.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/schema/schema.h"
#include "common/util/utf8.h"
#include "tests/fuzz/fuzz_check.h"

namespace vertex::fuzz {
namespace {

bool IsWordByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

void CheckMatches(const annotate::Gazetteer& g, const std::string& text) {
  size_t previous_end = 0;
  for (const annotate::Gazetteer::Match& m : g.Find(text)) {
    Check(m.begin >= previous_end && m.begin < m.end && m.end <= text.size(), "Find: a match out of order or bounds");
    Check(m.begin == 0 || !IsWordByte(static_cast<unsigned char>(text[m.begin - 1])), "Find: no word boundary before");
    Check(m.end == text.size() || !IsWordByte(static_cast<unsigned char>(text[m.end])), "Find: no word boundary after");
    Check(html::FoldText(text.substr(m.begin, m.end - m.begin)) == html::FoldText(m.term),
          "Find: the span does not spell its term");
    previous_end = m.end;
  }
}

void CheckAnnotations(const schema::CompiledSchema& schema, const std::vector<annotate::Annotation>& found) {
  for (size_t k = 0; k < found.size(); ++k) {
    const annotate::Annotation& a = found[k];
    Check(a.attribute >= 0 && static_cast<size_t>(a.attribute) < schema.size(), "an annotation's attribute");
    if (a.node.is_element()) {
      Check(a.begin == 0 && a.end == 0, "an element annotation with a span");
      continue;
    }
    const std::string text = a.node.Text();
    Check(a.begin < a.end && a.end <= text.size(), "a text annotation's span is out of its node's text");
    if (!a.from_gazetteer) Check(text.substr(a.begin, a.end - a.begin) == a.value, "a regex value is not its span");
    if (k == 0 || !(found[k - 1].node == a.node)) continue;
    const annotate::Annotation& b = found[k - 1];
    Check(std::make_tuple(b.begin, b.end, b.attribute) < std::make_tuple(a.begin, a.end, a.attribute),
          "annotations of one node not sorted by span then attribute (or repeated)");
    Check(!(b.begin == a.begin && b.end == a.end && schema.Disjoint(a.attribute, b.attribute)),
          "disjoint attributes on one span");
  }
}

}  // namespace
}  // namespace vertex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  auto [terms_line, rest] = fuzz::CutLine(fuzz::AsView(data, size));
  auto [pattern, bytes] = fuzz::CutLine(rest);

  auto gazetteer = std::make_shared<annotate::Gazetteer>();
  for (size_t start = 0; start <= terms_line.size();) {
    const size_t bar = std::min(terms_line.find('|', start), terms_line.size());
    gazetteer->Add(terms_line.substr(start, bar - start));
    start = bar + 1;
  }
  v1::Schema proto;
  proto.set_vertical("fuzz");
  proto.set_record_level(true);
  v1::AttributeSchema* price = proto.add_attributes();
  price->set_name("price");
  price->set_type("price");
  price->set_mandatory(true);
  price->set_pivot(true);
  v1::AttributeSchema* place = proto.add_attributes();
  place->set_name("place");
  place->set_gazetteer("terms");
  v1::AttributeSchema* code = proto.add_attributes();
  code->set_name("code");
  code->set_regex(std::string(pattern));
  v1::AttributeSchema* link = proto.add_attributes();
  link->set_name("link");
  link->set_type("url");
  v1::DisjointAttributes* disjoint = proto.add_disjoint();
  disjoint->set_first("place");
  disjoint->set_second("code");
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(proto);
  if (!schema.ok()) {
    fuzz::Check(schema.status().code() == absl::StatusCode::kInvalidArgument, "schema: " + schema.status().ToString());
    return 0;
  }
  annotate::GazetteerSet set;
  set["terms"] = gazetteer;
  absl::StatusOr<annotate::Annotator> annotator = annotate::Annotator::Create(*schema, set);
  fuzz::Check(annotator.ok(), "Annotator::Create: " + annotator.status().ToString());

  html::ParseOptions options;
  options.max_depth = 64;
  options.max_page_bytes = 64 * 1024;
  html::Parser parser(options);
  absl::StatusOr<html::Page> page = parser.Parse(bytes, "http://fuzz.test/a/b");
  if (!page.ok()) return 0;
  fuzz::CheckAnnotations(*schema, annotator->Annotate(*page));
  for (html::Node n = page->root(); n; n = n.NextInDocument(page->root())) {
    if (!n.is_text()) continue;
    const std::string text = n.Text();
    fuzz::CheckMatches(*gazetteer, text);
    for (const std::string& c : annotate::TermComponents(text)) {
      fuzz::Check(!c.empty() && c.size() <= 200, "a term component is empty or over 200 bytes");
      fuzz::Check(!util::IsValidUtf8(text) || util::IsValidUtf8(c), "a term component is not valid UTF-8");
    }
  }
  return 0;
}
