// A table of a CQL session sized from its rows through the wasm module (CqlSession.sizeFromRows,
// sizing/rows_sizing.h; docs/sizing.md "From a table's rows"): every figure against a plain-JS
// reference that sizes the rows it inserted (each value's serialized bytes: UTF-8 text, int 4,
// date 4, timestamp 8, double 8; Nv = Nr × (Nc − Npk − Ns) + Ns; St = the values' bytes + Nv × 8);
// the page's partplay-cql as the module with every domain; rows loaded from CSV measured as the
// same rows INSERTed; its request sized by the page's partplay-sizing; the element's module
// refusing; the errors in the one answer shape. Authored.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {before, describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {ROOT, loadEngine} from './helpers.mjs';

let all;
let cql;
let cqlElement;
let sizing;
before(async () => {
  [all, cql, cqlElement, sizing] = (await Promise.all(['all', 'cql', 'cql-element', 'sizing'].map((d) => loadEngine(d))))
    .map((m) => m.engine);
});

const KEYSPACE = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};";
const TABLE = 'CREATE TABLE iot.readings (sensor text, day date, ts timestamp, value double, note text, ' +
  'PRIMARY KEY ((sensor, day), ts));';
// Nc = 5, Npk = 3, Ns = 0: each row holds 2 values (value, note).
const COLUMNS = {sensor: 'text', day: 'date', ts: 'timestamp', value: 'double', note: 'text'};
const FIXED = {date: 4, timestamp: 8, double: 8};

/** The rows: 4 partitions of 1 to 5 rows, notes of 0 to 7 UTF-8 bytes ('café' is 5). */
const ROWS = [];
const SENSORS = [['s1', '2024-03-01', 5], ['s2', '2024-03-01', 1], ['kitchen', '2024-03-02', 3], ['s1', '2024-03-02', 2]];
for (const [sensor, day, n] of SENSORS) {
  for (let i = 0; i < n; i++) {
    ROWS.push({sensor, day, ts: `${day} 00:0${i}:00+0000`, value: i + 0.5, note: ['ok', 'café', '', 'warm up'][i % 4]});
  }
}

const bytesOf = (type, v) => (type === 'text' ? Buffer.byteLength(v, 'utf8') : FIXED[type]);

/** Each partition of the rows with its Nr, Nv and St, largest St first (the reference). */
function reference(rows) {
  const parts = new Map();
  for (const r of rows) {
    const key = JSON.stringify([r.sensor, r.day]);
    if (!parts.has(key)) parts.set(key, {key, rows: 0, keyBytes: bytesOf('text', r.sensor) + bytesOf('date', r.day), rowBytes: 0});
    const p = parts.get(key);
    p.rows++;
    p.rowBytes += bytesOf('timestamp', r.ts) + bytesOf('double', r.value) + bytesOf('text', r.note);
  }
  return [...parts.values()].map((p) => ({key: p.key, rows: p.rows, nv: p.rows * 2, st_bytes: p.keyBytes + p.rowBytes + p.rows * 2 * 8}))
    .sort((a, b) => b.st_bytes - a.st_bytes);
}

const literal = (r) => `('${r.sensor}', '${r.day}', '${r.ts}', ${r.value}, '${r.note}')`;
const INSERTS = ROWS.map((r) => `INSERT INTO iot.readings (sensor, day, ts, value, note) VALUES ${literal(r)};`).join('\n');

function withSession(engine, fn) {
  const session = engine.createCqlSession();
  try {
    return fn(session);
  } finally {
    session.dispose();
  }
}

