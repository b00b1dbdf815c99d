// Issue 12's table of hostile inputs, the engine's rows: each through the native CLI
// (build/native/partplay) and through the wasm module (build/site/engine), asserting the clear,
// located error (or the correct result) both give. The page-side rows (#pp= links, embed
// snippets, bulk JSON framing, the self-healing worker) are tested in tests/e2e.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {before, describe, test} from 'node:test';

import {CLI, loadEngine} from './helpers.mjs';

const KEYSPACE = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nUSE ks;\n";

let engine;
before(async () => { ({engine} = await loadEngine()); });

/** `partplay cql -` on the script (a string or bytes): {status, lines (parsed JSON lines), raw}. */
function cliCql(script) {
  const r = spawnSync(CLI, ['cql', '-'], {input: script, maxBuffer: 1 << 28});
  assert.equal(r.signal, null, `the CLI died of ${r.signal}: ${r.stderr}`);
  const raw = r.stdout;
  const lines = raw.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return {status: r.status, lines, raw};
}

/** The wasm session's results for the script, without the keyspace's two statements. */
function wasmCql(script) {
  const cql = engine.createCqlSession();
  try {
    const {results} = cql.execute(script);
    return results.slice(2);
  } finally {
    cql.dispose();
  }
}

const repeat = (s, n) => s.repeat(n);
const inList = (n) => `(${Array.from({length: n}, (_, i) => i).join(', ')})`;

/** Both sides give the same error for the script's one failing statement. */
function assertSameError(script, {name, line, column, message}) {
  const cli = cliCql(KEYSPACE + script);
  const errors = cli.lines.filter((l) => l.error).map((l) => l.error);
  assert.equal(errors.length, 1, JSON.stringify(cli.lines).slice(0, 400));
  const [e] = errors;
  assert.equal(e.name, name, e.message);
  assert.equal(cli.status, e.code);
  if (line) assert.equal(e.line, line);
  if (column) assert.equal(e.column, column);
  if (message instanceof RegExp) assert.match(e.message, message); else if (message) assert.equal(e.message, message);

  const results = wasmCql(KEYSPACE + script);
  const failed = results.filter((r) => r.kind === 'error');
  assert.equal(failed.length, 1);
  assert.equal(failed[0].error.name, name);
  assert.equal(failed[0].error.message, e.message);
  assert.equal(failed[0].error.line, e.line);
  assert.equal(failed[0].error.column, e.column);
  return {cli, results};
}

describe('a CQL literal nested 10,000+ deep', () => {
  const list = `${repeat('[', 10000)}${repeat(']', 10000)}`;
  const calls = `${repeat('totimestamp(', 10000)}now()${repeat(')', 10000)}`;

  test('[[[...]]] is a too_deep error at the 65th bracket, and the next statement runs', () => {
    const {cli, results} = assertSameError(
        `CREATE TABLE t (k int PRIMARY KEY, v frozen<list<int>>);\nINSERT INTO t (k, v) VALUES (1, ${list});\nSELECT k FROM t;`,
        {name: 'too_deep', line: 4, column: 33 + 64, message: /nest deeper than 64 levels at line 4, column 97$/});
    assert.equal(cli.lines.at(-1).rows.length, 0);
    assert.equal(results.at(-1).kind, 'rows');
  });

  test('totimestamp(totimestamp(...)) is a too_deep error too', () => {
    assertSameError(`CREATE TABLE t (k int PRIMARY KEY, at timestamp);\nINSERT INTO t (k, at) VALUES (1, ${calls});`,
                    {name: 'too_deep', line: 4, column: 34 + 12 * 64});
  });

  test('list<list<...>> types are limited the same way', () => {
    assertSameError(`CREATE TABLE t (k int PRIMARY KEY, v ${repeat('list<', 5000)}int${repeat('>', 5000)});`,
                    {name: 'too_deep', line: 3, message: /^types \(list<list<\.\.\.>>\) nest deeper than 64 levels/});
  });

  test('five failures in a row leave the wasm session (and module) working', () => {
    const cql = engine.createCqlSession();
    try {
      cql.execute(`${KEYSPACE}CREATE TABLE t (k int PRIMARY KEY, v frozen<list<int>>);`);
      for (let i = 0; i < 5; ++i) {
        const {results} = cql.execute(`INSERT INTO t (k, v) VALUES (${i}, ${list});`);
        assert.equal(results[0].error.name, 'too_deep');
      }
      const {results} = cql.execute('INSERT INTO t (k, v) VALUES (9, [[1]]);');
      assert.equal(results[0].error.name, 'cql_bad_literal');  // a list of lists is not list<int>
      const ok = cql.execute('INSERT INTO t (k, v) VALUES (7, [1, 2]); SELECT v FROM t;').results;
      assert.deepEqual(ok[1].rows, [[[1, 2]]]);
    } finally {
      cql.dispose();
    }
  });
});

