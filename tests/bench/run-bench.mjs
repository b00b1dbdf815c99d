#!/usr/bin/env node
// `make bench`: the engine's speed, like for like, against its limits and its real peers, on one
// generated NDJSON file (1,000,000 items, ~159 MB). Every measurement runs in a process (native)
// or a browser (wasm, plain JS) of its own, the variants interleaved round by round (A B C A B C
// ...: bench-stats.mjs), and each figure is the median over the rounds with its range.
//
//   node tests/bench/run-bench.mjs [--items N] [--runs 3] [--seed S] [--cql-rows N] [--no-cql]
//                                  [--engine-micro] [--site DIR] [--ascii]
//                                  [--big GB [--no-big-wasm] [--delete-big]]
//                                  [--many N [--many-workers N] [--only-many]]
//
// Sections: native-section.mjs (the CLI at --jobs 1 and N, the parse limit on 1 and N threads,
// DuckDB at 1 and N threads, /id against /userId), browser-section.mjs (the wasm engine on one
// thread, the wasm parse limit, plain JS on one thread and on a pool of N workers, the page's
// client with 1 and N workers), cql-store.mjs (the Cassandra console's store against sqlite3).
// Then the ratios of bench-stats.mjs ratioDefinitions, each named for what it compares and on
// how many cores each side runs ("1 / 1", "N / N"; the old unlike ones are printed too, marked).
// The control for every N figure: cpu_parallel_speedup, the work N threads of a plain loop do
// against one (near 1: the cores do not run side by side now).
// Prints human-readable lines, the ratio table, then a FINAL line that is one JSON object.
// MB = 1e6 bytes, except the *_mib figures. Exits 1 (no JSON line) when any report, DuckDB's
// answer or the JS baseline disagrees with the generator's ground truth. No timing is asserted.
//
//   --items N        items in the generated file (default 1,000,000), in bench-data/, reused
//   --runs N         rounds: every variant runs once per round, interleaved (default 3);
//                    figures are the medians, ratios the ratio of medians with the range of the
//                    per-round ratios
//   --discover N     discover_items / --discover of the --big and --many sections (default
//                    10000, the CLI's and the page's default, which the main rounds use)
//   --cql-rows N     rows of the CQL store's section (cql-store.mjs; default 1,000,000)
//   --no-cql         skip the CQL store's section
//   --engine-micro   also run build/native/engine_bench (Google Benchmark), if it exists
//   --site DIR       the site whose engine/ is measured (default build/site), e.g. an experiment
//   --ascii          ASCII-only data (by default a few city names are multi-byte UTF-8)
//   --big GB         also generate a GB-sized file (reused if present), run the native CLI over it
//                    with its peak RSS, and stream it into the wasm engine in Chromium
//                    (--no-big-wasm skips that; --delete-big removes the file afterwards)
//   --many N         also generate (or reuse, in bench-data/) an N-item file, every item with its
//                    own uuid `id`, and analyse it keyed by /id (N logical partitions) the page's
//                    way: the page's client on a File from a file input (disk-backed, as a dropped
//                    file), its default workers, a fresh browser and client (the timed run starts
//                    the pool); then client.heap() (protocol.js heap) gives the wasm memory of
//                    every engine, the page worker's and each pool worker's (its peak: wasm memory
//                    never shrinks). many_* fields: many_seconds, many_mb_s, many_partition_count
//                    (the bench fails unless it is N), many_workers, many_wasm_heaps_mb (per
//                    engine alive after the run, MiB), many_wasm_heaps_total_mb (their sum),
//                    many_part_heaps_mb (each worker's heap after its part), many_retired_workers
//                    (pool workers the client stopped after their part to free their heap),
//                    many_wasm_heaps_peak_mb (all heaps together at their most: the client's
//                    timing.heap_peak_bytes, or the sum after the run), many_heaps_lt_1_5_gb (that
//                    peak < 1.5e9 bytes: issue 11's target, also in targets),
//                    many_chromium_peak_pss_mb (Chromium's whole memory: its processes' PSS from
//                    /proc summed, sampled every 0.5 s; many_chromium_idle_pss_mb: the same before
//                    the run) and many_renderer_peak_rss_mb (the largest
//                    renderer's VmHWM; the page's workers and their wasm heaps live in it). A run that fails (an engine out
//                    of memory) fails the bench and says how far each heap had grown (client.heap()
//                    sampled every second). `make bench BENCH_ARGS="--many 5000000"`.
//   --many-workers N with --many: the client's workers (default the page's: min(cores, 4)); 1 is
//                    one pass in the page's worker, no parts and no merge
//   --only-many      with --many: that measurement alone (needs only build/site and Chromium),
//                    its JSON line last
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import {DEFAULT_DIR, DEFAULT_SEED, ensureNdjson, removeNdjson} from './gen-ndjson.mjs';
import {BENCH_DIR, BenchFailure, CHROMIUM, MIB, agree, mbPerS, openBenchPage, repo, round, say,
        startBenchServer} from './bench-common.mjs';
