// A learnt rule (v1::Rule) compiled for extraction: its XPaths compiled,
// its classifiers ready, its value selection (range pruner, then the
// schema's typed regex) bound to the schema. Applying it to a parsed page of
// its cluster gives each attribute's values with the method and a score.
//
// An attribute rule learnt by Vertex carries the features its XPath was
// rendered from; they are evaluated natively (rule/feature_selector.h),
// which selects the same nodes as libxml2 would with the XPath, much faster:
// all of a rule's attributes in one walk of the page (rule::SelectorSet,
// indexed once here).
// Rules given only as an XPath are evaluated by libxml2.
//
// Per attribute:
//   XPATH       the XPath's nodes (blank text and text inside script/style
//               /noscript skipped) are the value nodes; single-valued
//               attributes take the first, with score 1/n for n nodes.
//   CLASSIFIER  the XPath's nodes are candidates; the Naive Bayes classifier
//               picks the one with the highest P(+) > 0.5 (every one above
//               0.5 when multi-valued); the score is the winner's P(+).
// Then a node's value is its whitespace-normalised text, cut by the rule's
// TextRange if any, then selected and validated by the attribute's regex
// (schema SelectValue). A node whose text yields no valid value gives none.
//
// Record-level rules (Rule.record set; Rule.attributes then empty): a list
// page holds many records. ApplyRecords() evaluates them:
//   1. RecordRule.record_xpath, from the document, selects the record
//      starts; elements only (other nodes are passed over), in document
//      order. More than kMaxListRecords starts are cut to the first
//      kMaxListRecords, with a note: bad input must not blow up.
//   2. A record is its start and the record_length - 1 element siblings
//      after it (its tail). A record whose tail runs past its parent's last
//      child is kept, short, with a note counting such records.
//   3. A record's data area is the index of its start's parent among the
//      distinct parents of the starts, in the order of their first record
//      (page order).
//   4. Each attribute's XPath is evaluated with the record's start as the
//      context node (tail siblings are reached with following-sibling);
//      from its nodes the value is taken exactly as for a detail rule
//      (candidates, classifier, TextRange, value_attribute with URL
//      resolution, value regex: the same code): the first node that holds
//      a value gives it, every node for a multi-valued attribute. The
//      features of a record attribute are dropped (they describe paths
//      from the document, not from the record; proto() has them cleared):
//      its XPath is evaluated.
//   5. A record misses a regular attribute (AttributeSchema.regular, when
//      unset its mandatory) without a value; it is OK when it misses none,
//      else PARTIAL.
// All the attribute XPaths of one page share one XPath budget
// (html::XPathBudget) of kRecordXPathOperationsPerNode per node of the page,
// a tenth of one evaluation's, so a relative XPath that walks the page from
// every start fails with ResourceExhausted instead of costing 10,000
// evaluations' budgets. (libxml2 does not count sorting node sets, so such
// an XPath still costs more than its operations: list_extract_bench's
// Hostile.) Ordinary relative XPaths need a few operations per record.
//
// Thread-safety: immutable after Create(); Apply() and ApplyRecords() may be
// called from many threads at once.
#ifndef VERTEX_COMMON_EXTRACT_COMPILED_RULE_H_
#define VERTEX_COMMON_EXTRACT_COMPILED_RULE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::extract {

struct AttributeResult {
  std::string attribute;
  // Empty when the attribute was not found (or the rule has no part for it).
  std::vector<std::string> values;
  // The node each value came from, parallel to `values` (several values of
  // a split text share one); valid while the page lives.
  std::vector<html::Node> nodes;
  v1::AttributeRule::Method method = v1::AttributeRule::METHOD_UNSPECIFIED;
  // XPATH: 1/n for n nodes (1 when unambiguous); CLASSIFIER: the lowest
  // P(+) among the winners; 0 when nothing was found.
  double score = 0;
  // Nodes the XPath selected (after skipping blank text), before the
  // classifier and value selection.
  size_t candidates = 0;
  // Candidates above 0.5 (classifier) or value nodes (XPath) before a
  // single-valued attribute kept one: > 1 means ambiguous.
  size_t winners = 0;
};

// Most records ApplyRecords() gives one page; record starts past it are cut.
inline constexpr size_t kMaxListRecords = 10000;
// The shared XPath budget of a page's record attributes, in libxml2
// operations per node of the page (plus html::kXPathBudgetFloorNodes).
inline constexpr unsigned long kRecordXPathOperationsPerNode = 100;
// Largest RecordRule.record_length Create() accepts (AMBER's records are
// 1-4 elements long; the bound keeps the tail walk small).
inline constexpr int kMaxRecordLength = 100;

