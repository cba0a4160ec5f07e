// Gazetteer term states in the rule store: what gazetteer learning (AMBER
// Alg. 5, annotate/gazetteer_learner.h) knows of each term of a vertical's
// attribute, kept across rounds and restarts.
//
//   family   key                                    value
//   default  "gaz/" vertical "/" attribute "/" term  "U <ev_pos> <ev_neg>" (a
//                                                    value, in U) or "N ..."
//                                                    (noise, blacklisted)
//
// Verticals hold no '/' and attribute names match [a-z][a-z0-9_]*, so the
// term is everything after the third '/', and one attribute's terms are one
// prefix scan. Evidence is written in the shortest form that reads back to
// the same double ("3", "0.5", "1e+300").
//
// Thread-safety: pure functions; the KvReader / KvBatch rules of
// kv_engine.h apply.
#ifndef VERTEX_COMMON_STORE_GAZETTEER_TERMS_H_
#define VERTEX_COMMON_STORE_GAZETTEER_TERMS_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/store/kv_engine.h"

namespace vertex::store {

// Longest term the store keeps (as annotate::Gazetteer::Add accepts).
inline constexpr size_t kMaxGazetteerTermBytes = 200;

// One term's evidence (mirrors annotate::GazetteerTermState, which the
// store does not depend on).
struct GazetteerTermState {
  double ev_pos = 0;
  double ev_neg = 0;
  bool blacklisted = false;
};

// Term (as spelt) -> state.
using GazetteerTerms = std::map<std::string, GazetteerTermState>;

// The value stored for `state`, and its inverse (nullopt for anything
// EncodeGazetteerTerm does not produce, or evidence that is negative or not
// finite).
std::string EncodeGazetteerTerm(const GazetteerTermState& state);
std::optional<GazetteerTermState> DecodeGazetteerTerm(std::string_view value);

namespace keys {
// "gaz/<vertical>/<attribute>/": every term of the attribute.
std::string GazetteerPrefix(std::string_view vertical, std::string_view attribute);
std::string GazetteerTerm(std::string_view vertical, std::string_view attribute, std::string_view term);
}  // namespace keys

// OK when the vertical and attribute may name a gazetteer in the store;
// InvalidArgument naming the field otherwise (see RuleStore::PutGazetteerTerms).
absl::Status ValidateGazetteerName(std::string_view vertical, std::string_view attribute);

// Adds to `batch` the writes replacing the attribute's stored terms by
// `terms`. InvalidArgument naming the term for a bad term or state.
absl::Status BuildPutGazetteerTerms(const KvReader& reader, std::string_view vertical, std::string_view attribute,
                                    const GazetteerTerms& terms, KvBatch* batch);

// The attribute's stored terms. DataLoss naming the key for a value that does
// not decode.
absl::StatusOr<GazetteerTerms> ReadGazetteerTerms(const KvReader& reader, std::string_view vertical,
                                                  std::string_view attribute);

}  // namespace vertex::store

#endif  // VERTEX_COMMON_STORE_GAZETTEER_TERMS_H_
