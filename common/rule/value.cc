#include "common/rule/value.h"

#include "absl/strings/str_join.h"
#include "common/html/rendered_text.h"
#include "common/html/text.h"
#include "common/rule/json_ld.h"
#include "common/rule/split.h"
#include "common/rule/text_range.h"
#include "common/rule/url.h"

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

std::vector<std::string> SourceTexts(const html::Page& page, html::Node node, const v1::AttributeRule& rule,
                                     const std::string* base_url) {
  std::vector<std::string> out;
  if (!rule.json_path().empty()) {
    if (!IsJsonLdScript(node)) return out;
    for (std::string& v : JsonValuesAt(node.RawText(), rule.json_path())) {
      std::string text = html::NormalizeSpace(v);
      if (!text.empty()) out.push_back(std::move(text));
    }
    return out;
  }
  if (!rule.value_attribute().empty()) {
    std::string text = AttributeSourceText(node, rule.value_attribute(),
                                           IsUrlAttribute(node, rule.value_attribute())
                                               ? (base_url != nullptr ? *base_url : PageBaseUrl(page))
                                               : "");
    if (!text.empty()) out.push_back(std::move(text));
    return out;
  }
  const std::vector<std::string> lines = html::RenderedLines(node);
  if (!lines.empty()) out.push_back(absl::StrJoin(lines, "\n"));
  return out;
}

std::vector<std::string> TextValues(std::string_view source, const v1::AttributeRule& rule,
                                    const schema::CompiledSchema& schema, size_t schema_index) {
  std::vector<std::string> out;
  const bool split = !rule.split().separators().empty();
  const RE2* regex = schema.ValueRegex(schema_index);
  if (rule.has_range() && rule.range().nearest_match() && regex != nullptr && !split) {
    std::optional<std::string> v = NearestMatch(rule.range(), *regex, source);
    if (v) out.push_back(*std::move(v));
    return out;
  }
  std::string text = NormalizeLines(source);
  if (rule.has_range()) {
    std::optional<std::string> cut = ApplyTextRange(rule.range(), text);
    if (!cut) return out;
    text = *std::move(cut);
  }
  // Without a split a part is the whole text; NormalizeSpace reads its line
  // breaks as spaces, for the regex and in the value.
  std::vector<std::string> parts = split ? SplitValues(rule.split(), text) : std::vector<std::string>{};
  if (!split && !text.empty()) parts.push_back(html::NormalizeSpace(text));
  for (const std::string& part : parts) {
    std::optional<std::string> v = schema.SelectValue(schema_index, part);
    if (v) out.push_back(*std::move(v));
  }
  return out;
}

std::vector<std::string> NodeValues(const html::Page& page, html::Node node, const v1::AttributeRule& rule,
                                    const schema::CompiledSchema& schema, size_t schema_index,
                                    const std::string* base_url) {
  std::vector<std::string> out;
  for (const std::string& text : SourceTexts(page, node, rule, base_url)) {
    for (std::string& v : TextValues(text, rule, schema, schema_index)) out.push_back(std::move(v));
  }
  return out;
}

}  // namespace vertex::rule
