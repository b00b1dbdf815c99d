#!/usr/bin/env node
// The Cassandra console's store measured against Debian's sqlite3 (issue 41): the same CSV loaded
// by our COPY FROM and by sqlite3's .import into a table with the same primary key, then the same
// point and range queries, each side in its own fresh process, interleaved A/B (then C, the page's
// wasm module in node) over `runs` rounds.
//
//   node tests/bench/cql-store.mjs [--rows N] [--runs N] [--no-wasm] [--wasm-rows N] [--profile]
//   import {cqlStoreSection} from './cql-store.mjs';   // {fields, lines}
//
// The data (bench-data/cql-events-<rows>-seed<S>-v<V>.csv, reused while its .meta.json matches):
//   sensor,day,ts,reading,note          e.g.  212,2024-01-03,41712,23.817,ok battery 87% fw 1.4
// for CREATE TABLE bench.events (sensor int, day text, ts int, reading double, note text,
// PRIMARY KEY ((sensor, day), ts)). round(rows / 2,500) sensors (400 at 1,000,000 rows) report
// every 300 s slot of a day (288 slots) with probability 0.87, so a partition (sensor, day)
// holds ~250 rows (binomial, ~220-280) and 1,000,000 rows are ~4,000 partitions over ~10 days.
// The file is in time order (day, slot, then sensor), as a time-series export is: consecutive
// rows go to different partitions, each partition's rows arrive in clustering order. ~49 bytes a
// line; 7% of the notes hold a comma and are quoted. Deterministic for (rows, seed): mulberry32
// (scripts/prng.mjs).
//
// Like for like: both sides single-threaded, both in memory (sqlite3 without a database file is
// `:memory:`, the like-for-like of our in-memory store), the same CSV, the same primary key.
// sqlite3's table is
//   CREATE TABLE events(sensor INTEGER, day TEXT, ts INTEGER, reading REAL, note TEXT,
//                       PRIMARY KEY (sensor, day, ts)) WITHOUT ROWID
// WITHOUT ROWID because then the table is one B-tree ordered by the primary key, rows kept in the
// key's order as our partitions' rows are (a rowid table would keep the rows in a second B-tree
// beside a key index: two structures, more bytes, not the same thing). sqlite3 has no token():
// its range query is the primary key's own order from a random key, 1,000 rows:
//   SELECT * FROM events WHERE (sensor, day, ts) > (?, ?, ?) LIMIT 1000     (an index SEARCH)
// and ours SELECT * FROM bench.events WHERE token(sensor, day) > ? LIMIT 1000 (a token in the
// lower 80% of the ring, so 1,000 rows follow). The point query on both:
//   SELECT * FROM events WHERE sensor = ? AND day = ?    (a whole partition, ~250 rows)
// over the same random existing partitions.
//
// What is timed. Ours (tests/bench/cql_store_bench.cpp, build/native/cql_store_bench, under
// build/native/exec_timer for the process's peak RSS): the COPY statement inside the process
// (reading the file included), each query's Execute (parse, plan, run: wall and CPU). sqlite3
// (under exec_timer too): .import between two julianday('now') stamps printed by the script
// (ms resolution), each query by `.timer on` (its "real" has ms resolution, so the per-query
// figures are its user+sys CPU, microseconds), and each batch of queries between two stamps
// (the batch's wall mean). Ours is compared CPU to CPU and mean to mean; the targets read our
// own per-query wall medians. The queries' output goes to /dev/null in sqlite3 (printed, not
// kept); ours keeps the result rows in memory (not printed).
//
// Memory "beyond the row's own values":
//   overhead per row = (store bytes - value bytes) / rows
// store bytes: ours, the heap in use after the COPY minus before it (glibc mallinfo2: every
// chunk the store holds, malloc headers included; the file's text is freed by then); sqlite3,
// its own "Memory Used" after the import (.stats: every byte sqlite3 has allocated, page cache
// included). value bytes: each row's values as the engine encodes them, the partition key
// included in every row (the CSV row carries it): sensor 4 + day 10 + ts 4 + reading 8 + note's
// UTF-8 bytes (~26 + 21). Peak and before/after RSS are reported beside it. The page's wasm
// module's heap only grows, in steps of up to 20% (Emscripten's growth), so its figure,
// (heap after - heap before - value bytes) / rows, is an upper bound.
//
// The wasm side: the page's Cassandra module (build/site/engine/partplay-cql.wasm, what
// web/worker loads) in node, not Chromium (same module, same engine; no browser to set up on
// this machine): the CSV fed in 1 MiB chunks to CqlSession.startLoad (the page's bulk load, the
// page's COPY FROM), the same queries through CqlSession.execute (the results parsed from the
// engine's JSON, as the page's worker gets them). "The page holds 2,000,000 rows": one more
// wasm process loads --wasm-rows rows (default 2,000,000) and reports its heap.
//
// The agreement check (fails loudly): every side loaded `rows` rows; the sample partitions' rows
// (ts, reading, note) are equal on every side; the point queries returned the same number of
// rows on every side; every range query returned min(1,000, the rows after its start).
import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {mulberry32} from '../../scripts/prng.mjs';
import {reusable, saveMeta, startWriting} from './generated-file.mjs';

