// A linear-time estimate of how deeply an HTML document nests, taken before
// parsing.
//
// Gumbo's tree construction checks element scopes by walking the stack of
// open elements, so its cost grows with the square of the nesting depth
// (30,000 nested <div>s take 12 s on this machine). The estimate lets the
// parser refuse such input before Gumbo sees it. It counts start tags of
// elements that nest (not void elements, nor those whose end tag is optional
// and which the tree builder closes implicitly: p, li, td, option, ...),
// subtracts end tags, and skips comments and raw-text elements.
//
// Thread-safety: pure function.
#ifndef VERTEX_COMMON_HTML_NESTING_H_
#define VERTEX_COMMON_HTML_NESTING_H_

#include <cstddef>
#include <string_view>

namespace vertex::html {

struct NestingEstimate {
  // Maximum estimated depth seen (stops growing once over the limit).
  int max_depth = 0;
  // Byte offset of the start tag at which the limit was first exceeded, or
  // npos.
  size_t offset_over_limit = std::string_view::npos;
};

// Scans `html` (UTF-8 or any ASCII-compatible encoding). Stops early once
// the estimate exceeds `limit`.
NestingEstimate EstimateNestingDepth(std::string_view html, int limit);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_NESTING_H_