test('default_time_to_live = 99999999999999999999 is an invalid request, not an abort', () => {
  assertSameError('CREATE TABLE t (k int PRIMARY KEY) WITH default_time_to_live = 99999999999999999999;',
                  {name: 'cql_invalid_request', line: 3, column: 64,
                   message: 'default_time_to_live must be less than or equal to 630720000 (got 99999999999999999999)'});
});

describe('partplay token --stdin', () => {
  test('["\\uZZZZ"] is a located error line, and the lines after it still get their token', () => {
    const r = spawnSync(CLI, ['token', '--types', 'text', '--stdin'],
                        {input: '["\\uZZZZ"]\n["\'a\\u00e9\'"]\n["\\ud800"]\n["\\q"]\n', encoding: 'utf8'});
    assert.equal(r.signal, null);
    assert.equal(r.status, 2);  // usage: the first bad line's code
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines[0], "error: line 1, column 3: bad \\u escape '\\uZZZZ' (\\u takes four hex digits)");
    assert.match(lines[1], /^-?\d+$/);
    assert.equal(lines[2], 'error: line 3, column 3: a lone surrogate \\uD800 is not a character');
    assert.equal(lines[3], "error: line 4, column 3: bad escape '\\q'");
    // The wasm module takes the literals as JS strings (JSON is parsed by JS), and agrees.
    assert.equal(engine.cassandraToken(['text'], ["'a\u00e9'"]), lines[1]);
  });
});

test('four IN lists of 120 values on a composite partition key hit the guardrail at once', () => {
  const where = ['a', 'b', 'c', 'd'].map((c) => `${c} IN ${inList(120)}`).join(' AND ');
  assertSameError(`CREATE TABLE t (a int, b int, c int, d int, v int, PRIMARY KEY ((a, b, c, d)));\nSELECT * FROM t WHERE ${where};`,
                  {name: 'cql_invalid_request', line: 4, column: 23 + 5 + inList(120).length + 5,
                   message: 'Guardrail in_select_cartesian_product violated: Aborting query because the cartesian product of ' +
                            'the IN restrictions on partition key produces 207360000 values, this exceeds fail threshold of 10000'});
  // The same on clustering columns.
  assertSameError(`CREATE TABLE t (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2));\nSELECT * FROM t WHERE k = 1 AND c1 IN ${inList(200)} AND c2 IN ${inList(200)};`,
                  {name: 'cql_invalid_request', line: 4, message: /on clustering key produces 40000 values/});
});

describe('a 200,000-digit number', () => {
  const digits = '7'.repeat(200000);
  for (const type of ['varint', 'decimal', 'double']) {
    test(`as a ${type} is refused before any conversion`, () => {
      assertSameError(`CREATE TABLE t (k int PRIMARY KEY, v ${type});\nINSERT INTO t (k, v) VALUES (1, ${digits});`,
                      {name: 'cql_bad_literal', line: 4, column: 33,
                       message: `a ${type} value of 200000 digits ('77777777777777777777...' at line 4, column 33): at most 1000 digits per number are read`});
    });
  }
  test('1,000 digits still keep every digit', () => {
    const n = `9${'0'.repeat(999)}`;
    const cli = cliCql(`${KEYSPACE}CREATE TABLE t (k int PRIMARY KEY, v varint);\nINSERT INTO t (k, v) VALUES (1, ${n});\nSELECT v FROM t;`);
    assert.equal(cli.status, 0);
    assert.ok(cli.raw.toString().includes(n));
    const results = wasmCql(`${KEYSPACE}CREATE TABLE t (k int PRIMARY KEY, v varint);\nINSERT INTO t (k, v) VALUES (1, ${n});\nSELECT v FROM t;`);
    assert.deepEqual(results[2].cells, [[n]]);
  });
});