describe('a table sized from its rows', () => {
  test('every figure as the reference computes it from the rows inserted', () => {
    const ref = reference(ROWS);
    const report = withSession(cql, (s) => {
      const {results} = s.execute(`${KEYSPACE}\n${TABLE}\n${INSERTS}`);
      assert.ok(results.every((r) => r.kind !== 'error'), JSON.stringify(results.find((r) => r.kind === 'error')));
      return s.sizeFromRows('iot.readings');
    });
    assert.equal(report.partitions, ref.length);
    assert.equal(report.rows, ROWS.length);
    assert.deepEqual([report.nc, report.npk, report.ns], [5, 3, 0]);
    assert.deepEqual(report.largest.map(({key, rows, nv, st_bytes}) => ({key, rows, nv, st_bytes})), ref);
    const sortedRows = ref.map((p) => p.rows).sort((a, b) => a - b);
    assert.equal(report.measured.nr.max, sortedRows.at(-1));
    assert.equal(report.measured.nr.min, sortedRows[0]);
    assert.equal(report.measured.nr.mean, ROWS.length / ref.length);
    assert.equal(report.measured.st_bytes.max, ref[0].st_bytes);
    assert.equal(report.measured.st_bytes.total, ref.reduce((s, p) => s + p.st_bytes, 0));
    // Each column's bytes; the averages of the variable-width ones are the request's.
    for (const [name, type] of Object.entries(COLUMNS)) {
      const column = report.columns.find((c) => c.name === name);
      const perPartition = name === 'sensor' || name === 'day';
      const values = perPartition ? [...new Map(ROWS.map((r) => [`${r.sensor}|${r.day}`, r])).values()] : ROWS;
      const bytes = values.reduce((s, r) => s + bytesOf(type, r[name]), 0);
      assert.equal(column.bytes, bytes, name);
      assert.equal(column.avg_bytes, bytes / values.length, name);
      assert.equal(column.fixed_bytes, FIXED[type] ?? null, name);
    }
    const round2 = (x) => Math.round(x * 100) / 100;
    assert.deepEqual(report.request.avg_sizes, {sensor: round2(report.columns[0].avg_bytes),
                                                note: round2(report.columns.find((c) => c.name === 'note').avg_bytes)});
    assert.equal(report.request.rows_per_partition, round2(ROWS.length / ref.length));
    assert.equal(report.request.worst_rows_per_partition, sortedRows.at(-1));
    assert.equal(report.request.partitions, ref.length);
    assert.equal(report.request.table, 'iot.readings');
  });

  test('the page\'s Cassandra module answers as the module with every domain', () => {
    const run = (engine) => withSession(engine, (s) => {
      s.execute(`${KEYSPACE}\n${TABLE}\n${INSERTS}`);
      return s.sizeFromRows('iot.readings', {max_examples: 2});
    });
    const expected = run(all);
    assert.equal(expected.largest.length, 2);
    assert.deepEqual(run(cql), expected);
  });

  test('rows loaded from CSV measure as the same rows inserted', () => {
    const csv = ['sensor,day,ts,value,note', ...ROWS.map((r) => [r.sensor, r.day, r.ts, r.value, r.note].join(','))].join('\n');
    const loaded = withSession(cql, (s) => {
      s.execute(`${KEYSPACE}\n${TABLE}`);
      const load = s.startLoad('iot.readings', {format: 'csv', header: true});
      load.feed(new TextEncoder().encode(`${csv}\n`));
      // An empty CSV field is null, as COPY FROM reads it: the rows with an empty note.
      assert.equal(load.finish().rows, ROWS.length);
      return s.sizeFromRows('iot.readings');
    });
    const inserted = withSession(cql, (s) => {
      s.execute(`${KEYSPACE}\n${TABLE}\n${INSERTS.replaceAll(", '')", ', null)')}`);
      return s.sizeFromRows('iot.readings');
    });
    assert.deepEqual(loaded, inserted);
    assert.ok(loaded.columns.find((c) => c.name === 'note').nulls > 0, 'the empty notes are nulls');
  });

  test('its request sizes the table in the page\'s sizing module, within a byte of the measured mean', () => {
    const report = withSession(cql, (s) => {
      s.execute(`${KEYSPACE}\n${TABLE}\n${INSERTS}`);
      return s.sizeFromRows('iot.readings');
    });
    const sized = sizing.sizeTable({...report.request, suggest_splits: false});
    assert.equal(sized.table, 'readings');
    assert.equal(sized.replication_factor, 2, 'the keyspace\'s');
    assert.equal(sized.partitions, report.partitions);
    // 11 rows in 4 partitions: the mean 2.75 and the averages (sensor 2.5, note 3.36...) round to 2
    // decimals, so the average St is the measured mean within a few bytes.
    assert.ok(Math.abs(sized.average.terms.st_bytes - report.measured.st_bytes.mean) < 1,
              `${sized.average.terms.st_bytes} vs ${report.measured.st_bytes.mean}`);
    assert.equal(sized.worst_case.terms.nr, report.measured.nr.max);
  });

  test('the element\'s module sizes nothing from rows; errors come in the one shape', async () => {
    withSession(cqlElement, (s) => {
      s.execute(`${KEYSPACE}\n${TABLE}`);
      assert.throws(() => s.sizeFromRows('iot.readings'),
                    (e) => e.codeName === 'engine_load' && /sizes no table from its rows/.test(e.message));
    });
    withSession(cql, (s) => {
      s.execute(`${KEYSPACE}\n${TABLE}`);
      assert.throws(() => s.sizeFromRows('iot.readings'),
                    (e) => e.codeName === 'invalid_state' && /iot\.readings holds no rows/.test(e.message));
      assert.throws(() => s.sizeFromRows('iot.nope'), (e) => e.codeName === 'cql_unknown');
      assert.throws(() => s.sizeFromRows('iot.readings', {max_examples: -1}),
                    (e) => e.codeName === 'bad_option' && e.field === '/max_examples');
    });
    const ENGINE_DIR = path.join(ROOT, 'build/site/engine');
    const {default: createPartplay} = await import(pathToFileURL(path.join(ENGINE_DIR, 'partplay-cql.mjs')).href);
    const raw = await createPartplay({wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, 'partplay-cql.wasm'))});
    const session = new raw.CqlSession();
    try {
      const reply = session.sizeFromRows('{');
      assert.equal(reply.ok, false);
      assert.equal(reply.error.name, 'malformed_json');
      assert.deepEqual(Object.keys(reply.error).sort(), ['code', 'field', 'location', 'message', 'name']);
    } finally {
      session.delete();
    }
  });
});
