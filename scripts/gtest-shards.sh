#!/bin/sh
# Runs a GoogleTest binary as shards (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX), JOBS processes at
# once: the whole suite in about 1/JOBS of the time, where ctest starts one process per test
# (1,699 processes, ~2.5x slower on 2 cores). There are 8 x JOBS shards, each started when a
# process ends, so a shard that draws the slow tests does not hold up the others (under ASan one
# of two shards took 379 s and the other 208 s). Prints each shard's summary, or its whole output
# when it fails; exits 1 when any shard fails.
#
#   scripts/gtest-shards.sh build/native/engine_tests 2 [gtest flags ...]
set -u
binary=$1
jobs=$2
shift 2
shards=$((jobs * 8))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PP_SHARD_BINARY="$binary" PP_SHARD_DIR="$dir" GTEST_TOTAL_SHARDS="$shards"
# One shard: its log, and its exit status beside it.
i=0
while [ "$i" -lt "$shards" ]; do echo "$i"; i=$((i + 1)); done |
  xargs -P "$jobs" -I{} sh -c 'GTEST_SHARD_INDEX={} "$PP_SHARD_BINARY" --gtest_brief=1 "$@" \
    >"$PP_SHARD_DIR/{}.log" 2>&1; echo $? >"$PP_SHARD_DIR/{}.status"' sh "$@"
status=0
i=0
while [ "$i" -lt "$shards" ]; do
  if [ "$(cat "$dir/$i.status" 2>/dev/null)" = 0 ]; then
    echo "shard $((i + 1))/$shards: $(grep -E '^\[==========\]|PASSED' "$dir/$i.log" | tr '\n' ' ')"
  else
    echo "shard $((i + 1))/$shards FAILED:"
    cat "$dir/$i.log" 2>/dev/null
    status=1
  fi
  i=$((i + 1))
done
exit $status
