// A 128-bit UUID as 16 big-endian bytes, the layout of PostgreSQL's pg_uuid_t.
#pragma once

#include "core/cpp_only.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace idgen {

struct Uuid {
  std::array<uint8_t, 16> bytes{};

  int version() const { return bytes[6] >> 4; }
  bool rfc_variant() const { return (bytes[8] & 0xC0) == 0x80; }
  friend bool operator==(const Uuid&, const Uuid&) = default;
  friend auto operator<=>(const Uuid&, const Uuid&) = default;
};

// The canonical lowercase 8-4-4-4-12 form, for messages and tests.
std::string ToString(const Uuid& id);

}  // namespace idgen
