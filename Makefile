# Partition Playground — every entry point. `make serve` and `make test` set up a fresh Debian
# machine on their own (scripts/setup.sh), then build what they need.
#   make serve   build the engine to WebAssembly, assemble the site, serve it on 127.0.0.1:$(PORT)
#   make test    engine unit tests (GoogleTest), CLI tests (node), the cluster recipe (Dask), wasm tests
#                (node), end-to-end tests (Playwright in Chromium, then the reader paths in Firefox and WebKit)
#   make bench   speed, like for like: the CLI, wasm in Chromium and plain JS against their parse
#                limits and peers (DuckDB, a plain-JS worker pool, sqlite3 for the CQL store)
#   make cli     build the native CLI: build/native/partplay
#   make fuzz    every libFuzzer target (tests/fuzz) for FUZZ_SECONDS each (clang-14, ASan+UBSan)
#   make test-sanitize   the engine tests under ASan+UBSan, then a short fuzz pass (also in `make test`)
PORT ?= 8080
JOBS ?= $(shell nproc)
# Debian's Emscripten needs Debian's acorn for its optimizer.
export NODE_PATH := /usr/share/nodejs
MAKEFLAGS += --no-print-directory

NATIVE := build/native
WASM_BUILD := build/wasm-cmake
SITE := build/site
# The cross-engine suite: one file per engine, each with its own browser, server and display, so
# the two engines run side by side.
BROWSER_TESTS := node --test --test-concurrency=2 tests/browsers/

# The fuzz and sanitizer build (clang-14, ASan + UBSan, libFuzzer): CMake's PARTPLAY_FUZZ.
FUZZ_BUILD := build/fuzz
FUZZ_TARGETS := cql_fuzz csv_fuzz epk_fuzz ingest_fuzz json_scan_fuzz json_stage1_fuzz options_fuzz partial_fuzz query_fuzz sizing_fuzz summary_fuzz token_fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
# test-sanitize's fuzz pass: seconds per target, two targets at a time, a fixed seed.
SANITIZE_FUZZ_SECONDS ?= 12
# The sanitizer build, the engine tests under it (every sanitizer report is fatal,
# -fno-sanitize-recover=all, leaks included) and the fuzz pass, as shell commands: test-sanitize
# runs them in turn; `make test` starts the build in the background (scripts/background.sh).
FUZZ_BUILD_CMD = cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O2 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DPARTPLAY_FUZZ=ON -DBUILD_TESTING=ON >/dev/null && \
  cmake --build $(FUZZ_BUILD) -j $(JOBS) --target engine_tests $(FUZZ_TARGETS)
SANITIZE_TESTS_CMD = echo "== engine unit tests under ASan + UBSan" && \
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  scripts/gtest-shards.sh $(FUZZ_BUILD)/engine_tests $(JOBS)
SANITIZE_FUZZ_CMD = echo "== fuzz pass over the checked-in corpora ($(SANITIZE_FUZZ_SECONDS) s per target)" && \
  tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) $(SANITIZE_FUZZ_SECONDS) 2 -seed=1 -- $(FUZZ_TARGETS)

.PHONY: setup native cli wasm site serve test test-engine test-cli test-cluster test-wasm test-e2e test-browsers \
	test-sanitize sanitize-background fuzz fuzz-build bench clean

setup:
	@scripts/setup.sh

native cli: setup
	@cmake -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON >/dev/null
	@cmake --build $(NATIVE) -j $(JOBS)

wasm: setup
	@emcmake cmake -S . -B $(WASM_BUILD) -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
	@cmake --build $(WASM_BUILD) -j $(JOBS)

