#!/usr/bin/env node
// `make bench`: throughput of the native CLI, of the wasm engine in headless Chromium, and of the
// plain-JS code a web developer would write, over the same generated NDJSON file.
//
//   node tests/bench/run-bench.mjs [--items N] [--runs 3] [--discover 10000] [--seed S]
//                                  [--engine-micro] [--site DIR] [--ascii]
//                                  [--big GB [--no-big-wasm] [--delete-big]]
//                                  [--many N [--many-workers N] [--only-many]]
//
// Needs build/native/partplay and build/site (`make native site`), /usr/bin/chromium and
// playwright-core. Prints human-readable lines, then a FINAL line that is one JSON object:
// `bytes` is the file size (the MB/s numerator), `item_bytes` the report's `bytes`; MB = 1e6
// bytes everywhere, except wasm_peak_heap_mb and the *_rss_mb figures, which are MiB (2^20).
// Timed: native = the whole CLI process (best of --runs), from its spawn to its exit, by
// build/native/exec_timer (else /usr/bin/time -v, else node: node's own spawn costs 4-5 ms here,
// node_spawn_ms; native_timer says which); wasm = createEngine() + newAnalysis +
// 1 MiB feeds + finish() over an ArrayBuffer fetched beforehand; plain JS = TextDecoder, split,
// JSON.parse, Map over the same ArrayBuffer. With --big, the big file's figures (big_*) are also
// printed as their own JSON line and merged into the final one.
// The control for the N-worker figures: cpu_parallel_speedup, the work N threads of a plain loop
// do against one (near 1: this machine's cores do not run side by side now).
// Also measured natively on the same file: the CLI on one core (--jobs 1: native1_mb_s) and on
// every core (--jobs N: native_jobs_mb_s, its peak RSS and share of the parse limit), the
// parse limit (build/native/engine_bench --parse-limit: simdjson DOM parse_many, every value
// validated; parse_limit_mb_s, the best of two processes, parse_limit_processes_mb_s, before and
// after the CLI's runs; native_vs_parse_limit), and many partitions (--key /id against
// --key /userId, plain and with --container --ru 100000: time and peak-RSS ratios).
// The page's way: the page's own client (web/worker/client.js) analyses the file as a File, with
// its default workers (min(cores, 4), the worker pool; a file cut at safe item boundaries, parts
// merged by the engine) and with one worker; timed from analyze() to the report, after one
// untimed analysis that starts the pool (the page keeps its workers and engines). wasm_mb_s, wasm_vs_js and wasm_vs_native
// are that figure with all its workers (wasm_workers: how many it used), wasm1_mb_s with one;
// wasm_read_ahead / wasm1_read_ahead: whether the file was read ahead by the workers' reader
// threads (report timing.read_ahead: where a core is left over for them);
// wasm_parse_limit_mb_s is simdjson's DOM parse_many alone in the same page over the same bytes
// (engine.parseLimit), the ceiling of every wasm figure (wasm_engine_vs_parse_limit,
// wasm1_vs_parse_limit).
// wasm_engine_mb_s is the engine alone in the page's thread over the ArrayBuffer (above), whose
// runs give the wasm_init/feed/finish_ms and the heap figures.
// Exits 1 (no JSON line) when the native CLI, the wasm engine, the JS baseline and the
// generator's ground truth disagree on items, bytes or partitions. No timing is asserted.
//
//   --items N        items in the generated file (default 1,000,000), in bench-data/, reused
//   --runs N         runs per measurement, the best one counts (default 3)
//   --discover N     discover_items / --discover for the main measurements (default 10000);
//                    a second wasm and native measurement always uses 0, to show its cost
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
import {createServer} from 'node:http';
import {createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {readdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, extname, join, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import {DEFAULT_DIR, DEFAULT_SEED, ensureNdjson, removeNdjson} from './gen-ndjson.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(repo, 'build/native/partplay');
const ENGINE_BENCH = join(repo, 'build/native/engine_bench');
const NATIVE_JOBS = (await import('node:os')).availableParallelism?.() ?? 1;
const SITE = join(repo, 'build/site');
const BENCH_DIR = join(repo, 'tests/bench');
const CHROMIUM = '/usr/bin/chromium';
const TIME = '/usr/bin/time';
const EXEC_TIMER = join(repo, 'build/native/exec_timer');
const KEY = '/userId';
const MIB = 1024 * 1024;

const TARGET_WASM_VS_JS = 5;
const TARGET_WASM_VS_NATIVE = 0.35;
const TARGET_HEAP_VS_INPUT = 2;

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const o = {items: 1_000_000, runs: 3, discover: 10000, seed: DEFAULT_SEED, engineMicro: false,
             big: null, bigWasm: true, deleteBig: false, site: SITE, ascii: false};
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

const mbPerS = (bytes, seconds) => bytes / 1e6 / seconds;
const round = (x, digits = 2) => (x == null || !Number.isFinite(x) ? x : Number(x.toFixed(digits)));
const fmtMs = (ms) => `${ms.toFixed(0)} ms`;
const say = (line = '') => console.log(line);

class BenchFailure extends Error {}

/** Compares named values; throws BenchFailure listing every mismatch. */
function agree(what, checks) {
  const bad = checks.filter(([, a, b]) => a !== b);
  if (bad.length) {
    throw new BenchFailure(`${what} disagree:\n` +
      bad.map(([name, a, b]) => `  ${name}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`).join('\n'));
  }
}

/**
 * Runs a command, collecting stdout. Peak RSS from /usr/bin/time -v when present, else from
 * polling VmHWM in /proc/<pid>/status. Resolves to {code, stdout, stderr, seconds, peakRssKb}.
 */
function runMeasured(cmd, args, {collectStdout = true} = {}) {
  const useTimer = existsSync(EXEC_TIMER);
  const useTime = !useTimer && existsSync(TIME);
  const [file, argv] = useTimer ? [EXEC_TIMER, [cmd, ...args]]
                     : useTime ? [TIME, ['-v', cmd, ...args]] : [cmd, args];
  return new Promise((ok, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, {stdio: ['ignore', collectStdout ? 'pipe' : 'ignore', 'pipe']});
    const out = [];
    const err = [];
    if (collectStdout) child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let hwmKb = 0;
    let poll = null;
    if (!useTime && !useTimer) {
      const read = () => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
        } catch {}
      };
      poll = setInterval(read, 10);
    }
    child.on('error', fail);
    child.on('close', (code) => {
      let seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (poll) clearInterval(poll);
      let stderr = Buffer.concat(err).toString();
      let peakRssKb = hwmKb || null;
      if (useTimer) {
        // Its last line: the child's time from spawn to exit and its peak RSS (exec_timer.cpp).
        const m = /exec_timer: (\{.*\})\n?$/.exec(stderr);
        if (m) {
          const t = JSON.parse(m[1]);
          seconds = t.seconds;
          peakRssKb = t.max_rss_kb;
          stderr = stderr.slice(0, m.index);
        }
      }
      if (useTime) {
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        peakRssKb = m ? Number(m[1]) : null;
        const cut = stderr.search(/\tCommand being timed:/);
        if (cut >= 0) stderr = stderr.slice(0, cut);
        // time -v exits with the child's status; "Command exited with non-zero status N" precedes.
        stderr = stderr.replace(/Command exited with non-zero status \d+\n?$/, '');
      }
      ok({code, stdout: collectStdout ? Buffer.concat(out) : null, stderr, seconds, peakRssKb});
    });
  });
}

