// Export of a learnt rule (v1::Rule) as an XSLT 1.0 stylesheet, so that any
// XSLT processor (xsltproc / libxslt, no extension needed) extracts a page's
// record without Vertex. The stylesheet is applied to the page's XHTML
// serialisation (html/serialize.h SerializeXhtml) and reproduces
// CompiledRule::Apply (compiled_rule.h), up to the typed regex, which XSLT
// 1.0 cannot run and which the consumer applies (below).
//
// Output, one record per page (UTF-8, no indentation):
//
//   <record site="booksamillion" cluster="c0" version="3">
//     <attribute name="title" multi-valued="false">
//       <value>The Overton Window</value>
//     </attribute>
//     <attribute name="isbn_13" multi-valued="false" regex="(97[89]\d{10})">
//       <value>ISBN-13: 9781439184394</value>
//     </attribute>
//     <attribute name="price" exported="false" reason="classifier"/>
//     <attribute name="edition" exported="false" reason="no-rule"/>
//   </record>
//
// One <attribute> per schema attribute, in schema order:
//   - exported (method XPATH): `multi-valued` is the rule's flag; one
//     <value> per value node, in document order. A node is a value node when
//     the rule's XPath selects it, it is an element or a text node that is
//     not blank and not inside <script>, <style> or <noscript>, and its
//     value is not empty. Its value: the node's string-value with runs of
//     whitespace (space, tab, CR, LF, U+00A0) collapsed to one space and
//     trimmed (html/text.h NormalizeSpace), then cut to the words of the
//     rule's TextRange (learn/text_range.h ApplyTextRange).
//     Without `regex`, the values are final: a single-valued attribute has
//     at most one (the first value node's).
//     With `regex` (the schema's RE2 pattern for the attribute: its explicit
//     regex or its type's), the consumer finishes the job as
//     schema::CompiledSchema::SelectValue does: each value becomes the
//     pattern's leftmost match (its first capturing group that takes part, when it has groups),
//     trimmed of ASCII whitespace; values where the pattern finds nothing,
//     or only an empty string, are dropped; then a single-valued attribute
//     keeps the first remaining value. (So for a single-valued attribute the
//     stylesheet lists every value node, not only the first.)
//     With the rule's value_attribute ("href", "content", ...), the value
//     node is that attribute of each selected element (elements without it
//     give nothing); for URL attributes the <attribute> has resolve="url"
//     (href, src, action, poster, cite; for content, "url" when the first
//     selected <meta>'s property, name or itemprop ends in "url" or "image",
//     else ""),
//     page-url (the stylesheet parameter page-url, empty unless given:
//     xsltproc --stringparam page-url URL) and base (the page's first
//     <base href>, "" when none): the consumer resolves each value against
//     base resolved against page-url, as the engine does (rule/url.h).
//   - exported="false" reason="classifier": method CLASSIFIER; XSLT cannot
//     run the Naive Bayes classifier. No values.
//   - exported="false" reason="json-path" | "element-text" |
//     "nearest-match" | "split" | "character-range" | "srcset": value
//     selections this export does not
//     write in XSLT 1.0 (XsltUnexportedReason says why). No values.
//   - exported="false" reason="no-rule": the rule has no part for the
//     attribute (the engine finds no value either). No values.
//
// A record-level rule (Rule.record) gives, instead of <record>, one <list>
// with one <record> per record of the page (CompiledRule::ApplyRecords):
//
//   <list site="homes" cluster="c2" version="1" length="2">
//     <record index="0" data-area="0">
//       <attribute name="price" multi-valued="false" regex="...">
//         <value>£250,000</value>
//       </attribute>
//       ...
//     </record>
//     ...
//   </list>
//
// The record starts are the elements the record XPath selects, in document
// order, at most kMaxListRecords; `index` counts from 0; each <attribute>
// is as above with the record's attribute XPath evaluated with the start
// as context node (tail siblings via following-sibling work as-is). The
// data area is the rank of the start's parent among the starts' parents
// in document order: the engine ranks them by their first record, the
// same unless one data area nests in another and its records come first.
//
// The XPath is rendered from the rule's features when it has them (what the
// engine evaluates; label-first, rule/features.h), else the rule's XPath;
// in both, calls of the engine's extension
// ends-with(a, b) (html/xpath.h) are rewritten to the XPath 1.0
// (substring(string(a), string-length(string(a)) - string-length(string(b))
// + 1) = string(b)). XPaths are evaluated with the document as context node,
// as the engine does.
//
// Limits, inherited from the serialisation (html/serialize.h): text holding
// characters XML 1.0 forbids, and XPaths testing element or attribute names
// that XML cannot keep (or node() positions around text split by a comment),
// may give other values than the engine.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_EXTRACT_XSLT_EXPORT_H_
#define VERTEX_COMMON_EXTRACT_XSLT_EXPORT_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/schema/schema.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::extract {

// The stylesheet of `rule` for `schema` (see above), a UTF-8 XML document.
// Errors: those of CompiledRule::Create (InvalidArgument naming the
// attribute that is not in the schema, appears twice, has no method or an
// XPath that does not compile); InvalidArgument naming the attribute when
// its XPath cannot be rewritten (a malformed ends-with call, a character XML
// cannot hold) or a name, site or regex holds a character XML cannot hold.
absl::StatusOr<std::string> ExportXslt(const v1::Rule& rule, const schema::CompiledSchema& schema);

// Why the stylesheet leaves `rule` (an attribute's part of a rule) out
// (classifier, or a value selection above); "" when it exports it.
std::string XsltUnexportedReason(const v1::AttributeRule& rule);

// `xpath` with every call ends-with(a, b) replaced by its XPath 1.0
// equivalent (nested calls too; string literals are left alone). The other
// text is kept byte for byte. InvalidArgument, naming the XPath and the
// offset, when a call does not have exactly two non-empty arguments, a
// parenthesis or literal is not closed, or calls nest deeper than 8 (each
// level doubles the first argument).
absl::StatusOr<std::string> RewriteEndsWith(std::string_view xpath);

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_XSLT_EXPORT_H_
