// The pure logic of tests/bench/cql-store.mjs (the CQL store against sqlite3): the CSV
// generator's determinism and shape, the value bytes, the overhead formula, the queries, the
// reading of sqlite3's output, the agreement check and the targets. No timing is asserted and
// nothing is run: this file generates at most a few thousand rows in memory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';

import {bytesPerRowOverhead, checkAgreement, csvLine, csvRows, csvShape, ensureCsv, makeQueries,
        parseSqliteOutput, queriesText, RANGE_LIMIT, sqliteScript, stats, summarize,
        valueBytes} from './cql-store.mjs';

const take = (rows, seed) => [...csvRows(rows, seed)];

test('the generator is deterministic for a seed and differs for another', () => {
  const a = take(3000, 1).map(csvLine), b = take(3000, 1).map(csvLine), c = take(3000, 2).map(csvLine);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  // A longer file starts with the shorter one's rows only when the shape (the sensors) is the same.
  assert.deepEqual(take(2000, 1).map(csvLine), a.slice(0, 2000));
});

test('the rows have the documented shape: ~50 bytes a line, partitions of a few hundred rows in time order', () => {
  const rows = take(10_000, 4141);
  assert.equal(rows.length, 10_000);
  assert.equal(csvShape(10_000).sensors, 4);
  assert.equal(csvShape(1_000_000).sensors, 400);
  const bytes = rows.reduce((n, r) => n + csvLine(r).length + 1, 0) / rows.length;
  assert.ok(bytes > 40 && bytes < 60, `${bytes} bytes a line`);
  const partitions = new Map();
  let last = -1;
  for (const r of rows) {
    const key = `${r.sensor}|${r.day}`;
    const p = partitions.get(key) ?? [];
    if (p.length) assert.ok(r.ts > p.at(-1), 'a partition\'s rows arrive in clustering order, no duplicate ts');
    p.push(r.ts);
    partitions.set(key, p);
    assert.ok(r.dayIndex >= last);
    last = r.dayIndex;
    assert.match(r.reading, /^\d+\.\d{3}$/);
    assert.ok(r.ts >= 0 && r.ts < 86400);
  }
  const full = [...partitions.values()].slice(0, -4).map((p) => p.length);  // the last day may be partial
  assert.ok(Math.min(...full) > 200 && Math.max(...full) < 300, `${Math.min(...full)}..${Math.max(...full)}`);
});

test('a note with a comma is quoted; value bytes are the encoded sizes', () => {
  const r = {sensor: 12, day: '2024-01-03', ts: 4000, reading: '21.375', note: 'gap filled, 3 samples'};
  assert.equal(csvLine(r), '12,2024-01-03,4000,21.375,"gap filled, 3 samples"');
  assert.equal(csvLine({...r, note: 'say "hi"'}), '12,2024-01-03,4000,21.375,"say ""hi"""');
  assert.equal(valueBytes(r), 4 + 10 + 4 + 8 + 21);
  assert.equal(valueBytes({...r, note: 'é'}), 4 + 10 + 4 + 8 + 2);
});

