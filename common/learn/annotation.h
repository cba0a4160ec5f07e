// Resolving text-value annotations to nodes (what a ground-truth file or an
// editor typing values gives) before rule learning.
//
// A value is looked up in every non-blank text node of its page outside
// <head> (its <title> repeats values), <script>, <style> and <noscript>, comparing whitespace-normalised,
// ASCII-case-folded text: a node matches when its text contains the value.
// A value found at several nodes is ambiguous; it is resolved by
// consistency across the annotated pages, never by taking the first: each
// occurrence gets a structural key (its parent's tag path with classes), and
// on every page the occurrence whose key occurs on the most pages wins
// (ties: the key holding the most of the annotations' values — a list's
// values share one structure, e.g. a breadcrumb rather than the menu that
// repeats each of them elsewhere —, then the key whose nodes hold exactly
// the value on the most pages, then the key with the fewest text nodes on
// the annotated pages — one annotated page of a tiny shop shows its title in
// the heading and in the related-products tiles: the tiles' structure holds
// a node per tile —, then
// the key itself, so that all pages agree; within a key, a node whose whole
// text is the value, then the shortest, then document order).
//
// Thread-safety: pure function; the Pages must outlive the result.
#ifndef VERTEX_COMMON_LEARN_ANNOTATION_H_
#define VERTEX_COMMON_LEARN_ANNOTATION_H_

#include <string>
#include <vector>

#include "common/html/page.h"

namespace vertex::learn {

struct ValueAnnotation {
  const html::Page* page = nullptr;
  // One value, or several for a multi-valued attribute.
  std::vector<std::string> values;
};

struct ResolvedAnnotation {
  const html::Page* page = nullptr;
  // The chosen text node of each value found, in the order of the values.
  std::vector<html::Node> nodes;
  // Values found nowhere on the page.
  std::vector<std::string> not_found;
  // How many nodes held each value before resolution (parallel to values).
  std::vector<size_t> occurrences;
  // Other nodes with the same key and text as a chosen node: a value the
  // page lists several times ("9 AM - 5 PM" on five days).
  std::vector<html::Node> repeats;
};

std::vector<ResolvedAnnotation> ResolveValues(const std::vector<ValueAnnotation>& annotations);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_ANNOTATION_H_
