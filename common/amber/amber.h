// AMBER (Furche et al. 2012; ../shared/papers/DIGEST.md section 3): finds,
// on a result page and with no per-site labels, the data areas, the records
// in them and the attributes of each record, from a record-level schema's
// annotations (annotate::Annotator) and the page's repeated structure.
//
//   identify  (Alg. 2) data areas: maximal runs of pivot annotations whose
//             depths lie within theta_depth and whose pairwise tree
//             distances lie within theta_dist; the area is rooted at their
//             lowest common ancestor.
//   segment   (Alg. 3) records: the leading nodes (children of the area
//             root holding a pivot), the record length as the mode of
//             their spacing, noise leading nodes dropped, and of the
//             length's start shifts the one with the least irregularity
//             (Zhang-Shasha tree edit distance on tag trees, normalised by
//             size, compared position by position).
//   align     (Alg. 4) attributes: per type, the nodes whose tag path from
//             the record start (Def. 6) is supported (Def. 7) by more than
//             theta_infer of the area's records, or annotated and supported
//             by more than theta_keep; the first such node per record.
//
// Thresholds are AMBER's evaluation settings by default (section 6.1).
// Caps on the edit distance's work are reported in Typing::notes when hit,
// never silently.
//
// Thread-safety: Run is a pure function of its arguments.
#ifndef VERTEX_COMMON_AMBER_AMBER_H_
#define VERTEX_COMMON_AMBER_AMBER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/annotate/annotator.h"
#include "common/html/page.h"
#include "common/schema/schema.h"

namespace vertex::amber {

struct Options {
  // identify: interval widths allowed (width <= theta, the digest's
  // proposed reading of M4/M5).
  int theta_depth = 1;
  int theta_dist = 2;
  // align: support thresholds (strict >) for regular (R) and optional (O)
  // attributes.
  double infer_regular = 0.5;
  double infer_optional = 0.5;
  double keep_regular = 0.0;
  double keep_optional = 0.2;
  // align, an extension of Def. 7 for keeping annotated nodes (never for
  // inferring): also keep an annotation whose tag path, with runs of
  // same-tag next-sibling steps below the record's top level collapsed
  // (the 1st, 2nd or 4th <li> of a facts list alike), has support above
  // the keep threshold. Off: the paper's positional paths, under which an
  // optional fact shifts every later fact of its list to a new path.
  bool keep_by_sibling_runs = false;
  // segment: subtrees larger than this are compared by their first
  // ted_max_nodes nodes (reported), and each record is compared with at
  // most ted_max_pairs others (reported).
  int ted_max_nodes = 500;
  int ted_max_pairs = 8;
};

// One attribute of one record.
struct AttributeMatch {
  int attribute = -1;  // schema index
  // The element typed with the attribute (an annotated text node's parent,
  // or an <a>/<img> for url/image attributes).
  html::Node node;
  // The annotation's value, or for an inferred attribute the node's whole
  // normalised text (for an attribute with a value regex, what the regex
  // selects in it: a node where it selects nothing is not inferred).
  std::string value;
  // Def. 7 support of the node's tag path for this attribute in its area.
  double support = 0;
  // True when an annotation typed the node; false when inferred.
  bool annotated = false;
  // The Def. 6 tag path from the record start as a relative XPath 1.0
  // expression with the start as context node: "self::li/*[1][self::div]/
  // following-sibling::*[1][self::span]"; tail siblings are reached with
  // top-level following-sibling::*[1] steps.
  std::string tag_path;
};

struct Record {
  // The record's elements: the start, then its tail siblings.
  std::vector<html::Node> nodes;
  // At most one per attribute, in schema order.
  std::vector<AttributeMatch> attributes;
};

struct DataArea {
  html::Node root;
  // The pivot annotations' text nodes the area was identified from.
  std::vector<html::Node> pivots;
  int record_length = 0;
  // Which start shift won and the irregularity of each shift tried
  // (segment's explanation).
  int shift = 0;
  std::vector<double> shift_irregularity;
  std::vector<Record> records;
};

struct Typing {
  std::vector<DataArea> areas;
  // What the analysis could not do or cut short, in words: "no pivot
  // (price) annotated on the page", "edit distance capped at 500 nodes in
  // 3 subtrees", "area 2: one record only, dropped".
  std::vector<std::string> notes;
};

// Runs identify, segment and align, then drops the areas most of whose
// records hold no text but their pivot's (a price filter's options are not
// listings). Invalid-
// Argument when the schema is not record-level or has no pivot, when an
// annotation names no attribute of the schema or no node of the page, and
// for options out of range. A page with no data area is not an error:
// the typing is empty and its notes say why.
absl::StatusOr<Typing> Run(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
                           const schema::CompiledSchema& schema, const Options& options = {});

// A human-readable account of `typing` on `page`: per data area its root
// (an absolute XPath), pivots, record length and the irregularity of each
// start shift; per record its nodes; per attribute its name, value,
// support, whether annotated or inferred, and tag path; then the notes.
// `schema` names the attributes (the one Run was given).
std::string ExplainTyping(const Typing& typing, const html::Page& page,
                          const schema::CompiledSchema& schema);

}  // namespace vertex::amber

#endif  // VERTEX_COMMON_AMBER_AMBER_H_
