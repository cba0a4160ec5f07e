// Small helpers shared by the demo site generators (site_generator.cc,
// versioned_site.cc): picking from word lists and formatting numbers as
// shops print them. Deterministic: no <random>, no locale.
//
// Thread-safety: pure functions (an Rng is not thread-safe).
#ifndef VERTEX_COMMON_DEMO_TEXT_UTIL_H_
#define VERTEX_COMMON_DEMO_TEXT_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/util/random.h"

namespace vertex::demo::internal {

template <typename T, size_t N>
constexpr int Count(const T (&)[N]) {
  return static_cast<int>(N);
}

template <typename T, size_t N>
const T& Pick(util::Rng& rng, const T (&items)[N]) {
  return items[rng.Uniform(N)];
}

// `value` with leading zeros to `width` digits.
inline std::string Pad(int64_t value, int width) {
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// "1,234.56": an amount without its currency, as a price's number is typed.
inline std::string Amount(int64_t cents) {
  std::string units = std::to_string(cents / 100);
  for (int i = static_cast<int>(units.size()) - 3; i > 0; i -= 3) units.insert(i, ",");
  return absl::StrCat(units, ".", Pad(cents % 100, 2));
}

// "$1,234.56".
inline std::string Money(int64_t cents) { return absl::StrCat("$", Amount(cents)); }

// "4.3" from 43.
inline std::string Tenths(int value) { return absl::StrCat(value / 10, ".", value % 10); }

}  // namespace vertex::demo::internal

#endif  // VERTEX_COMMON_DEMO_TEXT_UTIL_H_
