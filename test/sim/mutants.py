#!/usr/bin/env python3
"""make sim-mutants: each mutation of test/sim/mutants.txt applied alone to a copy of src/core, and
killed by the simulator (its --find with make sim's seed and budget: an invariant broken) or, where
the simulator keeps every invariant, by the unit tests (build/unit_tests relinked with the mutated
file). Prints each mutation's fate, the score and the survivors; exits 1 when any survives.

  SIM_MUTANTS="name,name" test/sim/mutants.py     some mutations only
  test/sim/mutants.py --check                      whether each mutation applies, nothing built
  SIM_JOBS=2 (in parallel), SIM_STEPS (the budget of each run), SIM_CXXFLAGS, UNIT_CXXFLAGS
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.chdir(ROOT)
SIM_CXXFLAGS = os.environ.get("SIM_CXXFLAGS", "-std=c++20 -O2 -g -Wall -Wextra -Wno-missing-field-initializers "
                              "-Isrc -Itest -DIDGEN_SIM").split()
UNIT_CXXFLAGS = os.environ.get("UNIT_CXXFLAGS", "-std=c++20 -O1 -g -Wall -Wextra -Isrc -Itest/unit "
                               "-fsanitize=address,undefined -fno-sanitize-recover=all").split()
WORK = "build/sim/mutants"


def parse(path):
    mutants, text = [], open(path).read()
    for block in re.split(r"^@ ", text, flags=re.M)[1:]:
        head, rest = block.split("\n", 1)
        name, file, what = (x.strip() for x in head.split("|", 2))
        m = re.search(r"^<<<\n(.*?)^===\n(.*?)^>>>\n", rest, flags=re.M | re.S)
        mutants.append(dict(name=name, file=file, what=what, old=m.group(1), new=m.group(2)))
    return mutants


def include_first(flags, src):
    return [f"-I{src}" if f == "-Isrc" else f for f in flags[:1]] + [f"-I{src}"] + flags[1:]


def run(m):
    d = os.path.join(WORK, m["name"])
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    shutil.copytree("src", os.path.join(d, "src"))
    path = os.path.join(d, m["file"])
    text = open(path).read()
    if text.count(m["old"]) != 1:
        return m, "does not apply", f"its text occurs {text.count(m['old'])} times"
    open(path, "w").write(text.replace(m["old"], m["new"]))
    base = os.path.basename(m["file"])[:-4]
    obj = os.path.join(d, base + ".o")
    build = subprocess.run(["g++", *include_first(SIM_CXXFLAGS, os.path.join(d, "src")), "-c", path, "-o", obj],
                           capture_output=True, text=True)
    if build.returncode != 0:
        return m, "does not build", build.stderr.split("\n")[0]
    objs = [o for o in sorted(os.listdir("build/sim/core")) if o.endswith(".o") and o != base + ".o"]
    objs = [os.path.join("build/sim/core", o) for o in objs]
    objs += [os.path.join("build/sim/test", o) for o in sorted(os.listdir("build/sim/test")) if o.endswith(".o")]
    subprocess.run(["g++", obj, *objs, "-o", os.path.join(d, "sim")], check=True)
    found = subprocess.run([os.path.join(d, "sim"), "--find", os.path.join(d, "found.hex")], capture_output=True,
                           text=True, env=dict(os.environ, SIM_QUIET="1"))
    if found.returncode == 1:
        return m, "killed by the simulator", found.stdout.strip().split("\n")[-1]
    # The unit tests, with the mutated file in their build.
    uobj = os.path.join(d, base + ".unit.o")
    build = subprocess.run(["g++", *include_first(UNIT_CXXFLAGS, os.path.join(d, "src")), "-c", path, "-o", uobj],
                           capture_output=True, text=True)
    if build.returncode != 0:
        return m, "killed (the unit tests do not build)", build.stderr.split("\n")[0]
    uobjs = [os.path.join("build/unit/core", o) for o in sorted(os.listdir("build/unit/core"))
             if o.endswith(".o") and o != base + ".o"]
    uobjs += [os.path.join("build/unit/test", o) for o in sorted(os.listdir("build/unit/test")) if o.endswith(".o")]
    subprocess.run(["g++", *UNIT_CXXFLAGS, uobj, *uobjs, "-lgtest", "-lgtest_main", "-pthread", "-o",
                    os.path.join(d, "unit_tests")], check=True)
    unit = subprocess.run([os.path.join(d, "unit_tests"), "--gtest_brief=1"], capture_output=True, text=True)
    if unit.returncode != 0:
        failed = [l for l in unit.stdout.split("\n") if "[  FAILED  ]" in l]
        return m, "killed by the unit tests", failed[0].strip() if failed else "failed"
    return m, "SURVIVED", found.stdout.strip().split("\n")[-1]


def check(mutants):
    bad = 0
    for m in mutants:
        n = open(m["file"]).read().count(m["old"])
        if n != 1:
            bad += 1
            print(f"{m['name']}: its text occurs {n} times in {m['file']}")
    print(f"{len(mutants) - bad} of {len(mutants)} mutations apply")
    sys.exit(1 if bad else 0)


def main():
    if sys.argv[1:] == ["--check"]:
        check(parse("test/sim/mutants.txt"))
    for needed in ("build/sim/sim", "build/unit_tests"):
        if not os.path.exists(needed):
            sys.exit(f"build {needed} first (make {needed})")
    mutants = parse("test/sim/mutants.txt")
    only = os.environ.get("SIM_MUTANTS")
    if only:
        mutants = [m for m in mutants if m["name"] in only.split(",")]
    os.makedirs(WORK, exist_ok=True)
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("SIM_JOBS", "2"))) as pool:
        results = list(pool.map(run, mutants))
    killed = 0
    for m, fate, detail in results:
        killed += fate.startswith("killed")
        print(f"{m['name']:32} {fate:26} {detail[:110]}")
    survivors = [m for m, fate, _ in results if not fate.startswith("killed")]
    print(f"mutants: {killed} of {len(results)} killed in {time.time() - start:.0f} s")
    for m in survivors:
        print(f"  survivor: {m['name']} ({m['file']}): {m['what']}")
    sys.exit(0 if not survivors else 1)


main()