/** One native analysis; throws on a non-zero exit. Returns {seconds, peakRssKb, report}. */
/**
 * The CLI's report is written to a file (--output), as a user keeps a large one, and read after
 * the timed run: through a pipe the 124 MB listing of 1,000,000 partitions cost the reading
 * process's time too (0.8 s to a file against 1.05 s into this process, same machine).
 */
async function runNative(file, discover, extra = [], key = KEY, format = 'json') {
  const dir = mkdtempSync(join(tmpdir(), 'partplay-bench-out-'));
  const out = join(dir, 'report.json');
  try {
    const r = await runMeasured(CLI, ['analyze', '--key', key, '--format', format, '--discover',
                                      String(discover), '--output', out, ...extra, file],
                                {collectStdout: false});
    if (r.code !== 0) throw new BenchFailure(`partplay exited with ${r.code}: ${r.stderr.trim()}`);
    const report = format === 'json' ? JSON.parse(readFileSync(out, 'utf8')) : null;
    return {seconds: r.seconds, peakRssKb: r.peakRssKb, report};
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

/** Best of `runs`; `measure()` resolves to an object with `seconds`. */
async function bestOf(runs, label, measure, describe) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    const r = await measure();
    all.push(r);
    say(`  ${label} run ${i + 1}/${runs}: ${describe(r)}`);
  }
  const best = all.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  return {best, all};
}

// ---------------------------------------------------------------------------------------------
// A small static server: /site/ -> build/site, /bench/ -> tests/bench, /data/ -> bench-data.

const MIME = {'.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
              '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
              '.json': 'application/json', '.ndjson': 'application/x-ndjson',
              '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml'};

