// What idgen's text formats share: text built in place, without allocation (it crosses into
// PostgreSQL's C code), and the one answer of every parser that does not throw.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <string_view>

namespace idgen {

// At most Capacity bytes of text.
template <size_t Capacity>
struct BoundedText {
  char data[Capacity];
  size_t size;
  std::string_view view() const { return {data, size}; }
};

// Why a text does not parse. Each parser returns the kinds that apply to its format; its OrThrow
// form (or the SQL function) turns them into a message that names the format.
enum class ParseProblem {
  kNone,
  kEmpty,
  kTooLong,
  kNoSeparator,  // typeid: no "_" between a prefix and a body
  kBadPrefix,
  kBadLength,
  kBadDigit,
  kOverflow,  // the digits write a number beyond the target
};

}  // namespace idgen
