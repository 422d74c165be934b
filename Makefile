# idgen: unique IDs generated inside PostgreSQL.
#
#   make demo   build, install, and show idgen on a throwaway cluster
#   make test   unit tests, fuzzing, then installcheck and TAP tests on PostgreSQL 15 to 19 (test/run.sh)
#   make reference   regenerate docs/reference.md, every SQL function, from the catalog
#
# Both install the build dependencies when they are missing (apt-get), so that a fresh Debian
# machine with PostgreSQL needs nothing else. The rest is plain PGXS: make, make install,
# make installcheck, for the server of PG_CONFIG (make PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config).
# The objects of each major live in their own directory, build/pg<major>-idgen/.

PG_CONFIG ?= pg_config
SRC := $(dir $(firstword $(MAKEFILE_LIST)))

# The regression tests (test/sql/<name>.sql, test/expected/<name>.out), which make installcheck
# runs against your server, preloaded or not, configured or not, changing nothing of its
# configuration: those for any server; those that need idgen's state shared (preloaded, or any
# server from 17 on); the one for a server that does not preload idgen; the one that needs a build
# for the tests (IDGEN_DEBUG=1: the idgen.debug_fault setting, unknown to a release build). The
# tests that set the server's secrets (ALTER SYSTEM) run on a server of their own: t/regress_secrets.pl.
REGRESS_ANY = extension guard uuidv7 uuidv7_core typeid type_id uuid_type codec objectid ticket ulid
REGRESS_SHARED = layout instagram_shard decimal_id marks uid20 ns_id convert_column
REGRESS_NOT_PRELOADED = not_preloaded
REGRESS_DEBUG = debug_fault
REGRESS_OWN_SERVER = token public_id public_uuid

ifeq ($(SRC),./)
# ---- in the source tree: PGXS targets run out of tree, one directory per major ------------------

