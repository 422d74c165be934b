// Random bytes from a CSPRNG, read in blocks so that one ID pays a few nanoseconds, not a system
// call. The pool belongs to one process: every Take names its owner (the process id), and bytes
// drawn by another owner (the postmaster, or the parent before a fork) are discarded unread.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace idgen {

// Where the pool's bytes come from: pg_strong_random in the server, a fake in unit tests.
class RandomSource {
 public:
  // Fills out[0..n) or returns false. May throw (a fault-injecting source does).
  virtual bool Fill(uint8_t* out, size_t n) = 0;

 protected:
  ~RandomSource() = default;
};

class RandomPool {
 public:
  static constexpr size_t kBlock = 4096;

  explicit constexpr RandomPool(RandomSource& source) : source_(&source) {}
  RandomPool(const RandomPool&) = delete;
  RandomPool& operator=(const RandomPool&) = delete;

  // Copies n fresh random bytes to out; each byte is handed out once and wiped from the pool.
  // Throws Error(kRandomFailed) when the source fails.
  void Take(void* out, size_t n, long owner) {
    if (owner != owner_ || kBlock - next_ < n) {
      TakeSlow(out, n, owner);
      return;
    }
    std::memcpy(out, block_ + next_, n);
    std::memset(block_ + next_, 0, n);
    next_ += n;
  }

  uint64_t TakeU64(long owner) {
    uint64_t value;
    Take(&value, sizeof value, owner);
    return value;
  }

  // Forgets every unread byte; the next Take refills from the source.
  void Discard() noexcept;

 private:
  void TakeSlow(void* out, size_t n, long owner);

  RandomSource* source_;
  long owner_ = 0;
  size_t next_ = kBlock;  // first unread byte; kBlock when empty
  uint8_t block_[kBlock] = {};
};

}  // namespace idgen
