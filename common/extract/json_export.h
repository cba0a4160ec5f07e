// Export of a learnt rule (v1::Rule) as a list of fields for consumers that
// run XPath 1.0 themselves (lxml, parsel, Scrapy, libxml2), without Vertex:
//
//   {"fields":[
//     {"name":"isbn_13","xpath":"//text()[...]/following::text()[...][1]",
//      "attribute":null,"range":null,"regex":"(97[89]\\d{10})",
//      "multiple":false,"split":null},
//     {"name":"image","xpath":"//div[@class='cover']/img","attribute":"src",
//      "range":null,"regex":null,"multiple":false,"split":null,
//      "resolve":"url","css":"div[class=\"cover\"] > img"},
//     {"name":"price","unexported":"picked by a classifier, which an XPath cannot express"}
//   ]}
//
// One field per schema attribute, in schema order. An exported field gives
// the consumer's recipe, which reproduces CompiledRule::Apply on the page
// parsed by an HTML parser that builds the same tree (libxml2's or Gumbo's;
// the XPath is evaluated with the document as context node):
//   1. the nodes `xpath` selects, in document order; text nodes that are
//      blank (whitespace only) or inside <script>, <style> or <noscript> are
//      skipped;
//   2. each node's text: `attribute` null: its string-value with runs of
//      whitespace (space, tab, CR, LF, FF, VT, U+00A0) collapsed to one space
//      and trimmed (text nodes only: an element's value is its rendered
//      text, which is not exported); else the value of that attribute of the
//      element, so normalised (an element without it gives nothing).
//      "resolve":"url": resolve the value (RFC 3986) against the page's
//      first <base href>, itself resolved against the page's URL (a value
//      that cannot be resolved is kept), then normalise its whitespace;
//      "resolve":"meta-url" (a <meta> content): so too when the element's
//      property, name or itemprop ends in "url" or "image" (og:image);
//   3. `range` (RE2 and Python re syntax) when not null: the text is its
//      first group's match on the whole text; no match: nothing;
//   4. `split` when not null: cut at each separator (ASCII case-insensitive;
//      "\n" is a line break), parts trimmed, empty parts dropped;
//   5. `regex` (the schema's pattern, RE2) when not null: each part becomes
//      its leftmost match (its first capturing group that takes part in it, if it has groups), trimmed
//      of ASCII whitespace; parts where it finds nothing or an empty string
//      are dropped; without regex empty parts are dropped;
//   6. `multiple` false: only the first value is kept.
// `css`, when given, selects exactly the element nodes `xpath` selects (for
// element fields only: CSS cannot select text nodes).
//
// A record-level rule (Rule.record) is exported as its record XPath, its
// record length and the fields of its record attributes:
//
//   {"record":{"xpath":"//ul[@class='results']/li","length":1,"fields":[
//     {"name":"price","xpath":"span[@class='price']/text()",...},
//     ...
//   ]}}
//
// The consumer selects the record starts with `xpath` (the document as
// context node; elements only, in document order, at most 10,000), and for
// each start follows the recipe above for each field with the start as
// context node (a record's tail siblings are reached by following-sibling
// in the field XPaths). Record attributes are exported by their XPath (the
// engine ignores their features).
//
// A field that cannot be exported has "unexported" with the reason: a rule
// picked by a classifier, a value found by JSON path or by the typed match
// nearest a learnt offset, an element's rendered text, a srcset's first URL,
// a range that never selects anything, or no rule for the attribute. The XPath is rendered from the rule's features (label-first,
// rule/features.h RenderXPath) when it has them, the stored XPath otherwise,
// with ends-with() rewritten to XPath 1.0 (xslt_export.h RewriteEndsWith).
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_EXTRACT_JSON_EXPORT_H_
#define VERTEX_COMMON_EXTRACT_JSON_EXPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/schema/schema.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::extract {

// One field of the export (see above).
struct ExportedField {
  std::string name;
  // Why the field is not exported; empty when it is.
  std::string unexported;
  std::string xpath;
  std::string attribute;  // empty: the node's text
  std::string resolve;  // "url", "meta-url" or empty (see above)
  std::string range;  // empty: none
  std::string regex;  // empty: none
  bool multiple = false;
  std::vector<std::string> split;  // empty: none
  std::string css;                 // empty: no exact CSS selector
};

// How a value read from attribute `attribute` is resolved as a URL: "url"
// (href, src, action, poster, cite), "meta-url" (content), or "" (none),
// as the engine does (rule/url.h IsUrlAttribute).
std::string UrlResolution(const std::string& attribute);

// Why the fields export leaves `rule` (a part of a rule) out; "" when it
// exports it.
std::string FieldUnexportedReason(const v1::AttributeRule& rule);

// The XPath an export gives for `rule`: RenderPositionalXPath of its
// features when it has any (what the engine evaluates), else its stored
// XPath; ends-with() calls rewritten to XPath 1.0. InvalidArgument naming
// the attribute when the features do not convert or the XPath cannot be
// rewritten.
absl::StatusOr<std::string> ExportXPath(const v1::AttributeRule& rule);

// The fields of `rule` for `schema` (of its record attributes for a
// record-level rule). Errors: those of CompiledRule::Create
// (InvalidArgument naming the attribute), and those of ExportXPath.
absl::StatusOr<std::vector<ExportedField>> ExportFields(const v1::Rule& rule, const schema::CompiledSchema& schema);

// The fields as the JSON document above (UTF-8, one line per field).
// InvalidArgument naming the field when a string is not valid UTF-8.
absl::StatusOr<std::string> FieldsJson(const std::vector<ExportedField>& fields);

// The export of `rule` as `vertexctl rules export --format fields` writes
// it: FieldsJson(ExportFields(...)) for a detail rule, the {"record":...}
// document above for a record-level rule. Errors: ExportFields's and
// FieldsJson's, and InvalidArgument naming the cluster when the record
// XPath cannot be rewritten or is not valid UTF-8.
absl::StatusOr<std::string> RuleFieldsJson(const v1::Rule& rule, const schema::CompiledSchema& schema);

// The RE2 pattern (also valid Python re) whose first group is what `range`
// selects from a normalised text (rule/text_range.h ApplyTextRange);
// InvalidArgument when the range never selects anything (a negative skip)
// or its unit is unknown.
absl::StatusOr<std::string> RangeRegex(const v1::TextRange& range);

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_JSON_EXPORT_H_
