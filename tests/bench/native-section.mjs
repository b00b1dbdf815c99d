// `make bench`, natively: the CLI against the parse limit and against DuckDB, every measurement
// in a process of its own, the variants interleaved round by round (bench-stats.mjs).
//
// Variants (one process each per round):
//   parse1, parseN       build/native/engine_bench --parse-limit FILE 1 T: simdjson's DOM parse_many
//                        alone on 1 thread, and on N threads over N cuts of the file side by side
//                        (the file read before the clock starts)
//   cli1, cliN           partplay analyze --key /userId --jobs 1 | N, default options otherwise
//                        (--format table, --discover 10000), the report written to a file; the
//                        whole process, spawn to exit (build/native/exec_timer), with its peak RSS
//   cli1_id, cliN_id     the same keyed by /id (one partition per item)
//   cli_json, cli_json_id    --format json (every partition listed), default --jobs
//   cli_container, cli_container_id   --container --ru 100000, default --jobs
//   duck1, duckN, duck1_id, duckN_id  DuckDB's query alone (duckdb-peer.mjs) at 1 and N threads,
//                        the lines read with read_ndjson_objects (the faster reader here: the
//                        ratios use it)
//   duck1_csv, duckN_csv  the same (--key /userId) with each line read by read_csv
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {BenchFailure, repo, say} from './bench-common.mjs';
import {runInterleaved} from './bench-stats.mjs';

export const CLI = join(repo, 'build/native/partplay');
export const ENGINE_BENCH = join(repo, 'build/native/engine_bench');
const EXEC_TIMER = join(repo, 'build/native/exec_timer');
const DUCKDB_PEER = join(repo, 'tests/bench/duckdb-peer.mjs');
const TIME = '/usr/bin/time';
export const nativeTimer = () => (existsSync(EXEC_TIMER) ? 'exec_timer' : existsSync(TIME) ? 'time' : 'node');

/**
 * Runs a command, collecting stdout. Time and peak RSS from exec_timer (spawn to exit), else
 * /usr/bin/time -v, else node's clock and VmHWM polled from /proc. Resolves to
 * {code, stdout, stderr, seconds, peakRssKb}.
 */
export function runMeasured(cmd, args, {collectStdout = true} = {}) {
  const timer = nativeTimer();
  const [file, argv] = timer === 'exec_timer' ? [EXEC_TIMER, [cmd, ...args]]
                     : timer === 'time' ? [TIME, ['-v', cmd, ...args]] : [cmd, args];
  return new Promise((ok, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, {stdio: ['ignore', collectStdout ? 'pipe' : 'ignore', 'pipe']});
    const out = [];
    const err = [];
    if (collectStdout) child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let hwmKb = 0;
    let poll = null;
    if (timer === 'node') {
      poll = setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
        } catch {}
      }, 10);
    }
    child.on('error', fail);
    child.on('close', (code) => {
      let seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (poll) clearInterval(poll);
      let stderr = Buffer.concat(err).toString();
      let peakRssKb = hwmKb || null;
      if (timer === 'exec_timer') {
        // Its last line: the child's time from spawn to exit and its peak RSS (exec_timer.cpp).
        const m = /exec_timer: (\{.*\})\n?$/.exec(stderr);
        if (m) {
          const t = JSON.parse(m[1]);
          seconds = t.seconds;
          peakRssKb = t.max_rss_kb;
          stderr = stderr.slice(0, m.index);
        }
      } else if (timer === 'time') {
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        peakRssKb = m ? Number(m[1]) : null;
        const cut = stderr.search(/\tCommand being timed:/);
        if (cut >= 0) stderr = stderr.slice(0, cut);
        stderr = stderr.replace(/Command exited with non-zero status \d+\n?$/, '');
      }
      ok({code, stdout: collectStdout ? Buffer.concat(out) : null, stderr, seconds, peakRssKb});
    });
  });
}

/**
 * One CLI analysis, its report written to a file (--output), as a user keeps a large one, and
 * read after the timed run. Resolves to {seconds, peakRssKb, report (json only)}.
 */
