// The CSV bulk load through the wasm module (CqlSession.startLoad with format 'csv', fed in
// chunks) against `partplay cql` running COPY ... FROM over the same file: the same rows, the
// same counts and the same failures at the same places; bad options are error answers.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {after, describe, test} from 'node:test';

import {CLI, loadEngine} from './helpers.mjs';

const {api, engine} = await loadEngine();

const SCHEMA = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n" +
  'CREATE TABLE ks.t (k int, c text, l list<int>, ts timestamp, b blob, v text, PRIMARY KEY (k, c));\n';

// Good rows, bad values, a wrong field count, quoted newlines, CRLF, UTF-8, an escape, NULL.
const CSV = [
  'k|c|l|ts|b|v\r\n',
  '1|a|"[1, 2]"|2024-01-02 03:04:05.678000+0000|0xcafe|"two\nlines"\r\n',
  'x|b|[3]|NULL|NULL|bad key\n',
  '2|\u00e9t\u00e9|[4]|2024-01-02T03:04:05Z|0x|"q\\"q|"\n',
  '3|c|[nope]|NULL|NULL|bad list\n',
  '4|d\n',
  '5|e|NULL|NULL|0xzz|bad blob\n',
  '6|\u20ac\ud83d\ude00|[]|NULL|NULL|"caf\u00e9\r\nau lait"\n',
].join('');
const WITH = "WITH HEADER = true AND DELIMITER = '|' AND NULL = 'NULL'";
const OPTIONS = {format: 'csv', header: true, delimiter: '|', null: 'NULL', columns: ['k', 'c', 'l', 'ts', 'b', 'v']};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partplay-csv-load-'));
after(() => fs.rmSync(dir, {recursive: true, force: true}));

/** `partplay cql --format details` over SCHEMA + a COPY of `csv` + a SELECT: {copy, cells}. */
function cliCopy(csv, withOptions) {
  fs.writeFileSync(path.join(dir, 'data.csv'), csv);
  const script = path.join(dir, 'load.cql');
  fs.writeFileSync(script, `${SCHEMA}COPY ks.t (k, c, l, ts, b, v) FROM 'data.csv' ${withOptions};\nSELECT * FROM ks.t;\n`);
  const r = spawnSync(CLI, ['cql', '--format', 'details', script], {encoding: 'utf8'});
  const {results} = JSON.parse(r.stdout);
  const copy = results.find((x) => x.verb === 'COPY');
  assert.equal(copy.kind, 'void', JSON.stringify(copy));
  return {copy, cells: results.at(-1).cells};
}

/** The wasm load of `bytes` fed in pieces of `sizes` (cycled): {progress, cells, error}. */
function wasmLoad(bytes, options, sizes) {
  const cql = engine.createCqlSession();
  try {
    cql.execute(SCHEMA);
    const load = cql.startLoad('ks.t', options);
    let error = null;
    try {
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const n = sizes[i % sizes.length];
        load.feed(bytes.subarray(at, at + n));
        at += n;
      }
      load.finish();
    } catch (e) {
      error = e;
    }
    const cells = cql.execute('SELECT * FROM ks.t;').results[0].cells;
    return {progress: load.progress, cells, error};
  } finally {
    cql.dispose();
  }
}

/** COPY's summary and warnings written from a load's progress. */
function asCopyWould({rows, failed, failures}) {
  const s = (n) => (n === 1 ? '' : 's');
  return {
    message: `${rows} row${s(rows)} imported from data.csv into ks.t; ${failed} row${s(failed)} failed`,
    warnings: failures.map((f) => `data.csv line ${f.line}, column ${f.column}: ${f.message}`),
  };
}

