#!/usr/bin/env bash
# Folds what fuzz runs found (BUILD/corpus/<target>) into the checked-in corpus
# (tests/fuzz/corpus/<target>), minimized: libFuzzer's merge keeps the smallest inputs that
# together reach every code edge reached (counters ignored, so a few inputs per edge), then the
# smallest of those are kept up to BUDGET bytes. Inputs named regression-* (crashes found and
# fixed) are always kept. Prints the edges (cov) and features (ft) the new corpus reaches.
#
#   tests/fuzz/minimize-corpus.sh BUILD TARGET [BUDGET_BYTES=100000]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$1 target=$2 budget=${3:-100000}
checked_in="tests/fuzz/corpus/$target"
merged=$(mktemp -d)
trap 'rm -rf "$merged"' EXIT
mkdir -p "$checked_in" "$build/corpus/$target"

"$build/$target" -merge=1 -use_counters=0 -timeout=10 -rss_limit_mb=2048 \
  "$merged" "$checked_in" "$build/corpus/$target" >"$build/logs/$target.merge.log" 2>&1

# The regression inputs, then the smallest merged inputs within the budget.
kept=$(mktemp -d)
trap 'rm -rf "$merged" "$kept"' EXIT
total=0
for f in "$checked_in"/regression-*; do
  if [[ -f $f ]]; then
    cp "$f" "$kept"/
    total=$((total + $(wc -c <"$f")))
  fi
done
while read -r size file; do
  if ((total + size > budget)); then break; fi
  cp "$merged/$file" "$kept/"
  total=$((total + size))
done < <(cd "$merged" && find . -type f -printf '%s %f\n' | sort -n)

rm -rf "$checked_in" && mkdir -p "$checked_in" && cp "$kept"/* "$checked_in"/
"$build/$target" -runs=0 "$checked_in" 2>&1 | grep -E '^#[0-9]+[[:space:]]+DONE' |
  sed "s|^|$target: $(ls "$checked_in" | wc -l) files, $total bytes: |"
