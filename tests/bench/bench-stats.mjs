// The benchmark's own logic, apart from any measuring (unit-tested in bench-stats.test.mjs):
// the interleaved order of runs, medians and ranges, the like-for-like ratios and the targets.
//
// Interleaving: every variant of a section runs once per round, in the same order (A B C A B C
// ...), so a slow stretch of the machine (another process, thermal state) falls on every variant
// alike instead of on whichever ran last. A ratio is reported as the ratio of the two medians, with
// the range of the per-round ratios (A of round r over B of round r) beside it.

/** The interleaved order: [{round, variant}] for `runs` rounds over `variants` (names). */
export function interleave(variants, runs) {
  if (!Array.isArray(variants) || variants.length === 0) throw new Error('interleave: no variants');
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`interleave: runs must be an integer >= 1, got ${runs}`);
  const order = [];
  for (let round = 0; round < runs; round++) {
    for (const variant of variants) order.push({round, variant});
  }
  return order;
}

/** The median of a non-empty list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  if (!values.length) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** {median, min, max, n} of a list of numbers. */
export function summarize(values) {
  return {median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length};
}

/**
 * Runs `measure(variant, round)` for every entry of interleave(variants, runs), in that order,
 * and collects each variant's results by round. `measure` resolves to an object; `onResult` is
 * called after each (for a progress line). Resolves to {variant: [result of round 0, ...]}.
 */
export async function runInterleaved(variants, runs, measure, onResult = () => {}) {
  const results = Object.fromEntries(variants.map((v) => [v, []]));
  for (const {round, variant} of interleave(variants, runs)) {
    const r = await measure(variant, round);
    results[variant][round] = r;
    onResult(variant, round, r);
  }
  return results;
}

/** MB/s (1e6 bytes) of each run: `bytes` over each result's `seconds`. */
export const ratesOf = (bytes, runs) => runs.map((r) => bytes / 1e6 / r.seconds);

/**
 * A ratio of two rate lists measured in the same rounds: {value: median(a) / median(b),
 * min, max: the range of a[r] / b[r] over the rounds}. For time lists (lower is better) pass
 * them swapped or use timeRatio.
 */
export function rateRatio(a, b) {
  if (a.length !== b.length || !a.length) throw new Error(`rateRatio: ${a.length} against ${b.length} runs`);
  const perRound = a.map((x, i) => x / b[i]);
  return {value: median(a) / median(b), min: Math.min(...perRound), max: Math.max(...perRound)};
}

/** Times (seconds) a against b: median(a) / median(b), the range of a[r] / b[r]. */
export const timeRatio = (a, b) => rateRatio(a, b);

/**
 * The named ratios of `make bench` for N jobs / workers / threads: what each compares, on how
 * many cores each side runs (`cores`: "1 / 1" and "N / N" are like for like; the old unlike ones
 * stay, `old: true`), and its target. `kind: 'time'` compares seconds (lower is better), else
 * MB/s. `num` and `den` name figures of the run (native-section.mjs, browser-section.mjs,
 * cql-store.mjs).
 */
