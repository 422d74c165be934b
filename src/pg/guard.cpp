#include "pg/guard.hpp"

#include "pg/pg.hpp"

namespace idgen::pg {

namespace {

// The one table from the cores' error kinds to SQLSTATEs.
int Sqlstate(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kBadArgument:
      return ERRCODE_INVALID_PARAMETER_VALUE;
    case ErrorKind::kBadText:
      return ERRCODE_INVALID_TEXT_REPRESENTATION;
    case ErrorKind::kNumericOutOfRange:
      return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
    case ErrorKind::kDatetimeOutOfRange:
      return ERRCODE_DATETIME_FIELD_OVERFLOW;
    case ErrorKind::kClockRegression:
    case ErrorKind::kPrerequisite:
      return ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE;
    case ErrorKind::kOutOfMemory:
      return ERRCODE_OUT_OF_MEMORY;
    case ErrorKind::kRandomFailed:
    case ErrorKind::kInternal:
      return ERRCODE_INTERNAL_ERROR;
  }
  return ERRCODE_INTERNAL_ERROR;
}

}  // namespace

ErrorReport guarded_report;

void ErrorReport::Set(ErrorKind k, const char* m, const char* d, const char* h) noexcept {
  kind = k;
  strlcpy(message, m, sizeof message);
  strlcpy(detail, d, sizeof detail);
  strlcpy(hint, h, sizeof hint);
}

void Raise(const ErrorReport& r) {
  ereport(ERROR, errcode(Sqlstate(r.kind)),
          r.kind == ErrorKind::kInternal ? errmsg("internal error in idgen: %s", r.message) : errmsg("%s", r.message),
          r.detail[0] != '\0' ? errdetail("%s", r.detail) : 0, r.hint[0] != '\0' ? errhint("%s", r.hint) : 0);
  pg_unreachable();
}

void Raise(ErrorKind kind, const char* message, const char* detail, const char* hint) {
  ErrorReport report;
  report.Set(kind, message, detail, hint);
  Raise(report);
}

}  // namespace idgen::pg
