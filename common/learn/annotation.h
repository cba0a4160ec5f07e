// Resolving text-value annotations to nodes (what a ground-truth file or an
// editor typing values gives) before rule learning.
//
// Where a value is looked up, in this order of sources (ValueSource):
//  1. kText: every non-blank text node of its page outside <head> (its
//     <title> repeats values), <script>, <style> and <noscript>: a node
//     matches when its text contains the value;
//  2. kElement: the rendered text of every element there (its descendants'
//     text, <br> and blocks breaking lines: html::RenderedLines, lines joined
//     by a space): the smallest elements containing the value (none of whose
//     child elements contains it) match — a value with inline markup, an
//     address with <br>;
//  3. kAttribute: the value of an attribute that can hold one (href, src,
//     srcset, content, datetime, title, alt, value, action, poster, cite,
//     data-*) of every element outside <script>, <style> and <noscript>;
//     inside <head> only <meta content> and <link rel=canonical href>. The
//     whole value must equal the annotated one; a URL attribute is compared
//     resolved against the page's URL and <base>, and so is the annotated
//     value (url.h);
//  4. kJsonLd: the scalars of <script type=application/ld+json> (whole value
//     equal), only when the sources above find none of the values.
// An annotation may name where its values are (`scope`: the nodes of an
// XPath the editor clicked): then only places inside a scope node (the node
// itself or a descendant; for an attribute, a scope element's own) count,
// in every source, so the occurrence is the editor's choice.
// Text is compared whitespace-normalised and ASCII-case-folded. Of sources
// 1-3 the one under which the most of the call's values (all annotations)
// are found is used for all of them, the earlier on a tie — one attribute's
// rule reads one kind of node —; values it does not find are not found.
//
// A value found at several places is ambiguous; it is resolved by
// consistency across the annotated pages, never by taking the first: each
// occurrence gets a structural key (its element's tag path with classes —
// for a text node its parent's —, plus the attribute name or JSON path),
// and on every page the occurrence whose key occurs on the most pages wins
// (ties: the key holding the most of the annotations' values — a list's
// values share one structure, e.g. a breadcrumb rather than the menu that
// repeats each of them elsewhere —, then the key whose nodes hold exactly
// the value on the most pages, then the key with the fewest nodes on
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
  // Empty: anywhere on the page; else only inside these nodes (see above).
  std::vector<html::Node> scope;
};

// Where a resolved value was found (see the file comment).
enum class ValueSource {
  kText,       // in one text node: the node
  kElement,    // in an element's rendered text: the element
  kAttribute,  // an attribute's value: the element
  kJsonLd,     // a JSON-LD scalar: the <script> element
};

// "text", "element", "attribute", "json_ld".
const char* ValueSourceName(ValueSource source);

// How a value's node holds it.
struct ValueLocation {
  ValueSource source = ValueSource::kText;
  // kAttribute: the attribute's name ("href", "data-sku").
  std::string attribute;
  // kJsonLd: the dotted key path ("offers.price"; json_ld.h).
  std::string json_path;
  // The text the node offers under this source, in which the value was
  // found: what rule::SourceTexts gives for a rule reading it this way (for
  // kJsonLd, the matching scalar).
  std::string text;
};

struct ResolvedAnnotation {
  const html::Page* page = nullptr;
  // The chosen node of each value found, in the order of the values: a text
  // node (kText) or an element.
  std::vector<html::Node> nodes;
  // Parallel to `nodes`: how each holds its value.
  std::vector<ValueLocation> locations;
  // Values not found (under the source used: see the file comment).
  std::vector<std::string> not_found;
  // How many nodes held each value before resolution (parallel to values).
  std::vector<size_t> occurrences;
  // Other nodes with the same key and text as a chosen node: a value the
  // page lists several times ("9 AM - 5 PM" on five days).
  std::vector<html::Node> repeats;
  // The source every value found was looked up in; kJsonLd says the values
  // are found nowhere on the page but in JSON-LD (the learner reports it).
  ValueSource source = ValueSource::kText;
};

std::vector<ResolvedAnnotation> ResolveValues(const std::vector<ValueAnnotation>& annotations);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_ANNOTATION_H_
