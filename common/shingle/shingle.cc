#include "common/shingle/shingle.h"

#include <bit>
#include <limits>

#include "absl/strings/str_split.h"
#include "common/util/random.h"

namespace vertex::shingle {
namespace {

// Seeds of the eight hash functions h_i(s) = Mix64(s ^ seed_i).
constexpr uint64_t kSeeds[kVectorBytes] = {
    0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0xa4093822299f31d0ULL, 0x082efa98ec4e6c89ULL,
    0x452821e638d01377ULL, 0xbe5466cf34e90c6cULL, 0xc0ac29b7c97c50ddULL, 0x3f84d5b5b5470917ULL};

constexpr char kHex[] = "0123456789abcdef";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendByte(uint8_t b, std::string* out) {
  out->push_back(kHex[b >> 4]);
  out->push_back(kHex[b & 15]);
}

}  // namespace

std::string ToText(const ShingleVector& v) {
  std::string out;
  for (int i = 0; i < kVectorBytes; ++i) {
    if (i) out.push_back('.');
    AppendByte(v[i], &out);
  }
  return out;
}

uint64_t Pack(const ShingleVector& v) {
  uint64_t x = 0;
  for (int i = 0; i < kVectorBytes; ++i) x |= static_cast<uint64_t>(v[i]) << (8 * i);
  return x;
}

int MatchingBytes(const ShingleVector& a, const ShingleVector& b) {
  int n = 0;
  for (int i = 0; i < kVectorBytes; ++i) n += a[i] == b[i];
  return n;
}

// ---- MaskedVector ----

MaskedVector::MaskedVector(const ShingleVector& v, uint8_t wildcards) : wildcards_(wildcards) {
  bytes_ = Pack(v) & KeepMask();
}

uint64_t MaskedVector::KeepMask() const {
  uint64_t keep = 0;
  for (int i = 0; i < kVectorBytes; ++i) {
    if (!is_wildcard(i)) keep |= 0xFFULL << (8 * i);
  }
  return keep;
}

int MaskedVector::wildcard_count() const { return std::popcount(wildcards_); }

int MaskedVector::Agreement(const ShingleVector& v) const {
  int n = 0;
  for (int i = 0; i < kVectorBytes; ++i) n += !is_wildcard(i) && v[i] == byte(i);
  return n;
}

bool MaskedVector::Covers(const MaskedVector& other) const {
  // Every kept byte of this must be kept, and equal, in `other`.
  if ((wildcards_ | other.wildcards_) != wildcards_) return false;
  return (other.bytes_ & KeepMask()) == bytes_;
}

std::string MaskedVector::ToText() const {
  std::string out;
  for (int i = 0; i < kVectorBytes; ++i) {
    if (i) out.push_back('.');
    if (is_wildcard(i)) {
      out.push_back('*');
    } else {
      AppendByte(byte(i), &out);
    }
  }
  return out;
}

absl::StatusOr<MaskedVector> MaskedVector::Parse(std::string_view text) {
  const std::string owned(text);
  const std::vector<std::string> fields = absl::StrSplit(owned, '.');
  const auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError("shingle signature '" + std::string(text) + "' is malformed: " + why);
  };
  if (fields.size() != kVectorBytes) return bad("expected 8 dot-separated fields");
  ShingleVector v{};
  uint8_t wildcards = 0;
  for (int i = 0; i < kVectorBytes; ++i) {
    if (fields[i] == "*") {
      wildcards |= 1 << i;
      continue;
    }
    if (fields[i].size() != 2 || HexValue(fields[i][0]) < 0 || HexValue(fields[i][1]) < 0) {
      return bad("field " + std::to_string(i + 1) + " is neither two hex digits nor '*'");
    }
    v[i] = static_cast<uint8_t>(HexValue(fields[i][0]) * 16 + HexValue(fields[i][1]));
  }
  return MaskedVector(v, wildcards);
}

std::array<MaskedVector, kCoveringVectors> CoveringVectors(const ShingleVector& v) {
  std::array<MaskedVector, kCoveringVectors> out;
  int n = 0;
  out[n++] = MaskedVector(v, 0);
  for (int i = 0; i < kVectorBytes; ++i) out[n++] = MaskedVector(v, static_cast<uint8_t>(1 << i));
  for (int i = 0; i < kVectorBytes; ++i) {
    for (int j = i + 1; j < kVectorBytes; ++j) {
      out[n++] = MaskedVector(v, static_cast<uint8_t>((1 << i) | (1 << j)));
    }
  }
  return out;
}

// ---- Shingler ----

Shingler::Shingler(ShinglerOptions options)
    : length_(options.shingle_length < 1 ? 1 : options.shingle_length), window_(2 * length_) {
  min_.fill(std::numeric_limits<uint64_t>::max());
  if (options.skip_inline_formatting) {
    for (const char* name : {"b", "i", "em", "strong", "u", "s", "strike", "br", "wbr", "font",
                             "small", "big", "sub", "sup", "tt", "mark"}) {
      skipped_.push_back(html::TagToken(name));
    }
  }
}

void Shingler::AddShingle(uint64_t shingle_hash) {
  for (int i = 0; i < kVectorBytes; ++i) {
    const uint64_t h = util::Mix64(shingle_hash ^ kSeeds[i]);
    if (h < min_[i]) min_[i] = h;
  }
}

uint64_t Shingler::HashTokens(const uint32_t* tokens, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (size_t k = 0; k < n; ++k) h = (h ^ tokens[k]) * 0x100000001b3ULL;
  return h;
}

void Shingler::OnTag(uint32_t token) {
  const uint32_t name = token & ~html::TagSink::kEndTag;
  for (uint32_t skip : skipped_) {
    if (name == skip) return;
  }
  // Each token is stored twice, at head_ and head_ + length_, so the last
  // length_ tokens are always contiguous, oldest first, from head_.
  window_[head_] = token;
  window_[head_ + length_] = token;
  head_ = (head_ + 1 == static_cast<size_t>(length_)) ? 0 : head_ + 1;
  ++seen_;
  if (seen_ < static_cast<size_t>(length_)) return;
  AddShingle(HashTokens(&window_[head_], length_));
}

ShingleVector Shingler::Finish() {
  if (seen_ > 0 && seen_ < static_cast<size_t>(length_)) AddShingle(HashTokens(window_.data(), seen_));
  ShingleVector v;
  for (int i = 0; i < kVectorBytes; ++i) v[i] = static_cast<uint8_t>(min_[i]);
  min_.fill(std::numeric_limits<uint64_t>::max());
  seen_ = 0;
  head_ = 0;
  return v;
}

ShingleVector ShingleVectorOf(const std::vector<uint32_t>& tokens, ShinglerOptions options) {
  Shingler s(options);
  for (uint32_t t : tokens) s.OnTag(t);
  return s.Finish();
}

ShingleVector MinHashOfShingleSet(const std::vector<uint64_t>& shingles) {
  std::array<uint64_t, kVectorBytes> min;
  min.fill(std::numeric_limits<uint64_t>::max());
  for (uint64_t s : shingles) {
    for (int i = 0; i < kVectorBytes; ++i) {
      const uint64_t h = util::Mix64(s ^ kSeeds[i]);
      if (h < min[i]) min[i] = h;
    }
  }
  ShingleVector v;
  for (int i = 0; i < kVectorBytes; ++i) v[i] = static_cast<uint8_t>(min[i]);
  return v;
}

}  // namespace vertex::shingle
