// A list-finding problem (Cohen & Fan, issue 14): one page and the list or
// hot-list a working wrapper extracts from it. The generator
// (common/demo/list_problems.h) writes them, the store's (rule, snapshot)
// pairs give them, and the evaluation harness (list_eval.h) reads them.
//
// On disk a problem set is a directory: problems.jsonl (one JSON object per
// line, the fields below except `html`) and pages/<id>.html.
#ifndef VERTEX_COMMON_LISTS_PROBLEM_H_
#define VERTEX_COMMON_LISTS_PROBLEM_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace vertex::lists {

enum class ListKind {
  // s_1..s_N: each item is all the text below a node.
  kList,
  // <s_i, u_i>: the text below a node and the href of an anchor inside it
  // (or of the node itself when it is the anchor).
  kHotList,
};

// "list" / "hotlist".
const char* ListKindName(ListKind kind);

struct ListRow {
  std::string text;  // whitespace-normalised
  std::string url;   // hot-lists: the href, resolved against the page URL
};

struct ListProblem {
  std::string id;      // unique in its set, e.g. "birds-017"; names pages/<id>.html
  std::string domain;  // vocabulary group for leave-one-domain-out ("birds")
  std::string url;     // the page's URL (relative hrefs resolve against it)
  std::string html;    // the page
  ListKind kind = ListKind::kList;
  // The paper's encoding: absolute XPaths (/html[1]/body[1]/...) of the
  // positive elements on the page as html::Parser builds it. List: the item
  // nodes. Hot-list: the item nodes and the anchors inside them (an
  // anchor-only item is one node).
  std::vector<std::string> positive_xpaths;
  // The decoding: the expected relation, in page order.
  std::vector<ListRow> rows;
  // The page layout that holds the target ("td-grid", "ul-li", "p-run", ...).
  std::string variant;
  // An out-of-class control (items separated by <br>, two fields in one
  // cell): the target is not on markup boundaries, so it is expected to
  // fail; scorers report these apart.
  bool out_of_class = false;
};

// Reads a problem set directory (see above). Errors name the file and line.
absl::StatusOr<std::vector<ListProblem>> LoadProblems(const std::string& dir);

// Writes `problems` to `dir` (created if needed) in the same layout.
absl::Status WriteProblems(const std::vector<ListProblem>& problems, const std::string& dir);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_PROBLEM_H_
