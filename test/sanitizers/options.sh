# The sanitizer options of the server built with AddressSanitizer and UndefinedBehaviorSanitizer
# (scripts/pg-build.sh <major> asan), in one place; sourced by test/sanitizers/run.sh before any
# program of that build runs (pg_config and psql are built with the sanitizers too).
#
# Every report goes to the process's stderr, which for the server is its log: UBSan running beside
# ASan ignores log_path, so one place for both. run.sh fails when the log holds any report or any
# failed assertion.
#
# What PostgreSQL itself needs:
# - detect_leaks=0: a backend exits with its memory contexts still allocated, by design, and so do
#   pg_config and psql (LeakSanitizer would report every process);
# - detect_stack_use_after_return=0: PostgreSQL's stack-depth check measures the real stack, which
#   fake stacks defeat;
# - the server is built with -fno-sanitize=alignment: PostgreSQL reads some structures at addresses
#   that are not aligned for their type, on purpose, on platforms that allow it (x86-64);
# - no suppression of any report is needed (none is kept).
export ASAN_OPTIONS="detect_leaks=0:detect_stack_use_after_return=0:abort_on_error=1:halt_on_error=1:print_stacktrace=1"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
