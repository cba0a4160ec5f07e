// Rng: a small deterministic pseudo-random generator (SplitMix64 seeding a
// xoshiro256** state). Unlike <random>'s distributions, its outputs are the
// same on every platform and standard library, so generated sites and
// samples are reproducible from a seed.
//
// Thread-safety: none; one generator per thread.
#ifndef VERTEX_COMMON_UTIL_RANDOM_H_
#define VERTEX_COMMON_UTIL_RANDOM_H_

#include <cstdint>

namespace vertex::util {

// The SplitMix64 finaliser: a fast, well-mixed 64-bit bijection.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t Next();
  // Uniform in [0, n); n must be > 0.
  uint64_t Uniform(uint64_t n);
  // Uniform in [lo, hi]; requires lo <= hi.
  int64_t Range(int64_t lo, int64_t hi);
  // Uniform in [0, 1).
  double UnitDouble();
  // True with probability p.
  bool Bernoulli(double p) { return UnitDouble() < p; }

 private:
  uint64_t s_[4];
};

}  // namespace vertex::util

#endif  // VERTEX_COMMON_UTIL_RANDOM_H_
