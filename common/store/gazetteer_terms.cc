#include "common/store/gazetteer_terms.h"

#include <charconv>
#include <cmath>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"

namespace vertex::store {
namespace {

constexpr std::string_view kGazetteerRoot = "gaz/";

absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string Q(std::string_view s) { return absl::StrCat("\"", absl::CEscape(Av(s)), "\""); }

bool IsAttributeName(std::string_view name) {
  if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool IsEvidence(double ev) { return std::isfinite(ev) && ev >= 0; }

void AppendDouble(double v, std::string* out) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, result.ptr);
}

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  const auto result = std::from_chars(s.data(), s.data() + s.size(), v);
  if (result.ec != std::errc() || result.ptr != s.data() + s.size() || !IsEvidence(v)) return std::nullopt;
  return v;
}

absl::Status ValidateTerm(std::string_view term, const GazetteerTermState& state) {
  if (term.empty() || term.size() > kMaxGazetteerTermBytes || term.find('\0') != std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("gazetteer term ", Q(term.substr(0, 40)),
                                                   " is empty, longer than ", kMaxGazetteerTermBytes,
                                                   " bytes or holds a NUL byte"));
  }
  if (!IsEvidence(state.ev_pos) || !IsEvidence(state.ev_neg)) {
    return absl::InvalidArgumentError(absl::StrCat("gazetteer term ", Q(term), ": evidence (", state.ev_pos, ", ",
                                                   state.ev_neg, ") is not finite and >= 0"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string EncodeGazetteerTerm(const GazetteerTermState& state) {
  std::string out = state.blacklisted ? "N " : "U ";
  AppendDouble(state.ev_pos, &out);
  out.push_back(' ');
  AppendDouble(state.ev_neg, &out);
  return out;
}

std::optional<GazetteerTermState> DecodeGazetteerTerm(std::string_view value) {
  if (value.size() < 5 || (value[0] != 'U' && value[0] != 'N') || value[1] != ' ') return std::nullopt;
  const std::string_view numbers = value.substr(2);
  const size_t space = numbers.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::optional<double> pos = ParseDouble(numbers.substr(0, space));
  const std::optional<double> neg = ParseDouble(numbers.substr(space + 1));
  if (!pos.has_value() || !neg.has_value()) return std::nullopt;
  return GazetteerTermState{*pos, *neg, value[0] == 'N'};
}

namespace keys {

std::string GazetteerPrefix(std::string_view vertical, std::string_view attribute) {
  return absl::StrCat(Av(kGazetteerRoot), Av(vertical), "/", Av(attribute), "/");
}

std::string GazetteerTerm(std::string_view vertical, std::string_view attribute, std::string_view term) {
  return absl::StrCat(GazetteerPrefix(vertical, attribute), Av(term));
}

}  // namespace keys

absl::Status ValidateGazetteerName(std::string_view vertical, std::string_view attribute) {
  VERTEX_RETURN_IF_ERROR(ValidateId("vertical", vertical));
  if (vertical.find('/') != std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("vertical ", Q(vertical), " contains a '/'"));
  }
  if (!IsAttributeName(attribute)) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute ", Q(attribute), " does not match [a-z][a-z0-9_]*"));
  }
  return absl::OkStatus();
}

absl::Status BuildPutGazetteerTerms(const KvReader& reader, std::string_view vertical, std::string_view attribute,
                                    const GazetteerTerms& terms, KvBatch* batch) {
  VERTEX_RETURN_IF_ERROR(ValidateGazetteerName(vertical, attribute));
  for (const auto& [term, state] : terms) VERTEX_RETURN_IF_ERROR(ValidateTerm(term, state));
  const std::string prefix = keys::GazetteerPrefix(vertical, attribute);
  std::vector<std::string> stale;
  VERTEX_RETURN_IF_ERROR(reader.Scan(Family::kMeta, prefix, [&](std::string_view key, std::string_view) {
    if (terms.count(std::string(key.substr(prefix.size()))) == 0) stale.emplace_back(key);
    return true;
  }));
  for (std::string& key : stale) batch->Delete(Family::kMeta, std::move(key));
  for (const auto& [term, state] : terms) {
    batch->Put(Family::kMeta, prefix + term, EncodeGazetteerTerm(state));
  }
  return absl::OkStatus();
}

absl::StatusOr<GazetteerTerms> ReadGazetteerTerms(const KvReader& reader, std::string_view vertical,
                                                  std::string_view attribute) {
  VERTEX_RETURN_IF_ERROR(ValidateGazetteerName(vertical, attribute));
  const std::string prefix = keys::GazetteerPrefix(vertical, attribute);
  GazetteerTerms terms;
  absl::Status status;
  VERTEX_RETURN_IF_ERROR(reader.Scan(Family::kMeta, prefix, [&](std::string_view key, std::string_view value) {
    const std::optional<GazetteerTermState> state = DecodeGazetteerTerm(value);
    if (!state.has_value()) {
      status = absl::DataLossError(absl::StrCat("rule store value at ", DescribeKey(Family::kMeta, key),
                                                " is corrupt: not a gazetteer term state (", value.size(),
                                                " bytes)"));
      return false;
    }
    terms.emplace(std::string(key.substr(prefix.size())), *state);
    return true;
  }));
  VERTEX_RETURN_IF_ERROR(status);
  return terms;
}

}  // namespace vertex::store
