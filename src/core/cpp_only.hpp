// Included first by every header of src/core: the cores are plain C++, compiled before any
// PostgreSQL header. PostgreSQL's headers define macros (like gettext's, and its own Assert, Max,
// Min, errno wrappers) and rely on longjmp, which skips C++ destructors; a core header that comes
// after them would compile against those macros. So a glue file includes its core headers first,
// and the compiler enforces it. (pg_duckdb's cpp_only_file.hpp has the same idea.)
#pragma once

#if defined(POSTGRES_H) || defined(C_H) || defined(PG_VERSION_NUM)
#error "a header of src/core was included after a PostgreSQL header: include the core headers first"
#endif
