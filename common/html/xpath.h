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
// XPathBudget shares one budget among many evaluations: record-level rules
// evaluate their attribute XPaths once per record (up to 10,000 per page),
// and all of them together get one page's budget, so a relative XPath that
// walks the whole page from every record start ("following::*") is stopped
// like one hostile absolute XPath, not 10,000 times over.
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
struct _xmlXPathContext;

namespace vertex::html {

// Longest expression Compile() accepts.
inline constexpr size_t kMaxXPathBytes = 16 * 1024;
// Evaluation budget: libxml2 operations per node of the page, counted over
// the page's nodes plus kXPathBudgetFloorNodes (small pages get room too).
inline constexpr unsigned long kXPathOperationsPerNode = 1000;
inline constexpr unsigned long kXPathBudgetFloorNodes = 1000;

// The operation budget of one evaluation on `page`.
unsigned long XPathOperationBudget(const Page& page);

// Operations left to a sequence of evaluations (XPath::Select with a
// budget) on one page, and the libxml2 evaluation context they share (made
// at the first evaluation: a fresh context registers every XPath function
// in a new hash table, which costs more than a short relative XPath). Not
// thread-safe: one per thread and page; use it on one page only (another
// page gets a context of its own, made again).
class XPathBudget {
 public:
  explicit XPathBudget(unsigned long operations);
  // The budget of one evaluation on `page`, shared.
  explicit XPathBudget(const Page& page);
  XPathBudget(XPathBudget&&) noexcept;
  XPathBudget& operator=(XPathBudget&&) noexcept;
  ~XPathBudget();

  unsigned long remaining() const { return remaining_; }
  unsigned long total() const { return total_; }
  // Called by XPath after an evaluation that counted `operations`.
  void Spend(unsigned long operations) { remaining_ = operations >= remaining_ ? 0 : remaining_ - operations; }

 private:
  friend class XPath;
  struct ContextDeleter {
    void operator()(_xmlXPathContext* context) const;
  };
  // The shared context, on `page`'s document (made or remade as needed).
  _xmlXPathContext* Context(const Page& page);

  unsigned long remaining_;
  unsigned long total_;
  std::unique_ptr<_xmlXPathContext, ContextDeleter> context_;
  const _xmlDoc* doc_ = nullptr;
};

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
  // Select() under `budget` instead of a budget of its own (null: as
  // Select()): the evaluation may spend what is left of it, and what it
  // spends is taken off. ResourceExhausted, naming the shared budget, past it (and at once
  // when nothing is left).
  absl::StatusOr<std::vector<Node>> Select(const Page& page, Node context, XPathBudget* budget) const;

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
