// Domain annotators (AMBER section 3.2): find, in a page's text nodes, the
// values of a record-level vertical's attribute types. An attribute with a
// gazetteer (a named term list: place names, car makes) is annotated where
// one of its terms occurs with word boundaries in the node's normalised
// text (longest match, case-insensitive, folded as html::FoldText does); an
// attribute with a value regex (its type's or its own) where the regex
// matches. Attributes of type "url" / "image" annotate <a href> / <img src>
// elements (the value is the URL resolved against the page's URL and
// <base>; an explicit `regex` of the attribute then selects the value from
// it, and links to a fragment, javascript:, mailto:, tel: or data: are
// skipped). Disjoint attributes (Schema.disjoint) annotating the same span
// of the same node cancel each other out. Text inside <head>, <script>,
// <style>, <noscript> and <template> is not annotated.
//
// Word characters, for gazetteer boundaries: ASCII letters and digits and
// every byte >= 0x80 (UTF-8 letters). Folding is html::FoldText's: ASCII
// letters only, so "CITROËN" does not match "Citroën". A regex attribute
// yields every non-overlapping match of its node, left to right.
//
// Thread-safety: a Gazetteer and an Annotator are immutable once built;
// their const methods may run from many threads at once.
#ifndef VERTEX_COMMON_ANNOTATE_ANNOTATOR_H_
#define VERTEX_COMMON_ANNOTATE_ANNOTATOR_H_

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/schema/schema.h"

namespace vertex::annotate {

// ann(type, node, value): `attribute` (schema index) has the value `value`
// in `node`, at bytes [begin, end) of the node's normalised text
// (html::Node::Text()); for url/image attributes `node` is the element and
// the span is empty.
struct Annotation {
  int attribute = -1;
  html::Node node;
  size_t begin = 0;
  size_t end = 0;
  // Normalised: the gazetteer's canonical term, or the regex's value
  // (CompiledSchema::SelectValue), or the resolved URL.
  std::string value;
  // True for a gazetteer match, false for a regex or URL match.
  bool from_gazetteer = false;
};

// A term list matched with word boundaries, longest match first.
class Gazetteer {
 public:
  Gazetteer();
  ~Gazetteer();
  Gazetteer(Gazetteer&&) noexcept;
  Gazetteer& operator=(Gazetteer&&) noexcept;

  // Adds a term (any case; whitespace-normalised and folded). Returns false
  // (and adds nothing) for an empty term or one longer than 200 bytes.
  bool Add(std::string_view term);
  // Removes a term; false when absent.
  bool Remove(std::string_view term);
  bool Contains(std::string_view term) const;
  size_t size() const;
  // The terms in their canonical (first added) spelling, sorted.
  std::vector<std::string> Terms() const;

  struct Match {
    size_t begin = 0;
    size_t end = 0;
    std::string term;  // canonical spelling
  };
  // Non-overlapping matches in `text` (normalised), leftmost-longest, each
  // bounded by non-word characters (or the text's ends).
  std::vector<Match> Find(std::string_view text) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Named gazetteers, shared by the annotators built from them.
using GazetteerSet = std::map<std::string, std::shared_ptr<const Gazetteer>, std::less<>>;

// The gazetteers the project ships, by name ("uk_places", "car_makes",
// "car_models", ...): lists written in the project, no downloads.
// NotFound naming the known names for another name.
absl::StatusOr<std::shared_ptr<const Gazetteer>> BuiltinGazetteer(std::string_view name);

class Annotator {
 public:
  // InvalidArgument when an attribute names a gazetteer `gazetteers` lacks
  // (and that is not built in), naming the attribute and the gazetteer.
  static absl::StatusOr<Annotator> Create(const schema::CompiledSchema& schema, GazetteerSet gazetteers);

  // Every annotation of the page, in document order (then by span, then
  // schema order).
  std::vector<Annotation> Annotate(const html::Page& page) const;

  const schema::CompiledSchema& schema() const;
  const GazetteerSet& gazetteers() const;

 private:
  struct State;
  explicit Annotator(std::shared_ptr<const State> state);
  std::shared_ptr<const State> state_;
};

}  // namespace vertex::annotate

#endif  // VERTEX_COMMON_ANNOTATE_ANNOTATOR_H_
