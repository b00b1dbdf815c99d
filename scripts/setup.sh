#!/usr/bin/env bash
# Installs whatever this machine lacks to build, serve and test Partition Playground:
# Debian packages (apt-get, as root or through sudo) and the npm dependencies (npm ci).
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake make pkg-config   # the native build
  emscripten                  # the WebAssembly build (Emscripten 3.1.6 on Debian 12)
  libfmt-dev libxxhash-dev    # {fmt} and xxHash, used header-only in both builds
  zlib1g-dev                  # the native CLI's .gz input
  googletest libgtest-dev     # engine unit tests
  libbenchmark-dev            # engine micro-benchmarks
  clang-14 libclang-rt-14-dev # fuzzing and sanitizers: libFuzzer, ASan and UBSan runtimes
  llvm-14                     # llvm-symbolizer: sanitizer reports with file and line
  chromium                    # end-to-end tests and the browser benchmark (headless)
  firefox-esr                 # the cross-engine suite: Gecko, driven over WebDriver BiDi
  webkit2gtk-driver           # the cross-engine suite: WebKitWebDriver and WebKitGTK's MiniBrowser
  xvfb xauth                  # the X display WebKitGTK needs to run headless
  bsdutils                    # `script`: the CLI tests' pseudo-terminal (essential; checked anyway)
  sqlite3                     # `make bench`: the CQL store's peer (an import and queries of the same CSV)
  python3-distributed         # the cluster recipe (python/partplay_dask.py): Dask, run by /usr/bin/python3
)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  [[ "$p" == \#* ]] && continue
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm dependencies, exactly as pinned in package-lock.json; re-run only when the lock changed.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  touch node_modules/.package-lock.json
fi
