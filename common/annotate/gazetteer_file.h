// Gazetteers as text files (one term per line; blank lines and lines
// starting with '#' skipped; UTF-8) and the NAME=FILE flags that name them.
#ifndef VERTEX_COMMON_ANNOTATE_GAZETTEER_FILE_H_
#define VERTEX_COMMON_ANNOTATE_GAZETTEER_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/annotate/annotator.h"

namespace vertex::annotate {

// Largest gazetteer file read.
inline constexpr size_t kMaxGazetteerFileBytes = size_t{64} << 20;

// Reads the gazetteer file at `path`. NotFound / ResourceExhausted (over
// kMaxGazetteerFileBytes) naming the path; InvalidArgument naming the path
// and line for a term the gazetteer refuses (longer than 200 bytes) or a
// line that is not UTF-8.
absl::StatusOr<Gazetteer> ReadGazetteerFile(const std::string& path);

// The gazetteers of "NAME=FILE" specs, read. InvalidArgument naming the
// spec for one without '=' or with a bad name ([a-z][a-z0-9_]*) or a name
// given twice; the file's errors.
absl::StatusOr<GazetteerSet> ReadGazetteerSpecs(const std::vector<std::string>& specs);

// Writes the gazetteer's terms, one per line, sorted.
std::string GazetteerText(const Gazetteer& gazetteer);

}  // namespace vertex::annotate

#endif  // VERTEX_COMMON_ANNOTATE_GAZETTEER_FILE_H_
