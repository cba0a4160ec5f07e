// Training the list finder from the rule store (issue 14, deliverable 3), as
// Cohen & Fan train theirs from working wrappers: every pair of a cluster's
// current rule that extracts a list and a snapshot page stored with that
// rule is a labelled page, with no new label.
//
// Which rules: record-level rules (Rule.record), and rules with a
// multi-valued attribute (AttributeRule.multi_valued or the schema's).
// Each snapshot is parsed as extraction parses pages (html::Parser with the
// given ParseOptions and the builder of the rule's site, the snapshot's
// URL) and the rule is applied to it.
// The positives (the paper's encoding, problem.h):
//   multi-valued attribute  the elements holding its values: the nodes its
//                           XPath selects (a text node: its parent element)
//                           whose text holds one of the values the rule
//                           extracts (or whose value_attribute gives one);
//                           when every such element is or holds an anchor
//                           with an href, the list is a hot-list and those
//                           anchors are positive too.
//   record-level rule       the record starts its record XPath selects (the
//                           records' item elements), and, when at least 2
//                           records have one, each record's link (the first
//                           element with an href that an attribute read
//                           from href selects): a hot-list.
// A page's positives are the union over the rule's lists; the whole page is
// labelled (labelled_until unset).
//
// Skipped, each counted and reported in words: a list whose values sit in
// fewer than 2 elements (a split text, a single value), a rule that does
// not compile against its schema, a snapshot that does not parse or on
// which the rule fails, a snapshot page seen before (same bytes), a page
// with no list left.
//
// Thread-safety: pure functions of their inputs (the store is read, or
// written once by TrainListModelFromStore).
#ifndef VERTEX_COMMON_LISTS_STORE_TRAINING_H_
#define VERTEX_COMMON_LISTS_STORE_TRAINING_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/lists/list_finder.h"
#include "common/store/rule_store.h"
#include "vertex/v1/list_model.pb.h"

namespace vertex::lists {

struct StoreTrainingOptions {
  // Only the rules of these sites; empty: every site. An unknown site is
  // NotFound.
  std::vector<std::string> sites;
  // CART settings and the feature set.
  TrainOptions train;
  // How snapshots are parsed (the page size and depth limits; the builder
  // is each site's).
  html::ParseOptions parse;
};

// The labelled pages of a store, and what was used and skipped.
struct StoreTrainingSet {
  // The parsed snapshots; `pages` point into it (a deque: stable addresses).
  std::deque<html::Page> parsed;
  std::vector<LabelledPage> pages;
  // Rules that gave at least one labelled page, and their sites.
  uint32_t rules = 0;
  uint32_t sites = 0;
  // Rules with a list that were looked at (used or not).
  uint32_t candidate_rules = 0;
  // What was used and what was skipped, in words.
  std::vector<std::string> report;
};

// Collects the labelled pages of `store` (see above). NotFound for a site in
// options.sites that is not registered; store errors as they come. An empty
// set is not an error (its report says why).
absl::StatusOr<StoreTrainingSet> CollectStoreTraining(const store::RuleStore& store,
                                                      const StoreTrainingOptions& options);

// What TrainListModelFromStore did.
struct StoreTrainingResult {
  // As stored, with its version.
  v1::ListModel model;
  uint32_t rules = 0;
  uint32_t pages = 0;
  std::vector<std::string> report;
};

// Collects the labelled pages, trains a model on them (TrainListModel),
// records where it came from (trained_from: "store: N rules of M sites, P
// snapshot pages"), created_unix_ms = `now_unix_ms`, and stores it as the
// next version (RuleStore::PutListModel). FailedPrecondition, with the
// report's reasons, when the store gives no labelled page; errors of
// CollectStoreTraining, TrainListModel and the store as they come.
absl::StatusOr<StoreTrainingResult> TrainListModelFromStore(store::RuleStore* store,
                                                            const StoreTrainingOptions& options,
                                                            int64_t now_unix_ms);

// Trains a model on the problem set in `dir` (problem.h; `vertexctl gen-demo
// --kind lists` writes one), out-of-class problems left out, and stores it
// as the next version with trained_from "problems: DIR, N pages" and
// created_unix_ms = `now_unix_ms`. `result.rules` is 0. LoadProblems'
// errors (naming the file and line); InvalidArgument naming the problem for
// a page that does not parse or a positive XPath that does not select one
// element; FailedPrecondition when no in-class problem is left.
absl::StatusOr<StoreTrainingResult> TrainListModelFromProblems(store::RuleStore* store, const std::string& dir,
                                                               const TrainOptions& options, int64_t now_unix_ms);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_STORE_TRAINING_H_