export async function runCli(file, {key = '/userId', format = 'table', extra = []} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'partplay-bench-out-'));
  const out = join(dir, 'report');
  try {
    const r = await runMeasured(CLI, ['analyze', '--key', key, '--format', format, '--output', out, ...extra, file],
                                {collectStdout: false});
    if (r.code !== 0) throw new BenchFailure(`partplay exited with ${r.code}: ${r.stderr.trim()}`);
    const report = format === 'json' ? JSON.parse(readFileSync(out, 'utf8')) : null;
    return {seconds: r.seconds, peakRssKb: r.peakRssKb, report};
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

/** simdjson's DOM parse_many over the file on `threads` threads, once, in a fresh process. */
export async function runParseLimit(file, threads) {
  const r = await runMeasured(ENGINE_BENCH, ['--parse-limit', file, '1', String(threads)]);
  if (r.code !== 0) throw new BenchFailure(`engine_bench --parse-limit exited with ${r.code}: ${r.stderr.trim()}`);
  const out = JSON.parse(r.stdout.toString());
  // MB/s back to seconds of parsing (the file's read is outside the clock).
  return {seconds: null, mbS: out.parse_limit_mb_s, documents: out.documents, implementation: out.implementation};
}

/** DuckDB's query alone (duckdb-peer.mjs) in a fresh node process. */
export async function runDuckDb(file, key, threads, reader = 'json') {
  const r = await runMeasured(process.execPath, [DUCKDB_PEER, file, key, String(threads), '--reader', reader]);
  if (r.code !== 0) throw new BenchFailure(`duckdb-peer.mjs exited with ${r.code}: ${r.stderr.trim()}`);
  return {...JSON.parse(r.stdout.toString()), processSeconds: r.seconds, peakRssKb: r.peakRssKb};
}

/**
 * Every native variant, interleaved over `runs` rounds. Resolves to {variant: [result per
 * round]}, each result with `seconds` (the parse limit's from its MB/s).
 */
export async function nativeRounds(data, {runs, jobs}) {
  const file = data.file;
  const N = String(jobs);
  const variants = {
    parse1: () => runParseLimit(file, 1),
    parseN: () => runParseLimit(file, jobs),
    cli1: () => runCli(file, {extra: ['--jobs', '1']}),
    cliN: () => runCli(file, {extra: ['--jobs', N]}),
    duck1: () => runDuckDb(file, '/userId', 1),
    duckN: () => runDuckDb(file, '/userId', jobs),
    duck1_csv: () => runDuckDb(file, '/userId', 1, 'csv'),
    duckN_csv: () => runDuckDb(file, '/userId', jobs, 'csv'),
    cli1_id: () => runCli(file, {key: '/id', extra: ['--jobs', '1']}),
    cliN_id: () => runCli(file, {key: '/id', extra: ['--jobs', N]}),
    duck1_id: () => runDuckDb(file, '/id', 1),
    duckN_id: () => runDuckDb(file, '/id', jobs),
    cli_json: () => runCli(file, {format: 'json'}),
    cli_json_id: () => runCli(file, {key: '/id', format: 'json'}),
    cli_container: () => runCli(file, {extra: ['--container', '--ru', '100000']}),
    cli_container_id: () => runCli(file, {key: '/id', extra: ['--container', '--ru', '100000']}),
  };
  if (!existsSync(ENGINE_BENCH)) throw new BenchFailure(`${ENGINE_BENCH} is not built (libbenchmark-dev; make native)`);
  say(`native, interleaved (${Object.keys(variants).join(' ')}), ${runs} rounds, a process each:`);
  return runInterleaved(Object.keys(variants), runs, async (variant) => {
    const r = await variants[variant]();
    if (r.mbS != null) r.seconds = data.file_bytes / 1e6 / r.mbS;
    return r;
  }, (variant, round, r) => say(`  round ${round + 1} ${variant.padEnd(17)} ${r.seconds.toFixed(3)} s, ` +
                                `${(data.file_bytes / 1e6 / r.seconds).toFixed(1)} MB/s` +
                                (r.peakRssKb ? `, peak RSS ${(r.peakRssKb / 1024).toFixed(1)} MiB` : '')));
}

/** The native reports and DuckDB's answers agree with the generated data's ground truth. */
export function nativeAgreement(data, rounds, agree) {
  for (const [variant, list] of Object.entries(rounds)) {
    list.forEach((r, i) => {
      const what = `${variant} round ${i + 1} and the generated data`;
      const partitions = variant.endsWith('_id') ? data.items : data.distinct_user_ids;
      if (variant.startsWith('duck')) {
        agree(what, [['partitions', r.partitions, partitions], ['items', r.items, data.items],
                     ['bytes', r.bytes, data.item_bytes]]);
      } else if (variant.startsWith('parse')) {
        agree(what, [['documents', r.documents, data.items]]);
      } else if (r.report) {
        agree(what, [['items', r.report.items, data.items], ['bytes', r.report.bytes, data.item_bytes],
                     ['partition_count', r.report.partition_count, partitions],
                     ['input_bytes', r.report.input_bytes, data.file_bytes],
                     ['undefined_key_items', r.report.undefined_key_items, 0]]);
      }
    });
  }
}
