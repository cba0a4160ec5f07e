// From a rule's value node to the attribute's value, shared by rule learning
// (to check a rule reproduces its annotations) and extraction.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_VALUE_H_
#define VERTEX_COMMON_RULE_VALUE_H_

#include <optional>
#include <string>
#include <vector>

#include "common/html/page.h"
#include "common/schema/schema.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

// Whether a node an attribute's XPath selects counts as a candidate:
// elements always; text nodes when not blank and not inside <script>,
// <style> or <noscript>.
bool IsValueCandidate(html::Node node);

// The values of `node` (a node of `page`) under `rule`, in order:
//  1. its source text: the whitespace-normalised text of the node;
//  2. cut by the rule's TextRange when it has one;
//  3. each then selected and validated by the regex of the schema's
//     attribute `schema_index` (SelectValue); texts where it finds nothing
//     are dropped.
// Empty when the node holds no valid value.
std::vector<std::string> NodeValues(const html::Page& page, html::Node node, const v1::AttributeRule& rule,
                                    const schema::CompiledSchema& schema, size_t schema_index);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_VALUE_H_
