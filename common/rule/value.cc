#include "common/rule/value.h"

#include "common/html/text.h"
#include "common/rule/text_range.h"

namespace vertex::rule {
namespace {

bool InSkippedElement(html::Node n) {
  for (html::Node p = n.parent(); p; p = p.parent()) {
    const std::string_view tag = p.tag();
    if (tag == "script" || tag == "style" || tag == "noscript") return true;
  }
  return false;
}

}  // namespace

bool IsValueCandidate(html::Node node) {
  if (node.is_element()) return true;
  return node.is_text() && !html::IsBlank(node.RawText()) && !InSkippedElement(node);
}

std::vector<std::string> NodeValues(const html::Page& page, html::Node node, const v1::AttributeRule& rule,
                                    const schema::CompiledSchema& schema, size_t schema_index) {
  std::vector<std::string> out;
  std::string text = node.Text();
  if (rule.has_range()) {
    std::optional<std::string> cut = ApplyTextRange(rule.range(), text);
    if (!cut) return out;
    text = *std::move(cut);
  }
  if (text.empty()) return out;
  std::optional<std::string> v = schema.SelectValue(schema_index, text);
  if (v) out.push_back(*std::move(v));
  return out;
}

}  // namespace vertex::rule