/** Bump when the row shape or the PRNG use changes: old files are then regenerated. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 4141;
export const SLOT_SECONDS = 300;
export const SLOTS_PER_DAY = 86400 / SLOT_SECONDS;
export const REPORT_PROBABILITY = 0.87;
export const ROWS_PER_SENSOR = 2500;
export const FIRST_DAY = Date.UTC(2024, 0, 1);
export const RANGE_LIMIT = 1000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_DIR = join(repo, 'bench-data');
const NATIVE = join(repo, 'build/native/cql_store_bench');
const EXEC_TIMER = join(repo, 'build/native/exec_timer');
const SQLITE = '/usr/bin/sqlite3';
const ENGINE_DIR = join(repo, 'build/site/engine');
const WASM_MODULE = 'partplay-cql.wasm';
const WASM_CHUNK = 1 << 20;
const SELF = fileURLToPath(import.meta.url);

export const CQL_SCHEMA =
  "CREATE KEYSPACE bench WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n" +
  'CREATE TABLE bench.events (sensor int, day text, ts int, reading double, note text, ' +
  'PRIMARY KEY ((sensor, day), ts));\n';
export const SQLITE_SCHEMA =
  'CREATE TABLE events(sensor INTEGER, day TEXT, ts INTEGER, reading REAL, note TEXT, ' +
  'PRIMARY KEY (sensor, day, ts)) WITHOUT ROWID;';
export const COLUMNS = ['sensor', 'day', 'ts', 'reading', 'note'];

// ---------------------------------------------------------------------------------------------
// The data

/** The sensors for `rows` rows (the days follow from the rows: the file stops at `rows`). */
export function csvShape(rows) {
  return {sensors: Math.max(1, Math.round(rows / ROWS_PER_SENSOR)), slots_per_day: SLOTS_PER_DAY,
          slot_seconds: SLOT_SECONDS, report_probability: REPORT_PROBABILITY};
}

export function dayText(index) {
  return new Date(FIRST_DAY + index * 86_400_000).toISOString().slice(0, 10);
}

const FIRMWARE = ['1.4', '1.5', '2.0', '2.1'];

/** The rows, in file order: {sensor, day, dayIndex, ts, reading (text, 3 decimals), note}. */
export function* csvRows(rows, seed = DEFAULT_SEED) {
  const {sensors} = csvShape(rows);
  const rand = mulberry32(seed);
  let count = 0;
  for (let d = 0; count < rows; d++) {
    const day = dayText(d);
    for (let slot = 0; slot < SLOTS_PER_DAY && count < rows; slot++) {
      for (let sensor = 0; sensor < sensors && count < rows; sensor++) {
        if (rand() >= REPORT_PROBABILITY) continue;
        const ts = slot * SLOT_SECONDS + Math.floor(rand() * SLOT_SECONDS);
        const reading = (10 + (sensor % 20) + rand() * 8).toFixed(3);
        const r = rand();
        let note;
        if (r < 0.8) {
          note = `ok battery ${10 + Math.floor(rand() * 90)}% fw ${FIRMWARE[sensor % FIRMWARE.length]}`;
        } else if (r < 0.9) {
          const hh = String(Math.floor(ts / 3600)).padStart(2, '0');
          const mm = String(Math.floor(ts / 60) % 60).padStart(2, '0');
          note = `recalibrated ${hh}:${mm} by tech ${Math.floor(rand() * 50)}`;
        } else if (r < 0.97) {
          note = `gap filled, ${1 + Math.floor(rand() * 12)} samples`;
        } else {
          note = 'spike filtered';
        }
        count++;
        yield {sensor, day, dayIndex: d, ts, reading, note};
      }
    }
  }
}

/** One CSV line (no newline): a field with a comma or a quote is quoted, quotes doubled. */
export function csvLine(r) {
  const note = /[",\n\r\\]/.test(r.note) ? `"${r.note.replaceAll('"', '""')}"` : r.note;
  return `${r.sensor},${r.day},${r.ts},${r.reading},${note}`;
}

/** The row's own values as the engine encodes them: int 4, text its UTF-8, double 8. */
export function valueBytes(r) {
  return 4 + Buffer.byteLength(r.day) + 4 + 8 + Buffer.byteLength(r.note);
}

/**
 * Ensures the CSV of `rows` rows exists under `dir` (generated when missing or when its meta does
 * not match). Resolves to the meta: {file, rows, file_bytes, value_bytes, partitions, sensors,
 * days, rows_per_partition: {min, mean, max}, ...}.
 */
export async function ensureCsv({rows, seed = DEFAULT_SEED, dir = DEFAULT_DIR, log = () => {}}) {
  const params = {generator_version: GENERATOR_VERSION, seed, rows};
  mkdirSync(dir, {recursive: true});
  const file = join(dir, `cql-events-${rows}-seed${seed}-v${GENERATOR_VERSION}.csv`);
  const meta = reusable(file, params);
  if (meta) {
    log(`reusing ${file} (${(meta.file_bytes / 1e6).toFixed(1)} MB, ${meta.rows} rows)`);
    return {...meta, file};
  }
  log(`generating ${file} ...`);
  const started = performance.now();
  const {write, finish} = startWriting(file);
  const header = `${COLUMNS.join(',')}\n`;
  let piece = header;
  let fileBytes = 0, values = 0, count = 0, days = 0;
  const perPartition = new Map();
  for (const r of csvRows(rows, seed)) {
    piece += csvLine(r) + '\n';
    values += valueBytes(r);
    count++;
    days = r.dayIndex + 1;
    const key = `${r.sensor}|${r.day}`;
    perPartition.set(key, (perPartition.get(key) ?? 0) + 1);
    if (piece.length >= 1 << 20) {
      await write(piece);
      fileBytes += Buffer.byteLength(piece);
      piece = '';
    }
  }
  await write(piece);
  fileBytes += Buffer.byteLength(piece);
  await finish(fileBytes);
  const sizes = [...perPartition.values()];
  const result = {
    ...params, ...csvShape(rows), file_bytes: fileBytes, line_bytes_mean: round((fileBytes - header.length) / count, 1),
    value_bytes: values, days, partitions: perPartition.size,
    rows_per_partition: {min: Math.min(...sizes), mean: round(count / perPartition.size, 1), max: Math.max(...sizes)},
    generated_in_s: round((performance.now() - started) / 1000, 2),
  };
  saveMeta(file, result);
  log(`generated ${(fileBytes / 1e6).toFixed(1)} MB, ${count} rows, ${result.partitions} partitions in ${result.generated_in_s} s`);
  return {...result, file};
}

// ---------------------------------------------------------------------------------------------
// The queries

/**
 * The same queries for every side, deterministic for (meta, seed): `points` random existing
 * partitions [sensor, day] (days fully written, when there is more than one), `ranges` tokens
 * (decimal strings, uniform over the lower 80% of the ring) for ours and key starts [sensor,
 * day, 0] (sensors in the lower 80%) for sqlite3, and `samples` partitions whose rows are
 * compared.
 */
export function makeQueries(meta, {points = 200, ranges = 200, samples = 5, seed = 7} = {}) {
  const rand = mulberry32(seed);
  const fullDays = meta.days > 1 ? meta.days - 1 : 1;
  const partition = () => [Math.floor(rand() * meta.sensors), dayText(Math.floor(rand() * fullDays))];
  const low = -(2n ** 63n);
  const span = (2n ** 64n * 8n) / 10n;
  const token = () => {
    const bits = (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32));
    return String(low + (bits % span));
  };
  const start = () => [Math.floor(rand() * Math.max(1, Math.floor(meta.sensors * 0.8))),
                       dayText(Math.floor(rand() * fullDays)), 0];
  return {
    points: Array.from({length: points}, partition),
    tokens: Array.from({length: ranges}, token),
    starts: Array.from({length: ranges}, start),
    samples: Array.from({length: samples}, partition),
  };
}

