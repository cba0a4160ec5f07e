// XPath: a compiled XPath 1.0 expression evaluated on a Page's libxml2
// document, with one extension function:
//
//   ends-with(string, suffix)  true when `string` ends with `suffix`
//                              (XPath 2.0's fn:ends-with, absent in 1.0).
//
// Limits, against expressions given by users (imported rules, vertexctl):
// Compile() refuses expressions over kMaxXPathBytes and those with an
// absolute location path inside a predicate ("//li[. = //span]": evaluated
// again for every node tested, at a cost libxml2's operation count misses)
// with InvalidArgument, and
// every evaluation runs under libxml2's operation limit
// (xmlXPathContext::opLimit): XPathOperationBudget(page), a fixed number of
// operations per node of the page, so a hostile expression ("//*//*//*...",
// a huge union) is stopped; past it the evaluation fails with
// ResourceExhausted naming the budget. 1,000 per node: learnt XPaths test
// anchors with steps local to each node (rule/features.h RenderXPath), so
// none needs more (it was 20,000 while they tested anchors through the
// whole preceding:: axis, quadratic in libxml2). It bounds operations, not
// time: libxml2 2.9.14 does not count sorting and merging node sets.
//
// Thread-safety: an XPath is immutable after Compile(); Select(),
// EvaluateString() and EvaluateBoolean() may be called from many threads at
// once (each call uses its own evaluation context). AttributeAxis() only
// reads the page.
#ifndef VERTEX_COMMON_HTML_XPATH_H_
#define VERTEX_COMMON_HTML_XPATH_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"

struct _xmlXPathCompExpr;

namespace vertex::html {

// Longest expression Compile() accepts.
inline constexpr size_t kMaxXPathBytes = 16 * 1024;
// Evaluation budget: libxml2 operations per node of the page, counted over
// the page's nodes plus kXPathBudgetFloorNodes (small pages get room too).
inline constexpr unsigned long kXPathOperationsPerNode = 1000;
inline constexpr unsigned long kXPathBudgetFloorNodes = 1000;

// The operation budget of one evaluation on `page`.
unsigned long XPathOperationBudget(const Page& page);

class XPath {
 public:
  // Compiles `expression`. InvalidArgument, naming the expression and
  // libxml2's reason, when it does not parse, or naming the limit when it
  // is longer than kMaxXPathBytes or has an absolute location path inside a
  // predicate.
  static absl::StatusOr<XPath> Compile(std::string_view expression);

  XPath(XPath&&) noexcept = default;
  XPath& operator=(XPath&&) noexcept = default;

  // The nodes the expression selects in document order, evaluated with
  // `context` as the context node (the document when null). Attribute and
  // other non-element, non-text nodes are skipped. InvalidArgument when the
  // expression does not evaluate to a node-set (e.g. "1+1") or fails (an
  // unknown function, say); ResourceExhausted, naming the budget, when the
  // evaluation passes XPathOperationBudget (so may every evaluation below).
  absl::StatusOr<std::vector<Node>> Select(const Page& page, Node context = Node()) const;

  // string() of the expression's value.
  absl::StatusOr<std::string> EvaluateString(const Page& page, Node context = Node()) const;

  // boolean() of the expression's value, evaluated with `context` as the
  // context node (the document when null): a node-set is true when not
  // empty, a string when not empty, a number when neither 0 nor NaN.
  // InvalidArgument when the evaluation fails (an unknown function, say).
  absl::StatusOr<bool> EvaluateBoolean(const Page& page, Node context = Node()) const;

  const std::string& expression() const { return expression_; }

 private:
  struct CompDeleter {
    void operator()(_xmlXPathCompExpr* comp) const;
  };
  XPath(std::string expression, _xmlXPathCompExpr* comp)
      : expression_(std::move(expression)), comp_(comp) {}

  std::string expression_;
  std::unique_ptr<_xmlXPathCompExpr, CompDeleter> comp_;
};

// The attributes of `node` as XPath's attribute axis (@*) holds them: for
// each, name() and string(), in document order. Empty for text and null
// nodes and for elements without attributes. A name may not be a valid
// XPath name test (Gumbo keeps "a:b", "x\"y"): match it with
// @*[name()='...'].
std::vector<std::pair<std::string, std::string>> AttributeAxis(Node node);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_XPATH_H_
