#include "core/objectid.hpp"

#include <cstring>

#include "core/bytes.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"

namespace idgen::objectid {

namespace {

ObjectId Compose(Generator& generator, uint32_t seconds, RandomPool& pool, long owner) {
  if (generator.owner != owner || generator.remaining == 0) {
    uint8_t drawn[8];
    pool.Take(drawn, sizeof drawn, owner);
    std::memcpy(generator.unique, drawn, 5);
    generator.counter = static_cast<uint32_t>(LoadBigEndian(std::span(drawn).subspan(5)));
    generator.remaining = kCounterSpan;
    generator.owner = owner;
  }
  const uint32_t counter = generator.counter;
  generator.counter = (counter + 1) & (kCounterSpan - 1);
  --generator.remaining;
  ObjectId id;
  StoreBigEndian(seconds, std::span(id.bytes).first(4));
  std::memcpy(id.bytes.data() + 4, generator.unique, 5);
  StoreBigEndian(counter, std::span(id.bytes).subspan(9));
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

ObjectId Next(Generator& generator, Clock& clock, RandomPool& pool, long owner) {
  return Compose(generator, SecondsAt(FloorDiv(clock.NowNs(), 1000)), pool, owner);
}

ObjectId At(Generator& generator, int64_t unix_us, RandomPool& pool, long owner) {
  return Compose(generator, SecondsAt(unix_us), pool, owner);
}

ObjectId MinAt(int64_t unix_us) {
  ObjectId id;
  StoreBigEndian(SecondsAt(unix_us), std::span(id.bytes).first(4));
  return id;
}

int64_t TimeUs(const ObjectId& id) {
  return static_cast<int64_t>(LoadBigEndian(std::span(id.bytes).first(4))) * 1000000;
}

void Format(const ObjectId& id, char (&out)[24]) { codec::Encode(id.bytes, codec::Base::k16, out); }

bool Parse(std::string_view text, ObjectId& out) {
  return text.size() == 24 && codec::Decode(text, codec::Base::k16, out.bytes) == ParseProblem::kNone;
}

}  // namespace idgen::objectid
