// A deterministic generator of list and hot-list problems for the
// page-independent list finder (Cohen & Fan, issue 14; the digest's §2.4):
// pages in four domains with distinct vocabularies (birds, games, movies,
// news: hand-written word lists, so that leaving a domain out leaves its
// words out too), each holding one target list or hot-list among
// distractors, with the ground truth the paper encodes (the positive
// elements' absolute XPaths) and decodes (the rows).
//
// Every page is a site template of its own: its class names and ids (drawn
// from one pool shared by all domains and all roles, so no class marks the
// target across pages), its link style (absolute, root-relative,
// document-relative hrefs), HTML5 sectioning or a layout table, and which
// distractors it carries. Page sizes run from about `min_elements` to
// `max_elements` elements (log-uniform), the paper's normalised counts
// depend on them.
//
// Target variants (ListProblem::variant) and their positive elements:
//   list     td-grid       a table whose every cell is an item (Fig. 1): the td
//            tr-rows       table rows of 2-3 cells: the tr
//            ul-li, ol-li  the li
//            dl-dt         a glossary: the dt (the term); the dd, its
//                          description, is not an item
//            p-run         paragraphs: the p (one page of the set, the first
//                          p-run page, has long_p_run of them)
//            div-item      div children of a container: the item divs
//            table-header  a table whose first row (th cells) is not an
//                          item: the other tr
//   hotlist  li-anchors    li with 1-3 anchors: the li and its anchors (one
//                          row per anchor, the li's text and the href)
//            anchor-only   anchors as items: the a (text and href its own)
//            tr-link       table rows with the link in one cell: the tr and
//                          the a
// Out-of-class controls (out_of_class = true), expected to fail because the
// target is not on markup boundaries:
//            br-separated  items separated by <br> in one element: the
//                          positive is that element, the rows the items
//            name-affiliation  "name, affiliation" in one cell: the positives
//                          are the td, the rows the names alone
// Distractors (GeneratedListProblem::distractors): "nav-menu" (a repeated
// hot-list in the header), "footer-columns" (link columns), "breadcrumbs",
// "layout-table" (a table wrapping the page), "select" (option lists in a
// form), "prose-links" (paragraphs with inline links), "sidebar-list" (a
// short list). Every page carries at least one, the one of its index
// modulo 7, so every distractor occurs in any set of 7 pages or more;
// the others are drawn per page. Filler (teasers, related-link boxes, fact
// tables, prose) brings a page to its size.
//
// Rows are whitespace-normalised (html::NormalizeSpace) text of the
// positive elements as html::Parser builds the page (Gumbo keeps the
// markup as written: the generator writes <tbody> itself and nests only
// what HTML5 parsing keeps), hot-list URLs the hrefs resolved against the
// page URL.
//
// The generator never uses <random>: equal options give byte-identical
// problems on every platform.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_DEMO_LIST_PROBLEMS_H_
#define VERTEX_COMMON_DEMO_LIST_PROBLEMS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/lists/problem.h"

namespace vertex::demo {

// "birds", "games", "movies", "news".
const std::vector<std::string>& ListProblemDomains();

// The hand-written words of `domain` (item names, prose, link words,
// sections), each entry one word; pairwise disjoint across domains and
// from ListProblemSharedWords(). InvalidArgument naming an unknown domain.
absl::StatusOr<std::vector<std::string>> ListProblemVocabulary(absl::string_view domain);

// The boilerplate every domain's pages share (navigation, footers,
// selects): "Home", "Contact", "Newest", ...
const std::vector<std::string>& ListProblemSharedWords();

// The in-class variant names, the out-of-class control names and the
// distractor names, as above.
const std::vector<std::string>& ListProblemVariants();
const std::vector<std::string>& ListProblemControls();
const std::vector<std::string>& ListProblemDistractors();

struct ListProblemsOptions {
  uint64_t seed = 1;
  // Problems (pages), 1..10,000; split evenly over the domains.
  int pages = 96;
  // Domains to draw from, a subset of ListProblemDomains() without
  // repeats; empty: all four.
  std::vector<std::string> domains;
  // Page sizes in elements (html, head and body included), drawn
  // log-uniformly; 30 <= min_elements <= max_elements <= 20,000. A page's
  // target and distractors may take it past max_elements (the long p run
  // does).
  int min_elements = 50;
  int max_elements = 3000;
  // Paragraphs of the one long p run (cf. the paper's rule R3, numSiblings
  // >= 317), 100..5,000; 0: no long run.
  int long_p_run = 320;
  // Fraction of the pages that are out-of-class controls, 0..0.5 (rounded
  // to whole pages; the controls alternate between the two kinds).
  double out_of_class_fraction = 1.0 / 16;
};

struct GeneratedListProblem {
  lists::ListProblem problem;
  // The distractors on the page, in the order of ListProblemDistractors().
  std::vector<std::string> distractors;
  // Elements of the page (html, head and body included), as the parser
  // will build them.
  size_t elements = 0;
};

// Generates the problems, ids "<domain>-NNN" numbered per domain, domains in
// the order given. InvalidArgument naming the option when one is out of
// range.
absl::StatusOr<std::vector<GeneratedListProblem>> GenerateListProblems(
    const ListProblemsOptions& options);

// The problems alone (for lists::WriteProblems).
std::vector<lists::ListProblem> ProblemsOf(std::vector<GeneratedListProblem> generated);

}  // namespace vertex::demo

#endif  // VERTEX_COMMON_DEMO_LIST_PROBLEMS_H_
