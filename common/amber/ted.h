// Zhang-Shasha tree edit distance (SIAM J. Comput. 1989) on tag-only trees:
// AMBER's segment (Alg. 3) compares the subtrees of candidate records with
// it. A TagTree holds a DOM subtree's labels in postorder: an element is
// labelled by its tag, a text node by "#text"; attributes and text content
// are ignored. Insertions, deletions and relabellings cost 1 each.
//
// Nothing here recurses: the tree is read from the DOM with an iterative
// walk and the distance is the algorithm's keyroot loops. A subtree larger
// than the cap given to TagTree::FromNode keeps its first `max_nodes` nodes
// in document order (a connected tree holding the root) and says so in
// truncated(): the caller reports it.
//
// Thread-safety: TagTree is an immutable value; TreeEditDistance is a pure
// function.
#ifndef VERTEX_COMMON_AMBER_TED_H_
#define VERTEX_COMMON_AMBER_TED_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/html/page.h"

namespace vertex::amber {

class TagTree {
 public:
  // The tag tree of `root`'s subtree (root included), at most `max_nodes`
  // (>= 1) nodes. An empty tree for a null node.
  static TagTree FromNode(html::Node root, int max_nodes);

  // Number of nodes.
  int size() const { return static_cast<int>(labels_.size()); }
  // True when the subtree had more than max_nodes nodes.
  bool truncated() const { return truncated_; }

  // Postorder labels (TagToken of the tag; kTextLabel for text nodes) and,
  // for each node, the postorder index of its leftmost leaf.
  const std::vector<uint32_t>& labels() const { return labels_; }
  const std::vector<int>& leftmost() const { return leftmost_; }

  // The label of text nodes (TagToken("#text")).
  static uint32_t TextLabel();

 private:
  std::vector<uint32_t> labels_;
  std::vector<int> leftmost_;
  bool truncated_ = false;
};

// The unit-cost edit distance between `a` and `b`: the fewest node
// insertions, deletions and relabellings that turn one into the other.
// Time O(|a| |b| min(depth, leaves)^2), memory O(|a| |b|).
int TreeEditDistance(const TagTree& a, const TagTree& b);

}  // namespace vertex::amber

#endif  // VERTEX_COMMON_AMBER_TED_H_
