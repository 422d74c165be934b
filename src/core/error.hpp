// The errors the cores throw. src/pg/guard.cpp maps each kind to one SQLSTATE; nothing else does.
#pragma once

#include "core/cpp_only.hpp"

#include <exception>
#include <string>
#include <string_view>

namespace idgen {

enum class ErrorKind {
  kBadArgument,         // 22023 invalid_parameter_value: shard, node, prefix, version
  kBadText,             // 22P02 invalid_text_representation
  kNumericOutOfRange,   // 22003 numeric_value_out_of_range
  kDatetimeOutOfRange,  // 22008 datetime_field_overflow
  kClockRegression,     // 55000 object_not_in_prerequisite_state, hint about the system clock
  kPrerequisite,        // 55000 object_not_in_prerequisite_state: not preloaded, setting missing
  kRandomFailed,        // XX000 could not generate random values
  kOutOfMemory,         // 53200 (raised by the door for std::bad_alloc, never thrown by a core)
  kInternal,            // XX000 internal error in idgen (any other exception)
};

// message follows PostgreSQL style (lowercase, no trailing period); detail and hint are full
// sentences, and either may be empty.
class Error : public std::exception {
 public:
  Error(ErrorKind kind, std::string message, std::string detail = {}, std::string hint = {})
      : kind_(kind), message_(std::move(message)), detail_(std::move(detail)), hint_(std::move(hint)) {}

  ErrorKind kind() const noexcept { return kind_; }
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& detail() const noexcept { return detail_; }
  const std::string& hint() const noexcept { return hint_; }

 private:
  ErrorKind kind_;
  std::string message_;
  std::string detail_;
  std::string hint_;
};

// "text" for a message: quoted, and cut after at most 100 bytes, on a character boundary, with "...".
std::string Quote(std::string_view text);

// The byte length of the character that starts at s, in the encoding of the text that messages
// quote: UTF-8 unless the server installs its database encoding's rule. It must never throw or
// raise an error, and it is only ever called with at least one byte at s.
using CharLength = int (*)(const unsigned char* s);
void SetCharLength(CharLength length) noexcept;

}  // namespace idgen