export async function startBenchServer(mounts) {
  const server = createServer((req, res) => {
    const fail = (status) => {
      res.writeHead(status, {'Content-Type': 'text/plain'});
      res.end(`${status}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405);
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return fail(400);
    }
    const [, mount, ...rest] = path.split('/');
    const root = mounts[mount];
    if (!root || rest.some((p) => p === '..' || p.includes('\0') || p.includes('\\'))) return fail(404);
    const file = join(root, ...rest);
    if (!file.startsWith(root + sep)) return fail(404);
    let info;
    try {
      info = statSync(file);
    } catch {
      return fail(404);
    }
    if (!info.isFile()) return fail(404);
    res.writeHead(200, {'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
                        'Content-Length': info.size, 'Cache-Control': 'no-store'});
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(file, {highWaterMark: 1 << 20});
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  return {server, url: `http://127.0.0.1:${server.address().port}`};
}

/** Launches Chromium and opens the bench page; resolves to {browser, page, close()}. */
export async function openBenchPage(baseUrl) {
  const {chromium} = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error(`  [page] ${m.text()}`);
  });
  page.on('crash', () => errors.push(new Error('the page crashed')));
  await page.goto(`${baseUrl}/bench/bench-page.html`);
  await page.waitForFunction(() => window.bench !== undefined);
  if (errors.length) throw errors[0];
  await page.evaluate(() => window.bench.init());
  return {browser, page, version: browser.version()};
}

// ---------------------------------------------------------------------------------------------
// The measurements

async function nativeSection(data, options) {
  say(`native CLI: ${CLI} analyze --key ${KEY} --format json --discover ${options.discover}`);
  const main = await bestOf(options.runs, 'native', () => runNative(data.file, options.discover),
                            (r) => `${r.seconds.toFixed(3)} s, ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s` +
                                   (r.peakRssKb ? `, peak RSS ${(r.peakRssKb / 1024).toFixed(1)} MiB` : ''));
  let zero = null;
  if (options.discover !== 0) {
    zero = await bestOf(options.runs, 'native --discover 0', () => runNative(data.file, 0),
                        (r) => `${r.seconds.toFixed(3)} s, ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s`);
  }
  const one = await bestOf(options.runs, 'native --jobs 1', () => runNative(data.file, options.discover, ['--jobs', '1']),
                          (r) => `${r.seconds.toFixed(3)} s, ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s` +
                                 (r.peakRssKb ? `, peak RSS ${(r.peakRssKb / 1024).toFixed(1)} MiB` : ''));
  const all = await bestOf(options.runs, `native --jobs ${NATIVE_JOBS}`,
                          () => runNative(data.file, options.discover, ['--jobs', String(NATIVE_JOBS)]),
                          (r) => `${r.seconds.toFixed(3)} s, ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s` +
                                 (r.peakRssKb ? `, peak RSS ${(r.peakRssKb / 1024).toFixed(1)} MiB` : ''));
  return {main, zero, one, all};
}

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

/** simdjson's DOM parse_many over the file, natively (engine_bench --parse-limit). */
async function parseLimit(data, options) {
  if (!existsSync(ENGINE_BENCH)) {
    say(`parse limit: ${ENGINE_BENCH} not built (libbenchmark-dev), skipped`);
    return null;
  }
  const r = await runMeasured(ENGINE_BENCH, ['--parse-limit', data.file, String(options.runs)]);
  if (r.code !== 0) throw new BenchFailure(`engine_bench --parse-limit exited with ${r.code}`);
  const out = JSON.parse(r.stdout.toString());
  say(`parse limit (simdjson DOM parse_many, ${out.implementation}): ${out.parse_limit_mb_s} MB/s`);
  return out.parse_limit_mb_s;
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

/**
 * --key /id (one partition per item) against --key /userId, plain and with a container: with the
 * CLI's default options (--format table: the largest partitions, by selection; --jobs = cores),
 * the acceptance's commands; and with --format json, which lists all 1,000,000 partitions
 * (a 124 MB report: reported, the json_* figures).
 */
async function manyPartitions(data, options) {
  const row = async (label, key, extra, format) => {
    const m = await bestOf(options.runs, `${label} --format ${format}`,
                           () => runNative(data.file, options.discover, extra, key, format),
                           (r) => `${r.seconds.toFixed(3)} s` +
                                  (r.peakRssKb ? `, peak RSS ${(r.peakRssKb / 1024).toFixed(1)} MiB` : ''));
    return {seconds: m.best.seconds, rssMb: m.best.peakRssKb ? m.best.peakRssKb / 1024 : null};
  };
  const container = ['--container', '--ru', '100000'];
  const ratio = (a, b) => (a != null && b ? round(a / b, 2) : null);
  const figures = async (format, prefix) => {
    const user = await row('--key /userId', KEY, [], format);
    const id = await row('--key /id', '/id', [], format);
    const userC = await row('--key /userId --container', KEY, container, format);
    const idC = await row('--key /id --container', '/id', container, format);
    return {
      [`${prefix}id_seconds`]: round(id.seconds, 3), [`${prefix}userid_seconds`]: round(user.seconds, 3),
      [`${prefix}id_vs_userid_time`]: ratio(id.seconds, user.seconds),
      [`${prefix}id_peak_rss_mb`]: round(id.rssMb, 1), [`${prefix}userid_peak_rss_mb`]: round(user.rssMb, 1),
      [`${prefix}id_vs_userid_rss`]: ratio(id.rssMb, user.rssMb),
      [`${prefix}id_container_seconds`]: round(idC.seconds, 3),
      [`${prefix}id_vs_userid_container_time`]: ratio(idC.seconds, userC.seconds),
      [`${prefix}id_container_peak_rss_mb`]: round(idC.rssMb, 1),
      [`${prefix}id_vs_userid_container_rss`]: ratio(idC.rssMb, userC.rssMb),
    };
  };
  return {...await figures('table', ''), ...await figures('json', 'json_')};
}

async function browserSection(page, data, dataUrl, options) {
  const loaded = await page.evaluate((url) => window.bench.load(url), dataUrl);
  if (loaded.bytes !== data.file_bytes) {
    throw new BenchFailure(`the page fetched ${loaded.bytes} bytes, the file has ${data.file_bytes}`);
  }
  say(`  fetched ${(loaded.bytes / 1e6).toFixed(1)} MB into an ArrayBuffer in ${fmtMs(loaded.ms)} (not timed)`);
  const wasmRun = (discoverItems) => async () => {
    const r = await page.evaluate((o) => window.bench.wasm(o), {keyPaths: [KEY], discoverItems});
    return {...r, seconds: r.ms / 1000};
  };
  const describeWasm = (r) => `${fmtMs(r.ms)} (createEngine ${fmtMs(r.init_ms)}, feed ${fmtMs(r.feed_ms)}, ` +
    `finish ${fmtMs(r.finish_ms)}), ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s, ` +
    `heap ${(r.heap_bytes / MIB).toFixed(1)} MiB`;
  say(`wasm engine (discover_items ${options.discover}, 1 MiB feeds):`);
  const wasm = await bestOf(options.runs, 'wasm', wasmRun(options.discover), describeWasm);
  let wasmZero = null;
  if (options.discover !== 0) {
    say('wasm engine (discover_items 0):');
    wasmZero = await bestOf(options.runs, 'wasm discover 0', wasmRun(0), describeWasm);
  }
  await page.evaluate(async (url) => {
    const response = await fetch(url);
    window.benchFile = new File([await response.arrayBuffer()], 'bench.ndjson', {type: 'application/x-ndjson'});
  }, dataUrl);
  const pageRun = (workers) => async () => {
    const r = await page.evaluate(async ({workers, keyPaths, discoverItems}) => {
      window.benchClients ??= {};
      const name = String(workers ?? 'default');
      if (!window.benchClients[name]) {
        const {PlaygroundClient} = await import('/site/worker/client.js');
        const client = new PlaygroundClient(workers ? {workers} : {});
        await client.ready;
        // Untimed: the first analysis starts the pool and loads its engines, which the page
        // keeps for every later file; the timed runs are the later ones.
        await client.analyze({source: {kind: 'file', file: window.benchFile}, keyPaths, discoverItems});
        window.benchClients[name] = client;
      }
      const t0 = performance.now();
      const report = await window.benchClients[name].analyze({source: {kind: 'file', file: window.benchFile}, keyPaths,
                                                              discoverItems});
      const ms = performance.now() - t0;
      const {split_ms: splitMs, part_ms: partMs, partial_bytes: partialBytes, merge_ms: mergeMs} = report.timing;
      return {ms, workers: report.timing.workers ?? 1, readAhead: report.timing.read_ahead === true,
              splitMs, partMs, partialBytes, mergeMs,
              items: report.items, bytes: report.bytes,
              input_bytes: report.input_bytes, partition_count: report.partition_count,
              undefined_key_items: report.undefined_key_items, largest_partition: report.largest_partition};
    }, {workers, keyPaths: [KEY], discoverItems: options.discover});
    return {...r, seconds: r.ms / 1000};
  };
  const describePage = (r) => `${fmtMs(r.ms)}, ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s, ` +
    `${r.workers} worker${r.workers === 1 ? '' : 's'}${r.readAhead ? ', read ahead' : ''}` +
    (r.partMs ? ` (split ${fmtMs(r.splitMs)}, parts ${r.partMs.map(fmtMs).join(' / ')}, partial states ` +
                `${r.partialBytes.map((b) => `${(b / 1e6).toFixed(1)} MB`).join(', ')}, merge ${fmtMs(r.mergeMs)})` : '');
  say('the page\'s way (its client, a File, its default workers):');
  const pageAll = await bestOf(options.runs, 'page', pageRun(null), describePage);
  say('the page\'s way with one worker:');
  const pageOne = await bestOf(options.runs, 'page, 1 worker', pageRun(1), describePage);
  await page.evaluate(() => {
    for (const client of Object.values(window.benchClients ?? {})) client.terminate();
    window.benchClients = {};
    window.benchFile = null;
  });
  say('plain-JS baseline (TextDecoder, split, JSON.parse, Map):');
  const parse = await bestOf(options.runs, 'wasm parse limit', async () => {
    const r = await page.evaluate(() => window.bench.parseLimit());
    if (r.documents !== data.items) {
      throw new BenchFailure(`the wasm parse limit found ${r.documents} documents, not ${data.items}`);
    }
    return {...r, seconds: r.ms / 1000};
  }, (r) => `${r.ms.toFixed(0)} ms`);
  const js = await bestOf(options.runs, 'js', async () => {
    const r = await page.evaluate(() => window.bench.js());
    return {...r, seconds: r.ms / 1000};
  }, (r) => `${fmtMs(r.ms)}, ${mbPerS(data.file_bytes, r.seconds).toFixed(1)} MB/s`);
  return {wasm, wasmZero, js, pageAll, pageOne, parse};
}

/** Every report agrees with the generator's ground truth (and so with each other). */
function checkAgreement(data, native, browser) {
  const truth = {items: data.items, bytes: data.item_bytes, partition_count: data.distinct_user_ids,
                 input_bytes: data.file_bytes};
  const reports = [['native', native.main.all.map((r) => r.report)]];
  if (native.zero) reports.push(['native --discover 0', native.zero.all.map((r) => r.report)]);
  reports.push(['wasm', browser.wasm.all]);
  reports.push(['the page', browser.pageAll.all], ['the page, 1 worker', browser.pageOne.all]);
  if (browser.wasmZero) reports.push(['wasm discover 0', browser.wasmZero.all]);
  for (const [name, list] of reports) {
    list.forEach((r, i) => agree(`${name} run ${i + 1} and the generated data`, [
      ['items', r.items, truth.items], ['bytes', r.bytes, truth.bytes],
      ['partition_count', r.partition_count, truth.partition_count],
      ['input_bytes', r.input_bytes, truth.input_bytes],
      ['undefined_key_items', r.undefined_key_items, 0],
    ]));
  }
  const n = native.main.best.report;
  const w = browser.wasm.best;
  for (const [name, p] of [['the page', browser.pageAll.best], ['the page, 1 worker', browser.pageOne.best]]) {
    agree(`native and ${name}`, [
      ['items', p.items, n.items], ['bytes', p.bytes, n.bytes], ['partition_count', p.partition_count, n.partition_count],
      ['largest_partition', JSON.stringify(p.largest_partition), JSON.stringify(n.largest_partition)],
    ]);
  }
  agree('native and wasm', [
    ['items', w.items, n.items], ['bytes', w.bytes, n.bytes],
    ['partition_count', w.partition_count, n.partition_count],
    ['largest_partition', JSON.stringify(w.largest_partition), JSON.stringify(n.largest_partition)],
  ]);
  for (const [i, j] of browser.js.all.entries()) {
    agree(`wasm and the JS baseline (run ${i + 1})`, [
      ['items', j.items, w.items], ['partition_count', j.partition_count, w.partition_count],
    ]);
  }
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
  const r = await runNative(data.file, options.discover);
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
// --many N: N items keyed by /id (one logical partition per item), the page's way, with the wasm
// memory of every engine involved against issue 11's 1.5 GB.

const MANY_HEAPS_LIMIT_BYTES = 1.5e9;
const MANY_KEY = '/id';

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

/**
 * Chromium's processes (the descendants of this process whose program is chromium), from /proc:
 * [{pid, type, pssKb (proportional: shared pages divided among their users), hwmKb (peak RSS)}].
 */
function chromiumProcesses() {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const mine = (pid) => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  const out = [];
  for (const pid of parent.keys()) {
    if (!mine(pid)) continue;
    try {
      // Chromium rewrites its argv: one string, arguments separated by spaces.
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!/^\S*chromium /.test(cmdline)) continue;
      const kb = (text, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
      const type = /--type=(\S+)/.exec(cmdline)?.[1] ?? 'browser';
      out.push({pid, type, pssKb: kb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss'),
                hwmKb: kb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM')});
    } catch {}
  }
  return out;
}

/**
 * --many N: generates (or reuses) N items, each with its own uuid `id`, and analyses them keyed
 * by /id the page's way: the page's client (web/worker/client.js) with its default workers on a
 * File the page gets from a file input (disk-backed, as a dropped file), timed from analyze() to
 * the report, in a fresh browser and a fresh client, so the pool starts and its engines load
 * inside the timed run. Then client.heap() (protocol.js heap): the wasm memory of every engine,
 * the page worker's and each pool worker's, each its peak (wasm memory never shrinks); sampled
 * every second meanwhile too, so a run that fails still says how far each heap had grown.
 * Chromium's processes are sampled from /proc (VmRSS summed; each one's VmHWM at the end).
 * Fails the bench unless partition_count equals N (and items N).
 */
async function manySection(options, openPage, baseUrl) {
  say(`many partitions: ${options.many} items keyed by ${MANY_KEY}, the page's way`);
  const data = await ensureNdjson({items: options.many, seed: options.seed, ascii: options.ascii,
                                   log: (m) => say(`  ${m}`)});
  const page = await openPage();
  const samples = [];
  await page.exposeFunction('benchManyHeap', (heap) => samples.push({at: performance.now(), heap}));
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'many-file';
    document.body.append(input);
  });
  await page.setInputFiles('#many-file', data.file);
  const idlePssKb = chromiumProcesses().reduce((sum, p) => sum + p.pssKb, 0);
  let peakPssKb = 0;
  const samplePss = () => {
    peakPssKb = Math.max(peakPssKb, chromiumProcesses().reduce((sum, p) => sum + p.pssKb, 0));
  };
  const pssTimer = setInterval(samplePss, 500);
  let r, failure = null;
  try {
    r = await page.evaluate(async ({keyPaths, discoverItems, workers}) => {
      const file = document.getElementById('many-file').files[0];
      const {PlaygroundClient} = await import('/site/worker/client.js');
      const client = new PlaygroundClient(workers ? {workers} : {});
      await client.ready;
      let polling = true;
      const poll = (async () => {
        while (polling) {
          await new Promise((ok) => setTimeout(ok, 1000));
          if (!polling) break;
          try {
            await window.benchManyHeap(await client.heap());
          } catch {}
        }
      })();
      const t0 = performance.now();
      try {
        const report = await client.analyze({source: {kind: 'file', file}, keyPaths, discoverItems});
        const ms = performance.now() - t0;
        polling = false;
        await poll;
        const heap = await client.heap();
        const {heap_peak_bytes: peak = null, part_heap_bytes: partHeaps = null, retired_workers: retired = 0} = report.timing;
        return {ms, file_size: file.size, workers: report.timing.workers ?? 1, heap, peak, partHeaps, retired, items: report.items,
                bytes: report.bytes, input_bytes: report.input_bytes, partition_count: report.partition_count,
                undefined_key_items: report.undefined_key_items, duplicate_ids: report.duplicate_id?.count ?? null};
      } catch (e) {
        polling = false;
        return {error: `${e.codeName ?? e.name}: ${e.message}`, ms: performance.now() - t0};
      } finally {
        client.terminate();
      }
    }, {keyPaths: [MANY_KEY], discoverItems: options.discover, workers: options.manyWorkers});
  } catch (e) {
    failure = `the page failed: ${e.message}`;
  } finally {
    clearInterval(pssTimer);
  }
  samplePss();
  const processes = chromiumProcesses();
  const lastSeen = new Map();  // the largest heap each worker was seen with while it ran
  for (const {heap} of samples) {
    for (const w of heap.workers) {
      const name = w.worker === 'page' ? 'page' : `pool ${w.index}`;
      lastSeen.set(name, Math.max(lastSeen.get(name) ?? 0, w.bytes));
    }
  }
  const seenText = () => [...lastSeen].map(([name, bytes]) => `${name} ${(bytes / MIB).toFixed(0)} MiB`).join(', ');
  if (failure || r.error) {
    throw new BenchFailure(`--many ${options.many}: ${failure ?? r.error} after ${((r?.ms ?? 0) / 1000).toFixed(1)} s; ` +
                           `wasm heaps last seen (sampled each second): ${seenText() || 'none'}; Chromium's ` +
                           `processes peaked at ${(peakPssKb / 1024).toFixed(0)} MiB (PSS, summed)`);
  }
  agree(`the page's way (--many ${options.many}, key ${MANY_KEY}) and the generated data`, [
    ['file size', r.file_size, data.file_bytes], ['items', r.items, data.items], ['bytes', r.bytes, data.item_bytes],
    ['input_bytes', r.input_bytes, data.file_bytes], ['partition_count', r.partition_count, data.items],
    ['undefined_key_items', r.undefined_key_items, 0],
  ]);
  const heaps = r.heap.workers.map((w) => ({worker: w.worker === 'page' ? 'page' : `pool ${w.index}`,
                                            mb: round(w.bytes / MIB, 1)}));
  // The most the heaps held at once: with parts, the client's figure (every part's heap at its
  // end, or the merge beside the pool workers it kept; a retired worker is gone after the run).
  const peakBytes = Math.max(r.peak ?? 0, r.heap.bytes);
  const seconds = r.ms / 1000;
  const renderer = processes.filter((p) => p.type === 'renderer').reduce((a, p) => Math.max(a, p.hwmKb), 0);
  const fields = {
    many_file: data.file.startsWith(repo + sep) ? data.file.slice(repo.length + 1) : data.file,
    many_items: data.items, many_bytes: data.file_bytes, many_input_mb: round(data.file_bytes / 1e6, 1),
    many_key: MANY_KEY, many_discover_items: options.discover,
    many_seconds: round(seconds, 3), many_mb_s: round(mbPerS(data.file_bytes, seconds), 1),
    many_partition_count: r.partition_count, many_workers: r.workers,
    many_wasm_heaps_mb: heaps,  // MiB, one per engine instance (each worker loads one)
    many_wasm_heaps_total_mb: round(r.heap.bytes / MIB, 1),  // MiB, the engines alive after the run
    many_part_heaps_mb: r.partHeaps ? r.partHeaps.map((b) => round(b / MIB, 1)) : null,  // each worker after its part
    many_retired_workers: r.retired,  // pool workers stopped after their part (ingest/parts_plan.h kPageRetireHeapBytes)
    many_wasm_heaps_peak_mb: round(peakBytes / MIB, 1),  // MiB, all heaps together at their most
    many_wasm_heap_bytes_per_partition: round(peakBytes / r.partition_count, 1),
    many_heaps_lt_1_5_gb: peakBytes < MANY_HEAPS_LIMIT_BYTES,
    many_chromium_peak_pss_mb: round(peakPssKb / 1024, 1),  // MiB, PSS of its processes summed, sampled
    many_chromium_idle_pss_mb: round(idlePssKb / 1024, 1),  // the same before the run (the page open, no client)
    many_renderer_peak_rss_mb: renderer ? round(renderer / 1024, 1) : null,  // MiB, VmHWM (the workers run there)
  };
  const line = `--many ${data.items} (key ${MANY_KEY}, the page's way, ${r.workers} worker${r.workers === 1 ? '' : 's'}): ` +
    `${seconds.toFixed(2)} s, ${fields.many_mb_s} MB/s, ${r.partition_count} partitions; wasm heaps ` +
    `${heaps.map((h) => `${h.worker} ${h.mb}`).join(' + ')} = ${fields.many_wasm_heaps_total_mb} MiB after the run` +
    (r.partHeaps ? ` (after each part: ${fields.many_part_heaps_mb.join(' + ')} MiB; ${r.retired} pool worker(s) retired)` : '') +
    `, at most ${fields.many_wasm_heaps_peak_mb} MiB together ` +
    `(${fields.many_wasm_heap_bytes_per_partition} bytes per partition; < 1.5 GB: ` +
    `${fields.many_heaps_lt_1_5_gb ? 'met' : 'NOT met'}); Chromium's processes at most ` +
    `${fields.many_chromium_peak_pss_mb} MiB (PSS, summed; ${fields.many_chromium_idle_pss_mb} MiB before), the renderer's peak RSS ${fields.many_renderer_peak_rss_mb} MiB`;
  say(`  ${line}`);
  say(JSON.stringify(fields));
  return {fields, line};
}

/** --only-many: the --many measurement alone (no native CLI needed); prints its JSON line last. */
async function manyOnly(options) {
  for (const [what, path, hint] of [['the site', join(options.site, 'engine/partplay-api.mjs'), 'make site'],
                                    ['Chromium', CHROMIUM, 'apt-get install chromium']]) {
    if (!existsSync(path)) throw new BenchFailure(`${what} is missing (${path}): run \`${hint}\``);
  }
  const {server, url: baseUrl} = await startBenchServer({site: options.site, bench: BENCH_DIR, data: DEFAULT_DIR});
  let browser = null;
  try {
    const {fields, line} = await manySection(options, async () => {
      const opened = await openBenchPage(baseUrl);
      browser = opened.browser;
      say(`headless Chromium ${browser.version()}`);
      return opened.page;
    }, baseUrl);
    say('');
    say(line);
    console.log(JSON.stringify({...fields, targets: {many_heaps_lt_1_5_gb: fields.many_heaps_lt_1_5_gb},
                                targets_met: fields.many_heaps_lt_1_5_gb}));
  } finally {
    if (browser) await browser.close();
    server.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const options = parseManyArgs(process.argv.slice(2));
  if (options.onlyMany) return manyOnly(options);
  for (const [what, path, hint] of [['the native CLI', CLI, 'make native'],
                                    ['the site', join(options.site, 'engine/partplay-api.mjs'), 'make site'],
                                    ['Chromium', CHROMIUM, 'apt-get install chromium']]) {
    if (!existsSync(path)) throw new BenchFailure(`${what} is missing (${path}): run \`${hint}\``);
  }

  say(`== Partition Playground benchmark (${options.runs} runs each, best counts; MB = 1e6 bytes)`);
  const data = await ensureNdjson({items: options.items, seed: options.seed, ascii: options.ascii, log: (m) => say(`data: ${m}`)});
  say(`data: ${data.items} items, ${(data.file_bytes / 1e6).toFixed(1)} MB, ` +
      `${data.distinct_user_ids} distinct userIds`);

  // The parse limit in two processes, before and after the CLI's runs, best of both: one whole
  // process can come out at half the usual pace (895 against 1,789-1,816 MB/s in one of three
  // runs here on 28 November 2026), which would halve the ceiling every ratio is judged against.
  const parseBefore = await parseLimit(data, options);
  const native = await nativeSection(data, options);
  const parseAfter = await parseLimit(data, options);
  const parseLimitMbS = parseBefore === null ? null : Math.max(parseBefore, parseAfter);
  if (parseLimitMbS !== null) say(`parse limit: ${parseLimitMbS} MB/s, the best of two processes (${parseBefore}, ${parseAfter})`);
  const many = await manyPartitions(data, options);
  const cpuParallel = await cpuParallelism(NATIVE_JOBS);
  const nodeSpawnMs = await nodeSpawnCost();

  const {server, url: baseUrl} = await startBenchServer({site: options.site, bench: BENCH_DIR, data: DEFAULT_DIR});
  let browser = null;
  const openPage = async () => {
    // A fresh browser for each section, so one section's garbage never weighs on the next.
    if (browser) await browser.close();
    const opened = await openBenchPage(baseUrl);
    browser = opened.browser;
    return opened.page;
  };
  let browserResults, micro = null, big = null;
  let manyRun = null;
  try {
    const page = await openPage();
    say(`headless Chromium ${browser.version()}, page ${baseUrl}/bench/bench-page.html`);
    const dataUrl = `${baseUrl}/data/${encodeURIComponent(data.file.slice(DEFAULT_DIR.length + 1))}`;
    browserResults = await browserSection(page, data, dataUrl, options);
    checkAgreement(data, native, browserResults);
    say(`checks: native, wasm, the JS baseline and the generator agree: ${data.items} items, ` +
        `${data.distinct_user_ids} partitions, ${data.item_bytes} item bytes`);
    if (options.engineMicro) micro = await engineMicro();
    if (options.big) big = await bigSection(options, openPage, baseUrl);
    if (options.many) manyRun = await manySection(options, openPage, baseUrl);
  } finally {
    if (browser) await browser.close();
    server.close();
  }

  const {wasm, wasmZero, js, pageAll, pageOne, parse} = browserResults;
  const bytes = data.file_bytes;
  const nativeMbS = mbPerS(bytes, native.main.best.seconds);
  const wasmMbS = mbPerS(bytes, pageAll.best.seconds);  // the page's way, all its workers
  const wasm1MbS = mbPerS(bytes, pageOne.best.seconds);
  const engineMbS = mbPerS(bytes, wasm.best.seconds);
  const jsMbS = mbPerS(bytes, js.best.seconds);
  const wasmParseMbS = mbPerS(bytes, parse.best.seconds);
  const heapBytes = Math.max(...wasm.all.map((r) => r.heap_bytes));
  const result = {
    items: data.items,
    bytes,
    input_mb: round(bytes / 1e6, 1),
    item_bytes: data.item_bytes,
    partition_count: data.distinct_user_ids,
    native_mb_s: round(nativeMbS, 1),
    wasm_mb_s: round(wasmMbS, 1),
    js_baseline_mb_s: round(jsMbS, 1),
    wasm_vs_js: round(wasmMbS / jsMbS, 2),
    wasm_vs_native: round(wasmMbS / nativeMbS, 3),
    wasm_workers: pageAll.best.workers,
    wasm1_mb_s: round(wasm1MbS, 1),
    wasm1_read_ahead: pageOne.best.readAhead, wasm_read_ahead: pageAll.best.readAhead,
    wasm1_vs_js: round(wasm1MbS / jsMbS, 2),
    wasm_engine_mb_s: round(engineMbS, 1),
    wasm_parse_limit_mb_s: round(wasmParseMbS, 1),
    wasm_engine_vs_parse_limit: round(engineMbS / wasmParseMbS, 3),
    wasm1_vs_parse_limit: round(wasm1MbS / wasmParseMbS, 3),
    js_vs_wasm_parse_limit: round(jsMbS / wasmParseMbS, 3),
    native_jobs: NATIVE_JOBS,
    native_timer: existsSync(EXEC_TIMER) ? 'exec_timer' : existsSync(TIME) ? 'time' : 'node',
    node_spawn_ms: round(nodeSpawnMs, 1),
    cpu_parallel_speedup: cpuParallel,
    native1_mb_s: round(mbPerS(bytes, native.one.best.seconds), 1),
    native_jobs_mb_s: round(mbPerS(bytes, native.all.best.seconds), 1),
    native_jobs_peak_rss_mb: native.all.best.peakRssKb ? round(native.all.best.peakRssKb / 1024, 1) : null,
    native_jobs_vs_parse_limit: parseLimitMbS ? round(mbPerS(bytes, native.all.best.seconds) / parseLimitMbS, 3) : null,
    parse_limit_mb_s: parseLimitMbS,
    parse_limit_processes_mb_s: parseLimitMbS === null ? null : [parseBefore, parseAfter],
    native_vs_parse_limit: parseLimitMbS ? round(nativeMbS / parseLimitMbS, 3) : null,
    native1_vs_parse_limit: parseLimitMbS ? round(mbPerS(bytes, native.one.best.seconds) / parseLimitMbS, 3) : null,
    native1_peak_rss_mb: native.one.best.peakRssKb ? round(native.one.best.peakRssKb / 1024, 1) : null,
    ...many,
    wasm_peak_heap_mb: round(heapBytes / MIB, 1),  // MiB
    heap_vs_input: round(heapBytes / bytes, 3),
    native_seconds: round(native.main.best.seconds, 3),
    wasm_seconds: round(pageAll.best.seconds, 3),
    wasm1_seconds: round(pageOne.best.seconds, 3),
    wasm_engine_seconds: round(wasm.best.seconds, 3),
    js_baseline_seconds: round(js.best.seconds, 3),
    wasm_init_ms: round(wasm.best.init_ms, 1),
    wasm_feed_ms: round(wasm.best.feed_ms, 1),
    wasm_finish_ms: round(wasm.best.finish_ms, 1),
    native_peak_rss_mb: native.main.best.peakRssKb ? round(native.main.best.peakRssKb / 1024, 1) : null,  // MiB
    discover_items: options.discover,
    ...(native.zero ? {native_discover0_mb_s: round(mbPerS(bytes, native.zero.best.seconds), 1)} : {}),
    ...(wasmZero ? {wasm_discover0_mb_s: round(mbPerS(bytes, wasmZero.best.seconds), 1),
                    wasm_discover0_feed_ms: round(wasmZero.best.feed_ms, 1)} : {}),
    targets: {
      wasm_vs_js_ge_5: wasmMbS / jsMbS >= TARGET_WASM_VS_JS,
      wasm_vs_native_ge_0_35: wasmMbS / nativeMbS >= TARGET_WASM_VS_NATIVE,
      heap_lt_2x_input: heapBytes < TARGET_HEAP_VS_INPUT * bytes,
      wasm1_vs_js_ge_3: wasm1MbS / jsMbS >= 3,
      native_vs_parse_limit_ge_0_5: parseLimitMbS ? nativeMbS / parseLimitMbS >= 0.5 : false,
      id_vs_userid_time_le_2: many.id_vs_userid_time != null && many.id_vs_userid_time <= 2,
      id_peak_rss_lt_150_mib: many.id_peak_rss_mb != null && many.id_peak_rss_mb < 150,
      id_container_time_le_3: many.id_vs_userid_container_time != null && many.id_vs_userid_container_time <= 3,
      id_container_rss_lt_250_mib: many.id_container_peak_rss_mb != null && many.id_container_peak_rss_mb < 250,
    },
    runs: options.runs,
    ...(micro ? {engine_micro_mb_s: micro} : {}),
    ...(big ?? {}),
    ...(manyRun?.fields ?? {}),
  };
  if (manyRun) result.targets.many_heaps_lt_1_5_gb = manyRun.fields.many_heaps_lt_1_5_gb;
  result.targets_met = Object.values(result.targets).every(Boolean);

  say('');
  say(`native CLI      ${result.native_mb_s.toFixed(1).padStart(7)} MB/s  (${result.native_seconds} s, ` +
      `peak RSS ${result.native_peak_rss_mb} MiB)`);
  say(`wasm (page)     ${result.wasm_mb_s.toFixed(1).padStart(7)} MB/s  (${result.wasm_seconds} s, ` +
      `${result.wasm_workers} workers; one worker ${result.wasm1_mb_s} MB/s)`);
  say(`wasm (engine)   ${result.wasm_engine_mb_s.toFixed(1).padStart(7)} MB/s  (${result.wasm_engine_seconds} s, ` +
      `peak heap ${result.wasm_peak_heap_mb} MiB = ${(result.heap_vs_input * 100).toFixed(1)}% of the input)`);
  say(`plain JS        ${result.js_baseline_mb_s.toFixed(1).padStart(7)} MB/s  (${result.js_baseline_seconds} s)`);
  say(`wasm parse limit ${result.wasm_parse_limit_mb_s.toFixed(1).padStart(6)} MB/s  (simdjson DOM parse_many ` +
      `alone in the same page: the engine reaches ${result.wasm_engine_vs_parse_limit} of it, one page ` +
      `worker ${result.wasm1_vs_parse_limit}; wasm/js >= 5 needs ${(5 * result.js_baseline_mb_s).toFixed(0)} MB/s)`);
  if (wasmZero) {
    say(`discover_items 0: native ${result.native_discover0_mb_s} MB/s, wasm ${result.wasm_discover0_mb_s} MB/s`);
  }
  const mark = (ok) => (ok ? 'met' : 'NOT met');
  say(`wasm/js ${result.wasm_vs_js}x (target >= ${TARGET_WASM_VS_JS}: ${mark(result.targets.wasm_vs_js_ge_5)}), ` +
      `wasm/native ${result.wasm_vs_native} (target >= ${TARGET_WASM_VS_NATIVE}: ` +
      `${mark(result.targets.wasm_vs_native_ge_0_35)}), heap < ${TARGET_HEAP_VS_INPUT}x input: ` +
      `${mark(result.targets.heap_lt_2x_input)}`);
  say(`${NATIVE_JOBS} threads of a plain CPU-bound loop do ${result.cpu_parallel_speedup}x the work ` +
      `of one (the most ${NATIVE_JOBS} jobs or workers could gain here now)`);
  say(`native --jobs ${NATIVE_JOBS} ${result.native_jobs_mb_s} MB/s (peak RSS ${result.native_jobs_peak_rss_mb} MiB), ` +
      `${result.native_jobs_vs_parse_limit} of the parse limit`);
  say(`native --jobs 1 ${result.native1_mb_s} MB/s; parse limit ${result.parse_limit_mb_s} MB/s; ` +
      `native (default options: --jobs = cores)/parse limit ${result.native_vs_parse_limit} (target >= 0.5: ` +
      `${mark(result.targets.native_vs_parse_limit_ge_0_5)})`);
  say(`--key /id vs /userId (default options): time ${result.id_vs_userid_time}x, peak RSS ${result.id_peak_rss_mb} MiB ` +
      `(${result.id_vs_userid_rss}x); with --container --ru 100000: time ` +
      `${result.id_vs_userid_container_time}x, peak RSS ${result.id_container_peak_rss_mb} MiB`);
  say(`the same with --format json (every partition listed): time ${result.json_id_vs_userid_time}x, ` +
      `peak RSS ${result.json_id_peak_rss_mb} MiB; with the container: time ` +
      `${result.json_id_vs_userid_container_time}x, peak RSS ${result.json_id_container_peak_rss_mb} MiB`);
  if (manyRun) say(manyRun.line);
  console.log(JSON.stringify(result));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    if (e instanceof BenchFailure) console.error(`\nBENCH FAILED: ${e.message}`);
    else console.error(`\nBENCH FAILED: ${e.stack || e}`);
    process.exit(1);
  });
}
