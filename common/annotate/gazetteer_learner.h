// Gazetteer learning (AMBER Alg. 5, ../shared/papers/DIGEST.md section 3.2):
// grows one attribute's term list U from the typings AMBER finds, and
// blacklists (U-bar) the terms that are more often noise than values.
//
// A round runs over a set of pages. For each page the caller annotates it
// with gazetteer() (annotate::Annotator), runs AMBER on it and passes both
// to Observe; EndRound then applies the round's evidence:
//
//   term extraction  every component (TermComponents) of a node typed with
//                    the attribute, that is not blacklisted, joins U when
//                    new, with zero evidence (the node's gazetteer
//                    annotations count as components whole, and components
//                    inside them are skipped: "Newport Pagnell" does not
//                    also give "Newport" and "Pagnell"; components that
//                    overlap another attribute's annotation are skipped:
//                    the postcode "TN23 4AB" of "Marbury, TN23 4AB" gives
//                    no place; the node's text nodes are read while they
//                    total at most 1,000 bytes: a value is short, and a
//                    block typed by inference is no term list);
//   term validation  ev(v, U) += the number of typed nodes holding v (as a
//                    component or as one of the node's gazetteer
//                    annotations);
//   term cleaning    ev(v, U-bar) += the number of nodes inside the page's
//                    records, not typed with the attribute, where the
//                    gazetteer annotated v; v is blacklisted when
//                    ev(v, U-bar) >= theta * ev(v, U).
//
// Noise is counted inside records only (GazetteerLearnerOptions::
// noise_outside_records to count it everywhere, the literal reading of
// (n, rho) not in T): AMBER's typing says nothing about text outside the
// records, and a site repeats its menus and "popular searches" of real towns
// on every page, which would otherwise outweigh each town's few
// occurrences as a record's location. Measured on generated real-estate
// listings (120 sites x 2 pages, 20% seed): counted everywhere (with the
// component rules of the time), round 3 blacklisted 1,122 terms, most of
// them real places, and the location typing collapsed (F1 60% -> 2%).
//
// The digest's [proposed] readings are followed: evidence starts at zero only
// for terms new to U (a known term keeps its evidence), the blacklist test is
// the paper's prose (noise evidence at least theta times the value
// evidence, theta = 1.5 by default), and freq counts nodes of the current
// round's typings. A blacklisted term stays blacklisted: its components are
// skipped in later rounds.
//
// Thread-safety: a GazetteerLearner is not thread-safe; TermComponents is a
// pure function.
#ifndef VERTEX_COMMON_ANNOTATE_GAZETTEER_LEARNER_H_
#define VERTEX_COMMON_ANNOTATE_GAZETTEER_LEARNER_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/amber/amber.h"
#include "common/annotate/annotator.h"

namespace vertex::annotate {

// The components of a node's text that may be terms (Alg. 5's
// components(n)): the text (whitespace-normalised) is split into segments
// at ", ; | / ( )" and at " - "; a segment of several words that are all
// capitalised (lower-case joining words such as "upon", "on", "le", "the"
// may sit between them: "Newcastle upon Tyne"; leading numbers are dropped
// first: "12 Green Lane" gives "Green Lane") is one component, any other
// segment gives each of its words. Punctuation at the ends of a component
// is dropped, and so are components with no letter (numbers, prices), of
// one byte ("A" of "band A") or longer than 200 bytes. In text order, without repeats (compared folded).
// "Oxford, Walton Street, ground-floor apartment" ->
// {"Oxford", "Walton Street", "ground-floor", "apartment"}.
std::vector<std::string> TermComponents(std::string_view text);

// What Alg. 5 knows of one term.
struct GazetteerTermState {
  // ev(v, U): typed nodes that held the term, over all rounds.
  double ev_pos = 0;
  // ev(v, U-bar): nodes outside the typing where the term was annotated.
  double ev_neg = 0;
  // In U-bar: never a value of the attribute again.
  bool blacklisted = false;
};

// What one round changed, and what it saw.
struct RoundResult {
  // Terms that joined U this round, and terms blacklisted this round, in
  // their canonical spelling, sorted.
  std::vector<std::string> added;
  std::vector<std::string> blacklisted;
  // Nodes the round's typings typed with the attribute, and those of them
  // that held a gazetteer annotation of it (the paper's LE).
  size_t typed_nodes = 0;
  size_t annotated_typed_nodes = 0;
  // |U minus U-bar| after the round.
  size_t gazetteer_size = 0;
};

struct GazetteerLearnerOptions {
  // The blacklist factor (> 0).
  double theta = 1.5;
  // Count as noise the attribute's annotations outside every record too.
  bool noise_outside_records = false;
};

class GazetteerLearner {
 public:
  // Learns the gazetteer of schema attribute `attribute` (an index, as in
  // Annotation::attribute and amber::AttributeMatch::attribute). `theta`
  // is the blacklist factor (> 0).
  explicit GazetteerLearner(int attribute, double theta = 1.5);
  GazetteerLearner(int attribute, const GazetteerLearnerOptions& options);

  // Adds the gazetteer's terms to U (the seed) with zero evidence; terms
  // already known keep their state.
  void Seed(const Gazetteer& gazetteer);
  // Adds the gazetteer's terms to U-bar: known non-values, such as the terms
  // of a disjoint attribute.
  void SeedNoise(const Gazetteer& gazetteer);

  // Replaces every term's state by `terms` (as terms() returned them, e.g.
  // read back from the rule store). InvalidArgument naming the term for an
  // empty or over-long term, or evidence that is negative or not finite;
  // nothing changes then.
  absl::Status Restore(const std::map<std::string, GazetteerTermState>& terms);

  // One page's evidence: its typing (areas, records, attributes) and the
  // annotations the typing was computed from. Accumulated until EndRound.
  void Observe(const amber::Typing& typing, const std::vector<Annotation>& annotations);

  // Applies the evidence observed since the last EndRound (extraction and
  // validation first, then cleaning) and starts a new round.
  RoundResult EndRound();

  // U minus U-bar: the terms to annotate the next round with.
  Gazetteer gazetteer() const;
  // Every term known, in U or U-bar, by canonical spelling.
  std::map<std::string, GazetteerTermState> terms() const;

  int attribute() const { return attribute_; }
  double theta() const { return options_.theta; }

 private:
  struct Term {
    std::string spelling;
    GazetteerTermState state;
  };
  // Evidence of the current round for one term.
  struct Count {
    std::string spelling;
    double count = 0;
  };

  bool IsBlacklisted(const std::string& folded) const;
  Term& FindOrAdd(const std::string& folded, const std::string& spelling, bool* added);

  int attribute_;
  GazetteerLearnerOptions options_;
  // By folded term (html::FoldText).
  std::map<std::string, Term> terms_;
  // The current round, by folded term.
  std::map<std::string, Count> round_pos_;
  std::map<std::string, Count> round_neg_;
  size_t round_typed_ = 0;
  size_t round_annotated_typed_ = 0;
};

}  // namespace vertex::annotate

#endif  // VERTEX_COMMON_ANNOTATE_GAZETTEER_LEARNER_H_
