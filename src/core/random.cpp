#include "core/random.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace idgen {

void RandomPool::Discard() noexcept {
  std::memset(block_, 0, sizeof block_);
  next_ = kBlock;
}

void RandomPool::TakeSlow(void* out, size_t n, long owner) {
  if (owner != owner_) {
    Discard();
    owner_ = owner;
  }
  auto* dest = static_cast<uint8_t*>(out);
  while (n > 0) {
    if (next_ == kBlock) {
      if (!source_->Fill(block_, kBlock)) {
        Discard();
        throw Error(ErrorKind::kRandomFailed, "could not generate random values");
      }
      next_ = 0;
    }
    size_t chunk = std::min(n, kBlock - next_);
    std::memcpy(dest, block_ + next_, chunk);
    std::memset(block_ + next_, 0, chunk);
    next_ += chunk;
    dest += chunk;
    n -= chunk;
  }
}

}  // namespace idgen
