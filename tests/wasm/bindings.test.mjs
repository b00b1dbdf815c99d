// The one binding convention (wasm/status_value.h): every entry point of the module answers
// {ok: true, json?, ...} or {ok: false, error: {code, name, message, location}}, with code and
// name from the engine's error table, and wasm/partplay-api.mjs turns every error into a thrown
// PartplayError. Also: the codes the page uses come from that table, never from literals.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {CLI, ROOT, cliErrorCodes, loadEngine} from './helpers.mjs';

const ENGINE_DIR = path.join(ROOT, 'build/site/engine');
const {default: createPartplay} = await import(pathToFileURL(path.join(ENGINE_DIR, 'partplay.mjs')).href);
const raw = await createPartplay({wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, 'partplay.wasm'))});
const {api, engine} = await loadEngine();
const table = cliErrorCodes();
const KEYSPACE = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};" +
  'CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c));';

/** Asserts `reply` is a failure of the one shape, with the named code from the engine's table. */
function assertError(reply, name, what) {
  assert.equal(reply.ok, false, what);
  assert.deepEqual(Object.keys(reply).sort(), ['error', 'ok'], what);
  const e = reply.error;
  assert.deepEqual(Object.keys(e).sort(), ['code', 'field', 'location', 'message', 'name'], what);
  assert.ok(e.field === null || (typeof e.field === 'string' && e.field.startsWith('/')), what);
  assert.equal(typeof e.code, 'number', what);
  assert.equal(e.name, name, `${what}: ${e.message}`);
  assert.equal(e.code, table.find((c) => c.name === name).code, what);
  assert.equal(typeof e.message, 'string', what);
  assert.ok(e.message.length > 0, what);
  if (e.location !== null) {
    assert.deepEqual(Object.keys(e.location).sort(), ['byte_offset', 'column', 'item_index', 'line'], what);
  }
  return e;
}

/** Asserts `reply` is a success of the one shape; returns its parsed json (or undefined). */
function assertOk(reply, what) {
  assert.equal(reply.ok, true, `${what}: ${JSON.stringify(reply.error)}`);
  assert.equal(reply.error, undefined, what);
  return reply.json === undefined ? undefined : JSON.parse(reply.json);
}

