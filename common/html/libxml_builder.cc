#include "common/html/libxml_builder.h"

namespace vertex::html {

absl::StatusOr<BuiltDocument> BuildWithLibxml2(std::string_view, const std::string& url, const ParseOptions&,
                                               TagSink*) {
  return absl::UnimplementedError("page '" + url + "': the libxml2 page builder is not built yet");
}

}  // namespace vertex::html
