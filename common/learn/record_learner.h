// Learning a record-level rule (v1::RecordRule) for a cluster of list pages
// from AMBER's analyses of its sample pages (amber.h), or from one or two
// records an editor annotated by hand: the "subsequently employed wrapper
// induction" AMBER leaves open (its section 7.3), so that every other page
// of the cluster is extracted by compiled XPaths in about the time of a
// parse instead of by AMBER.
//
//  1. Vote. Each data area of each analysed page gets a key: the tag path of
//     its root from <html>, its record length and its record starts' tag.
//     The most frequent key (it must be on half of the analysed pages) gives
//     the record length; other keys of that length on kMinAreaShare of the
//     pages and at least two are kept too (a featured block shown on some
//     pages); an area AMBER found on one page only is not.
//  2. Record XPath. Vertex's Algorithm 3 (xpath_learner.h) learns, from the
//     record starts of the kept areas as the positives of a multi-valued
//     attribute, an XPath selecting them, with support on the other sample
//     pages. When it finds none precise, a structural XPath (the areas'
//     root paths with their classes, then the starts' tag with the class
//     tokens every start has, every Len-th) is tried; the one with the
//     better F1 against AMBER's starts is kept (AMBER's starts are not all
//     right: recall 1 is not asked), its precision and recall reported.
//  3. Attributes. Per attribute, AMBER's tag paths (relative XPaths from
//     the record start) are counted over the kept areas' records; the most
//     frequent is the rule, united with the others found in at least
//     kMinAlternativeShare of those records and at least twice (an
//     attribute some records wrap differently: <em> for <span>), where the
//     main path selects nothing in the records it was typed in. When the
//     typed nodes carry a class, a path by class from the record start
//     (descendant-or-self, and the tail siblings) replaces the tag paths if
//     it agrees at least as well with the typing (records whose typed node
//     it selects first, less twice those where it selects another): a
//     positional path moves when an optional sibling before the value is
//     missing, and lands on the next sibling where the value itself is. URL and
//     image attributes read href / src; attributes without a regex get a
//     text range where the typing's values are a consistent part of their
//     node's text.
//
// Thread-safety: pure functions of their inputs; the Pages must outlive
// them.
#ifndef VERTEX_COMMON_LEARN_RECORD_LEARNER_H_
#define VERTEX_COMMON_LEARN_RECORD_LEARNER_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/amber/amber.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::learn {

// Share of an attribute's records a secondary tag path must cover to join
// the rule's XPath.
inline constexpr double kMinAlternativeShare = 0.05;
// Share of the analysed pages (and at least two) an area other than the
// main one must be on to be kept (a featured block shown on some pages).
inline constexpr double kMinAreaShare = 0.2;
// Share of AMBER's record starts (on the agreeing pages) the record XPath
// must select at least.
inline constexpr double kMinRecordXPathRecall = 0.9;

// One sample page: analysed (typing set) or only looked at for support.
struct RecordPage {
  const html::Page* page = nullptr;
  // AMBER's typing of the page (or one built from an editor's records);
  // null for a page learning only checks support on.
  const amber::Typing* typing = nullptr;
};

struct RecordLearnResult {
  v1::RecordRule rule;
  // The record XPath's precision on the analysed pages (selected starts
  // that are the kept areas' starts) and recall.
  double precision = 0;
  double recall = 0;
  // What was decided and why, in words: the vote, the XPath chosen, each
  // attribute's paths and support, the attributes no record had.
  std::vector<std::string> notes;
};

// Learns the rule; `source` is stored in RecordRule.source ("amber",
// "editor"). FailedPrecondition, saying why, when no analysed page has a
// data area, no area key is on half of the analysed pages, or no XPath
// selects kMinRecordXPathRecall of the record starts on the analysed pages.
absl::StatusOr<RecordLearnResult> LearnRecordRule(const schema::CompiledSchema& schema,
                                                  const std::vector<RecordPage>& pages, const std::string& source);

// What an editor said about one record of a page: attribute (schema
// index) -> its value as the page shows it (for url/image attributes, the
// link's or image's URL, absolute or as written).
using RecordValues = std::map<int, std::string>;

// The typing an editor's records imply on `page` (records in page order:
// record 1, record 2...): each record's values are looked up (the
// occurrence whose container, the smallest element holding all the
// record's values, is smallest, after the previous record's), the data
// area is the lowest common ancestor of the records' containers (one
// record: the parent of the container's nearest ancestor-or-self that has
// a sibling of its tag), the record length the distance from a start to
// the next sibling of its tag, and every child of the area of the starts'
// tag (and class) starts a record, annotated or not. NotFound naming the
// record and value when a value is not on the page, or not after the
// previous record; InvalidArgument for a record with no value.
absl::StatusOr<amber::Typing> TypingFromRecords(const html::Page& page, const schema::CompiledSchema& schema,
                                                const std::vector<RecordValues>& records);

// The Def. 6 tag path from `start` to `node` (node inside start's subtree
// or inside one of its following siblings) as a relative XPath with
// `start` as context node: "self::li/*[1][self::div]/following-sibling::*
// [1][self::span]". Empty when `node` is not reachable that way.
std::string RelativeTagPath(html::Node start, html::Node node);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_RECORD_LEARNER_H_
