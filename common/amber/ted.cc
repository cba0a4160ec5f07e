#include "common/amber/ted.h"

#include <algorithm>

namespace vertex::amber {

uint32_t TagTree::TextLabel() {
  static const uint32_t label = html::TagToken("#text");
  return label;
}

TagTree TagTree::FromNode(html::Node root, int max_nodes) {
  TagTree tree;
  if (!root) return tree;
  max_nodes = std::max(max_nodes, 1);
  // Preorder walk with depths, stopped at the cap.
  std::vector<uint32_t> pre_label;
  std::vector<int> pre_depth;
  std::vector<int> pre_parent;
  std::vector<int> open;  // preorder indices of the current ancestors
  int depth = 0;
  html::Node n = root;
  while (n) {
    if (static_cast<int>(pre_label.size()) == max_nodes) {
      tree.truncated_ = true;
      break;
    }
    pre_label.push_back(n.is_element() ? html::TagToken(n.tag()) : TextLabel());
    pre_depth.push_back(depth);
    pre_parent.push_back(open.empty() ? -1 : open.back());
    // Advance as NextInDocument does, tracking the depth.
    if (html::Node child = n.first_child()) {
      open.push_back(static_cast<int>(pre_label.size()) - 1);
      ++depth;
      n = child;
      continue;
    }
    html::Node next;
    for (html::Node up = n; up && !(up == root); up = up.parent()) {
      if ((next = up.next_sibling())) break;
      if (open.empty()) break;
      open.pop_back();
      --depth;
    }
    n = next;
  }
  const int count = static_cast<int>(pre_label.size());
  std::vector<int> subtree(count, 1);
  for (int i = count - 1; i > 0; --i) subtree[pre_parent[i]] += subtree[i];
  tree.labels_.resize(count);
  tree.leftmost_.resize(count);
  for (int i = 0; i < count; ++i) {
    // In postorder a node follows its subtree and every earlier node but
    // its ancestors; its subtree is the range ending at it.
    const int post = i + subtree[i] - 1 - pre_depth[i];
    tree.labels_[post] = pre_label[i];
    tree.leftmost_[post] = post - subtree[i] + 1;
  }
  return tree;
}

namespace {

// The keyroots: for each leftmost leaf, the highest node having it.
std::vector<int> Keyroots(const std::vector<int>& leftmost) {
  const int n = static_cast<int>(leftmost.size());
  std::vector<int> highest(n, -1);
  for (int i = 0; i < n; ++i) highest[leftmost[i]] = i;
  std::vector<int> roots;
  for (int i = 0; i < n; ++i) {
    if (highest[leftmost[i]] == i) roots.push_back(i);
  }
  std::sort(roots.begin(), roots.end());
  return roots;
}

}  // namespace

int TreeEditDistance(const TagTree& a, const TagTree& b) {
  const int n1 = a.size();
  const int n2 = b.size();
  if (n1 == 0 || n2 == 0) return n1 + n2;
  const std::vector<uint32_t>& la = a.labels();
  const std::vector<uint32_t>& lb = b.labels();
  const std::vector<int>& ca = a.leftmost();
  const std::vector<int>& cb = b.leftmost();
  std::vector<int> tree_dist(static_cast<size_t>(n1) * n2, 0);
  std::vector<int> forest(static_cast<size_t>(n1 + 1) * (n2 + 1), 0);
  const int width = n2 + 1;
  for (int i : Keyroots(ca)) {
    for (int j : Keyroots(cb)) {
      const int li = ca[i];
      const int lj = cb[j];
      const int rows = i - li + 2;
      const int cols = j - lj + 2;
      forest[0] = 0;
      for (int x = 1; x < rows; ++x) forest[x * width] = x;
      for (int y = 1; y < cols; ++y) forest[y] = y;
      for (int x = 1; x < rows; ++x) {
        const int i1 = li + x - 1;
        for (int y = 1; y < cols; ++y) {
          const int j1 = lj + y - 1;
          const int del = forest[(x - 1) * width + y] + 1;
          const int ins = forest[x * width + y - 1] + 1;
          int best = std::min(del, ins);
          if (ca[i1] == li && cb[j1] == lj) {
            const int rel = forest[(x - 1) * width + y - 1] + (la[i1] == lb[j1] ? 0 : 1);
            best = std::min(best, rel);
            tree_dist[static_cast<size_t>(i1) * n2 + j1] = best;
          } else {
            const int p = ca[i1] - li;
            const int q = cb[j1] - lj;
            best = std::min(best, forest[p * width + q] + tree_dist[static_cast<size_t>(i1) * n2 + j1]);
          }
          forest[x * width + y] = best;
        }
      }
    }
  }
  return tree_dist[static_cast<size_t>(n1 - 1) * n2 + (n2 - 1)];
}

}  // namespace vertex::amber
