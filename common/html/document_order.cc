#include "common/html/document_order.h"

namespace vertex::html {

absl::flat_hash_map<const void*, size_t> PreorderRanks(const Page& page) {
  absl::flat_hash_map<const void*, size_t> rank;
  const Node root = page.root();
  size_t r = 0;
  for (Node n = root; n; n = n.NextInDocument(root)) rank[n.raw()] = r++;
  return rank;
}

}  // namespace vertex::html