/** The QUERIES file cql_store_bench and the wasm child read. */
export function queriesText(q) {
  return [...q.points.map(([s, d]) => `P ${s} ${d}`), ...q.tokens.map((t) => `R ${t}`),
          ...q.samples.map(([s, d]) => `S ${s} ${d}`)].join('\n') + '\n';
}

const stamp = (name) => `SELECT '${name}|' || ((julianday('now') - 2440587.5) * 86400000.0);`;
const sqlPoint = ([s, d]) => `SELECT * FROM events WHERE sensor = ${s} AND day = '${d}';`;
const sqlRange = ([s, d, t]) =>
  `SELECT * FROM events WHERE (sensor, day, ts) > (${s}, '${d}', ${t}) LIMIT ${RANGE_LIMIT};`;

/** sqlite3's script: schema, the timed import, the stats, the queries timed twice, the checks. */
export function sqliteScript(csvFile, q) {
  const lines = ['.bail on', SQLITE_SCHEMA, '.mode list', '.separator |', stamp('T0'),
                 `.import --csv --skip 1 '${csvFile}' events`, stamp('T1'),
                 "SELECT 'COUNT|' || count(*) FROM events;", '.print STATS-BEGIN', '.stats',
                 '.print STATS-END',
                 // Each query by the shell's timer (ms wall, us CPU); the rows to /dev/null.
                 '.print TIMER-BEGIN', '.timer on', '.output /dev/null', ...q.points.map(sqlPoint),
                 ...q.starts.map(sqlRange), '.output stdout', '.timer off', '.print TIMER-END',
                 // Each batch between two stamps: its mean wall time.
                 stamp('P0'), '.output /dev/null', ...q.points.map(sqlPoint), '.output stdout',
                 stamp('P1'), stamp('R0'), '.output /dev/null', ...q.starts.map(sqlRange),
                 '.output stdout', stamp('R1'),
                 ...q.points.map(([s, d]) => `SELECT 'PROWS|' || count(*) FROM events WHERE sensor = ${s} AND day = '${d}';`),
                 ...q.starts.map(([s, d, t]) => `SELECT 'RROWS|' || count(*) FROM (SELECT 1 FROM events WHERE (sensor, day, ts) > (${s}, '${d}', ${t}) LIMIT ${RANGE_LIMIT});`)];
  for (const [s, d] of q.samples) {
    lines.push(`.print SAMPLE|${s}|${d}`, '.mode json',
               `SELECT ts, reading, note FROM events WHERE sensor = ${s} AND day = '${d}' ORDER BY ts;`,
               '.mode list', '.print SAMPLE-END');
  }
  return lines.join('\n') + '\n';
}

/** Median, min, max and mean of a list of numbers (null for none). */
export function stats(values) {
  if (!values.length) return {median: null, min: null, max: null, mean: null};
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return {median: v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2, min: v[0], max: v.at(-1),
          mean: v.reduce((a, b) => a + b, 0) / v.length};
}

/**
 * sqlite3's output of sqliteScript read back: {rows, import_seconds, memory_used, memory_max,
 * point: {queries, rows, min_rows, max_rows, cpu_ms_*, batch_mean_ms}, range: {...}, samples}.
 */
