// Reading an annotations file: JSON Lines, one v1::Annotation per line, e.g.
//
//   {"file": "0001.htm", "attribute": "title", "value": "Dune"}
//   {"file": "0001.htm", "attribute": "author", "values": ["A", "B"]}
//   {"file": "0002.htm", "attribute": "price", "xpath": "//span[@class='p']"}
//   {"file": "0002.htm", "attribute": "isbn_13", "absent": true}
//   {"file": "0003.htm", "attribute": "feature", "values": ["A", "B"], "partial": true}
//
// "partial": true says the values are the first K of the page's list, in
// page order (issue 14): learning judges only the page's nodes up to the
// K-th value's (rule_learner.h). It needs values (not an XPath or absent),
// is refused with "record", and the lines of one merged list must all give
// it or none.
// Blank lines and lines starting with '#' are skipped. Lines naming the same
// page and attribute with values are merged (several values of a
// multi-valued attribute).
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_WORKFLOW_ANNOTATIONS_H_
#define VERTEX_COMMON_WORKFLOW_ANNOTATIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::workflow {

struct SourcedAnnotation {
  v1::Annotation annotation;  // values merged into `values`; `value` cleared
  int line = 0;               // first line it came from (1-based)
};

// `a` checked and normalized (`value` moved into `values`): InvalidArgument
// for no file/url or no attribute, none or more than one of
// value(s)/xpath/absent, an empty value, "partial" without values or with
// "record".
absl::StatusOr<v1::Annotation> NormalizeAnnotation(v1::Annotation a);

// InvalidArgument naming `source` and the line for: malformed JSON or an
// unknown field (protobuf's message), no file/url or no attribute, none or
// more than one of value(s)/xpath/absent, a page+attribute given values
// on one line and an XPath or absent on another, "partial" on some lines of
// a page+attribute and not on others, or as NormalizeAnnotation.
absl::StatusOr<std::vector<SourcedAnnotation>> ParseAnnotations(std::string_view text, std::string_view source);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_ANNOTATIONS_H_