# The static site: the page, the engine (wasm + its JS), D3, and the examples.
site: wasm
	@rm -rf $(SITE) && mkdir -p $(SITE)/engine $(SITE)/vendor
	@cp -r web/. $(SITE)/
	@cp wasm/partplay-api.mjs $(WASM_BUILD)/partplay.mjs $(WASM_BUILD)/partplay.wasm $(SITE)/engine/
	@cp $(WASM_BUILD)/partplay-cosmos.mjs $(WASM_BUILD)/partplay-cosmos.wasm $(SITE)/engine/
	@cp $(WASM_BUILD)/partplay-cosmos-fast.mjs $(WASM_BUILD)/partplay-cosmos-fast.wasm $(SITE)/engine/
	@cp $(WASM_BUILD)/partplay-cql.mjs $(WASM_BUILD)/partplay-cql.wasm $(SITE)/engine/
	@cp $(WASM_BUILD)/partplay-cql-element.mjs $(WASM_BUILD)/partplay-cql-element.wasm $(SITE)/engine/
	@cp $(WASM_BUILD)/partplay-sizing.mjs $(WASM_BUILD)/partplay-sizing.wasm $(SITE)/engine/
	@cp $(WASM_BUILD)/partplay-nosimd.mjs $(WASM_BUILD)/partplay-nosimd.wasm $(SITE)/engine/
	@cp node_modules/d3/dist/d3.min.js $(SITE)/vendor/
	@cp -r examples $(SITE)/examples
	@node scripts/gen-examples-index.mjs --root $(SITE)
	@node scripts/minify-site.mjs --root $(SITE)
	@echo "site: $(SITE) ($$(du -sh $(SITE) | cut -f1))"
	@node scripts/size-report.mjs --root $(SITE)

serve: site
	@node scripts/serve.mjs --root $(SITE) --port $(PORT)

# The sanitizer build starts first, in the background at nice 19, and takes the CPU the native
# and wasm builds leave idle (their single-threaded LTO links); make waits for it before the
# browsers start. A background build beside the browser tests slowed them by 40% (the end-to-end
# stage took 18.9 minutes against 13.6 alone) for less work than that time does at full speed, so
# the sanitizer tests and everything after run one at a time; the fuzz pass, which has per-input
# timeouts, runs last.
test: sanitize-background native site
	@scripts/lint-throwing.sh
	@node scripts/lint-web-rules.mjs
	@echo "== engine unit tests (GoogleTest, in shards, $(JOBS) at once)"
	@scripts/gtest-shards.sh $(NATIVE)/engine_tests $(JOBS)
	@echo "== command-line tests (node: help, usage errors, progress on a terminal, Ctrl-C)"
	@node --test tests/cli/
	@echo "== the cluster recipe (python/partplay_dask.py on a 2-worker Dask LocalCluster, 256 MB)"
	@/usr/bin/python3 -m unittest discover -s tests/cluster
	@echo "== wasm module tests (node)"
	@node --test tests/wasm/
	@echo "== the benchmark's own logic (node: interleaving, medians, ratio formulas; no timing)"
	@node --test tests/bench/
	@scripts/background.sh wait sanitize
	@$(SANITIZE_TESTS_CMD)
	@echo "== end-to-end tests (Playwright, headless Chromium)"
	@node --test --test-concurrency=1 tests/e2e/
	@echo "== cross-engine end-to-end tests (Firefox ESR over WebDriver BiDi, WebKitGTK through WebKitWebDriver)"
	@$(BROWSER_TESTS)
	@$(SANITIZE_FUZZ_CMD)

sanitize-background: setup
	@scripts/background.sh start sanitize sh -c '$(FUZZ_BUILD_CMD)'

test-engine: native
	@scripts/lint-throwing.sh
	@scripts/gtest-shards.sh $(NATIVE)/engine_tests $(JOBS)
test-cli: native
	@node --test tests/cli/
test-cluster: native
	@/usr/bin/python3 -m unittest discover -s tests/cluster -v
test-wasm: native site
	@node --test tests/wasm/
test-e2e: site
	@node --test --test-concurrency=1 tests/e2e/
test-browsers: site
	@$(BROWSER_TESTS)

fuzz-build: setup
	@$(FUZZ_BUILD_CMD)

fuzz: fuzz-build
	@tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_JOBS) -- $(FUZZ_TARGETS)

test-sanitize: fuzz-build
	@$(SANITIZE_TESTS_CMD)
	@$(SANITIZE_FUZZ_CMD)

bench: native site
	@node tests/bench/run-bench.mjs $(BENCH_ARGS)
	@node tests/bench/cluster-bench.mjs $(CLUSTER_BENCH_ARGS)

clean:
	rm -rf build test-results
