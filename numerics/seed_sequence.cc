#include "numerics/seed_sequence.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpbandit {
namespace {

std::uint32_t Twist(std::uint32_t x) { return x ^ (x >> 27); }

// The standard's t for n output words.
std::size_t Lag(std::size_t n) {
  if (n >= 623) return 11;
  if (n >= 68) return 7;
  if (n >= 39) return 5;
  if (n >= 7) return 3;
  return (n - 1) / 2;
}

// k mod n, k + p mod n, k + q mod n and k - 1 mod n, advanced together without division.
struct Indices {
  std::size_t n, k, kp, kq, km;
  Indices(std::size_t n_, std::size_t p, std::size_t q)
      : n(n_), k(0), kp(p % n_), kq(q % n_), km(n_ - 1) {}
  void Advance() {
    km = k;
    k = k + 1 == n ? 0 : k + 1;
    kp = kp + 1 == n ? 0 : kp + 1;
    kq = kq + 1 == n ? 0 : kq + 1;
  }
};

}  // namespace

SeedSequence::SeedSequence(std::initializer_list<std::uint32_t> words) {
  if (words.size() > kMaxWords) {
    throw std::invalid_argument("SeedSequence: " + std::to_string(words.size()) +
                                " words, at most " + std::to_string(kMaxWords));
  }
  std::copy(words.begin(), words.end(), words_);
  size_ = words.size();
}

SeedSequence SeedSequence::FromKeys(std::initializer_list<std::uint64_t> keys) {
  if (2 * keys.size() > kMaxWords) {
    throw std::invalid_argument("SeedSequence: " + std::to_string(keys.size()) + " keys, at most " +
                                std::to_string(kMaxWords / 2));
  }
  SeedSequence seq;
  for (const std::uint64_t key : keys) {
    seq.words_[seq.size_++] = static_cast<std::uint32_t>(key);
    seq.words_[seq.size_++] = static_cast<std::uint32_t>(key >> 32);
  }
  return seq;
}

void SeedSequence::generate(std::uint32_t* begin, std::uint32_t* end) const {
  if (begin == end) return;
  const std::size_t n = static_cast<std::size_t>(end - begin);
  std::uint32_t* b = begin;
  std::fill(b, end, 0x8b8b8b8bu);
  const std::size_t s = size_;
  const std::size_t t = Lag(n);
  const std::size_t p = (n - t) / 2;
  const std::size_t q = p + t;
  const std::size_t m = std::max(s + 1, n);
  Indices i(n, p, q);
  for (std::size_t k = 0; k < m; ++k, i.Advance()) {
    const std::uint32_t r1 = 1664525u * Twist(b[i.k] ^ b[i.kp] ^ b[i.km]);
    std::uint32_t r2 = r1;
    if (k == 0) {
      r2 += static_cast<std::uint32_t>(s);
    } else {
      r2 += static_cast<std::uint32_t>(i.k);
      if (k <= s) r2 += words_[k - 1];
    }
    b[i.kp] += r1;
    b[i.kq] += r2;
    b[i.k] = r2;
  }
  for (std::size_t k = m; k < m + n; ++k, i.Advance()) {
    const std::uint32_t r3 = 1566083941u * Twist(b[i.k] + b[i.kp] + b[i.km]);
    const std::uint32_t r4 = r3 - static_cast<std::uint32_t>(i.k);
    b[i.kp] ^= r3;
    b[i.kq] ^= r4;
    b[i.k] = r4;
  }
}

}  // namespace gpbandit