import {formatRatio, markdownTable, ratesOf, ratioDefinitions, ratioTable, summarize} from './bench-stats.mjs';
import {browserAgreement, browserRounds} from './browser-section.mjs';
import {CLI, ENGINE_BENCH, nativeAgreement, nativeRounds, nativeTimer, runCli} from './native-section.mjs';
import {manyOnly, manySection} from './many-partitions.mjs';

const NATIVE_JOBS = (await import('node:os')).availableParallelism?.() ?? 1;
const SITE = join(repo, 'build/site');
const KEY = '/userId';
const TARGET_HEAP_VS_INPUT = 2;

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const o = {items: 1_000_000, runs: 3, discover: 10000, seed: DEFAULT_SEED, engineMicro: false,
             big: null, bigWasm: true, deleteBig: false, site: SITE, ascii: false, cqlRows: 1_000_000, cql: true};
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let inline = null;
    if (arg.startsWith('--') && arg.includes('=')) [arg, inline] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
    const value = () => {
      if (inline !== null) return inline;
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    const count = (name, v, min) => {
      const n = Number(String(v).replace(/_/g, ''));
      if (!Number.isInteger(n) || n < min) throw new Error(`${name}: expected an integer >= ${min}, got ${v}`);
      return n;
    };
    if (arg === '--items') o.items = count(arg, value(), 1);
    else if (arg === '--runs') o.runs = count(arg, value(), 1);
    else if (arg === '--discover') o.discover = count(arg, value(), 0);
    else if (arg === '--seed') o.seed = count(arg, value(), 0);
    else if (arg === '--engine-micro') o.engineMicro = true;
    else if (arg === '--cql-rows') o.cqlRows = count(arg, value(), 1);
    else if (arg === '--no-cql') o.cql = false;
    else if (arg === '--site') o.site = resolve(value());
    else if (arg === '--ascii') o.ascii = true;
    else if (arg === '--big') {
      o.big = Number(value());
      if (!(o.big > 0)) throw new Error(`--big: expected a size in GB > 0`);
    } else if (arg === '--no-big-wasm') o.bigWasm = false;
    else if (arg === '--delete-big') o.deleteBig = true;
    else if (arg === '-h' || arg === '--help') {
      const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1);
      const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
      console.log(header.map((l) => l.slice(3)).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown argument: ${argv[i]}`);
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Helpers


/**
 * What node's own spawn of a process costs (the best of 5 spawns of /bin/true, timed by node
 * from spawn() to 'close'): no part of a native figure when exec_timer times it (native_timer),
 * the whole of this is in each one when node does (before 29 November 2026).
 */
async function nodeSpawnCost() {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    await new Promise((ok, fail) => {
      const child = spawn('/bin/true', [], {stdio: 'ignore'});
      child.on('error', fail);
      child.on('close', ok);
    });
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  say(`node's spawn of /bin/true: ${best.toFixed(1)} ms (best of 5)`);
  return best;
}

/**
 * The control for every N-worker figure: how much more work N threads of a plain CPU-bound
 * loop (no memory traffic, no engine) get done per second than one, on this machine now. A
 * figure near 1 means the cores the OS reports do not run side by side (shared, or busy), so
 * no number of jobs or workers can be faster than one.
 */
async function cpuParallelism(threads) {
  const source = `const {parentPort, workerData} = require('node:worker_threads');
    let x = 1;
    for (let i = 0; i < workerData; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
    parentPort.postMessage(x);`;
  const run = async (n) => {
    const started = performance.now();
    await Promise.all(Array.from({length: n}, () => new Promise((ok, fail) => {
      const w = new Worker(source, {eval: true, workerData: 200_000_000});
      w.once('message', ok);
      w.once('error', fail);
    })));
    return performance.now() - started;
  };
  let best = 0;
  for (let i = 0; i < 2; i++) best = Math.max(best, (threads * await run(1)) / await run(threads));
  say(`CPU parallelism (${threads} threads of a plain loop against one): ${best.toFixed(2)}x`);
  return round(best, 2);
}

async function engineMicro() {
  if (!existsSync(ENGINE_BENCH)) {
    say(`engine micro-benchmark: ${ENGINE_BENCH} not built, skipped`);
    return null;
  }
  say(`engine micro-benchmark: ${ENGINE_BENCH}`);
  const dir = mkdtempSync(join(tmpdir(), 'partplay-bench-'));
  const out = join(dir, 'engine_bench.json');
  try {
    const code = await new Promise((ok, fail) => {
      const child = spawn(ENGINE_BENCH, [`--benchmark_out=${out}`, '--benchmark_out_format=json'],
                          {stdio: ['ignore', 'inherit', 'inherit']});
      child.on('error', fail);
      child.on('close', ok);
    });
    if (code !== 0) throw new BenchFailure(`engine_bench exited with ${code}`);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    return Object.fromEntries(json.benchmarks.filter((b) => b.bytes_per_second)
      .map((b) => [b.name, round(b.bytes_per_second / 1e6, 1)]));
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

async function bigSection(options, openPage, baseUrl) {
  const targetBytes = Math.round(options.big * 1e9);
  say(`big file: ${options.big} GB`);
  const data = await ensureNdjson({targetBytes, seed: options.seed, ascii: options.ascii, log: (m) => say(`  ${m}`)});
  say(`  native CLI over ${(data.file_bytes / 1e6).toFixed(0)} MB ...`);
  const r = await runCli(data.file, {format: 'json', extra: ['--discover', String(options.discover)]});
  agree('native (big file) and the generated data', [
    ['items', r.report.items, data.items], ['bytes', r.report.bytes, data.item_bytes],
    ['partition_count', r.report.partition_count, data.distinct_user_ids],
  ]);
  const big = {
    big_file: data.file.startsWith(repo + sep) ? data.file.slice(repo.length + 1) : data.file,
    big_items: data.items, big_bytes: data.file_bytes, big_input_mb: round(data.file_bytes / 1e6, 1),
    big_native_seconds: round(r.seconds, 3), big_native_mb_s: round(mbPerS(data.file_bytes, r.seconds), 1),
    big_native_peak_rss_mb: r.peakRssKb ? round(r.peakRssKb / 1024, 1) : null,
    big_partition_count: r.report.partition_count,
  };
  say(`  native: ${data.items} items in ${r.seconds.toFixed(2)} s, ${big.big_native_mb_s} MB/s, ` +
      `peak RSS ${big.big_native_peak_rss_mb} MiB`);
  if (options.bigWasm) {
    const page = await openPage();
    say('  wasm, streamed with fetch + getReader (1 MiB feeds) ...');
    const name = data.file.slice(DEFAULT_DIR.length + 1);
    const w = await page.evaluate(([url, o]) => window.bench.wasmStream(url, o),
                                  [`${baseUrl}/data/${encodeURIComponent(name)}`,
                                   {keyPaths: [KEY], discoverItems: options.discover}]);
    agree('wasm (big file, streamed) and the generated data', [
      ['received bytes', w.received_bytes, data.file_bytes], ['items', w.items, data.items],
      ['bytes', w.bytes, data.item_bytes], ['partition_count', w.partition_count, data.distinct_user_ids],
    ]);
    Object.assign(big, {
      big_wasm_seconds: round(w.ms / 1000, 3), big_wasm_mb_s: round(mbPerS(data.file_bytes, w.ms / 1000), 1),
      big_wasm_peak_heap_mb: round(w.heap_bytes / MIB, 1),
    });
    say(`  wasm: ${w.items} items in ${(w.ms / 1000).toFixed(2)} s, ${big.big_wasm_mb_s} MB/s, ` +
        `peak heap ${big.big_wasm_peak_heap_mb} MiB (${w.network_chunks} network chunks, largest ` +
        `${w.max_network_chunk} bytes)`);
  }
  if (options.deleteBig) {
    removeNdjson(data.file);
    say(`  deleted ${data.file}`);
  } else {
    say(`  kept ${data.file} for the next run (--delete-big removes it)`);
  }
  say(JSON.stringify(big));
  return big;
}

// ---------------------------------------------------------------------------------------------
// --many N (tests/bench/many-partitions.mjs): its arguments.

/** Takes --many N, --many-workers N and --only-many out of argv; the rest goes to parseArgs. */
function parseManyArgs(argv) {
  const rest = [];
  let many = null, onlyMany = false, manyWorkers = null;
  for (let i = 0; i < argv.length; i++) {
    const [arg, inline] = argv[i].startsWith('--many=') ? ['--many', argv[i].slice(7)] : [argv[i], null];
    if (arg === '--many') {
      const v = inline ?? argv[++i];
      many = Number(String(v).replace(/_/g, ''));
      if (!Number.isInteger(many) || many < 1) throw new Error(`--many: expected an integer >= 1, got ${v}`);
    } else if (arg === '--many-workers') {
      manyWorkers = Number(argv[++i]);
      if (!Number.isInteger(manyWorkers) || manyWorkers < 1) throw new Error(`--many-workers: expected an integer >= 1`);
    } else if (arg === '--only-many') onlyMany = true;
    else rest.push(argv[i]);
  }
  if (onlyMany && many === null) throw new Error('--only-many needs --many N');
  return {...parseArgs(rest), many, onlyMany, manyWorkers};
}

// ---------------------------------------------------------------------------------------------

/** The CQL store's figures as rows of the Markdown table (cql-store.mjs fields and targets). */
function cqlRows(f) {
  const t = f.targets ?? {};
  const rows = [
    {name: 'cql_copy_vs_sqlite', compares: 'COPY FROM rows/s, native / sqlite3 .import into :memory:', cores: '1 / 1',
     text: `${f.cql_copy_vs_sqlite}x (${f.cql_copy_seconds} s against ${f.sqlite_import_seconds} s)`, target: '>= 2', met: t.cql_copy_ge_2x_sqlite},
    {name: 'cql_bytes_per_row_overhead', compares: 'heap per row beyond its values (sqlite3: ' +
     `${f.sqlite_bytes_per_row_overhead} B)`, cores: '1', text: `${f.cql_bytes_per_row_overhead} B`, target: '<= 100 B',
     met: t.cql_overhead_le_100_b_row},
    {name: 'cql_point_select_ms', compares: `a whole partition (${f.cql_point_rows_mean} rows) at ${f.cql_rows.toLocaleString('en-US')} rows ` +
     `(sqlite3 CPU ${f.sqlite_point_select_cpu_ms_median} ms)`, cores: '1', text: `${f.cql_point_select_ms_median} ms`,
     target: '< 1 ms', met: t.cql_point_lt_1_ms},
    {name: 'cql_range_scan_1000_ms', compares: `1,000 rows by token() (sqlite3 CPU ${f.sqlite_range_scan_1000_cpu_ms_median} ms)`,
     cores: '1', text: `${f.cql_range_scan_1000_ms_median} ms`, target: '< 5 ms', met: t.cql_range_lt_5_ms},
  ];
  if (f.cql_wasm_copy_seconds != null) {
    rows.push(
      {name: 'cql_wasm_copy_vs_sqlite', compares: `the page's ${f.cql_wasm_module} in Node / sqlite3`, cores: '1 / 1',
       text: `${f.cql_wasm_copy_vs_sqlite}x (${f.cql_wasm_copy_seconds} s)`, target: '>= 2', met: t.wasm_copy_ge_2x_sqlite},
      {name: 'cql_wasm_bytes_per_row_overhead', compares: 'wasm heap growth per row beyond its values (an upper bound)',
       cores: '1', text: `<= ${f.cql_wasm_bytes_per_row_overhead_max} B`, target: '<= 100 B', met: t.wasm_overhead_le_100_b_row},
      {name: 'cql_wasm_point_select_ms', compares: 'the same point query in wasm', cores: '1',
       text: `${f.cql_wasm_point_select_ms_median} ms`, target: '< 1 ms', met: t.wasm_point_lt_1_ms},
      {name: 'cql_wasm_range_scan_1000_ms', compares: 'the same range scan in wasm', cores: '1',
       text: `${f.cql_wasm_range_scan_1000_ms_median} ms`, target: '< 5 ms', met: t.wasm_range_lt_5_ms});
  }
  if (f.cql_wasm_big_rows != null) {
    rows.push({name: 'cql_wasm_big_rows', compares: 'rows the page\'s module holds', cores: '1',
               text: `${f.cql_wasm_big_rows.toLocaleString('en-US')} rows, ${f.cql_wasm_big_heap_mb} MiB heap, loaded in ${f.cql_wasm_big_load_seconds} s`,
               target: '2,000,000', met: t.wasm_holds_2m_rows});
  }
  return rows;
}

async function main() {
  const options = parseManyArgs(process.argv.slice(2));
  if (options.onlyMany) return manyOnly(options);
  for (const [what, path, hint] of [['the native CLI', CLI, 'make native'],
                                    ['engine_bench', ENGINE_BENCH, 'make native (libbenchmark-dev)'],
                                    ['the site', join(options.site, 'engine/partplay-api.mjs'), 'make site'],
                                    ['Chromium', CHROMIUM, 'apt-get install chromium']]) {
    if (!existsSync(path)) throw new BenchFailure(`${what} is missing (${path}): run \`${hint}\``);
  }
  const N = NATIVE_JOBS;
  say(`== Partition Playground benchmark (${options.runs} rounds, interleaved; medians (min-max); MB = 1e6 bytes)`);
  const data = await ensureNdjson({items: options.items, seed: options.seed, ascii: options.ascii, log: (m) => say(`data: ${m}`)});
  say(`data: ${data.items} items, ${(data.file_bytes / 1e6).toFixed(1)} MB, ${data.distinct_user_ids} distinct userIds`);
  const cpuParallel = await cpuParallelism(N);
  const nodeSpawnMs = await nodeSpawnCost();

  const native = await nativeRounds(data, {runs: options.runs, jobs: N});
  nativeAgreement(data, native, agree);

  const {server, url: baseUrl} = await startBenchServer({site: options.site, bench: BENCH_DIR, data: DEFAULT_DIR});
  let browser = null;
  const openPage = async () => {
    // A fresh browser for each measurement: no engine, worker or garbage of another is left in it.
    if (browser) await browser.close();
    const opened = await openBenchPage(baseUrl);
    browser = opened.browser;
    return opened.page;
  };
  let wasm, micro = null, big = null, manyRun = null, cql = null;
  try {
    const dataUrl = `${baseUrl}/data/${encodeURIComponent(data.file.slice(DEFAULT_DIR.length + 1))}`;
    wasm = await browserRounds(data, dataUrl, {runs: options.runs, openPage, poolWorkers: Math.min(N, 4)});
    browserAgreement(data, wasm, native.cli_json[0].report, agree);
    say(`checks: the CLI, DuckDB, the wasm engine, the page, the JS baselines and the generator agree: ` +
        `${data.items} items, ${data.distinct_user_ids} partitions, ${data.item_bytes} item bytes`);
    if (options.engineMicro) micro = await engineMicro();
    if (options.big) big = await bigSection(options, openPage, baseUrl);
    if (options.many) manyRun = await manySection(options, openPage, baseUrl);
  } finally {
    if (browser) await browser.close();
    server.close();
  }
  if (options.cql) {
    const {cqlStoreSection} = await import('./cql-store.mjs');
    cql = await cqlStoreSection({rows: options.cqlRows, runs: options.runs, log: say});
  }

  const bytes = data.file_bytes;
  const all = {...native, ...wasm};
  const rates = Object.fromEntries(Object.entries(all).map(([k, runs]) => [k, ratesOf(bytes, runs)]));
  const times = Object.fromEntries(Object.entries(all).map(([k, runs]) => [k, runs.map((r) => r.seconds)]));
  const ratios = ratioTable(ratioDefinitions(N), {rates, times});
  const mbS = (k) => round(summarize(rates[k]).median, 1);
  const range = (k) => {
    const t = summarize(rates[k]);
    return [round(t.min, 1), round(t.max, 1)];
  };
  const peakMib = (k) => {
    const kb = all[k].map((r) => r.peakRssKb).filter(Boolean);
    return kb.length ? round(Math.max(...kb) / 1024, 1) : null;
  };
  const heapBytes = Math.max(...wasm.wasm_engine.map((r) => r.heap_bytes));
  const figures = Object.fromEntries(Object.keys(all).map((k) => [`${k}_mb_s`, mbS(k)]));
  const result = {
    items: data.items, bytes, input_mb: round(bytes / 1e6, 1), item_bytes: data.item_bytes,
    partition_count: data.distinct_user_ids, runs: options.runs, jobs: N,
    native_timer: nativeTimer(), node_spawn_ms: round(nodeSpawnMs, 1), cpu_parallel_speedup: cpuParallel,
    duckdb_version: native.duck1[0].duckdb_version, page_workers: wasm.pageN[0].workers,
    page1_read_ahead: wasm.page1.every((r) => r.readAhead),
    ...figures,
    ranges_mb_s: Object.fromEntries(Object.keys(all).map((k) => [k, range(k)])),
    cli1_peak_rss_mib: peakMib('cli1'), cliN_peak_rss_mib: peakMib('cliN'),
    cli1_id_peak_rss_mib: peakMib('cli1_id'), cli_json_id_peak_rss_mib: peakMib('cli_json_id'),
    cli_container_id_peak_rss_mib: peakMib('cli_container_id'),
    duck1_peak_rss_mib: peakMib('duck1'), duckN_id_peak_rss_mib: peakMib('duckN_id'),
    wasm_peak_heap_mib: round(heapBytes / MIB, 1), heap_vs_input: round(heapBytes / bytes, 3),
    ratios: Object.fromEntries(ratios.map((r) => [r.name, {value: round(r.value, 3), min: round(r.min, 3),
                                                          max: round(r.max, 3), cores: r.cores, target: r.target,
                                                          met: r.met, old: r.old}])),
    ...(micro ? {engine_micro_mb_s: micro} : {}),
    ...(big ?? {}),
    ...(manyRun?.fields ?? {}),
    ...(cql?.fields ?? {}),
  };
  const targets = Object.fromEntries(ratios.filter((r) => r.target != null && !r.old).map((r) => [r.name, r.met]));
  targets.heap_lt_2x_input = heapBytes < TARGET_HEAP_VS_INPUT * bytes;
  targets.id_peak_rss_lt_150_mib = (peakMib('cliN_id') ?? Infinity) < 150;
  targets.id_container_rss_lt_250_mib = (result.cli_container_id_peak_rss_mib ?? Infinity) < 250;
  if (manyRun) targets.many_heaps_lt_1_5_gb = manyRun.fields.many_heaps_lt_1_5_gb;
  if (cql?.fields?.targets) Object.assign(targets, cql.fields.targets);
  result.targets = targets;
  result.targets_met = Object.values(targets).every((ok) => ok === true);

  say('');
  say(`figures (MB/s, median of ${options.runs} rounds (min-max); ${N} = this machine's cores; ` +
      `${N} threads of a plain loop do ${cpuParallel}x the work of one):`);
  for (const k of Object.keys(all)) {
    say(`  ${k.padEnd(17)} ${mbS(k).toFixed(1).padStart(8)} (${range(k).join('-')})` +
        (peakMib(k) ? `  peak RSS ${peakMib(k)} MiB` : ''));
  }
  say(`  wasm engine peak heap ${result.wasm_peak_heap_mib} MiB = ${(result.heap_vs_input * 100).toFixed(1)}% of the input ` +
      `(target < ${TARGET_HEAP_VS_INPUT}x: ${targets.heap_lt_2x_input ? 'met' : 'NOT met'})`);
  say('');
  say('ratios (median / median, the per-round range; [cores of each side]):');
  for (const r of ratios) say(`  ${formatRatio(r)}`);
  if (manyRun) say(manyRun.line);
  if (cql) for (const line of cql.lines) say(line);
  say('');
  say(`the table (Markdown, README's and docs/benchmarks.md's; ${new Date().toISOString().slice(0, 10)}, ` +
      `${N} cores, cpu_parallel_speedup ${cpuParallel}, ${options.runs} rounds):`);
  say(markdownTable([...ratios.filter((r) => !r.old), ...(cql ? cqlRows(cql.fields) : []), ...ratios.filter((r) => r.old)]));
  say('');
  const unmet = Object.entries(targets).filter(([, ok]) => ok === false).map(([k]) => k);
  const unmeasured = Object.entries(targets).filter(([, ok]) => ok == null).map(([k]) => k);
  say(unmet.length ? `targets NOT met: ${unmet.join(', ')}` : 'every target measured is met');
  if (unmeasured.length) say(`targets not measured in this run: ${unmeasured.join(', ')}`);
  console.log(JSON.stringify(result));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    if (e instanceof BenchFailure) console.error(`\nBENCH FAILED: ${e.message}`);
    else console.error(`\nBENCH FAILED: ${e.stack || e}`);
    process.exit(1);
  });
}
