// The key comparison through the wasm module: equal to the native CLI's `compare --format json`
// on every bundled example, queries and second read included (the page's worker drives the
// module as this test does), and every row equal to that key's own single-key report (the
// numbers the page's comparison table shows must be the engine's per-key numbers). Bad requests
// and bad input fail as the single-key analysis does.
import {before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {CLI, ROOT, examples, loadEngine} from './helpers.mjs';

let engine;
let PartplayError;
before(async () => {
  let api;
  ({api, engine} = await loadEngine());
  PartplayError = api.PartplayError;
});

/** Five candidates for an example: its key, /id, a hierarchical, a concatenated, a suffixed key. */
function candidates(example) {
  const key = example.key;
  return [
    {key_paths: [key]},
    {key_paths: ['/id']},
    {key_paths: [key, '/id']},
    {key_paths: [key], synthetic: {kind: 'concat', paths: [key, '/id']}},
    {key_paths: [key], synthetic: {kind: 'hash_suffix', suffix_path: '/id', buckets: 7}},
  ];
}

/** A JSON pointer as a query's property path: /address/city -> ["address"]["city"]. */
const sqlPath = (pointer) => pointer.split('/').slice(1).map((p) => `[${JSON.stringify(p)}]`).join('');

function model(example) {
  return {
    container: {ru_per_second: 20000, growth: 50000,
                workload: {point_reads_per_second: 3000, writes_per_second: 400}},
    // A path list, and a Cosmos DB query whose parameter takes the value most items hold. Both
    // sides read the items twice (the queries' matches, the write spread); those figures are
    // checked against independent counts in compare-traffic and compare-queries.
    queries: [{filter: [example.key]}, {filter: ['/id']},
              {sql: `SELECT * FROM c WHERE c${sqlPath(example.key)} = @v`, rate: 5}],
  };
}

function cliCompare(file, request) {
  const r = spawnSync(CLI, ['compare', '--format', 'json', '--request', JSON.stringify(request), file],
                      {encoding: 'utf8', maxBuffer: 1 << 26});
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('key comparison', () => {
  for (const example of examples()) {
    test(`${example.id}: wasm = CLI, each row = the key's own report`, () => {
      const file = path.join(ROOT, 'examples', example.file);
      const bytes = fs.readFileSync(file);
      const keys = candidates(example);
      const m = model(example);
      const cmp = engine.newComparison({keys, queries: m.queries});
      cmp.feed(bytes);
      cmp.finish();
      let table = cmp.compare(m);
      assert.equal(cmp.secondReadPending, true);
      assert.equal(table.traffic_measured, false);
      cmp.feedSecond(bytes);
      table = cmp.finishSecond();
      assert.equal(table.traffic_measured, true);
      cmp.dispose();
      assert.deepEqual(table, cliCompare(file, {keys, ...m}));
      assert.equal(table.keys.length, keys.length);
      assert.equal(table.workload_given, true);
      for (const [i, row] of table.keys.entries()) {
        const analysis = engine.newAnalysis({...keys[i], discover_items: 0});
        analysis.feed(bytes);
        const hashVersion = keys[i].key_paths.length > 1 ? 'multihash' : '2';
        // The listed queries' rates add to the workload's queries per second.
        const queriesPerSecond = m.queries.reduce((sum, q) => sum + (q.rate ?? 0), 0);
        const own = analysis.finish({maxPartitions: 1, container: {
          ...m.container, hash_version: hashVersion,
          workload: {...m.container.workload, queries_per_second: queriesPerSecond}}});
        analysis.dispose();
        const after = own.container.after;
        assert.equal(row.logical_partitions, own.partition_count, row.label);
        assert.equal(row.largest_bytes, own.largest_partition.bytes, row.label);
        assert.deepEqual(row.largest_key, own.largest_partition.key, row.label);
        assert.equal(row.largest_bytes_after_growth, own.largest_partition.bytes * 50000, row.label);
        assert.equal(row.undefined_key_items, own.undefined_key_items, row.label);
        assert.equal(row.physical_partitions, after.ranges.length, row.label);
        assert.equal(row.busiest_demand_ru, Math.max(...after.ranges.map((r) => r.demand_ru)), row.label);
        assert.equal(row.throttled_fraction, after.throttled_fraction, row.label);
        const over = own.container.findings.find((f) => f.code === 'logical_partition_over_20gb');
        assert.equal(row.over_20gb_partitions, over ? over.count : 0, row.label);
        assert.equal(row.hash_version, hashVersion);
      }
      // The pick has no problem and no key without problems routes more queries or (same
      // routing) has a less busy busiest partition.
      const ranked = [...table.keys].sort((a, b) => a.rank - b.rank);
      if (table.best >= 0) {
        const best = table.keys[table.best];
        assert.equal(best.rank, 1);
        assert.deepEqual(best.problems, []);
        for (const row of table.keys.filter((r) => r.problems.length === 0)) {
          assert.ok(best.fanout_queries < row.fanout_queries ||
                    (best.fanout_queries === row.fanout_queries &&
                     best.busiest_demand_ru <= row.busiest_demand_ru), row.label);
        }
        assert.match(table.why, new RegExp(`^${best.label.replace(/[[\]{}()*+?.\\^$|/]/g, '\\$&')} is the pick`));
      } else {
        assert.ok(ranked.every((r) => r.problems.length > 0));
      }
    });
  }

  test('a comparison is re-compared under other options without re-reading', () => {
    const bytes = fs.readFileSync(path.join(ROOT, 'examples/orders.ndjson'));
    // The queries go with the keys: the first read counts the values their parameters take.
    const cmp = engine.newComparison({keys: [{key_paths: ['/customerId']}, {key_paths: ['/id']}],
                                      queries: [{filter: ['/customerId']}]});
    cmp.feed(bytes.subarray(0, 1000));
    cmp.feed(bytes.subarray(1000));
    cmp.finish();
    const none = cmp.compare();
    assert.equal(none.workload_given, false);
    assert.equal(none.keys[0].busiest_demand_ru, 0);
    const grown = cmp.compare({container: {growth: 1e6}, queries: [{filter: ['/customerId']}]});
    assert.equal(grown.growth, 1e6);
    // A parameter compared with a property the first read did not count is refused, not guessed.
    assert.throws(() => cmp.compare({queries: [{sql: 'SELECT * FROM c WHERE c.status = @s'}]}),
                  (e) => e.codeName === 'invalid_state' && /\/status/.test(e.message));
    assert.equal(grown.keys[0].queries[0].kind, 'single');
    assert.equal(grown.keys[1].queries[0].kind, 'all');
    assert.ok(grown.keys[0].over_20gb_partitions > 0);
    cmp.dispose();
  });

  test('bad requests and bad input fail with the engine error', () => {
    assert.throws(() => engine.newComparison({keys: []}),
                  (e) => e instanceof PartplayError && e.codeName === 'bad_option' && /keys/.test(e.message));
    assert.throws(() => engine.newComparison({keys: [{key_paths: ['/a']}], bogus: 1}),
                  (e) => e.codeName === 'bad_option' && /bogus/.test(e.message));
    const cmp = engine.newComparison({keys: [{key_paths: ['/k']}]});
    assert.throws(() => cmp.compare({container: {}, queries: [{filter: 'x'}]}),
                  (e) => e.codeName === 'bad_option' && /queries\[0\]/.test(e.message));
    const bad = new TextEncoder().encode('{"id":"1","k":1}\n{"id":"2","k":}\n');
    let fromComparison;
    try {
      cmp.feed(bad);
      cmp.finish();
    } catch (e) {
      fromComparison = e;
    }
    const single = engine.newAnalysis({key_paths: ['/k']});
    let fromAnalysis;
    try {
      single.feed(bad);
      single.finish();
    } catch (e) {
      fromAnalysis = e;
    }
    single.dispose();
    cmp.dispose();
    assert.ok(fromComparison instanceof PartplayError);
    assert.deepEqual(fromComparison.toJSON(), fromAnalysis.toJSON());
    assert.equal(fromComparison.location.line, 2);
  });
});

describe('partplay compare (CLI)', () => {
  const run = (...args) => spawnSync(CLI, ['compare', ...args], {encoding: 'utf8'});
  test('--help prints the usage and exits 0', () => {
    const r = run('--help');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^usage: partplay compare --candidate SPEC/);
  });
  test('bad candidates, queries and options name themselves and exit with the usage code', () => {
    const usage = spawnSync(CLI, ['error-codes'], {encoding: 'utf8'});
    const code = JSON.parse(usage.stdout).find((c) => c.name === 'usage').code;
    const file = path.join(ROOT, 'examples/orders.ndjson');
    for (const [args, message] of [
      [['--candidate', 'userId', file], /--candidate: takes \/PATH.*\(given: 'userId'\)/],
      [['--candidate', 'random:/a:0', file], /--candidate: takes .*\(given: 'random:\/a:0'\)/],
      [['--candidate', '/a,/b,/c,/d', file], /--candidate/],
      [['--candidate', '/a', '--bogus', file], /unknown option --bogus/],
      [['--candidate', '/a', '--ru', '0', file], /--ru: takes RU\/s/],
      [['--candidate', '/a', '--query', '/a,b', file], /--query: takes a SELECT query or JSON pointers/],
      [['--candidate', '/a', '--query', 'SELECT * FROM', file], /query 1: SC1002: Syntax error, unexpected end-of-file/],
      [[file], /give at least one --candidate/],
      [['--candidate', '/a'], /give an input FILE/],
      [['--request', '{"keys":[]}', file], /keys/],
      [['--candidate', '/a', '--write-window', '0', file], /--write-window: takes 1m, 1h, 1d, 7d, 30d/],
      [['--candidate', '/a', '--write-window', '2.5', file], /--write-window/],
      [['--candidate', '/a', '--time-path', 'createdAt', file], /--time-path: takes a JSON pointer/],
      [['--request', '{"keys":[{"key_paths":["/a"]}],"write_window_seconds":-1}', file],
       /write_window_seconds: must be a whole number of seconds/],
      [['--request', '{"keys":[{"key_paths":["/a"]}],"time_path":"x"}', file], /time_path: must be a JSON pointer/],
      [['--request', '{"keys":[{"key_paths":["/a"]}],"write_spread":1}', file], /write_spread: must be true or false/],
    ]) {
      const r = run(...args);
      assert.equal(r.status, code, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
    }
  });
  test('a file that does not open is an io error naming it', () => {
    const r = run('--candidate', '/a', '/nonexistent/items.json');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /cannot open \/nonexistent\/items.json/);
  });
  test('stdin read twice for the queries of a request\'s query text: the same table as from the file', () => {
    const file = path.join(ROOT, 'examples', 'orders.ndjson');
    const request = JSON.stringify({keys: [{key_paths: ['/customerId']}, {key_paths: ['/id']}], write_spread: false,
                                    query_text: 'SELECT * FROM c WHERE c.customerId = @c'});
    const fromStdin = spawnSync(CLI, ['compare', '--format', 'json', '--request', request, '-'],
                                {encoding: 'utf8', input: fs.readFileSync(file), maxBuffer: 1 << 26});
    assert.equal(fromStdin.status, 0, fromStdin.stderr);
    const table = JSON.parse(fromStdin.stdout);
    assert.equal(table.traffic_measured, true);
    assert.ok(table.keys[0].queries[0].matching_items > 0);
    assert.deepEqual(table, cliCompare(file, JSON.parse(request)));
  });
});

test('the element\'s module compares path lists and says it does not read queries', async () => {
  const {engine: element} = await loadEngine('cosmos');
  const bytes = fs.readFileSync(path.join(ROOT, 'examples/orders.ndjson'));
  const cmp = element.newComparison({keys: [{key_paths: ['/customerId']}, {key_paths: ['/id']}]});
  cmp.feed(bytes);
  cmp.finish();
  const table = cmp.compare({queries: [{filter: ['/customerId']}]});
  assert.equal(cmp.secondReadPending, false);
  assert.equal(table.traffic_measured, false);
  assert.equal(table.keys[0].queries[0].kind, 'single');
  assert.throws(() => cmp.compare({queries: [{sql: "SELECT * FROM c WHERE c.customerId = 'c-1'"}]}),
                (e) => /paths it filters on/.test(e.message));
  cmp.dispose();
});
