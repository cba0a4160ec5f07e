// Labels for the list finder from record-level list truth
// (common/eval/list_truth.h): the demo shop's category pages written by
// `vertexctl gen-demo` to list_truth.jsonl, or an editor's labelled category
// pages, turned into LabelledPages in the paper's hot-list encoding (the
// item nodes and the anchors inside them).
//
// Thread-safety: pure functions of their inputs.
#ifndef VERTEX_COMMON_LISTS_TRUTH_LABELS_H_
#define VERTEX_COMMON_LISTS_TRUTH_LABELS_H_

#include "absl/status/statusor.h"
#include "common/eval/list_truth.h"
#include "common/html/page.h"
#include "common/lists/list_finder.h"

namespace vertex::lists {

// The LabelledPage of `page` whose records `truth` gives. A record's
// anchors are the a@href of `page` that resolve (against the page's base
// URL, fragments dropped) to its link; an anchor's item is its highest
// ancestor-or-self that holds no anchor of another record (with one record
// on the page, the anchor itself). Records of equal links (a product listed
// twice) share their anchors. Positives: the items and the anchors, in
// document order. The name is truth.file (else the URL). InvalidArgument
// naming the page and the link for a record with no anchor on the page.
absl::StatusOr<LabelledPage> LabelledPageFromTruth(const eval::ListTruthPage& truth, const html::Page& page);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_TRUTH_LABELS_H_