describe('rows per partition 99999999999*99999999999', () => {
  const schema = 'CREATE TABLE events (k int, at timestamp, v bigint, PRIMARY KEY (k, at));';
  const schemaFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pp-hostile-')), 'events.cql');
  fs.writeFileSync(schemaFile, schema);
  test('the CLI answers with a located error', () => {
    const r = spawnSync(CLI, ['size', '--schema', schemaFile, '--table', 'events', '--rows-per-partition',
                              '99999999999*99999999999', '--format', 'json'], {encoding: 'utf8'});
    assert.equal(r.signal, null);
    const {error} = JSON.parse(r.stderr);
    assert.equal(error.name, 'bad_option');
    assert.equal(r.status, error.code);
    assert.equal(error.column, 1);
    assert.match(error.message, /the product 1e\+22 is past 2\^53 \(9,007,199,254,740,992\)/);
  });
  test('the sizing request to the wasm module names the field', () => {
    for (const rows of ['99999999999*99999999999', 1e22, [99999999999, 99999999999]]) {
      assert.throws(() => engine.sizeTable({cql: schema, table: 'events', rows_per_partition: rows}),
                    (e) => e.name === 'PartplayError' && e.field === '/rows_per_partition' && /past 2\^53/.test(e.message));
    }
  });
  test('2^53 rows still size, with a hash bucket suggestion found by the integer search', () => {
    const report = JSON.parse(JSON.stringify(engine.sizeTable({cql: schema, table: 'events', rows_per_partition: 2 ** 53})));
    const r = spawnSync(CLI, ['size', '--schema', schemaFile, '--table', 'events', '--rows-per-partition',
                              '9007199254740992', '--format', 'json'], {encoding: 'utf8'});
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(report, JSON.parse(r.stdout));
  });
});

test("'999999999-01-01' as a timestamp is out of range, never a wrapped value", () => {
  const {cli, results} = assertSameError(
      "CREATE TABLE t (k int PRIMARY KEY, at timestamp);\nINSERT INTO t (k, at) VALUES (1, '999999999-01-01');\nSELECT k FROM t;",
      {name: 'cql_bad_literal', line: 4, column: 34,
       message: "Timestamp '999999999-01-01' is out of range: a timestamp is a signed 64-bit count of milliseconds since 1970-01-01 (about 292 million years either way)"});
  assert.deepEqual(cli.lines.at(-1).rows, []);
  assert.deepEqual(results.at(-1).rows, []);
});

describe('quoted identifiers with NUL, control bytes or invalid UTF-8', () => {
  const cases = [
    [Buffer.from('"a\0b"'), 'the control character \\x00', 45],
    [Buffer.from('"a\x01"'), 'the control character \\x01', 45],
    [Buffer.concat([Buffer.from('"a'), Buffer.from([0xff]), Buffer.from('"')]), 'the byte (not UTF-8) \\xFF', 45],
  ];
  for (const [name, what, column] of cases) {
    test(`${what} is a syntax error at the byte, and no raw byte reaches the JSON`, () => {
      const script = Buffer.concat([Buffer.from(`${KEYSPACE}CREATE TABLE t (k int PRIMARY KEY, x int, `), name,
                                    Buffer.from(' int);')]);
      const message = `a quoted identifier holds ${what} at line 3, column ${column}: names must be UTF-8 text without control characters`;
      const cli = cliCql(script);
      assert.equal(cli.lines[0].error.message, message);
      assert.equal(cli.lines[0].error.column, column);
      assert.equal(cli.raw.includes(0xff), false);
      assert.equal(Buffer.from(cli.raw.toString('utf8')).equals(cli.raw), true);  // valid UTF-8
      const cql = engine.createCqlSession();
      try {
        const {results} = cql.execute(new Uint8Array(script));
        assert.equal(results[2].error.name, 'cql_syntax');
        assert.equal(results[2].error.message, message);
        assert.equal(results[2].error.column, column);
      } finally {
        cql.dispose();
      }
    });
  }
  test('a lexer error on an invalid byte is escaped in both', () => {
    const script = Buffer.concat([Buffer.from(`${KEYSPACE}SELECT `), Buffer.from([0xff, 0xfe]), Buffer.from(' FROM t;')]);
    const cli = cliCql(script);
    assert.equal(cli.lines[0].error.message, "token recognition error at: '\\xFF'");
    assert.equal(cli.raw.includes(0xff), false);
    const cql = engine.createCqlSession();
    try {
      const {results} = cql.execute(new Uint8Array(script));
      assert.equal(results[2].error.message, "token recognition error at: '\\xFF'");
    } finally {
      cql.dispose();
    }
  });
});
