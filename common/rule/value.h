// From a rule's value node to the attribute's value, shared by rule learning
// (to check a rule reproduces its annotations) and extraction.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_VALUE_H_
#define VERTEX_COMMON_RULE_VALUE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/html/page.h"
#include "common/schema/schema.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

// Whether a node an attribute's XPath selects counts as a candidate:
// elements always; text nodes when not blank and not inside <script>,
// <style> or <noscript>.
bool IsValueCandidate(html::Node node);

// The texts `node` (a node of `page`) offers under `rule`, before any range,
// split or regex: the source of its values. Empty when the node offers none.
//  - rule.json_path set: `node` must be a <script type=application/ld+json>;
//    one text per JSON value at that path (json_ld.h), whitespace
//    normalised; nothing when the script is not valid JSON.
//  - rule.value_attribute set: the attribute's value, whitespace normalised;
//    a srcset gives its first candidate's URL, and a URL attribute (href,
//    src, ...; url.h IsUrlAttribute) is resolved against the page's URL and
//    <base href> (AttributeSourceText).
//  - else the node's rendered text (html::RenderedLines): a text node's
//    whitespace-normalised text, or an element's lines — <br> and block
//    boundaries break lines — each whitespace-normalised, empty lines
//    dropped, joined by "\n". A text holds "\n" only there: TextValues counts
//    it as a space for ranges and regexes, and a ValueSplit separator "\n"
//    cuts at it.
// `base_url`, when not null, is the page's PageBaseUrl computed once by the
// caller (it walks the page: record-level rules call this per record).
std::vector<std::string> SourceTexts(const html::Page& page, html::Node node, const v1::AttributeRule& rule,
                                     const std::string* base_url = nullptr);

// The values `rule` takes from one source text (lines joined by "\n", see
// rule/text_range.h), in order:
//  1. with a range whose nearest_match is set, an attribute regex and no
//     split: the regex match nearest the range's offset (NearestMatch), and
//     nothing else;
//  2. otherwise cut by the rule's TextRange when it has one (nothing when the
//     text is too short for it);
//  3. cut into parts at the rule's split separators when it has some
//     (rule/split.h), else one part; "\n" in a part reads as a space;
//  4. each part selected and validated by the regex of the schema's
//     attribute `schema_index` (SelectValue); a part where it finds nothing
//     gives nothing.
std::vector<std::string> TextValues(std::string_view text, const v1::AttributeRule& rule,
                                    const schema::CompiledSchema& schema, size_t schema_index);

// The values of `node` under `rule`: TextValues of each of its SourceTexts,
// concatenated in order. Empty when the node holds no valid value.
// `base_url` as for SourceTexts.
std::vector<std::string> NodeValues(const html::Page& page, html::Node node, const v1::AttributeRule& rule,
                                    const schema::CompiledSchema& schema, size_t schema_index,
                                    const std::string* base_url = nullptr);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_VALUE_H_