export function parseSqliteOutput(stdout, q) {
  const lines = stdout.split('\n');
  const value = (name) => {
    const line = lines.find((l) => l.startsWith(`${name}|`));
    if (!line) throw new Error(`sqlite3's output has no ${name} line`);
    return Number(line.slice(name.length + 1));
  };
  const all = (name) => lines.filter((l) => l.startsWith(`${name}|`)).map((l) => Number(l.slice(name.length + 1)));
  const between = (begin, end) => {
    const a = lines.indexOf(begin), b = lines.indexOf(end, a + 1);
    if (a < 0 || b < 0) throw new Error(`sqlite3's output has no ${begin} ... ${end}`);
    return lines.slice(a + 1, b);
  };
  const statsText = between('STATS-BEGIN', 'STATS-END').join('\n');
  const memory = /Memory Used:\s+(\d+) \(max (\d+)\) bytes/.exec(statsText);
  if (!memory) throw new Error(`sqlite3's .stats has no Memory Used line:\n${statsText}`);
  const cpu = between('TIMER-BEGIN', 'TIMER-END').map((l) => /^Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)/.exec(l))
    .filter(Boolean).map((m) => (Number(m[2]) + Number(m[3])) * 1000);
  const np = q.points.length, nr = q.starts.length;
  if (cpu.length !== np + nr) throw new Error(`sqlite3 timed ${cpu.length} queries, not ${np + nr}`);
  const pointRows = all('PROWS'), rangeRows = all('RROWS');
  const timing = (cpuMs, rows, batchMs) => {
    const c = stats(cpuMs);
    return {queries: cpuMs.length, rows: rows.reduce((a, b) => a + b, 0), min_rows: Math.min(...rows),
            max_rows: Math.max(...rows), cpu_ms_median: c.median, cpu_ms_min: c.min, cpu_ms_max: c.max,
            cpu_ms_mean: c.mean, batch_mean_ms: batchMs / Math.max(1, cpuMs.length), rows_each: rows};
  };
  const samples = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^SAMPLE\|(\d+)\|(.+)$/.exec(lines[i]);
    if (!m) continue;
    const end = lines.indexOf('SAMPLE-END', i + 1);
    const text = lines.slice(i + 1, end).join('\n').trim();
    const rows = text ? JSON.parse(text).map((r) => [r.ts, r.reading, r.note]) : [];
    samples.push({sensor: Number(m[1]), day: m[2], rows});
    i = end;
  }
  return {
    rows: value('COUNT'), import_seconds: (value('T1') - value('T0')) / 1000,
    memory_used: Number(memory[1]), memory_max: Number(memory[2]),
    point: timing(cpu.slice(0, np), pointRows, value('P1') - value('P0')),
    range: timing(cpu.slice(np), rangeRows, value('R1') - value('R0')),
    samples,
  };
}

// ---------------------------------------------------------------------------------------------
// The pure figures

/** (store bytes - the rows' own value bytes) / rows: the memory a row costs beyond its values. */
export function bytesPerRowOverhead({storeBytes, valueBytes: values, rows}) {
  if (!(rows > 0)) return null;
  return (storeBytes - values) / rows;
}

function sameRows(a, b) {
  if (a.length !== b.length) return `${a.length} rows vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const [ts1, r1, n1] = a[i], [ts2, r2, n2] = b[i];
    if (ts1 !== ts2 || Math.round(r1 * 1000) !== Math.round(r2 * 1000) || n1 !== n2) {
      return `row ${i}: ${JSON.stringify(a[i])} vs ${JSON.stringify(b[i])}`;
    }
  }
  return null;
}

/**
 * Throws unless the sides agree: each loaded `rows` rows; each sample partition's rows [ts,
 * reading, note] are equal (readings to 3 decimals, as written); the point queries returned
 * the same rows in total; every range query returned its LIMIT (or, for a start near the end,
 * as many as the side's own count says: `range.min_rows` > 0). `sides`: {name: {rows,
 * samples: [{sensor, day, rows}], point: {rows}, range: {min_rows, max_rows}}}.
 */
export function checkAgreement(expectedRows, sides) {
  const problems = [];
  const names = Object.keys(sides);
  for (const name of names) {
    const s = sides[name];
    if (s.rows !== expectedRows) problems.push(`${name} loaded ${s.rows} rows, not ${expectedRows}`);
    if (s.range && (s.range.max_rows > RANGE_LIMIT || s.range.min_rows <= 0)) {
      problems.push(`${name}'s range queries returned ${s.range.min_rows}..${s.range.max_rows} rows`);
    }
  }
  const [first, ...rest] = names;
  for (const name of rest) {
    const a = sides[first], b = sides[name];
    if (a.point && b.point && a.point.rows !== b.point.rows) {
      problems.push(`the point queries returned ${a.point.rows} rows on ${first}, ${b.point.rows} on ${name}`);
    }
    if (a.samples.length !== b.samples.length) problems.push(`${a.samples.length} samples on ${first}, ${b.samples.length} on ${name}`);
    a.samples.forEach((sa, i) => {
      const sb = b.samples[i];
      if (!sb || sa.sensor !== sb.sensor || sa.day !== sb.day) {
        problems.push(`sample ${i} is not the same partition on ${first} and ${name}`);
        return;
      }
      const diff = sameRows(sa.rows, sb.rows);
      if (diff) problems.push(`partition (${sa.sensor}, ${sa.day}): ${first} and ${name} differ: ${diff}`);
      if (!sa.rows.length) problems.push(`partition (${sa.sensor}, ${sa.day}) is empty on ${first}`);
    });
  }
  if (problems.length) throw new Error(`cql-store: the sides disagree:\n  ${problems.join('\n  ')}`);
}

const round = (x, digits = 3) => (x == null || !Number.isFinite(x) ? null : Number(x.toFixed(digits)));
// The run whose `key` is the median of the rounds' (the lower middle one for an even count), as
// every figure of `make bench` is a median over its interleaved rounds.
const medianRun = (runs, key) => [...runs].sort((a, b) => a[key] - b[key])[(runs.length - 1) >> 1];
const worst = (runs, f) => Math.max(...runs.map(f));
const medianOf = (runs, f) => stats(runs.map(f)).median;

/**
 * The section's figures from the runs: `cql` and `sqlite` (and `wasm`) lists of one parsed run
 * each (cql_store_bench's JSON line plus peak_rss_kb from exec_timer; parseSqliteOutput plus
 * peak_rss_kb; the wasm child's JSON line), `big` the wasm load of `big.rows` rows (or null).
 * Speed: the median run; memory: the largest; query times: the median over runs of each run's
 * median. Returns {fields, lines}.
 */