// One record of a list page (see above).
struct ListRecordResult {
  // 0, 1, ... in page order.
  size_t index = 0;
  // 0, 1, ...: the record's data area (its start's parent) in page order.
  size_t data_area = 0;
  // One per schema attribute, in schema order (empty values for attributes
  // the rule has no part for).
  std::vector<AttributeResult> attributes;
  // Regular attributes without a value: the record is PARTIAL when not
  // empty, else OK.
  std::vector<std::string> missing_regular;
  // Fewer than record_length elements: the tail ran past the parent's last
  // child.
  bool short_record = false;
};

// The records of one list page, with what was cut or short.
struct ListResult {
  std::vector<ListRecordResult> records;
  // Element starts the record XPath selected, before the cut.
  size_t starts = 0;
  // Notes in words: "record XPath selected 12000 starts: cut at 10000",
  // "2 records run past their parent's last child (short)". Empty when
  // neither happened.
  std::vector<std::string> notes;
};

// Why the records of a list rule's page cannot be the page's records under
// nearest matching (site_extractor.h); "" when they can: at least one
// record, one of them with every regular attribute, and every value of an
// attribute with a value regex without group matching it. E.g. "no record",
// "every record misses a regular attribute (record 0: price missing)",
// "price \"n/a\" is not a price (record 3)".
class CompiledRule;
std::string ListMatchFailure(const CompiledRule& rule, const ListResult& list);

// Why `results` (the output of `rule` on a page its signature does not
// cover) cannot be the page's record; "" when it can: every mandatory
// attribute and every attribute the rule always extracted on its sample
// (Rule.always_extracted) has a value, and every value of an attribute with
// a value regex without capturing group (a type's or the schema's) matches
// it (a regex with a group yields the group, which need not match the
// whole regex again). E.g. "title
// missing", "price \"n/a\" is not a price". Names the first failure.
class CompiledRule;
std::string NearestMatchFailure(const CompiledRule& rule, const std::vector<AttributeResult>& results);

// "xpath", "classifier", or "none" (unspecified): how records name methods.
const char* MethodName(v1::AttributeRule::Method method);

class CompiledRule {
 public:
  // Compiles `rule` for `schema`'s attributes. InvalidArgument naming the
  // attribute when it is not in the schema, its XPath does not compile, or
  // its classifier's tests do not; the rule's signature must parse when
  // non-empty, and each of its extra_signatures must parse (InvalidArgument
  // naming the cluster and the text). A record-level rule (Rule.record set)
  // must have an empty Rule.attributes, a record XPath that compiles and a
  // record_length in [1, kMaxRecordLength]; its attributes are checked as
  // above (InvalidArgument naming "record attribute" and the attribute).
  static absl::StatusOr<CompiledRule> Create(const v1::Rule& rule, const schema::CompiledSchema& schema);

  CompiledRule(CompiledRule&&) noexcept;
  CompiledRule& operator=(CompiledRule&&) noexcept;
  ~CompiledRule();

  // One result per schema attribute, in schema order (empty values for the
  // attributes the rule has no part for). Errors only from libxml2 failing
  // to evaluate (Internal).
  // For a record-level rule: no values (its attributes are per record:
  // ApplyRecords).
  absl::StatusOr<std::vector<AttributeResult>> Apply(const html::Page& page) const;

  // Whether the rule is record-level (Rule.record set).
  bool record_level() const;

  // The page's records under a record-level rule (see above); an empty
  // result for a rule that is not record-level. Errors from libxml2 failing
  // to evaluate: InvalidArgument naming the XPath (e.g. it does not select
  // nodes), ResourceExhausted past the XPath budget.
  absl::StatusOr<ListResult> ApplyRecords(const html::Page& page) const;

  // The rule as compiled: as given, but record attributes without features.
  const v1::Rule& proto() const;
  const schema::CompiledSchema& schema() const;
  // The rule's masked signature; all-wildcard when the rule has none.
  const shingle::MaskedVector& signature() const;
  // signature(), then Rule.extra_signatures (the signatures of clusters
  // merged into this one) in their order: never empty.
  const std::vector<shingle::MaskedVector>& signatures() const;
  // The first of signatures() that covers `v`; null when none does.
  const shingle::MaskedVector* CoveringSignature(const shingle::ShingleVector& v) const;
  // The most kept bytes any of signatures() agrees with `v` in
  // (MaskedVector::Agreement): how near a page none covers is to the rule.
  int Agreement(const shingle::ShingleVector& v) const;

 private:
  struct State;
  explicit CompiledRule(std::unique_ptr<State> state);
  // One record's attributes, in schema order, from its `start`.
  absl::StatusOr<std::vector<AttributeResult>> ApplyRecordAttributes(const html::Page& page, html::Node start,
                                                                     const std::string& base_url,
                                                                     html::XPathBudget* budget) const;
  std::unique_ptr<State> state_;
};

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_COMPILED_RULE_H_
