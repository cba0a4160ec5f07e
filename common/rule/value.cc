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

std::optional<std::string> NodeValue(html::Node node, const v1::AttributeRule& rule,
                                     const schema::CompiledSchema& schema, size_t schema_index) {
  std::string text = node.Text();
  if (rule.has_range()) {
    std::optional<std::string> cut = ApplyTextRange(rule.range(), text);
    if (!cut) return std::nullopt;
    text = *std::move(cut);
  }
  if (text.empty()) return std::nullopt;
  return schema.SelectValue(schema_index, text);
}

}  // namespace vertex::rule
