// A linear-time structural pre-scan of an HTML document, taken before
// parsing, that finds the shapes on which Gumbo's tree construction costs
// more than linear time, so the parser can refuse them before Gumbo sees
// them:
//
//  * nesting depth. Gumbo checks element scopes by walking the stack of
//    open elements, so its cost grows with the square of the depth (30,000
//    nested <div>s take 12 s on this machine). The estimate counts start
//    tags of elements that nest (not void elements, nor those whose end tag
//    is optional and which the tree builder closes implicitly: p, li, td,
//    option, ...), subtracts end tags, and skips comments and raw-text
//    elements.
//  * attributes per tag. Gumbo's tokenizer compares each attribute name
//    with every earlier one of its tag (duplicate check), so one tag of n
//    attributes costs n^2 / 2 comparisons (100,000 attributes on one <div>
//    took over 60 s). Attributes are counted as the HTML tokenizer splits
//    them (names, optional "=value", quoted or not), duplicates included
//    (Gumbo checks them too), on start and end tags.
//
// Thread-safety: pure function.
#ifndef VERTEX_COMMON_HTML_NESTING_H_
#define VERTEX_COMMON_HTML_NESTING_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace vertex::html {

struct PreScanLimits {
  int max_depth = 512;
  int max_attributes = 1000;
  // The scan for libxml2's HTML parser (the libxml2 page builder): the
  // attributes limit only (the builder checks depth while it parses;
  // result.max_depth stays 0), and only <script> and <style> content is
  // skipped as raw text (libxml2 parses the tags inside <title>,
  // <textarea>, <iframe>, ..., so they are counted).
  bool libxml2 = false;
};

struct PreScanResult {
  enum class Over { kNone, kDepth, kAttributes };
  // Maximum estimated depth and attribute count seen (up to the point
  // where the scan stopped).
  int max_depth = 0;
  int max_attributes = 0;
  // The first limit exceeded, kNone when none was.
  Over over = Over::kNone;
  // Byte offset of the start of the tag at which the limit was first
  // exceeded, or npos; and that tag's lowercase name (at most 16 chars).
  size_t offset_over_limit = std::string_view::npos;
  std::string tag;
};

// Scans `html` (UTF-8 or any ASCII-compatible encoding). Stops early at the
// first tag over a limit. Linear in the input's size.
PreScanResult PreScanStructure(std::string_view html, const PreScanLimits& limits);

// The 1-based line number of byte `offset` of `html` (lines end at '\n').
size_t LineAt(std::string_view html, size_t offset);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_NESTING_H_
