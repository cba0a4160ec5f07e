// Extracting records from many page files on several threads, each with its
// own parser; results come back in input order.
//
// Thread-safety: the function runs its own threads; `extractor` is shared
// read-only (SiteExtractor is safe for that).
#ifndef VERTEX_COMMON_WORKFLOW_BATCH_EXTRACT_H_
#define VERTEX_COMMON_WORKFLOW_BATCH_EXTRACT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/site_extractor.h"
#include "common/html/page.h"

namespace vertex::workflow {

struct FileRecord {
  std::string file;
  // The page's URL (from its file), or "" when it could not be read.
  std::string url;
  // The record, or why none: the file's read error or the page's parse error.
  absl::StatusOr<extract::Record> record;
};

// Reads every file (its URL from a <base href> first line, see page_file.h)
// and extracts its record. `threads` 0: one per hardware thread.
std::vector<FileRecord> ExtractFiles(const extract::SiteExtractor& extractor, const std::vector<std::string>& files,
                                     const html::ParseOptions& parse, int threads);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_BATCH_EXTRACT_H_
