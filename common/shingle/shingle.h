// Shingle signatures of page structure (Vertex paper, III-A).
//
// A page's tag sequence (element starts and ends in document order, no
// content) is cut into shingles: every window of l = 10 consecutive tags.
// Eight independent hash functions h_1..h_8 map a shingle to 64 bits; byte i
// of the page's 8-byte ShingleVector is the low byte of min over shingles of
// h_i. (Taking the minimum of a 64-bit hash and keeping its low byte is
// b-bit minwise hashing: two pages agree on byte i with probability
// J + (1 - J)/256 for Jaccard similarity J of their shingle sets. Taking the
// minimum of 1-byte hashes instead, as a literal reading of the paper
// suggests, would make every byte 0 on any page with a few hundred
// shingles.) A page with fewer than l tags has one shingle, all its tags.
//
// Beyond the paper: by default the tag sequence leaves out inline
// formatting elements (b, i, em, strong, u, s, strike, br, wbr, font, small,
// big, sub, sup, tt, mark). They belong to a page's content, not its
// template (a book description's <i> and <br>), and each new one adds
// shingles that can become a minimum. On the 2,000 SWDE booksamillion pages
// (one template), Algorithm 1 keeps 1,869 pages in the main cluster with
// the full sequence and 1,947 without them.
//
// A MaskedVector (k/8 masked vector) keeps k of the 8 bytes and has 8 - k
// wildcards; it covers a vector when every kept byte is equal. Text form:
// eight dot-separated fields, two lowercase hex digits or '*', e.g.
// "0a.1f.*.44.00.9c.*.3b".
//
// Thread-safety: ShingleVector and MaskedVector are values; a Shingler is
// not thread-safe (one per page being parsed).
#ifndef VERTEX_COMMON_SHINGLE_SHINGLE_H_
#define VERTEX_COMMON_SHINGLE_SHINGLE_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"

namespace vertex::shingle {

inline constexpr int kVectorBytes = 8;
inline constexpr int kDefaultShingleLength = 10;
// Masked vectors counted per page by clustering: C(8,0)+C(8,1)+C(8,2).
inline constexpr int kCoveringVectors = 37;

using ShingleVector = std::array<uint8_t, kVectorBytes>;

// "0a.1f.00.44.00.9c.12.3b".
std::string ToText(const ShingleVector& v);
// Packs the bytes, byte 0 in the low 8 bits.
uint64_t Pack(const ShingleVector& v);
// Number of byte positions where `a` and `b` agree.
int MatchingBytes(const ShingleVector& a, const ShingleVector& b);

class MaskedVector {
 public:
  MaskedVector() = default;
  // Keeps the bytes of `v` whose bit is clear in `wildcards` (bit i = byte i).
  MaskedVector(const ShingleVector& v, uint8_t wildcards);

  // Parses the text form. InvalidArgument naming the input otherwise.
  static absl::StatusOr<MaskedVector> Parse(std::string_view text);

  bool Covers(const ShingleVector& v) const {
    return (Pack(v) & KeepMask()) == bytes_;
  }
  // How many kept bytes of this vector equal `v`'s (kept() when it covers
  // `v`): how near a page no signature covers is to this one.
  int Agreement(const ShingleVector& v) const;
  // True when every vector `other` covers is also covered by this one.
  bool Covers(const MaskedVector& other) const;
  // Vertex's "match": one of the two covers the other.
  bool Matches(const MaskedVector& other) const { return Covers(other) || other.Covers(*this); }

  uint8_t wildcards() const { return wildcards_; }
  int wildcard_count() const;
  // k in "k/8": the number of kept bytes.
  int kept() const { return kVectorBytes - wildcard_count(); }
  bool is_wildcard(int i) const { return (wildcards_ >> i) & 1; }
  // Byte i (0 for a wildcard).
  uint8_t byte(int i) const { return static_cast<uint8_t>(bytes_ >> (8 * i)); }
  // Packed kept bytes, wildcard bytes zero.
  uint64_t packed() const { return bytes_; }

  std::string ToText() const;

  bool operator==(const MaskedVector& o) const { return bytes_ == o.bytes_ && wildcards_ == o.wildcards_; }
  bool operator!=(const MaskedVector& o) const { return !(*this == o); }
  template <typename H>
  friend H AbslHashValue(H h, const MaskedVector& m) {
    return H::combine(std::move(h), m.bytes_, m.wildcards_);
  }

 private:
  uint64_t KeepMask() const;

  uint64_t bytes_ = 0;
  uint8_t wildcards_ = 0;
};

// The 37 masked vectors with at most two wildcards covering `v`, in a fixed
// order: the 8/8 vector, then one wildcard at byte 0..7, then two wildcards
// at (i, j), i < j, in lexicographic order.
std::array<MaskedVector, kCoveringVectors> CoveringVectors(const ShingleVector& v);

struct ShinglerOptions {
  // l, the number of consecutive tags in a shingle.
  int shingle_length = kDefaultShingleLength;
  // Leave inline formatting elements out of the tag sequence (see above).
  bool skip_inline_formatting = true;
};

// Computes a page's ShingleVector from its tag sequence as it is reported.
// Feed it to html::Parser::Parse as the TagSink, then call Finish().
class Shingler final : public html::TagSink {
 public:
  explicit Shingler(ShinglerOptions options = {});

  void OnTag(uint32_t token) override;
  // The vector of the tags seen since construction or the last Finish();
  // resets the shingler for the next page.
  ShingleVector Finish();

 private:
  static uint64_t HashTokens(const uint32_t* tokens, size_t n);
  void AddShingle(uint64_t shingle_hash);

  const int length_;
  std::vector<uint32_t> skipped_;  // tokens left out of the sequence
  std::vector<uint32_t> window_;  // the last length_ tokens, stored twice
  size_t head_ = 0;
  size_t seen_ = 0;
  std::array<uint64_t, kVectorBytes> min_;
};

// The ShingleVector of an explicit token sequence (tests, tools).
ShingleVector ShingleVectorOf(const std::vector<uint32_t>& tokens, ShinglerOptions options = {});

// The ShingleVector of an explicit set of shingle ids, each hashed by the
// eight functions as a whole shingle would be (for tests of the min-hash
// property).
ShingleVector MinHashOfShingleSet(const std::vector<uint64_t>& shingles);

}  // namespace vertex::shingle

#endif  // VERTEX_COMMON_SHINGLE_SHINGLE_H_
