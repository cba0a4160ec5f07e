#include "common/html/xpath.h"

#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include <cstring>

#include "absl/strings/ascii.h"

namespace vertex::html {
namespace {

// ends-with(s, suffix) for XPath 1.0.
void EndsWithFunction(xmlXPathParserContextPtr ctxt, int nargs) {
  if (nargs != 2) {
    xmlXPathErr(ctxt, XPATH_INVALID_ARITY);
    return;
  }
  xmlChar* suffix = xmlXPathPopString(ctxt);
  xmlChar* str = xmlXPathPopString(ctxt);
  bool result = false;
  if (str != nullptr && suffix != nullptr) {
    const size_t n = std::strlen(reinterpret_cast<const char*>(str));
    const size_t m = std::strlen(reinterpret_cast<const char*>(suffix));
    result = m <= n && std::memcmp(str + (n - m), suffix, m) == 0;
  }
  xmlFree(str);
  xmlFree(suffix);
  valuePush(ctxt, xmlXPathNewBoolean(result ? 1 : 0));
}

// Collects libxml2's messages while alive, instead of printing them.
class ErrorCapture {
 public:
  ErrorCapture() {
    xmlSetStructuredErrorFunc(this, &ErrorCapture::Handle);
    xmlSetGenericErrorFunc(nullptr, &ErrorCapture::Silent);
  }
  ~ErrorCapture() {
    xmlSetStructuredErrorFunc(nullptr, nullptr);
    xmlSetGenericErrorFunc(nullptr, nullptr);
  }
  const std::string& message() const { return message_; }