describe('the CSV bulk load equals COPY FROM', () => {
  const bytes = new TextEncoder().encode(CSV);
  const {copy, cells} = cliCopy(CSV, WITH);

  test('COPY itself loads the good rows and lists the bad ones', () => {
    assert.equal(copy.message, '3 rows imported from data.csv into ks.t; 4 rows failed');
    assert.equal(copy.warnings.length, 4);
    assert.match(copy.warnings[0], /^data\.csv line 4, column 1: k: /);
    assert.equal(cells.length, 3);
  });

  test('in chunks of every size from 1 to 40 bytes and in two pieces cut anywhere', () => {
    const splits = [];
    for (let n = 1; n <= 40; n++) splits.push([n]);
    for (let cut = 0; cut <= bytes.length; cut += 3) splits.push([cut || bytes.length, bytes.length]);
    for (const sizes of splits) {
      const {progress, cells: loaded, error} = wasmLoad(bytes, OPTIONS, sizes);
      assert.equal(error, null, `${sizes}: ${error}`);
      assert.deepEqual(asCopyWould(progress), {message: copy.message, warnings: copy.warnings}, `${sizes}`);
      assert.deepEqual(loaded, cells, `${sizes}`);
      assert.equal(progress.bytes_consumed, bytes.length);
      assert.equal(progress.lines, 10);
    }
  });

  test('failures carry their byte offsets in the whole file', () => {
    const {progress} = wasmLoad(bytes, OPTIONS, [5]);
    for (const f of progress.failures) {
      // The byte offset is the line's start (UTF-8 bytes) plus the column.
      const before = new TextDecoder().decode(bytes.subarray(0, f.byte_offset));
      const lines = before.split('\n');
      assert.equal(lines.length, f.line, JSON.stringify(f));
      assert.equal(new TextEncoder().encode(lines.at(-1)).length + 1, f.column, JSON.stringify(f));
    }
    assert.deepEqual(progress.failures.map((f) => f.line), [4, 6, 7, 8]);
  });

  test('an unterminated quote stops the load as it stops COPY', () => {
    const open = `${CSV}7|g|[7]|NULL|NULL|"never closed\n8|h|[8]|NULL|NULL|z\n`;
    const cli = cliCopy(open, WITH);
    assert.match(cli.copy.warnings.at(-1), /unterminated quoted field.*\(the load stopped here\)$/);
    const {progress, cells: loaded, error} = wasmLoad(new TextEncoder().encode(open), OPTIONS, [64]);
    assert.ok(error instanceof api.PartplayError);
    assert.equal(error.codeName, 'cql_bad_literal');
    assert.equal(error.location.line, 11);
    assert.match(error.message, /\(3 rows were loaded before it, 5 rows failed\)$/);
    assert.deepEqual(asCopyWould(progress), {message: cli.copy.message, warnings: cli.copy.warnings});
    assert.deepEqual(loaded, cli.cells);
  });

  test('JSON stays the default format, with the same progress shape', () => {
    const cql = engine.createCqlSession();
    try {
      cql.execute(SCHEMA);
      const load = cql.startLoad('ks.t');
      load.feed(new TextEncoder().encode('{"k": 1, "c": "a"}\n{"k": 2, "c": "b"}\n'));
      assert.deepEqual(load.finish(), {rows: 2, failed: 0, bytes_consumed: 38, lines: 2, failures: []});
    } finally {
      cql.dispose();
    }
  });
});

describe('load options', () => {
  test('a bad option is an error answer naming its field', () => {
    const cql = engine.createCqlSession();
    try {
      cql.execute(SCHEMA);
      const cases = [
        [{format: 'csv', headers: true}, 'bad_option', null],
        [{format: 'csv', delimiter: ';;'}, 'bad_option', '/delimiter'],
        [{format: 'csv', header: 'yes'}, 'bad_option', '/header'],
        [{format: 'tsv'}, 'bad_option', '/format'],
        [{header: true}, 'bad_option', '/header'],
        [{format: 'csv', datetimeformat: '%d/%m/%Y'}, 'bad_option', '/datetimeformat'],
        [{format: 'csv', columns: ['k', 'nope']}, 'cql_unknown', null],
      ];
      for (const [options, name, field] of cases) {
        assert.throws(() => cql.startLoad('ks.t', options), (e) => {
          assert.ok(e instanceof api.PartplayError, String(e));
          assert.equal(e.codeName, name, `${JSON.stringify(options)}: ${e.message}`);
          assert.equal(e.field ?? null, field, JSON.stringify(options));
          return true;
        });
      }
      // The column list and the other options, as COPY takes them.
      const load = cql.startLoad('ks.t', {format: 'csv', columns: ['v', 'c', 'k'], quote: "'", escape: "'"});
      load.feed(new TextEncoder().encode("'it''s'|x|1\n".replaceAll('|', ',')));
      assert.equal(load.finish().rows, 1);
      assert.deepEqual(cql.execute('SELECT k, c, v FROM ks.t;').results[0].cells, [['1', 'x', "it's"]]);
    } finally {
      cql.dispose();
    }
  });
});
