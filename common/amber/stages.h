// AMBER's three stages one at a time (amber.h runs them together): for
// tests that reproduce the paper's figures stage by stage, and for callers
// that start from a segmentation of their own (Fig. 8 presupposes one).
//
// Each stage takes the previous stage's Typing and returns it extended;
// notes accumulate. Annotations must be valid for `page` (Run checks them;
// these functions skip those with an attribute out of range or a null
// node).
//
// Thread-safety: pure functions of their arguments.
#ifndef VERTEX_COMMON_AMBER_STAGES_H_
#define VERTEX_COMMON_AMBER_STAGES_H_

#include <vector>

#include "common/amber/amber.h"

namespace vertex::amber {

// Alg. 2: the data areas (root and pivots; no records yet) of the
// annotations of attribute `pivot`.
Typing Identify(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
                int pivot, const Options& options);

// Alg. 3: each area's records (record_length, shift, shift_irregularity,
// records[].nodes). Areas with no segmentation are dropped with a note;
// grid areas are replaced by one area per row.
Typing Segment(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
               Typing identified, const Options& options);

// Alg. 4: each record's attributes, from the records as given.
Typing Align(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
             const schema::CompiledSchema& schema, Typing segmented, const Options& options);

}  // namespace vertex::amber

#endif  // VERTEX_COMMON_AMBER_STAGES_H_
