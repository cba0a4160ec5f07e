// Loading of SWDE-format ground truth: the true attribute values of each page
// of a site, used to score extraction and to simulate an editor annotating
// pages.
//
// One file per attribute, named <vertical>-<site>-<attribute>.txt (SWDE keeps
// them in groundtruth/<vertical>/; common/demo's WriteSite writes the same
// layout with site "vertexdemo"). Each file holds, with "\n" or "\r\n" line
// ends and an optional UTF-8 byte order mark:
//   line 1: a header ("<vertical>\t<site>\t<attribute>"), not checked;
//   line 2: counts ("<pages>\t<pages with a value>\t..."), not checked;
//   then one line per page: "<page id>\t<N>\t<value 1>\t...\t<value N>".
// A value "<NULL>" stands for no value ("<id>\t0\t<NULL>" is an absent
// attribute); fields past the N-th must be empty or "<NULL>". Blank lines are
// skipped.
//
// Thread-safety: pure functions over the file system.
#ifndef VERTEX_COMMON_EVAL_GROUND_TRUTH_H_
#define VERTEX_COMMON_EVAL_GROUND_TRUTH_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace vertex::eval {

struct GroundTruth {
  // From the file names, e.g. "book" and "booksamillion".
  std::string vertical;
  std::string site;
  // Every attribute that has a file, sorted by name.
  std::vector<std::string> attributes;
  // Page id -> attribute -> values in file order. Every page id listed in any
  // file is a key, and every attribute whose file lists the page is a key of
  // its map, with an empty vector when the attribute is absent (<NULL>).
  // Values are HTML-entity-decoded (common/html/entities.h) and otherwise
  // raw: whitespace and punctuation next to the value are kept.
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, std::vector<std::string>>>
      pages;
};

// Loads the ground truth of `site` from every file named
// <vertical>-<site>-<attribute>.txt anywhere under `dir` (the groundtruth
// root, a vertical subdirectory of it, or a site directory holding it).
// Errors:
//   InvalidArgument  `site` is empty.
//   NotFound         `dir` is not a directory, or holds no file of `site`
//                    (the message names both).
//   InvalidArgument  a malformed line: a count that is not a non-negative
//                    number, fewer value fields than the count, more non-empty
//                    non-<NULL> fields than the count, a page id listed twice
//                    in one file, or a file without its two header lines (the
//                    message is "<file>:<line>: ..."); files of `site` for
//                    several verticals (pass the vertical's subdirectory) or
//                    two files for one attribute.
//   PermissionDenied a directory under `dir` cannot be listed.
//   others           as common/util/file.h's ReadFile, naming the file.
absl::StatusOr<GroundTruth> LoadGroundTruth(const std::string& dir, const std::string& site);

// The page id of a page file: its base name without the extension, e.g.
// "0001" for ".../book/booksamillion/0001.htm" ("name" for "name").
std::string PageIdOfFile(std::string_view path);

}  // namespace vertex::eval

#endif  // VERTEX_COMMON_EVAL_GROUND_TRUTH_H_