PG_MAJOR := $(shell $(PG_CONFIG) --version 2>/dev/null | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
# IDGEN_SANITIZE=1: built with AddressSanitizer and UndefinedBehaviorSanitizer, for a server built
# with them (test/sanitizers/run.sh). IDGEN_DEBUG=1: a build for idgen's own tests, with the
# idgen.debug_fault setting (test/run.sh); make install, make demo and make bench build without it.
OBJDIR := build/pg$(PG_MAJOR)$(if $(IDGEN_SANITIZE),-sanitized)$(if $(IDGEN_DEBUG),-debug)-idgen

# The objects build in parallel, one job per core (JOBS= builds one at a time).
JOBS ?= -j$(shell nproc 2>/dev/null || echo 1)

.PHONY: all install uninstall installcheck prove_installcheck prove_check clean deps test-deps unit sim sim-selftest sim-mutants demo test bench bench-instructions bench-scaling bench-edition bench-contention fuzz fuzz-build reference format-check deb dist distclean edition
all install uninstall installcheck prove_installcheck prove_check:
	@test -n "$(PG_MAJOR)" || { echo "no PostgreSQL at PG_CONFIG=$(PG_CONFIG) (make deps installs one)" >&2; exit 1; }
	@mkdir -p $(OBJDIR)
	@$(MAKE) --no-print-directory $(JOBS) -C $(OBJDIR) -f $(CURDIR)/Makefile PG_CONFIG=$(PG_CONFIG) IDGEN_SANITIZE=$(IDGEN_SANITIZE) IDGEN_DEBUG=$(IDGEN_DEBUG) $@

# make clean keeps the PostgreSQL builds of the tests (build/pg: half an hour to build again);
# make distclean removes them too.
clean:
	find build -mindepth 1 -maxdepth 1 ! -name pg -exec rm -rf {} + 2>/dev/null || true

distclean:
	rm -rf build

# ---- unit tests: the pure cores, no server ---------------------------------------------------

# One object per source file, each with the headers it includes (-MMD): after an edit, make -j2 unit
# rebuilds what the edit touched and links.
CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
UNIT_SRCS = $(sort $(wildcard test/unit/*_test.cpp))
UNIT_CXXFLAGS = -std=c++20 -O1 -g -Wall -Wextra -Isrc -Itest/unit -fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_OBJS = $(patsubst src/core/%.cpp,build/unit/core/%.o,$(CORE_SRCS)) $(patsubst test/unit/%.cpp,build/unit/test/%.o,$(UNIT_SRCS))

# (IDGEN_CCACHE=1, which test/run.sh sets: every compile through ccache, a cache per machine)
CCACHE := $(if $(IDGEN_CCACHE),ccache)

build/unit/core/%.o: src/core/%.cpp
	@mkdir -p $(@D)
	$(CCACHE) g++ $(UNIT_CXXFLAGS) -MMD -MP -c $< -o $@

build/unit/test/%.o: test/unit/%.cpp
	@mkdir -p $(@D)
	$(CCACHE) g++ $(UNIT_CXXFLAGS) -MMD -MP -c $< -o $@

build/unit_tests: $(UNIT_OBJS)
	g++ $(UNIT_CXXFLAGS) $(UNIT_OBJS) -lgtest -lgtest_main -pthread -o $@

-include $(UNIT_OBJS:.o=.d)

# ---- the simulator of the durable-state engine (test/sim, docs/design.md) ------------------------

# The product's own src/core, built with IDGEN_SIM (its IDGEN_SOMETIMES counters), and the simulated
# world around it. One object per file: a patched copy (make sim-selftest, sim-mutants) compiles only
# what its patch changes and links against these.
SIM_CXXFLAGS = -std=c++20 -O2 -g -Wall -Wextra -Wno-missing-field-initializers -Isrc -Itest -DIDGEN_SIM
SIM_CORE_OBJS = $(patsubst src/core/%.cpp,build/sim/core/%.o,$(CORE_SRCS))
SIM_OBJS = $(patsubst test/sim/%.cpp,build/sim/test/%.o,$(sort $(wildcard test/sim/*.cpp)))

build/sim/core/%.o: src/core/%.cpp
	@mkdir -p $(@D)
	$(CCACHE) g++ $(SIM_CXXFLAGS) -MMD -MP -c $< -o $@

build/sim/test/%.o: test/sim/%.cpp
	@mkdir -p $(@D)
	$(CCACHE) g++ $(SIM_CXXFLAGS) -MMD -MP -c $< -o $@

build/sim/sim: $(SIM_CORE_OBJS) $(SIM_OBJS)
	g++ $(SIM_CXXFLAGS) $^ -o $@

-include $(SIM_CORE_OBJS:.o=.d) $(SIM_OBJS:.o=.d)

# make sim: docs/design.md checked against the protocol, then schedules from SIM_SEED until
# SIM_STEPS steps (test/sim/main.cpp); make sim-selftest: every route of test/sim/routes, each
# applied to a copy of the source, built and run, must be found (test/sim/selftest.sh); make
# sim-mutants: mutations of the engine, each of which the simulator or the unit tests must kill
# (test/sim/mutants.py; slow, not part of make test).
sim: build/sim/sim
	$(SRC)scripts/protocol-doc-check.sh
	build/sim/sim
sim-selftest: build/sim/sim
	test/sim/selftest.sh
sim-mutants: build/sim/sim build/unit_tests
	test/sim/mutants.py

# ---- fuzzing: libFuzzer harnesses of every parser and decoder of src/core (clang) ---------------

FUZZ_SECONDS ?= 300
FUZZ_CXX ?= clang++
FUZZ_FLAGS = -std=c++20 -O1 -g -Isrc -Itest/fuzz -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_HARNESSES = $(patsubst test/fuzz/%.cpp,%,$(sort $(wildcard test/fuzz/*_fuzz.cpp)))
FUZZ_CORE_OBJS = $(patsubst src/core/%.cpp,build/fuzz/obj/%.o,$(CORE_SRCS))

build/fuzz/obj/%.o: src/core/%.cpp
	@mkdir -p $(@D)
	@$(CCACHE) $(FUZZ_CXX) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

build/fuzz/%_fuzz: test/fuzz/%_fuzz.cpp $(FUZZ_CORE_OBJS)
	@$(FUZZ_CXX) $(FUZZ_FLAGS) -Itest -fsanitize=fuzzer -MMD -MP $< $(FUZZ_CORE_OBJS) -o $@

-include $(FUZZ_CORE_OBJS:.o=.d) $(addprefix build/fuzz/,$(addsuffix .d,$(FUZZ_HARNESSES)))

fuzz-build: $(addprefix build/fuzz/,$(FUZZ_HARNESSES))

# ---- the README's commands -------------------------------------------------------------------

print-%:
	@echo $($*)

deps:
	@scripts/deps.sh

test-deps:
	@scripts/deps.sh --test

unit: test-deps
	@$(MAKE) --no-print-directory build/unit_tests
	build/unit_tests --gtest_brief=1

demo: deps
	@$(MAKE) --no-print-directory install
	@scripts/demo.sh

# run.sh builds the unit tests and fuzz harnesses itself, after it has started the builds from
# source in the background (they fill the core that a serial compile leaves idle).
test: test-deps
	@test/run.sh

# The C++ is as clang-format 14 writes it under .clang-format (make test checks it first);
# scripts/format-check.sh --fix formats it.
format-check: test-deps
	@scripts/format-check.sh

# make bench: every generator against its peers, per call (times and callgrind's instructions), bulk
# and pgbench; make bench-instructions: the instructions alone (deterministic); make bench-scaling:
# 1 to 32 clients (up to the cores present) on batch, single-ID and insert workloads; make bench-edition:
# the SQL edition beside idgen and core, per call and per row inserted (make bench runs it too). Each writes
# build/bench/ (docs/bench-results.md says how to read them). PG_CONFIG= measures another server.
BENCH_MODE_bench =
BENCH_MODE_bench-instructions = --instructions
BENCH_MODE_bench-scaling = --scaling
BENCH_MODE_bench-edition = --edition
bench bench-instructions bench-scaling bench-edition:
	@scripts/deps.sh gnuplot-nox valgrind
	@$(MAKE) --no-print-directory install
	@PG_CONFIG=$(PG_CONFIG) scripts/bench.sh $(BENCH_MODE_$@)

# make bench-contention: N threads (1 to the cores present) on one state word, the core's Advance
# against 1.1's compare-and-swap loop (bench/contention.cpp, linked with src/core; static, so that
# it runs on another machine as it is).
CONTENTION_SECONDS ?= 1
build/bench/contention: bench/contention.cpp $(CORE_SRCS) $(wildcard src/core/*.hpp)
	@mkdir -p $(@D)
	g++ -std=c++20 -O2 -Isrc -pthread -static bench/contention.cpp $(CORE_SRCS) -o $@

bench-contention: build/bench/contention
	build/bench/contention --seconds $(CONTENTION_SECONDS)

# docs/reference.md, every SQL function, from the catalog of a throwaway cluster and
# docs/functions.tsv (scripts/reference.sh; test/t/docs.pl checks it).
reference: deps
	@$(MAKE) --no-print-directory install
	@PG_CONFIG=$(PG_CONFIG) scripts/reference.sh --own-cluster --update

# Debian packages postgresql-<major>-idgen in build/deb/ (debian/, pg_buildext)
deb:
	@scripts/deb.sh

# The SQL edition's files for a managed server's user, who has psql and no make: build/idgen_sql-<its
# version>/ and build/idgen_sql-<its version>.zip (docs/managed.md), attached to each release.
edition:
	@edition/dist.sh

# The release archive for PGXN: build/idgen-<META.json's version>.zip, of the last commit (HEAD).
DIST_VERSION = $(shell perl -MJSON::PP -0ne 'print decode_json($$_)->{version}' META.json)
dist:
	@mkdir -p build
	@git diff --quiet HEAD || echo "make dist: the archive holds HEAD, not your uncommitted changes" >&2
	@git archive --format zip --prefix idgen-$(DIST_VERSION)/ -o build/idgen-$(DIST_VERSION).zip HEAD
	@echo build/idgen-$(DIST_VERSION).zip

fuzz: test-deps
	@$(MAKE) --no-print-directory fuzz-build
	@scripts/fuzz.sh $(FUZZ_SECONDS)

else
# ---- out of tree (build/pg<major>-idgen): plain PGXS -------------------------------------------

# idgen_uuidv7: the opt-in bare uuidv7() for PostgreSQL 15 to 17 (ORM defaults), a second small
# extension on idgen's library; on 18 and later, which have their own uuidv7(), its script defines nothing.
EXTENSION  = idgen idgen_uuidv7
MODULE_big = idgen
# The scripts that ship: the complete install script of this release, which the build makes from the
# previous release's and the one update script written for this release, that update, and a direct
# update from each earlier release, made of its frozen update to 1.2 and that update
# (scripts/chain-scripts.sh): an update can stop at no release between, so none can stop at 1.2,
# whose schema its owner could have planted in. The released scripts are frozen in sql/released/
# and not installed: the upgrade tests install them to make the databases users have.
IDGEN_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(SRC)idgen.control)
# From 1.3 on each release adds one delta (sql/idgen--1.3--1.4.sql); its complete script is the previous
# release's complete script and that delta, and every earlier release updates through the chain.
DATA       = sql/idgen--1.2--1.3.sql sql/idgen--1.3--1.4.sql sql/idgen_uuidv7--1.0.sql sql/idgen_uuidv7--1.0--1.1.sql
DATA_built = idgen--1.3.sql idgen--$(IDGEN_VERSION).sql idgen--1.0--1.3.sql idgen--1.1--1.3.sql
idgen--1.3.sql: sql/idgen--1.3.prologue.sql sql/released/idgen--1.2.sql sql/idgen--1.2--1.3.sql scripts/chain-scripts.sh
	$(SRC)scripts/chain-scripts.sh --create --prologue $(filter %.sql,$^) >$@
idgen--1.4.sql: idgen--1.3.sql sql/idgen--1.3--1.4.sql scripts/chain-scripts.sh
	$(SRC)scripts/chain-scripts.sh --create $(filter %.sql,$^) >$@
idgen--1.0--1.3.sql: sql/released/idgen--1.0--1.2.sql sql/idgen--1.2--1.3.sql scripts/chain-scripts.sh
	$(SRC)scripts/chain-scripts.sh --update 1.0 $(filter %.sql,$^) >$@
idgen--1.1--1.3.sql: sql/idgen--1.1--1.3.prologue.sql sql/released/idgen--1.1--1.2.sql sql/idgen--1.2--1.3.sql scripts/chain-scripts.sh
	$(SRC)scripts/chain-scripts.sh --update 1.1 --prologue $(filter %.sql,$^) >$@
# idgen_sql, the SQL edition (edition/): an extension of its own, SQL and PL/pgSQL only, installed
# beside idgen's files (one database has one of the two). edition/build.sh wraps 1.0's body and the
# update to 1.1 as the extension's scripts, and as the plain scripts and pg_tle installer built
# here for the other two doors (make edition gathers them for a user without make).
EDITION_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(SRC)edition/idgen_sql.control)
EDITION_SQL = edition/idgen_sql.body.sql edition/idgen_sql--1.0--1.1.sql edition/idgen_sql.control edition/build.sh edition/SHA256SUMS
DATA      += edition/idgen_sql.control
DATA_built += idgen_sql--$(EDITION_VERSION).sql idgen_sql--1.0--$(EDITION_VERSION).sql
EXTRA_CLEAN = idgen_sql.sql idgen_sql.update.sql idgen_sql.pg_tle.sql
idgen_sql--$(EDITION_VERSION).sql: $(EDITION_SQL)
	$(SRC)edition/build.sh extension >$@
idgen_sql--1.0--$(EDITION_VERSION).sql: $(EDITION_SQL)
	$(SRC)edition/build.sh update >$@
idgen_sql.sql: $(EDITION_SQL)
	$(SRC)edition/build.sh script >$@
idgen_sql.update.sql: $(EDITION_SQL)
	$(SRC)edition/build.sh script-update >$@
idgen_sql.pg_tle.sql: $(EDITION_SQL)
	$(SRC)edition/build.sh pg_tle >$@
all: idgen_sql.sql idgen_sql.update.sql idgen_sql.pg_tle.sql
OBJS       = $(patsubst $(SRC)%.cpp,%.o,$(sort $(wildcard $(SRC)src/core/*.cpp $(SRC)src/pg/*.cpp $(SRC)src/pg/*/*.cpp)))
# ... and an install over an earlier release takes them away (found by the adversarial pass: left in
# the extension directory, they let an owner install 1.0 and update to 1.1 through them).
STALE_SCRIPTS = idgen--1.0.sql idgen--1.0--1.1.sql idgen--1.1.sql idgen--1.2.sql idgen--1.0--1.2.sql idgen--1.1--1.2.sql idgen_sql--1.0.sql
install: remove-stale-scripts
remove-stale-scripts:
	rm -f $(addprefix '$(DESTDIR)$(datadir)/extension/',$(STALE_SCRIPTS))