export function summarize({meta, cql, sqlite, wasm = [], big = null, sqliteVersion = ''}) {
  const rows = meta.rows;
  const c = medianRun(cql, 'load_seconds'), s = medianRun(sqlite, 'import_seconds');
  const cqlRate = rows / c.load_seconds, sqliteRate = rows / s.import_seconds;
  const cqlStore = worst(cql, (r) => r.store_heap_bytes);
  const sqliteStore = worst(sqlite, (r) => r.memory_used);
  const cqlOverhead = bytesPerRowOverhead({storeBytes: cqlStore, valueBytes: meta.value_bytes, rows});
  const sqliteOverhead = bytesPerRowOverhead({storeBytes: sqliteStore, valueBytes: meta.value_bytes, rows});
  const point = medianOf(cql, (r) => r.point.wall_ms_median), range = medianOf(cql, (r) => r.range.wall_ms_median);
  const f = {
    cql_rows: rows, cql_partitions: cql[0].partitions, cql_csv_bytes: meta.file_bytes,
    cql_value_bytes_per_row: round(meta.value_bytes / rows, 1),
    cql_copy_seconds: round(c.load_seconds), cql_copy_cpu_seconds: round(c.load_cpu_seconds),
    cql_copy_rows_s: Math.round(cqlRate),
    sqlite_import_seconds: round(s.import_seconds), sqlite_import_rows_s: Math.round(sqliteRate),
    cql_copy_vs_sqlite: round(cqlRate / sqliteRate, 2),
    cql_store_heap_bytes: cqlStore,
    cql_bytes_per_row: round(cqlStore / rows, 1),
    cql_bytes_per_row_overhead: round(cqlOverhead, 1),
    cql_rss_growth_per_row: round(worst(cql, (r) => (r.rss_after_kb - r.rss_before_kb) * 1024) / rows, 1),
    cql_peak_rss_mb: round(worst(cql, (r) => r.peak_rss_kb) / 1024, 1),
    cql_load_allocations_per_row: round(c.load_allocations / rows, 2),
    cql_copy_sys_seconds: round(c.load_sys_seconds), cql_copy_minor_faults: c.load_minor_faults,
    sqlite_memory_used_bytes: sqliteStore,
    sqlite_bytes_per_row: round(sqliteStore / rows, 1),
    sqlite_bytes_per_row_overhead: round(sqliteOverhead, 1),
    sqlite_peak_rss_mb: round(worst(sqlite, (r) => r.peak_rss_kb) / 1024, 1),
    cql_point_select_ms_median: round(point, 4),
    cql_point_select_ms_min: round(Math.min(...cql.map((r) => r.point.wall_ms_min)), 4),
    cql_point_select_ms_max: round(Math.max(...cql.map((r) => r.point.wall_ms_max)), 4),
    cql_point_select_ms_mean: round(medianOf(cql, (r) => r.point.wall_ms_mean), 4),
    cql_point_select_cpu_ms_median: round(medianOf(cql, (r) => r.point.cpu_ms_median), 4),
    cql_point_rows_mean: round(c.point.rows / c.point.queries, 1),
    sqlite_point_select_cpu_ms_median: round(medianOf(sqlite, (r) => r.point.cpu_ms_median), 4),
    sqlite_point_select_ms_mean: round(medianOf(sqlite, (r) => r.point.batch_mean_ms), 4),
    cql_range_scan_1000_ms_median: round(range, 4),
    cql_range_scan_1000_ms_min: round(Math.min(...cql.map((r) => r.range.wall_ms_min)), 4),
    cql_range_scan_1000_ms_max: round(Math.max(...cql.map((r) => r.range.wall_ms_max)), 4),
    cql_range_scan_1000_ms_mean: round(medianOf(cql, (r) => r.range.wall_ms_mean), 4),
    cql_range_scan_1000_cpu_ms_median: round(medianOf(cql, (r) => r.range.cpu_ms_median), 4),
    sqlite_range_scan_1000_cpu_ms_median: round(medianOf(sqlite, (r) => r.range.cpu_ms_median), 4),
    sqlite_range_scan_1000_ms_mean: round(medianOf(sqlite, (r) => r.range.batch_mean_ms), 4),
  };
  const targets = {
    cql_copy_ge_2x_sqlite: cqlRate >= 2 * sqliteRate,
    cql_overhead_le_100_b_row: cqlOverhead <= 100,
    cql_point_lt_1_ms: point < 1,
    cql_range_lt_5_ms: range < 5,
  };
  const lines = [
    `CQL store vs sqlite3 ${sqliteVersion ? `${sqliteVersion} ` : ''}(${rows.toLocaleString('en-US')} rows, ${f.cql_partitions} partitions, ` +
      `${(meta.file_bytes / 1e6).toFixed(1)} MB CSV, ${f.cql_value_bytes_per_row} value bytes a row; ${cql.length} rounds)`,
    `  COPY FROM: ${f.cql_copy_seconds} s, ${f.cql_copy_rows_s.toLocaleString('en-US')} rows/s; sqlite3 .import: ` +
      `${f.sqlite_import_seconds} s, ${f.sqlite_import_rows_s.toLocaleString('en-US')} rows/s; ours ${f.cql_copy_vs_sqlite}x`,
    `  memory: ours ${f.cql_bytes_per_row} B/row (heap), ${f.cql_bytes_per_row_overhead} beyond the values, ` +
      `RSS growth ${f.cql_rss_growth_per_row} B/row, peak RSS ${f.cql_peak_rss_mb} MiB, ${f.cql_load_allocations_per_row} allocations/row; ` +
      `sqlite3 ${f.sqlite_bytes_per_row} B/row, ${f.sqlite_bytes_per_row_overhead} beyond, peak RSS ${f.sqlite_peak_rss_mb} MiB`,
    `  point SELECT (${f.cql_point_rows_mean} rows): ours median ${f.cql_point_select_ms_median} ms wall ` +
      `(${f.cql_point_select_ms_min}..${f.cql_point_select_ms_max}), CPU ${f.cql_point_select_cpu_ms_median} ms; ` +
      `sqlite3 CPU ${f.sqlite_point_select_cpu_ms_median} ms, mean ${f.sqlite_point_select_ms_mean} ms vs ours ${f.cql_point_select_ms_mean}`,
    `  range of ${RANGE_LIMIT}: ours median ${f.cql_range_scan_1000_ms_median} ms wall ` +
      `(${f.cql_range_scan_1000_ms_min}..${f.cql_range_scan_1000_ms_max}), CPU ${f.cql_range_scan_1000_cpu_ms_median} ms; ` +
      `sqlite3 CPU ${f.sqlite_range_scan_1000_cpu_ms_median} ms, mean ${f.sqlite_range_scan_1000_ms_mean} ms vs ours ${f.cql_range_scan_1000_ms_mean}`,
  ];
  if (wasm.length) {
    const w = medianRun(wasm, 'load_seconds');
    const wasmRate = rows / w.load_seconds;
    const wasmGrowth = worst(wasm, (r) => r.heap_after - r.heap_before);
    const wasmOverhead = bytesPerRowOverhead({storeBytes: wasmGrowth, valueBytes: meta.value_bytes, rows});
    const wp = medianOf(wasm, (r) => r.point.wall_ms_median), wr = medianOf(wasm, (r) => r.range.wall_ms_median);
    Object.assign(f, {
      cql_wasm_module: WASM_MODULE,
      cql_wasm_copy_seconds: round(w.load_seconds), cql_wasm_copy_rows_s: Math.round(wasmRate),
      cql_wasm_copy_vs_sqlite: round(wasmRate / sqliteRate, 2),
      cql_wasm_heap_mb: round(worst(wasm, (r) => r.heap_after) / 2 ** 20, 1),
      cql_wasm_heap_growth_per_row: round(wasmGrowth / rows, 1),
      cql_wasm_bytes_per_row_overhead_max: round(wasmOverhead, 1),
      cql_wasm_point_select_ms_median: round(wp, 4),
      cql_wasm_point_select_ms_max: round(Math.max(...wasm.map((r) => r.point.wall_ms_max)), 4),
      cql_wasm_range_scan_1000_ms_median: round(wr, 4),
      cql_wasm_range_scan_1000_ms_max: round(Math.max(...wasm.map((r) => r.range.wall_ms_max)), 4),
    });
    Object.assign(targets, {
      wasm_copy_ge_2x_sqlite: wasmRate >= 2 * sqliteRate,
      // null: the heap did not grow (a load too small to measure this way).
      wasm_overhead_le_100_b_row: wasmGrowth > 0 ? wasmOverhead <= 100 : null,
      wasm_point_lt_1_ms: wp < 1,
      wasm_range_lt_5_ms: wr < 5,
    });
    lines.push(`  wasm (${WASM_MODULE} in node): load ${f.cql_wasm_copy_seconds} s, ${f.cql_wasm_copy_rows_s.toLocaleString('en-US')} rows/s ` +
               `(${f.cql_wasm_copy_vs_sqlite}x sqlite3), heap ${f.cql_wasm_heap_mb} MiB (growth ${f.cql_wasm_heap_growth_per_row} B/row, ` +
               `<= ${f.cql_wasm_bytes_per_row_overhead_max} beyond the values), point ${f.cql_wasm_point_select_ms_median} ms, ` +
               `range ${f.cql_wasm_range_scan_1000_ms_median} ms (medians)`);
  }
  if (big) {
    Object.assign(f, {
      cql_wasm_big_rows: big.rows, cql_wasm_big_heap_mb: round(big.heap_after / 2 ** 20, 1),
      cql_wasm_big_heap_per_row: round(big.heap_after / big.rows, 1),
      cql_wasm_big_load_seconds: round(big.load_seconds),
    });
    targets.wasm_holds_2m_rows = big.rows >= 2_000_000 && big.rows === big.expected_rows;
    lines.push(`  wasm holds ${big.rows.toLocaleString('en-US')} rows: heap ${f.cql_wasm_big_heap_mb} MiB ` +
               `(${f.cql_wasm_big_heap_per_row} B/row), loaded in ${f.cql_wasm_big_load_seconds} s`);
  }
  const met = Object.entries(targets).map(([k, v]) => `${k} ${v == null ? 'not measured' : v ? 'met' : 'NOT met'}`);
  lines.push(`  targets: ${met.join(', ')}`);
  return {fields: {...f, targets}, lines};
}