test('ensureCsv writes the file once with a header and its meta, then reuses it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cql-store-test-'));
  try {
    const logs = [];
    const meta = await ensureCsv({rows: 1500, seed: 3, dir, log: (m) => logs.push(m)});
    const text = fs.readFileSync(meta.file, 'utf8');
    const lines = text.trimEnd().split('\n');
    assert.equal(lines[0], 'sensor,day,ts,reading,note');
    assert.equal(lines.length, 1501);
    assert.deepEqual(lines.slice(1), take(1500, 3).map(csvLine));
    assert.equal(meta.file_bytes, Buffer.byteLength(text));
    assert.equal(meta.value_bytes, take(1500, 3).reduce((n, r) => n + valueBytes(r), 0));
    assert.equal(meta.rows, 1500);
    const again = await ensureCsv({rows: 1500, seed: 3, dir, log: (m) => logs.push(m)});
    assert.equal(again.file_bytes, meta.file_bytes);
    assert.match(logs.at(-1), /^reusing /);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('the overhead per row is (store bytes - value bytes) / rows', () => {
  assert.equal(bytesPerRowOverhead({storeBytes: 300_000, valueBytes: 50_000, rows: 1000}), 250);
  assert.equal(bytesPerRowOverhead({storeBytes: 40_000, valueBytes: 50_000, rows: 1000}), -10);
  assert.equal(bytesPerRowOverhead({storeBytes: 1, valueBytes: 0, rows: 0}), null);
});

test('the queries are the same for every side, deterministic and within the data', () => {
  const meta = {sensors: 400, days: 11, rows: 1_000_000};
  const q = makeQueries(meta, {points: 50, ranges: 50, samples: 3});
  assert.deepEqual(q, makeQueries(meta, {points: 50, ranges: 50, samples: 3}));
  for (const [s, d] of [...q.points, ...q.samples]) {
    assert.ok(s >= 0 && s < 400);
    assert.ok(d >= '2024-01-01' && d <= '2024-01-10', d);  // the last, partial day is left out
  }
  for (const t of q.tokens) {
    const v = BigInt(t);
    assert.ok(v >= -(2n ** 63n) && v < -(2n ** 63n) + (2n ** 64n * 8n) / 10n);
  }
  for (const [s] of q.starts) assert.ok(s < 320);
  const text = queriesText(q).trim().split('\n');
  assert.equal(text.length, 103);
  assert.match(text[0], /^P \d+ 2024-01-\d\d$/);
  assert.match(text[50], /^R -?\d+$/);
  assert.match(text[100], /^S \d+ 2024-01-\d\d$/);
  const script = sqliteScript('/x/y.csv', q);
  assert.match(script, /WITHOUT ROWID;/);
  assert.match(script, /\.import --csv --skip 1 '\/x\/y\.csv' events/);
  assert.equal(script.match(/^SELECT \* FROM events WHERE sensor = /gm).length, 100);  // timer pass + batch pass
});

const SQLITE_OUT = `T0|1000.0
T1|3500.5
COUNT|3
STATS-BEGIN
Memory Used:                         1255848 (max 1283256) bytes
Number of Outstanding Allocations:   499 (max 531)
STATS-END
TIMER-BEGIN
Run Time: real 0.000 user 0.000146 sys 0.000004
Run Time: real 0.001 user 0.000450 sys 0.000000
TIMER-END
P0|4000
P1|4000.5
R0|4001
R1|4002
PROWS|2
RROWS|3
SAMPLE|1|2024-01-01
[{"ts":10,"reading":1.5,"note":"hello"},
{"ts":20,"reading":2.5,"note":"a,b"}]
SAMPLE-END
`;

test('sqlite3\'s output is read back', () => {
  const q = {points: [[1, '2024-01-01']], starts: [[0, '2024-01-01', 0]], samples: [[1, '2024-01-01']]};
  const r = parseSqliteOutput(SQLITE_OUT, q);
  assert.equal(r.rows, 3);
  assert.equal(r.import_seconds, 2.5005);
  assert.equal(r.memory_used, 1255848);
  assert.equal(r.point.rows, 2);
  assert.ok(Math.abs(r.point.cpu_ms_median - 0.15) < 1e-9);
  assert.equal(r.point.batch_mean_ms, 0.5);
  assert.equal(r.range.rows, 3);
  assert.ok(Math.abs(r.range.cpu_ms_median - 0.45) < 1e-9);
  assert.deepEqual(r.samples, [{sensor: 1, day: '2024-01-01', rows: [[10, 1.5, 'hello'], [20, 2.5, 'a,b']]}]);
  assert.throws(() => parseSqliteOutput(SQLITE_OUT.replace(/Run Time.*\n/, ''), q), /timed 1 queries, not 2/);
});

const side = (over = {}) => ({rows: 3, point: {rows: 2}, range: {min_rows: RANGE_LIMIT, max_rows: RANGE_LIMIT},
                              samples: [{sensor: 1, day: '2024-01-01', rows: [[10, 1.5, 'hello'], [20, 2.5, 'a,b']]}], ...over});

test('the agreement check passes on equal sides and fails loudly on any difference', () => {
  checkAgreement(3, {ours: side(), sqlite3: side(), wasm: side()});
  // Readings compare to 3 decimals (a double printed by either side).
  checkAgreement(3, {ours: side(), sqlite3: side({samples: [{sensor: 1, day: '2024-01-01', rows: [[10, 1.5000000001, 'hello'], [20, 2.5, 'a,b']]}]})});
  assert.throws(() => checkAgreement(3, {ours: side({rows: 2}), sqlite3: side()}), /ours loaded 2 rows, not 3/);
  assert.throws(() => checkAgreement(3, {ours: side(), sqlite3: side({point: {rows: 1}})}), /point queries returned 2 rows on ours, 1 on sqlite3/);
  assert.throws(() => checkAgreement(3, {ours: side(), wasm: side({samples: [{sensor: 1, day: '2024-01-01', rows: [[10, 1.5, 'hello']]}]})}),
                /differ: 2 rows vs 1/);
  assert.throws(() => checkAgreement(3, {ours: side(), wasm: side({samples: [{sensor: 1, day: '2024-01-01', rows: [[10, 1.5, 'hello'], [20, 2.5, 'a;b']]}]})}),
                /row 1: /);
  assert.throws(() => checkAgreement(3, {ours: side({range: {min_rows: 0, max_rows: 1000}})}), /range queries returned 0\.\.1000/);
});

test('stats and the summary: rates, overhead, targets', () => {
  assert.deepEqual(stats([3, 1, 2, 10]), {median: 2.5, min: 1, max: 10, mean: 4});
  assert.deepEqual(stats([]), {median: null, min: null, max: null, mean: null});
  const timing = (ms) => ({queries: 2, rows: 500, min_rows: 250, max_rows: 250, wall_ms_median: ms, wall_ms_min: ms,
                           wall_ms_max: ms, wall_ms_mean: ms, cpu_ms_median: ms});
  const meta = {rows: 1000, value_bytes: 50_000, file_bytes: 50_000};
  const cql = [{rows: 1000, partitions: 4, load_seconds: 0.5, load_cpu_seconds: 0.5, store_heap_bytes: 140_000,
                rss_before_kb: 0, rss_after_kb: 100, peak_rss_kb: 2048, load_allocations: 4000,
                point: timing(0.5), range: timing(2)},
               {rows: 1000, partitions: 4, load_seconds: 0.25, load_cpu_seconds: 0.25, store_heap_bytes: 150_000,
                rss_before_kb: 0, rss_after_kb: 100, peak_rss_kb: 2048, load_allocations: 4000,
                point: timing(0.7), range: timing(6)}];
  const sqlite = [{rows: 1000, import_seconds: 1, memory_used: 70_000, peak_rss_kb: 1024,
                   point: {cpu_ms_median: 0.1, batch_mean_ms: 0.1}, range: {cpu_ms_median: 0.3, batch_mean_ms: 0.3}}];
  const {fields, lines} = summarize({meta, cql, sqlite});
  assert.equal(fields.cql_copy_rows_s, 4000);           // the fastest run
  assert.equal(fields.sqlite_import_rows_s, 1000);
  assert.equal(fields.cql_copy_vs_sqlite, 4);
  assert.equal(fields.cql_bytes_per_row_overhead, 100); // the largest store: (150,000 - 50,000) / 1,000
  assert.equal(fields.sqlite_bytes_per_row_overhead, 20);
  assert.equal(fields.cql_point_select_ms_median, 0.6); // the median of the runs' medians
  assert.equal(fields.cql_range_scan_1000_ms_median, 4);
  assert.deepEqual(fields.targets, {cql_copy_ge_2x_sqlite: true, cql_overhead_le_100_b_row: true,
                                    cql_point_lt_1_ms: true, cql_range_lt_5_ms: true});
  assert.match(lines.at(-1), /cql_copy_ge_2x_sqlite met/);
  const slow = summarize({meta, cql: [{...cql[0], load_seconds: 0.6}], sqlite});
  assert.equal(slow.fields.targets.cql_copy_ge_2x_sqlite, false);
  assert.match(slow.lines.at(-1), /cql_copy_ge_2x_sqlite NOT met/);
  const wasm = [{rows: 1000, load_seconds: 2, heap_before: 16 << 20, heap_after: (16 << 20) + 200_000,
                 point: timing(3), range: timing(8)}];
  const big = {rows: 2_000_000, expected_rows: 2_000_000, heap_after: 600 << 20, load_seconds: 30};
  const w = summarize({meta, cql, sqlite, wasm, big});
  assert.equal(w.fields.cql_wasm_bytes_per_row_overhead_max, 150);
  assert.equal(w.fields.targets.wasm_point_lt_1_ms, false);
  assert.equal(w.fields.targets.wasm_holds_2m_rows, true);
  assert.equal(w.fields.cql_wasm_big_heap_mb, 600);
});