.PHONY: remove-stale-scripts

PG_CPPFLAGS = -I$(SRC)src
PG_CXXFLAGS = -std=c++20 -O2 -Wno-register -Wno-missing-field-initializers
SHLIB_LINK  = -lstdc++
ifneq ($(IDGEN_SANITIZE),)
PG_CXXFLAGS += -fsanitize=address,undefined -fno-sanitize=alignment -fno-omit-frame-pointer
SHLIB_LINK  += -fsanitize=address,undefined
endif
ifneq ($(IDGEN_DEBUG),)
PG_CPPFLAGS += -DIDGEN_DEBUG_FAULT
endif
# The server may have been built with LLVM JIT; PGXS would try to emit bitcode for C++ files.
override with_llvm := no

# make installcheck: against your running server (PGHOST, PGPORT, PGUSER as for psql), the tests
# that apply to it, asked of it (all of them when it cannot be asked: pg_regress then says why).
# They expect idgen's defaults where a server may set its own: its node id, its launch id. The node
# identity is the server's configuration alone: the tests that need another one set it with ALTER
# SYSTEM and reset it (run them on a server of your own, as test/run.sh does).
SERVER_STATE = $(shell '$(bindir)/psql' -XAtc "SELECT current_setting('shared_preload_libraries') ~ '(^|[ ,])idgen($$|[ ,])', current_setting('server_version_num')::int >= 170000" postgres 2>/dev/null)
REGRESS = $(REGRESS_ANY) $(if $(IDGEN_DEBUG),$(REGRESS_DEBUG)) \
  $(if $(filter f|f,$(SERVER_STATE)),,$(REGRESS_SHARED)) $(if $(filter t|%,$(SERVER_STATE)),,$(REGRESS_NOT_PRELOADED))