 private:
  static void Handle(void* self, xmlErrorPtr error) {
    auto* capture = static_cast<ErrorCapture*>(self);
    if (error == nullptr || error->message == nullptr || !capture->message_.empty()) return;
    capture->message_ = std::string(absl::StripAsciiWhitespace(error->message));
  }
  static void Silent(void*, const char*, ...) {}
  std::string message_;
};

struct ContextDeleter {
  void operator()(xmlXPathContext* c) const { xmlXPathFreeContext(c); }
};
struct ObjectDeleter {
  void operator()(xmlXPathObject* o) const { xmlXPathFreeObject(o); }
};
using ContextPtr = std::unique_ptr<xmlXPathContext, ContextDeleter>;
using ObjectPtr = std::unique_ptr<xmlXPathObject, ObjectDeleter>;

// `op_limit` 0: the page's own budget.
ContextPtr NewContext(const Page& page, Node context, unsigned long op_limit) {
  ContextPtr ctx(xmlXPathNewContext(page.doc()));
  xmlXPathRegisterFunc(ctx.get(), BAD_CAST "ends-with", &EndsWithFunction);
  ctx->node = context ? context.raw() : reinterpret_cast<xmlNodePtr>(page.doc());
  ctx->opLimit = op_limit != 0 ? op_limit : XPathOperationBudget(page);
  return ctx;
}

}  // namespace

void XPath::CompDeleter::operator()(_xmlXPathCompExpr* comp) const { xmlXPathFreeCompExpr(comp); }

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Whether the non-blank text ending just before `end` is the operator word
// and/or/div/mod standing alone (so a '/' after it starts a path).
bool AfterOperatorWord(std::string_view e, size_t end) {
  size_t start = end;
  while (start > 0 && absl::ascii_isalpha(static_cast<unsigned char>(e[start - 1]))) --start;
  const std::string_view word = e.substr(start, end - start);
  const bool alone = start == 0 || IsSpace(e[start - 1]) || e[start - 1] == ')' || e[start - 1] == ']';
  return alone && (word == "and" || word == "or" || word == "div" || word == "mod");
}

// Byte offset of the first absolute location path ("/..." or "//...")
// inside a predicate of `e`, or npos. Such a path is evaluated again for
// every node the predicate tests, which libxml2's operation count does not
// bound (its node-set merges are not counted).
size_t AbsolutePathInPredicate(std::string_view e) {
  int depth = 0;
  char quote = 0;
  size_t prev = std::string_view::npos;  // last non-blank character outside literals
  for (size_t i = 0; i < e.size(); ++i) {
    const char c = e[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (IsSpace(c)) continue;
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (c == '/' && depth > 0) {
      const char p = prev == std::string_view::npos ? '(' : e[prev];
      const bool starts_path = std::string_view("[(,=<>|+-*!").find(p) != std::string_view::npos ||
                               (absl::ascii_isalpha(static_cast<unsigned char>(p)) && prev + 1 < i &&
                                AfterOperatorWord(e, prev + 1));
      // "*" before "/" is a step ("*/x"), unless it is the multiplication
      // operator; a name test is likelier, so '*' counts only after blank.
      if (starts_path && !(p == '*' && prev + 1 == i) && !(p == '-' && prev + 1 == i)) return i;
      // "//" after a step: skip its second '/'.
      if (i + 1 < e.size() && e[i + 1] == '/') ++i;
    }
    prev = i;
  }
  return std::string_view::npos;
}

}  // namespace

unsigned long XPathOperationBudget(const Page& page) {
  return kXPathOperationsPerNode * (static_cast<unsigned long>(page.node_count()) + kXPathBudgetFloorNodes);
}

absl::StatusOr<XPath> XPath::Compile(std::string_view expression) {
  if (expression.size() > kMaxXPathBytes) {
    return absl::InvalidArgumentError("XPath expression of " + std::to_string(expression.size()) +
                                      " bytes is over the XPath length limit of " + std::to_string(kMaxXPathBytes) +
                                      " bytes: '" + std::string(expression.substr(0, 60)) + "...'");
  }
  std::string expr(expression);
  if (expr.empty()) return absl::InvalidArgumentError("XPath expression is empty");
  if (const size_t at = AbsolutePathInPredicate(expr); at != std::string::npos) {
    return absl::InvalidArgumentError("XPath '" + expr + "' has an absolute location path inside a predicate (byte " +
                                      std::to_string(at) +
                                      "), evaluated again for every node tested: not allowed; use a relative path");
  }
  if (expr.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError("XPath expression contains a NUL byte");
  }
  ErrorCapture capture;
  // A context routes compile errors to the structured handler (without one,
  // libxml2 prints them).
  ContextPtr ctx(xmlXPathNewContext(nullptr));
  xmlXPathCompExprPtr comp = xmlXPathCtxtCompile(ctx.get(), BAD_CAST expr.c_str());
  if (comp == nullptr) {
    return absl::InvalidArgumentError("XPath '" + expr + "' does not parse: " +
                                      (capture.message().empty() ? "syntax error" : capture.message()));
  }
  return XPath(std::move(expr), comp);
}

namespace {

// Evaluates `comp` with `context` (the document when null) as context node,
// under `budget` when not null (else the page's own budget).
absl::StatusOr<ObjectPtr> Evaluate(xmlXPathCompExprPtr comp, const std::string& expression,
                                   const Page& page, Node context, XPathBudget* budget = nullptr,
                                   xmlXPathContext* shared = nullptr) {
  if (budget != nullptr && budget->remaining() == 0) {
    return absl::ResourceExhaustedError("XPath '" + expression + "': the shared XPath evaluation budget of " +
                                        std::to_string(budget->total()) + " operations on page '" + page.url() +
                                        "' is spent");
  }
  ErrorCapture capture;
  ContextPtr own;
  xmlXPathContext* ctx = nullptr;
  if (shared != nullptr) {
    ctx = shared;
    // Reset what an evaluation reads or leaves behind.
    ctx->node = context ? context.raw() : reinterpret_cast<xmlNodePtr>(page.doc());
    ctx->opLimit = budget->remaining();
    ctx->opCount = 0;
    ctx->contextSize = -1;
    ctx->proximityPosition = -1;
    xmlResetError(&ctx->lastError);
  } else {
    own = NewContext(page, context, 0);
    ctx = own.get();
  }
  ObjectPtr result(xmlXPathCompiledEval(comp, ctx));
  if (budget != nullptr) budget->Spend(ctx->opCount);
  // libxml2 2.9.14 sets lastError only where some steps pass the limit
  // (node collection stops at it silently): opCount reaching opLimit says
  // so for every step.
  const bool over_budget = ctx->lastError.code == XML_XPATH_EXPRESSION_OK + XPATH_OP_LIMIT_EXCEEDED ||
                           (ctx->opLimit != 0 && ctx->opCount >= ctx->opLimit);
  if (result == nullptr && over_budget) {
    if (budget != nullptr) {
      return absl::ResourceExhaustedError("XPath '" + expression + "' is over the shared XPath evaluation budget of " +
                                          std::to_string(budget->total()) + " operations on page '" + page.url() +
                                          "' (" + std::to_string(kXPathOperationsPerNode) + " per node)");
    }
    return absl::ResourceExhaustedError("XPath '" + expression + "' is over the XPath evaluation budget of " +
                                        std::to_string(ctx->opLimit) + " operations on page '" + page.url() +
                                        "' (" + std::to_string(kXPathOperationsPerNode) + " per node)");
  }
  if (result == nullptr) {
    return absl::InvalidArgumentError("XPath '" + expression + "' failed: " +
                                      (capture.message().empty() ? "evaluation error" : capture.message()));
  }
  return result;
}

}  // namespace

XPathBudget::XPathBudget(unsigned long operations) : remaining_(operations), total_(operations) {}
XPathBudget::XPathBudget(const Page& page) : XPathBudget(XPathOperationBudget(page)) {}
XPathBudget::XPathBudget(XPathBudget&&) noexcept = default;
XPathBudget& XPathBudget::operator=(XPathBudget&&) noexcept = default;
XPathBudget::~XPathBudget() = default;

void XPathBudget::ContextDeleter::operator()(_xmlXPathContext* context) const { xmlXPathFreeContext(context); }

_xmlXPathContext* XPathBudget::Context(const Page& page) {
  if (context_ == nullptr || doc_ != page.doc()) {
    context_.reset(NewContext(page, Node(), remaining_).release());
    doc_ = page.doc();
  }
  return context_.get();
}

absl::StatusOr<std::vector<Node>> XPath::Select(const Page& page, Node context) const {
  return Select(page, context, nullptr);
}

absl::StatusOr<std::vector<Node>> XPath::Select(const Page& page, Node context, XPathBudget* budget) const {
  // The budget's context (budget->Context(page)) only once it is known to
  // be needed: Evaluate refuses a spent budget first.
  xmlXPathContext* shared = budget != nullptr && budget->remaining() > 0 ? budget->Context(page) : nullptr;
  absl::StatusOr<ObjectPtr> result = Evaluate(comp_.get(), expression_, page, context, budget, shared);
  if (!result.ok()) return result.status();
  if ((*result)->type != XPATH_NODESET) {
    return absl::InvalidArgumentError("XPath '" + expression_ + "' does not select nodes");
  }
  std::vector<Node> nodes;
  const xmlNodeSetPtr set = (*result)->nodesetval;
  if (set == nullptr) return nodes;
  nodes.reserve(set->nodeNr);
  for (int i = 0; i < set->nodeNr; ++i) {
    xmlNodePtr n = set->nodeTab[i];
    if (n->type == XML_ELEMENT_NODE || n->type == XML_TEXT_NODE) nodes.emplace_back(n);
  }
  return nodes;
}

absl::StatusOr<std::string> XPath::EvaluateString(const Page& page, Node context) const {
  absl::StatusOr<ObjectPtr> result = Evaluate(comp_.get(), expression_, page, context);
  if (!result.ok()) return result.status();
  xmlChar* s = xmlXPathCastToString(result->get());
  std::string out = s ? reinterpret_cast<const char*>(s) : "";
  xmlFree(s);
  return out;
}

absl::StatusOr<bool> XPath::EvaluateBoolean(const Page& page, Node context) const {
  absl::StatusOr<ObjectPtr> result = Evaluate(comp_.get(), expression_, page, context);
  if (!result.ok()) return result.status();
  return xmlXPathCastToBoolean(result->get()) != 0;
}

std::vector<std::pair<std::string, std::string>> AttributeAxis(Node node) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!node.is_element()) return out;
  for (xmlAttrPtr a = node.raw()->properties; a != nullptr; a = a->next) {
    xmlChar* value = xmlNodeGetContent(reinterpret_cast<xmlNodePtr>(a));
    out.emplace_back(reinterpret_cast<const char*>(a->name),
                     value ? reinterpret_cast<const char*>(value) : "");
    xmlFree(value);
  }
  return out;
}

}  // namespace vertex::html