export function ratioDefinitions(n) {
  const N = `${n} / ${n}`;
  return [
    {name: 'cli_1job_vs_parse_1core', num: 'cli1', den: 'parse1', cores: '1 / 1', target: 0.5,
     compares: 'partplay analyze --jobs 1, whole process / simdjson parse_many on one thread'},
    {name: `cli_${n}jobs_vs_parse_${n}cores`, num: 'cliN', den: 'parseN', cores: N, target: 0.5,
     compares: `partplay analyze --jobs ${n} / parse_many on ${n} threads over ${n} cuts side by side`},
    {name: `cli_${n}jobs_vs_1job`, num: 'cliN', den: 'cli1', cores: `${n} / 1`, target: 1.8,
     compares: `the CLI's scaling: --jobs ${n} / --jobs 1`},
    {name: `parse_${n}cores_vs_1core`, num: 'parseN', den: 'parse1', cores: `${n} / 1`,
     compares: `the ceiling's scaling: parse_many on ${n} threads / one`},
    {name: 'cli_vs_duckdb_1thread_userid', num: 'cli1', den: 'duck1', cores: '1 / 1', target: 2,
     compares: 'CLI --jobs 1 whole process (report written) / DuckDB query alone, threads=1, --key /userId'},
    {name: `cli_vs_duckdb_${n}threads_userid`, num: 'cliN', den: 'duckN', cores: N, target: 2,
     compares: `CLI --jobs ${n} / DuckDB threads=${n}, --key /userId`},
    {name: 'cli_vs_duckdb_1thread_id', num: 'cli1_id', den: 'duck1_id', cores: '1 / 1', target: 2,
     compares: 'CLI --jobs 1 / DuckDB threads=1, --key /id (one partition per item)'},
    {name: `cli_vs_duckdb_${n}threads_id`, num: 'cliN_id', den: 'duckN_id', cores: N, target: 2,
     compares: `CLI --jobs ${n} / DuckDB threads=${n}, --key /id`},
    {name: 'id_vs_userid_time_table', num: 'cliN_id', den: 'cliN', kind: 'time', cores: N, target: 2,
     compares: 'CLI seconds, --key /id / --key /userId, default options (--format table)'},
    {name: 'id_vs_userid_time_json', num: 'cli_json_id', den: 'cli_json', kind: 'time', cores: N, target: 2,
     compares: 'CLI seconds, --key /id / --key /userId, --format json (every partition listed)'},
    {name: 'id_vs_userid_container_time', num: 'cli_container_id', den: 'cli_container', kind: 'time', cores: N,
     target: 3, compares: 'CLI seconds, /id / /userId, with --container --ru 100000'},
    {name: 'wasm_engine_vs_wasm_parse', num: 'wasm_engine', den: 'wasm_parse', cores: '1 / 1', target: 0.6,
     compares: 'the wasm engine on one thread, no worker, no reader thread / wasm parse_many alone, same thread'},
    {name: 'wasm_1worker_vs_wasm_parse', num: 'page1', den: 'wasm_parse', cores: '1 (+ reader) / 1',
     compares: "the page's client with one worker (and its reader thread) / wasm parse_many alone"},
    {name: 'wasm_engine_vs_js_1thread', num: 'wasm_engine', den: 'js1', cores: '1 / 1',
     compares: 'the wasm engine / plain JS, both on the page\'s thread over the same ArrayBuffer'},
    {name: `page_${n}workers_vs_js_pool_${n}`, num: 'pageN', den: 'jsPoolN', cores: N, target: 5,
     compares: `the page's client, ${n} workers / a plain-JS pool of ${n} workers, both from a File`},
    {name: `page_${n}workers_vs_cli_${n}jobs`, num: 'pageN', den: 'cliN', cores: N, target: 0.35,
     compares: `the page's client, ${n} workers / the CLI --jobs ${n}`},
    {name: 'wasm_vs_js (old)', num: 'pageN', den: 'js1', cores: `${n} / 1`, old: true, target: 5,
     compares: `the page's ${n} workers / plain JS on one thread`},
    {name: 'wasm_engine_with_init_vs_wasm_parse (old)', num: 'wasm_engine_with_init', den: 'wasm_parse', cores: '1 / 1, init timed on one side',
     old: true, target: 0.6, compares: 'the wasm engine with createEngine() on the clock (the measure before 30 November 2026) / wasm parse_many alone'},
    {name: 'wasm1_vs_js (old)', num: 'page1', den: 'js1', cores: '1 (+ reader) / 1', old: true, target: 3,
     compares: "the page's client with one worker / plain JS on the page's thread"},
    {name: 'native_vs_parse_limit (old)', num: 'cliN', den: 'parse1', cores: `${n} / 1`, old: true, target: 0.5,
     compares: `the CLI --jobs ${n} / parse_many on one thread`},
  ];
}

/**
 * Each definition's ratio from the run's figures: `rates` maps a figure's name to its MB/s per
 * round, `times` to its seconds per round. A definition whose figures are missing is left out.
 */
export function ratioTable(definitions, {rates, times}) {
  const rows = [];
  for (const d of definitions) {
    const source = d.kind === 'time' ? times : rates;
    const a = source[d.num];
    const b = source[d.den];
    if (!a || !b) continue;
    const r = rateRatio(a, b);
    const op = d.target == null ? null : d.kind === 'time' ? '<=' : '>=';
    rows.push({name: d.name, compares: d.compares, cores: d.cores, old: Boolean(d.old),
               value: r.value, min: r.min, max: r.max, target: d.target ?? null, op,
               met: op === null ? null : op === '<=' ? r.value <= d.target : r.value >= d.target});
  }
  return rows;
}

/** One aligned text line of a ratio row: "name  0.42 (0.40-0.45)  target >= 0.5: NOT met  [1 / 1] ...". */
export function formatRatio(row, digits = 2) {
  const f = (x) => x.toFixed(digits);
  const target = row.target == null ? 'no target' : `target ${row.op} ${row.target}: ${row.met ? 'met' : 'NOT met'}`;
  return `${row.name.padEnd(34)} ${f(row.value).padStart(6)} (${f(row.min)}-${f(row.max)})  ${target.padEnd(26)} ` +
         `[${row.cores}${row.old ? ', old: not like for like' : ''}] ${row.compares}`;
}

/**
 * The figures as a Markdown table (README's and docs/benchmarks.md's): ratio rows of ratioTable
 * and other rows {name, compares, cores, text, target: 'text' | null, met}. Old ratios say so.
 */
export function markdownTable(rows) {
  const cell = (s) => String(s).replaceAll('|', '\\|');
  const lines = ['| figure | compares | cores | median (range) | target |', '| --- | --- | --- | --- | --- |'];
  for (const r of rows) {
    const text = r.text ?? `${r.value.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
    const verdict = r.met == null ? 'not measured' : r.met ? 'met' : '**NOT met**';
    const target = r.target == null ? '' : `${r.op ? `${r.op} ${r.target}` : r.target}: ${verdict}`;
    lines.push(`| \`${cell(r.name)}\` | ${cell(r.compares)}${r.old ? ' (old: not like for like)' : ''} | ${cell(r.cores)} | ` +
               `${cell(text)} | ${cell(target)} |`);
  }
  return lines.join('\n');
}
