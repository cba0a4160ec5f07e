// The term lists behind BuiltinGazetteer (annotator.h), written in the
// project (no downloads): real UK places (cities, towns, London districts),
// car makes, and car model names and codes.
//
// Thread-safety: constant data.
#ifndef VERTEX_COMMON_ANNOTATE_BUILTIN_GAZETTEERS_H_
#define VERTEX_COMMON_ANNOTATE_BUILTIN_GAZETTEERS_H_

#include <span>
#include <string_view>

namespace vertex::annotate {

struct BuiltinList {
  std::string_view name;
  std::span<const char* const> terms;
};

// "uk_places", "car_makes", "car_models", in that order.
std::span<const BuiltinList> BuiltinLists();

}  // namespace vertex::annotate

#endif  // VERTEX_COMMON_ANNOTATE_BUILTIN_GAZETTEERS_H_
