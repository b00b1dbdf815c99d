#!/bin/sh
# The engine is built without exceptions, so a standard call that throws aborts the whole engine
# (the CLI, or the page's worker). This lint fails when one is written in engine/ or wasm/:
# std::stoi and friends (use partplay/core/numbers.h), .at() (index after a bounds check),
# std::get<> on a variant (std::get_if), std::any_cast, std::regex, fmt::runtime (format strings
# are checked at compile time), throw/try/catch.
# A line that truly needs one says why with the marker "lint-throwing: allowed (reason)".
# It also fails on `long double`: {fmt} is built with FMT_USE_LONG_DOUBLE=0 (CMakeLists.txt), so
# one would format as nothing, and wasm computes it in software.
#
#   scripts/lint-throwing.sh          # exit 0, or 1 with file:line: the call
set -eu
cd "$(dirname "$0")/.."
pattern='(\bstd::)?\bsto(i|l|ll|ul|ull|f|d|ld)[[:space:]]*\(|\.at[[:space:]]*\(|\bstd::get[[:space:]]*<|\bstd::any_cast\b|\bstd::regex\b|\bfmt::runtime\b|\bthrow\b|\btry[[:space:]]*\{|\bcatch[[:space:]]*\('
found=$(grep -rnE --include='*.h' --include='*.cpp' "$pattern" engine wasm \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' \
  | grep -v 'lint-throwing: allowed' || true)
if [ -n "$found" ]; then
  echo "lint-throwing: a standard call that throws (the engine has no exceptions; it would abort):"
  echo "$found"
  echo "Use partplay/core/numbers.h (ParseInt64, ParseHexUint64, ParseFiniteDouble), operator[]"
  echo "after a bounds check, std::get_if; or mark the line 'lint-throwing: allowed (reason)'."
  exit 1
fi
long_double=$(grep -rnE --include='*.h' --include='*.cpp' '\blong[[:space:]]+double\b' engine wasm \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [ -n "$long_double" ]; then
  echo "lint-throwing: long double in engine/ or wasm/ ({fmt} is built to print nothing for it):"
  echo "$long_double"
  echo "Use double, or integers where a double's 53 bits are too few."
  exit 1
fi
echo "lint-throwing: no throwing standard call or long double in engine/ or wasm/"
