#include "common/workflow/annotations.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"

namespace vertex::workflow {
namespace {

absl::Status LineError(std::string_view source, int line, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(std::string(source), ":", line, ": ", std::string(what)));
}


absl::StatusOr<v1::Annotation> ParseLine(std::string_view text, std::string_view source, int line) {
  v1::Annotation a;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(std::string(text), &a, options);
  if (!status.ok()) return LineError(source, line, "bad annotation: " + std::string(status.message()));
  absl::StatusOr<v1::Annotation> normalized = NormalizeAnnotation(std::move(a));
  if (!normalized.ok()) return LineError(source, line, std::string(normalized.status().message()));
  return normalized;
}

}  // namespace

absl::StatusOr<v1::Annotation> NormalizeAnnotation(v1::Annotation a) {
  if (a.file().empty() && a.url().empty()) return absl::InvalidArgumentError("no \"file\" (or \"url\")");
  if (a.attribute().empty()) return absl::InvalidArgumentError("no \"attribute\"");
  const bool has_values = !a.value().empty() || a.values_size() > 0;
  if (a.absent() ? has_values || !a.xpath().empty() : !has_values && a.xpath().empty()) {
    return absl::InvalidArgumentError(
        "give \"value\"/\"values\" (with the \"xpath\" of the node holding them, optionally), an \"xpath\", or "
        "\"absent\"");
  }
  for (const std::string& v : a.values()) {
    if (v.empty()) return absl::InvalidArgumentError("an empty value");
  }
  if (a.partial() && !has_values) {
    return absl::InvalidArgumentError("\"partial\" (the first values of a list) needs \"value\"/\"values\"");
  }
  if (a.partial() && a.record() != 0) {
    return absl::InvalidArgumentError("\"partial\" is not supported on record-level annotations (\"record\")");
  }
  if (!a.value().empty()) a.add_values(a.value());
  a.clear_value();
  return a;
}

absl::StatusOr<std::vector<SourcedAnnotation>> ParseAnnotations(std::string_view text, std::string_view source) {
  std::vector<SourcedAnnotation> out;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  int line = 0;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    start = end + 1;
    ++line;
    if (line == 1 && l.substr(0, 3) == "\xEF\xBB\xBF") l.remove_prefix(3);
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    if (l.empty() || l.front() == '#') continue;
    absl::StatusOr<v1::Annotation> a = ParseLine(l, source, line);
    if (!a.ok()) return a.status();
    const auto key = std::make_tuple(a->file(), a->url(), a->attribute());
    auto [it, inserted] = index.emplace(key, out.size());
    if (inserted) {
      out.push_back({*std::move(a), line});
      continue;
    }
    v1::Annotation& merged = out[it->second].annotation;
    if (merged.values_size() == 0 || a->values_size() == 0) {
      return LineError(source, line, absl::StrCat("attribute \"", a->attribute(), "\" of this page is annotated on line ",
                                                  out[it->second].line, " already"));
    }
    if (merged.partial() != a->partial()) {
      return LineError(source, line, absl::StrCat("attribute \"", a->attribute(), "\" of this page is annotated on line ",
                                                  out[it->second].line, " ", merged.partial() ? "with" : "without",
                                                  " \"partial\"; give it on every line of the list or on none"));
    }
    if (merged.xpath() != a->xpath()) {
      return LineError(source, line, absl::StrCat("attribute \"", a->attribute(), "\" of this page is annotated on line ",
                                                  out[it->second].line, " with another \"xpath\""));
    }
    for (const std::string& v : a->values()) merged.add_values(v);
  }
  return out;
}

}  // namespace vertex::workflow
