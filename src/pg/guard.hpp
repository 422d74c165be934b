// The door between C++ and PostgreSQL. PostgreSQL reports errors with longjmp, which skips C++
// destructors; a C++ exception that reaches PostgreSQL's C frames kills the backend. So every
// SQL-callable function reads its arguments in C, runs the core inside Guarded(), and builds its
// Datum in C again. Guarded() is the only place where an exception becomes an SQL error.
#pragma once

#include <new>
#include <stdexcept>
#include <type_traits>

#include "core/error.hpp"

namespace idgen::pg {

// Plain data: alive across the ereport's longjmp without anything to destroy.
struct ErrorReport {
  ErrorKind kind;
  char message[512];
  char detail[512];
  char hint[512];

  void Set(ErrorKind k, const char* m, const char* d, const char* h) noexcept;
};

// ereport(ERROR) with the SQLSTATE of the kind. Call it only from the C zone: never while a C++
// object with a destructor is alive, never inside a catch block. (Raise(kind, message, ...) is in
// pg.hpp.)
[[noreturn]] void Raise(const ErrorReport& report);

// Where Guarded() writes the error it turns into an SQL error (guard.cpp).
extern ErrorReport guarded_report;

// Runs body (the C++ zone: it may throw, it never calls anything that can ereport) and returns
// its result; turns any exception into an SQL error after the catch block has ended.
template <typename Body>
auto Guarded(Body&& body) -> decltype(body()) {
  using Result = decltype(body());
  static_assert(std::is_void_v<Result> || std::is_trivially_destructible_v<Result>,
                "what Guarded() returns lives on in the C zone, where an ereport's longjmp skips destructors: "
                "return plain data (a fixed-size buffer, not a std::string)");
  // (The report lives outside the frame: 1.5 kB of stack, and its guard, on every call that
  // succeeds would cost more than the body of a generator. A backend runs one body at a time, and
  // a body never runs another: it is C++ without PostgreSQL.)
  ErrorReport& report = guarded_report;
  try {
    return body();
  } catch (const Error& e) {
    report.Set(e.kind(), e.what(), e.detail().c_str(), e.hint().c_str());
  } catch (const std::bad_alloc&) {
    report.Set(ErrorKind::kOutOfMemory, "out of memory", "", "");
  } catch (const std::exception& e) {
    report.Set(ErrorKind::kInternal, e.what(), "", "");
  } catch (...) {
    report.Set(ErrorKind::kInternal, "unknown exception", "", "");
  }
  Raise(report);
}

}  // namespace idgen::pg
