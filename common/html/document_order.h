// Document order of a page's nodes, for code comparing many of them.
//
// Thread-safety: pure functions of the page, which must outlive nothing
// returned (the map holds node addresses only).
#ifndef VERTEX_COMMON_HTML_DOCUMENT_ORDER_H_
#define VERTEX_COMMON_HTML_DOCUMENT_ORDER_H_

#include <cstddef>

#include "absl/container/flat_hash_map.h"
#include "common/html/page.h"

namespace vertex::html {

// The preorder rank (0 for the root element, then document order, as
// Node::NextInDocument walks) of every node of `page` under its root
// element, keyed by Node::raw(): one walk of the page.
absl::flat_hash_map<const void*, size_t> PreorderRanks(const Page& page);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_DOCUMENT_ORDER_H_