REGRESS_OPTS = --inputdir=$(SRC)test
# The tests name their database (GRANT ... ON DATABASE idgen_regression), as test/run.sh does.
override CONTRIB_TESTDB = idgen_regression

VPATH := $(SRC)
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
ifneq ($(IDGEN_CCACHE),)
CXX := ccache $(CXX)
endif

# make prove_installcheck: the TAP tests of test/t (PostgreSQL::Test::Cluster: servers of their
# own, of the PostgreSQL of PG_CONFIG, idgen installed in it); make prove_check: the same with a
# private copy of that PostgreSQL in tmp_install/, idgen installed into the copy (nothing into the
# server's directories). PROVE_TESTS (default test/t/*.pl) and PROVE_FLAGS as in PGXS.
prove_installcheck:
	$(SRC)test/tap-run.sh '$(PG_CONFIG)' '$(CURDIR)'

prove_check: all
	rm -rf tmp_install
	set -e; for d in '$(bindir)' '$(pkglibdir)' '$(datadir)'; do mkdir -p "tmp_install$$(dirname "$$d")"; cp -a "$$d" "tmp_install$$d"; done
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) install DESTDIR='$(CURDIR)/tmp_install'
	$(SRC)test/tap-run.sh '$(CURDIR)/tmp_install$(bindir)/pg_config' '$(CURDIR)'

# (absolute, or VPATH would find the source tree's directories)
$(OBJS): $(wildcard $(SRC)src/core/*.hpp $(SRC)src/pg/*.hpp $(SRC)src/pg/*/*.hpp) | $(addprefix $(CURDIR)/src/,core pg pg/sql pg/effects pg/settings)
$(addprefix $(CURDIR)/src/,core pg pg/sql pg/effects pg/settings):
	@mkdir -p $@
endif