describe('every entry point answers in one shape', () => {
  test('module functions', () => {
    assert.deepEqual(assertOk(raw.errorCodes(), 'errorCodes'), table);
    assert.equal(assertOk(raw.version(), 'version'), engine.version());
    assert.match(assertOk(raw.effectivePartitionKey('["a"]', '2'), 'epk'), /^[0-9A-F]+$/);
    assertError(raw.effectivePartitionKey('["a"]', '7'), 'bad_option', 'epk version');
    assertError(raw.effectivePartitionKey('["a"', '2'), 'truncated_input', 'epk key');
    assert.equal(assertOk(raw.cassandraToken(['int'], ['1']), 'token'), '-4069959284402364209');
    assertError(raw.cassandraToken(['int'], ["'x'"]), 'cql_bad_literal', 'token literal');
    assertError(raw.sizeTable('{'), 'malformed_json', 'sizeTable');
    const limits = assertOk(raw.limits(), 'limits').limits;
    assert.equal(limits.find((l) => l.id === 'cosmos_logical_partition_bytes').value, 20 * 2 ** 30);
    for (const l of limits) assert.deepEqual(Object.keys(l).sort(), ['id', 'kind', 'label', 'source', 'unit', 'value']);
    const tables = assertOk(raw.sizingTables('USE ks; CREATE TABLE t (k int PRIMARY KEY, v text);'), 'sizingTables');
    assert.deepEqual(tables.tables.map((t) => [t.name, t.variable_columns]), [['ks.t', ['v']]]);
    assertError(raw.sizingTables('CREATE TABLE t (k int PRIMARY KEY;'), 'cql_syntax', 'sizingTables');
    const missing = assertError(raw.sizeTable(JSON.stringify({
      cql: 'CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));', table: 't', rows_per_partition: 10})),
    'bad_option', 'sizeTable without an average');
    assert.equal(missing.field, '/avg_sizes/v');
  });

  test('Analysis', () => {
    const a = new raw.Analysis();
    try {
      assertError(a.commitChunk(0), 'invalid_state', 'commit before configure');
      assertError(a.writableChunk(1), 'invalid_state', 'writableChunk before configure');
      assertError(a.progress(), 'invalid_state', 'progress before configure');
      assertError(a.report('{}'), 'invalid_state', 'report before configure');
      assertError(a.dataSizing('{}'), 'invalid_state', 'dataSizing before configure');
      assertError(a.configure('{"key_paths": ["a"]}'), 'bad_key_path', 'configure');
      assertOk(a.configure('{"key_paths": ["/a"]}'), 'configure');
      const bytes = new TextEncoder().encode('{"a": 1}\n{"a": tru}\n');
      const {pointer} = a.writableChunk(bytes.length);
      assert.equal(typeof pointer, 'number');
      raw.HEAPU8.set(bytes, pointer);
      const e = assertError(a.commitChunk(bytes.length), 'malformed_json', 'bad item');
      assert.deepEqual(e.location, {byte_offset: 18, line: 2, column: 10, item_index: 1});
      // The first item is sampled (--discover): its whole DOM, not the scanner's values.
      assert.deepEqual(assertOk(a.progress(), 'progress'), {bytes_consumed: 0, items_seen: 1, items_validated: 1, items_scanned: 0});
    } finally {
      a.delete();
    }
    const b = new raw.Analysis();
    try {
      assertOk(b.configure('{"key_paths": ["/a"]}'), 'configure');
      const bytes = new TextEncoder().encode('{"a": 1}\n');
      const chunk = b.writableChunk(bytes.length);
      assertOk(chunk, 'writableChunk');
      raw.HEAPU8.set(bytes, chunk.pointer);
      assertOk(b.commitChunk(bytes.length), 'commitChunk');
      assertOk(b.finish(), 'finish');
      assert.equal(assertOk(b.report('{"max_partitions": -1}'), 'report').items, 1);
      assert.equal(assertOk(b.report('{"container": {"ru_per_second": 400}}'), 'report').container.ru_per_second, 400);
      // Options cross as JSON and the engine reads them, as it reads every other request.
      assertError(b.report('{"container": {"ru_per_second": "x"}}'), 'bad_option', 'container options');
      assertError(b.report('{"max_partitions": 1.5}'), 'bad_option', 'max_partitions');
      assertError(b.report('{"max_partitionz": 1}'), 'bad_option', 'unknown report field');
      assertError(b.report('{"max_partitions": '), 'malformed_json', 'report JSON');
      const sized = assertOk(b.dataSizing('{"values_per_row": 4, "max_examples": 2}'), 'dataSizing');
      assert.equal(sized.values_per_row, 4);
      assert.equal(sized.partitions, 1);
      assertError(b.dataSizing('{"values_per_row": -1}'), 'bad_option', 'negative values per row');
      assertError(b.dataSizing('{"max_examples": "all"}'), 'bad_option', 'max_examples');
    } finally {
      b.delete();
    }
  });

  test('CqlSession', () => {
    const s = new raw.CqlSession();
    try {
      const {results} = assertOk(s.execute(`${KEYSPACE} SELECT * FROM ks.nope;`), 'execute');
      assert.equal(results.at(-1).kind, 'error', 'a statement error is a result, not a failed call');
      assertOk(s.configureRing('{"nodes": 4}'), 'configureRing');
      // The ring's limits are the engine's alone (web/worker/protocol.js checks only the shape).
      for (const bad of [{nodes: 0}, {nodes: 1001}, {num_tokens: 257}, {seed: 1.5},
                         {datacenters: [{name: '', nodes: 1}]},
                         {datacenters: [{name: 'a', nodes: 600}, {name: 'b', nodes: 401}]}]) {
        assertError(s.configureRing(JSON.stringify(bad)), 'bad_option', JSON.stringify(bad));
      }
      assertError(s.configureRing('{"nodez": 4}'), 'bad_option', 'configureRing unknown field');
      assertError(s.configureRing('{"nodes": '), 'malformed_json', 'configureRing JSON');
      assert.equal(assertOk(s.ring(''), 'ring').nodes.length, 4);
      assertError(s.ring('nope'), 'cql_unknown', 'ring of an unknown keyspace');
      assert.deepEqual(assertOk(s.keyspaces(), 'keyspaces').map((k) => k.tables), [['t']]);
      assert.equal(assertOk(s.tableLayout('ks.t', '{}'), 'tableLayout').table, 'ks.t');
      assertError(s.tableLayout('ks.nope', '{}'), 'cql_unknown', 'tableLayout table');
      assertError(s.tableLayout('ks.t', '{"ru": 5}'), 'bad_option', 'tableLayout options');
      assert.equal(assertOk(s.currentKeyspace(), 'currentKeyspace'), '');
      assertError(s.loadWritableChunk(1), 'invalid_state', 'load before start');
      assertError(s.loadCommitChunk(0), 'invalid_state', 'commit before start');
      assertError(s.finishLoad(), 'invalid_state', 'finish before start');
      assertError(s.startLoad('ks.nope', ''), 'cql_unknown', 'startLoad');
      assertError(s.startLoad('ks.t', '{"format": "csv", "quote": ""}'), 'bad_option', 'startLoad options');
      assertOk(s.startLoad('ks.t', ''), 'startLoad');
      const bytes = new TextEncoder().encode('{"k": 1, "c": 1}\n{"k": "x", "c": 2}\n');
      const {pointer} = s.loadWritableChunk(bytes.length);
      raw.HEAPU8.set(bytes, pointer);
      const e = assertError(s.loadCommitChunk(bytes.length), 'cql_bad_literal', 'bad row');
      assert.deepEqual(e.location, {byte_offset: 17, line: 2, column: 1, item_index: 1});
      assert.match(e.message, /\(1 row was loaded before it\)$/);
      assertOk(s.cancelLoad(), 'cancelLoad');
    } finally {
      s.delete();
    }
  });
});

