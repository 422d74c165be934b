#!/usr/bin/env bash
# Runs every libFuzzer harness (build/fuzz/<name>_fuzz, from test/fuzz/<name>_fuzz.cpp) for the
# given seconds each, from its seed corpus (test/fuzz/corpus/<name>/, copied: new inputs stay in
# build/fuzz/corpus/). Prints, per harness, the executions, the coverage (libFuzzer's cov: edges
# and ft: features) and the corpus size; exits non-zero on the first crash, leak, timeout or
# failed check, with the input that caused it (add it to the seed corpus as crash-<what>: it stays
# a regression case). Also fails when a header of src/core declares a parser or decoder that no
# harness includes: a new parser without a harness does not pass.
#
#   scripts/fuzz.sh 300          what make fuzz runs (FUZZ_SECONDS=300)
#   scripts/fuzz.sh 10           what make test runs
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
status=0

# Every header that declares a parser or decoder is included by a harness.
for header in src/core/*.hpp; do
  if grep -qE '\b(Parse[A-Za-z]*|Decode[A-Za-z]*|Decompose|Split|TimeUs|TimeNs)\(' "$header"; then
    if ! grep -qF "\"core/$(basename "$header")\"" test/fuzz/*_fuzz.cpp; then
      echo "FAIL: $header declares a parser or decoder, and no harness in test/fuzz includes it"
      status=1
    fi
  fi
done

# (FUZZ_JOBS harnesses at a time, by default one a core: each is one process on one core)
jobs=${FUZZ_JOBS:-$(nproc)}
one() {  # one <harness>: runs it; its line of the table, or FAIL and why, into its .out
  local harness=$1 name work log execs last cov ft
  name=$(basename "$harness" _fuzz)
  work=build/fuzz/corpus/$name
  mkdir -p "$work" build/fuzz/artifacts
  log=build/fuzz/$name.log
  if ! "$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix=build/fuzz/artifacts/"$name"- "$work" "test/fuzz/corpus/$name" >"$log" 2>&1; then
    { echo "FAIL: $name"; tail -n 30 "$log"; ls build/fuzz/artifacts/"$name"-* 2>/dev/null; } >"build/fuzz/$name.out"
    return 1
  fi
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  printf '%-18s %12s %8s %8s %8s\n' "$name" "$execs" "$cov" "$ft" "$(ls "$work" | wc -l)" >"build/fuzz/$name.out"
}
printf '%-18s %12s %8s %8s %8s\n' harness executions cov ft corpus
pids=()
for harness in build/fuzz/*_fuzz; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  one "$harness" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for harness in build/fuzz/*_fuzz; do cat "build/fuzz/$(basename "$harness" _fuzz).out"; done
exit $status
