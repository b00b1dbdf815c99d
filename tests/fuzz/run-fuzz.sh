#!/usr/bin/env bash
# Runs libFuzzer targets of tests/fuzz for SECONDS each over their corpus, JOBS at a time, and
# prints each one's figures (executions per second, corpus, coverage) from its log. Fails when
# any target crashes, times out or runs out of memory; the input is kept as
# BUILD/artifacts/<target>/crash-... (or timeout-, oom-, slow-unit-).
#
#   tests/fuzz/run-fuzz.sh BUILD SECONDS JOBS [EXTRA_LIBFUZZER_FLAG...] -- TARGET...
#
# The checked-in corpus tests/fuzz/corpus/<target> is read, never written: what a run finds goes
# to BUILD/corpus/<target> (HACKING.md "Fuzzing" says how to fold it back, minimized).
set -uo pipefail
cd "$(dirname "$0")/../.."

build=$1 seconds=$2 jobs=$3
shift 3
extra=()
while (($#)) && [[ $1 != -- ]]; do extra+=("$1"); shift; done
shift
targets=("$@")

# Per target: the longest input worth trying and the dictionary.
max_len() {
  case $1 in
    ingest_fuzz) echo 16384 ;;
    cql_fuzz | sizing_fuzz) echo 8192 ;;
    *) echo 4096 ;;
  esac
}
dict() {
  case $1 in
    cql_fuzz | token_fuzz) echo tests/fuzz/cql.dict ;;
    query_fuzz) echo tests/fuzz/query.dict ;;
    *) echo tests/fuzz/json.dict ;;
  esac
}

run_one() {
  local t=$1
  local work="$build/corpus/$t" artifacts="$build/artifacts/$t/" log="$build/logs/$t.log"
  mkdir -p "$work" "$artifacts" "$build/logs" "tests/fuzz/corpus/$t"
  # Sanitizer reports are fatal; a report names the input, written under artifacts/.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$build/$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" -dict="$(dict "$t")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" \
    "${extra[@]}" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
  local rc=$?
  # The last status line: "#N DONE cov: C ft: F corp: U/S ... exec/s: E rss: R".
  local done_line execs
  done_line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1)
  execs=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
  printf '%-14s %s  exec/s(avg): %s  exit: %s\n' "$t" "${done_line:-(no status line)}" \
    "${execs:-?}" "$rc"
  if ((rc != 0)); then
    echo "fuzz: $t failed (exit $rc); log $log; input(s):" >&2
    ls "$artifacts" >&2
    grep -E 'ERROR: |runtime error|fuzz invariant broken|SUMMARY' "$log" | head -5 >&2
  fi
  return $rc
}
failed=0
if ((jobs > 1)); then
  # Each target in the background, at most `jobs` at once.
  for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || failed=1; done
    run_one "$t" &
  done
  while (($(jobs -rp | wc -l) > 0)); do wait -n || failed=1; done
else
  for t in "${targets[@]}"; do run_one "$t" || failed=1; done
fi
exit $failed