describe('the JS wrapper throws every error as a PartplayError', () => {
  test('errors thrown by the API carry the engine code and name', () => {
    const cases = [
      [() => engine.effectivePartitionKey('["a"]', 7), 'bad_option'],
      [() => engine.newAnalysis({key_paths: ['a']}), 'bad_key_path'],
      [() => engine.sizeTable('{'), 'malformed_json'],
      [() => engine.cassandraToken(['int'], ["'x'"]), 'cql_bad_literal'],
      [() => { const c = engine.createCqlSession(); try { c.configureRing({nodes: 0}); } finally { c.dispose(); } }, 'bad_option'],
      [() => { const c = engine.createCqlSession(); try { c.tableLayout('ks.t'); } finally { c.dispose(); } }, 'cql_unknown'],
    ];
    for (const [run, name] of cases) {
      let thrown;
      try {
        run();
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof api.PartplayError, `${name}: ${thrown}`);
      assert.equal(thrown.codeName, name);
      assert.equal(thrown.code, table.find((c) => c.name === thrown.codeName).code);
    }
    let formula;
    try {
      engine.sizeTable({cql: 'CREATE TABLE t (k int PRIMARY KEY);', table: 't', rows_per_partition: 10,
                        worst_rows_per_partition: '10*x*'});
    } catch (e) {
      formula = e;
    }
    assert.ok(formula instanceof api.PartplayError);
    assert.equal(formula.field, '/worst_rows_per_partition');
    assert.equal(formula.toJSON().field, '/worst_rows_per_partition');
  });

  test("the page's io code is the engine's, and the CLI's exit code for an unreadable file", () => {
    const e = engine.error('io', 'cannot read');
    assert.ok(e instanceof api.PartplayError);
    assert.equal(e.codeName, 'io');
    const missing = spawnSync(CLI, ['analyze', '--key', '/a', path.join(ROOT, 'no-such-file.json')]);
    assert.equal(e.code, missing.status);
    assert.throws(() => engine.errorCode('no_such_code'), TypeError);
  });

  test('no numeric error-code literal in the page', () => {
    const files = ['protocol.js', 'worker.js', 'client.js', 'engines.js', 'jobs.js', 'io.js', 'slots.js', 'pool.js',
                   ...fs.readdirSync(path.join(ROOT, 'web', 'worker', 'handlers')).map((f) => `handlers/${f}`)];
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, 'web', 'worker', file), 'utf8');
      assert.doesNotMatch(text, /\bcode:\s*\d|_CODE\s*=\s*\d/, file);
    }
  });
});

describe('bulk loading through the wrapper', () => {
  const input = '[{"k": 1, "c": 1, "v": "a\\u00e9"},\n {"k": 1, "c": 2},\n {"k": 2, "c": 1, "v": "z"}]';
  const bytes = new TextEncoder().encode(input);
  const rowsOf = (c) => c.execute('SELECT k, c, v FROM ks.t;').results[0].cells;

  test('every two-piece chunking gives the same rows', () => {
    const whole = engine.createCqlSession();
    whole.execute(KEYSPACE);
    assert.equal(whole.loadJson('ks.t', input), 3);
    const expected = rowsOf(whole);
    whole.dispose();
    assert.equal(expected.length, 3);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const c = engine.createCqlSession();
      try {
        c.execute(KEYSPACE);
        const load = c.startLoad('ks.t');
        load.feed(bytes.subarray(0, cut));
        load.feed(bytes.subarray(cut));
        assert.equal(load.finish().rows, 3, `cut at ${cut}`);
        assert.deepEqual(rowsOf(c), expected, `cut at ${cut}`);
      } finally {
        c.dispose();
      }
    }
  });

  test('a load replaced by a newer one can no longer be fed', () => {
    const c = engine.createCqlSession();
    try {
      c.execute(KEYSPACE);
      const first = c.startLoad('ks.t');
      const second = c.startLoad('ks.t');
      assert.throws(() => first.feed(bytes), TypeError);
      first.cancel();  // a no-op: it must not drop the newer load
      second.feed(bytes);
      assert.equal(second.finish().rows, 3);
    } finally {
      c.dispose();
    }
  });
});
