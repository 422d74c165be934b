#include "core/objectid.hpp"

#include <cstring>

#include "core/codec.hpp"
#include "core/error.hpp"

namespace idgen::objectid {

namespace {

ObjectId Compose(Process& process, uint32_t seconds, RandomPool& pool, long owner) {
  if (process.owner != owner || process.remaining == 0) {
    uint8_t drawn[8];
    pool.Take(drawn, sizeof drawn, owner);
    std::memcpy(process.unique, drawn, 5);
    process.counter = (uint32_t{drawn[5]} << 16) | (uint32_t{drawn[6]} << 8) | drawn[7];
    process.remaining = kCounterSpan;
    process.owner = owner;
  }
  const uint32_t counter = process.counter;
  process.counter = (counter + 1) & (kCounterSpan - 1);
  --process.remaining;
  ObjectId id;
  for (int i = 0; i < 4; ++i) id.bytes[i] = static_cast<uint8_t>(seconds >> (24 - 8 * i));
  std::memcpy(id.bytes.data() + 4, process.unique, 5);
  for (int i = 0; i < 3; ++i) id.bytes[9 + i] = static_cast<uint8_t>(counter >> (16 - 8 * i));
  return id;
}

}  // namespace

uint32_t SecondsAt(int64_t unix_us) {
  const int64_t seconds = FloorDiv(unix_us, 1000000);
  if (seconds < 0 || seconds > kMaxSeconds) {
    throw Error(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for ObjectId",
                "An ObjectId holds times from 1970-01-01 00:00:00 UTC to 2106-02-07 06:28:15 UTC.");
  }
  return static_cast<uint32_t>(seconds);
}

ObjectId Next(Process& process, Clock& clock, RandomPool& pool, long owner) {
  return Compose(process, SecondsAt(FloorDiv(clock.NowNs(), 1000)), pool, owner);
}

ObjectId At(Process& process, int64_t unix_us, RandomPool& pool, long owner) {
  return Compose(process, SecondsAt(unix_us), pool, owner);
}

ObjectId MinAt(int64_t unix_us) {
  const uint32_t seconds = SecondsAt(unix_us);
  ObjectId id;
  for (int i = 0; i < 4; ++i) id.bytes[i] = static_cast<uint8_t>(seconds >> (24 - 8 * i));
  return id;
}

int64_t TimeUs(const ObjectId& id) {
  uint32_t seconds = 0;
  for (int i = 0; i < 4; ++i) seconds = (seconds << 8) | id.bytes[i];
  return int64_t{seconds} * 1000000;
}

void Format(const ObjectId& id, char (&out)[24]) { codec::Encode(id.bytes, codec::Base::k16, out); }

bool Parse(std::string_view text, ObjectId& out) {
  return text.size() == 24 && codec::Decode(text, codec::Base::k16, out.bytes) == codec::Status::kOk;
}

}  // namespace idgen::objectid
