# idgen: unique IDs generated inside PostgreSQL.
#
#   make demo   build, install, and show idgen on a throwaway cluster
#   make test   unit tests, regression tests and multi-session tests
#
# Both install the build dependencies when they are missing (apt-get), so that a fresh Debian
# machine with PostgreSQL needs nothing else. The rest is plain PGXS: make, make install,
# make installcheck (against a running server that preloads idgen).

EXTENSION  = idgen
MODULE_big = idgen
DATA       = $(wildcard sql/idgen--*.sql)

CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
PG_SRCS   = $(sort $(wildcard src/pg/*.cpp))
OBJS      = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)
SRC_HPP = $(wildcard src/core/*.hpp src/pg/*.hpp)

PG_CPPFLAGS = -Isrc
PG_CXXFLAGS = -std=c++20 -O2 -Wno-register -Wno-missing-field-initializers
SHLIB_LINK  = -lstdc++
# The server was built with LLVM JIT; PGXS would try to emit bitcode for C++ files.
override with_llvm := no

# Regression tests that need the library preloaded (the default); test/run.sh also runs
# REGRESS_NOT_PRELOADED against a server that does not preload it.
REGRESS = extension guard uuidv7 layout typeid token codec objectid
REGRESS_NOT_PRELOADED = not_preloaded
REGRESS_OPTS = --inputdir=. --outputdir=build/regress
EXTRA_CLEAN = build

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
$(OBJS): $(SRC_HPP)
endif

# ---- unit tests: the pure cores, no server ---------------------------------------------------

UNIT_SRCS = $(sort $(wildcard test/unit/*_test.cpp))
UNIT_CXXFLAGS = -std=c++20 -O1 -g -Wall -Wextra -Isrc -Itest/unit -fsanitize=address,undefined -fno-sanitize-recover=all

build/unit_tests: $(CORE_SRCS) $(UNIT_SRCS) $(SRC_HPP) $(wildcard test/unit/*.hpp)
	@mkdir -p build
	g++ $(UNIT_CXXFLAGS) $(CORE_SRCS) $(UNIT_SRCS) -lgtest -lgtest_main -pthread -o $@

# ---- the README's commands -------------------------------------------------------------------

.PHONY: deps unit demo test bench

print-%:
	@echo $($*)

deps:
	@scripts/deps.sh

unit: deps
	@$(MAKE) --no-print-directory build/unit_tests
	build/unit_tests --gtest_brief=1

demo: deps
	@$(MAKE) --no-print-directory install
	@scripts/demo.sh

test: deps
	@$(MAKE) --no-print-directory install
	@$(MAKE) --no-print-directory build/unit_tests
	@REGRESS="$(REGRESS)" REGRESS_NOT_PRELOADED="$(REGRESS_NOT_PRELOADED)" test/run.sh

bench: deps
	@$(MAKE) --no-print-directory install
	@scripts/bench.sh