// ---------------------------------------------------------------------------------------------
// The runs

/** Runs cmd under exec_timer: {code, stdout, stderr, seconds, peakRssKb}. */
function runTimed(cmd, args) {
  if (!existsSync(EXEC_TIMER)) throw new Error(`${EXEC_TIMER} is missing: build it (cmake --build build/native)`);
  return new Promise((ok, fail) => {
    const child = spawn(EXEC_TIMER, [cmd, ...args], {stdio: ['ignore', 'pipe', 'pipe']});
    const out = [], err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', fail);
    child.on('close', (code) => {
      let stderr = Buffer.concat(err).toString();
      const m = /exec_timer: (\{.*\})\n?$/.exec(stderr);
      const t = m ? JSON.parse(m[1]) : {};
      if (m) stderr = stderr.slice(0, m.index);
      ok({code, stdout: Buffer.concat(out).toString(), stderr, seconds: t.seconds, peakRssKb: t.max_rss_kb});
    });
  });
}

function lastJsonLine(text, what) {
  const line = text.trim().split('\n').at(-1);
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${what} printed no JSON line:\n${text.slice(-2000)}`);
  }
}

async function runNative(csv, queriesFile, profile) {
  if (!existsSync(NATIVE)) throw new Error(`${NATIVE} is missing: cmake --build build/native -j2 --target cql_store_bench`);
  const r = await runTimed(NATIVE, [csv, queriesFile, ...(profile ? ['--profile'] : [])]);
  if (r.code !== 0) throw new Error(`cql_store_bench exited with ${r.code}: ${r.stderr.trim()}`);
  return {...lastJsonLine(r.stdout, 'cql_store_bench'), peak_rss_kb: r.peakRssKb, process_seconds: r.seconds};
}

async function runSqlite(scriptFile, q) {
  const r = await runTimed(SQLITE, ['-batch', ':memory:', `.read ${scriptFile}`]);
  if (r.code !== 0 || r.stderr.trim()) throw new Error(`sqlite3 exited with ${r.code}: ${r.stderr.trim()}`);
  return {...parseSqliteOutput(r.stdout, q), peak_rss_kb: r.peakRssKb, process_seconds: r.seconds};
}

async function runWasm(csv, queriesFile, expectedRows, module = WASM_MODULE) {
  const r = await runTimed(process.execPath, ['--max-old-space-size=8192', SELF, '--wasm-child', csv, queriesFile,
                                              String(expectedRows), module]);
  if (r.code !== 0) throw new Error(`the wasm child exited with ${r.code}: ${r.stderr.trim()}`);
  return {...lastJsonLine(r.stdout, 'the wasm child'), peak_rss_kb: r.peakRssKb};
}

/**
 * The section `make bench` prints: generates (or reuses) the CSV, runs ours, sqlite3 and (with
 * `wasm`) the page's module `runs` times interleaved, checks they agree, and loads `wasmRows`
 * rows into the wasm module once (0: not). Resolves to {fields, lines}.
 */
export async function cqlStoreSection({rows = 1_000_000, runs = 3, log = () => {}, wasm = true,
                                       wasmRows = 2_000_000, profile = false, points = 200,
                                       ranges = 200, dir = DEFAULT_DIR} = {}) {
  const sqliteVersion = (await runTimed(SQLITE, ['-version'])).stdout.split(' ')[0];
  const meta = await ensureCsv({rows, dir, log});
  const q = makeQueries(meta, {points, ranges});
  const tmp = mkdtempSync(join(os.tmpdir(), 'cql-store-'));
  try {
    const queriesFile = join(tmp, 'queries.txt'), scriptFile = join(tmp, 'sqlite.sql');
    writeFileSync(queriesFile, queriesText(q));
    writeFileSync(scriptFile, sqliteScript(meta.file, q));
    const cql = [], sqlite = [], wasmRuns = [];
    for (let i = 0; i < runs; i++) {
      const a = await runNative(meta.file, queriesFile, false);
      cql.push(a);
      log(`  round ${i + 1}/${runs} ours: COPY ${a.load_seconds.toFixed(3)} s, heap ${(a.store_heap_bytes / a.rows).toFixed(1)} B/row, ` +
          `point ${a.point.wall_ms_median.toFixed(3)} ms, range ${a.range.wall_ms_median.toFixed(3)} ms`);
      const b = await runSqlite(scriptFile, q);
      sqlite.push(b);
      log(`  round ${i + 1}/${runs} sqlite3: import ${b.import_seconds.toFixed(3)} s, ${(b.memory_used / b.rows).toFixed(1)} B/row, ` +
          `point CPU ${b.point.cpu_ms_median.toFixed(3)} ms, range CPU ${b.range.cpu_ms_median.toFixed(3)} ms`);
      if (wasm) {
        const w = await runWasm(meta.file, queriesFile, rows);
        wasmRuns.push(w);
        log(`  round ${i + 1}/${runs} wasm: load ${w.load_seconds.toFixed(3)} s, heap ${(w.heap_after / 2 ** 20).toFixed(1)} MiB, ` +
            `point ${w.point.wall_ms_median.toFixed(3)} ms, range ${w.range.wall_ms_median.toFixed(3)} ms`);
      }
      checkAgreement(rows, {ours: cql.at(-1), sqlite3: sqlite.at(-1), ...(wasm ? {wasm: wasmRuns.at(-1)} : {})});
    }
    let big = null;
    if (wasm && wasmRows > 0) {
      const bigMeta = await ensureCsv({rows: wasmRows, dir, log});
      const bq = makeQueries(bigMeta, {points: 20, ranges: 20, samples: 1});
      const bqFile = join(tmp, 'big-queries.txt');
      writeFileSync(bqFile, queriesText(bq));
      big = {...await runWasm(bigMeta.file, bqFile, wasmRows), expected_rows: wasmRows};
      log(`  wasm ${wasmRows} rows: load ${big.load_seconds.toFixed(3)} s, heap ${(big.heap_after / 2 ** 20).toFixed(1)} MiB`);
      checkAgreement(wasmRows, {wasm: big});
    }
    const out = summarize({meta, cql, sqlite, wasm: wasmRuns, big, sqliteVersion});
    if (profile) {
      const p = await runNative(meta.file, queriesFile, true);
      out.fields.cql_profile = p.profile;
      out.lines.push(`  profile (ours, one more process): ${JSON.stringify(p.profile)}`);
      if (wasm) {
        // The page's queries: the engine's JSON answer parsed in JS; and the same load in the
        // -O3 module (partplay.wasm, the bench's) beside the page's -Oz one.
        const w = wasmRuns[0];
        const o3 = await runWasm(meta.file, queriesFile, rows, 'partplay.wasm');
        out.fields.cql_wasm_profile = {
          point_json_parse_ms_median: round(w.point.json_parse_ms_median, 4), point_json_chars_median: w.point.json_chars_median,
          range_json_parse_ms_median: round(w.range.json_parse_ms_median, 4), range_json_chars_median: w.range.json_chars_median,
          o3_module_load_seconds: round(o3.load_seconds), o3_module_point_ms_median: round(o3.point.wall_ms_median, 4),
          o3_module_range_ms_median: round(o3.range.wall_ms_median, 4), o3_module_heap_mb: round(o3.heap_after / 2 ** 20, 1),
        };
        out.lines.push(`  profile (wasm): ${JSON.stringify(out.fields.cql_wasm_profile)}`);
      }
    }
    return out;
  } finally {
    rmSync(tmp, {recursive: true, force: true});
  }
}

// ---------------------------------------------------------------------------------------------
// The wasm child: the page's module in node, one load and the queries; prints one JSON line.

async function wasmChild(csv, queriesFile, expectedRows, module = WASM_MODULE) {
  const api = await import(pathToFileURL(join(ENGINE_DIR, 'partplay-api.mjs')).href);
  const domain = module === 'partplay.wasm' ? 'all' : 'cql';
  const engine = await api.createEngine({wasmBinary: readFileSync(join(ENGINE_DIR, module))}, {domain});
  // The share of a query's time that is JSON.parse of the engine's answer (partplay-api.mjs
  // parses every answer), measured by wrapping JSON.parse in this child process only.
  const parse = JSON.parse;
  let parseMs = 0, parsedChars = 0;
  JSON.parse = (text, reviver) => {
    const t0 = performance.now();
    try {
      return parse(text, reviver);
    } finally {
      parseMs += performance.now() - t0;
      parsedChars += text.length;
    }
  };
  const session = engine.createCqlSession();
  session.execute(CQL_SCHEMA);
  const heapBefore = engine.heapBytes();
  const started = performance.now();
  const load = session.startLoad('bench.events', {format: 'csv', header: true, columns: COLUMNS});
  const fd = openSync(csv, 'r');
  const chunk = Buffer.allocUnsafe(WASM_CHUNK);
  try {
    for (let n; (n = readSync(fd, chunk, 0, WASM_CHUNK, null)) > 0;) load.feed(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  const progress = load.finish();
  const loadSeconds = (performance.now() - started) / 1000;
  const heapAfter = engine.heapBytes();
  if (progress.failed) throw new Error(`the wasm load failed ${progress.failed} rows: ${JSON.stringify(progress.failures.slice(0, 3))}`);
  const lines = readFileSync(queriesFile, 'utf8').trim().split('\n');
  const timings = {P: {wall: [], cpu: [], rows: [], parse: [], chars: []},
                   R: {wall: [], cpu: [], rows: [], parse: [], chars: []}};
  const samples = [];
  for (const line of lines) {
    const [kind, a, b] = line.split(' ');
    const statement = kind === 'R'
      ? `SELECT * FROM bench.events WHERE token(sensor, day) > ${a} LIMIT ${RANGE_LIMIT}`
      : `SELECT ${kind === 'S' ? 'ts, reading, note' : '*'} FROM bench.events WHERE sensor = ${a} AND day = '${b}'`;
    parseMs = 0;
    parsedChars = 0;
    const c0 = process.cpuUsage(), w0 = performance.now();
    const {results} = session.execute(statement);
    const wall = performance.now() - w0, cpu = process.cpuUsage(c0);
    const r = results[0];
    if (r.kind !== 'rows') throw new Error(`${statement}: ${JSON.stringify(r.error)}`);
    if (kind === 'S') {
      samples.push({sensor: Number(a), day: b, rows: r.rows});
    } else {
      timings[kind].wall.push(wall);
      timings[kind].cpu.push((cpu.user + cpu.system) / 1000);
      timings[kind].rows.push(r.rows.length);
      timings[kind].parse.push(parseMs);
      timings[kind].chars.push(parsedChars);
    }
  }
  const timing = (t) => {
    const w = stats(t.wall), c = stats(t.cpu);
    return {queries: t.wall.length, rows: t.rows.reduce((x, y) => x + y, 0), min_rows: Math.min(...t.rows),
            max_rows: Math.max(...t.rows), wall_ms_median: w.median, wall_ms_min: w.min, wall_ms_max: w.max,
            wall_ms_mean: w.mean, cpu_ms_median: c.median, json_parse_ms_median: stats(t.parse).median,
            json_chars_median: stats(t.chars).median};
  };
  const rows = Number(session.execute('SELECT COUNT(*) FROM bench.events').results[0].rows[0][0]);
  console.log(JSON.stringify({module, rows, loaded: progress.rows, expected_rows: expectedRows, load_seconds: loadSeconds,
                              heap_before: heapBefore, heap_after: heapAfter, heap_end: engine.heapBytes(),
                              point: timing(timings.P), range: timing(timings.R), samples}));
  session.dispose();
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) {
  const args = process.argv.slice(2);
  if (args[0] === '--wasm-child') {
    await wasmChild(args[1], args[2], Number(args[3]), args[4]);
  } else {
    const options = {log: (m) => console.error(m)};
    for (let i = 0; i < args.length; i++) {
      const value = () => {
        if (i + 1 >= args.length) throw new Error(`${args[i]} needs a value`);
        return Number(args[++i]);
      };
      const a = args[i];
      if (a === '--rows') options.rows = value();
      else if (a === '--runs') options.runs = value();
      else if (a === '--wasm-rows') options.wasmRows = value();
      else if (a === '--points') options.points = value();
      else if (a === '--ranges') options.ranges = value();
      else if (a === '--no-wasm') options.wasm = false;
      else if (a === '--profile') options.profile = true;
      else if (a === '-h' || a === '--help') {
        console.log('usage: node tests/bench/cql-store.mjs [--rows N] [--runs N] [--no-wasm] ' +
                    '[--wasm-rows N] [--points N] [--ranges N] [--profile]');
        process.exit(0);
      } else {
        console.error(`cql-store.mjs: unknown argument ${a}`);
        process.exit(2);
      }
    }
    const started = new Date();
    const {fields, lines} = await cqlStoreSection(options);
    for (const line of lines) console.log(line);
    console.log(JSON.stringify({started: started.toISOString(), ...fields}));
  }
}
