// Queries in the key comparison (issue 38, report/query_workload.h) through `partplay compare`:
// a single-partition query's EPK equals the Cosmos DB JavaScript SDK's hashPartitionKey for its
// literal (or for the value the data gives its parameter), and each query's matching items and
// the physical partitions holding them equal an independent count in JavaScript over the same
// items, placed by @azure/cosmos's hash in the ranges `partplay analyze` reports. Authored.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {createRequire} from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import {CLI, ROOT} from './helpers.mjs';

const require = createRequire(import.meta.url);
const {hashPartitionKey} = require(
  path.join(ROOT, 'node_modules/@azure/cosmos/dist/commonjs/utils/hashing/hash.js'));

const FILE = path.join(ROOT, 'examples/orders.ndjson');
const RU = '40000';
const V2 = (paths) => paths.length > 1 ? {paths, kind: 'MultiHash', version: 2} : {paths, kind: 'Hash', version: 2};

function cli(args) {
  const r = spawnSync(CLI, args, {encoding: 'utf8', maxBuffer: 1 << 26});
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function layout(keyPaths) {
  const report = cli(['analyze', '--key', keyPaths.join(','), '--ru', RU, '--format', 'json',
                      ...(keyPaths.length > 1 ? ['--hash-version', 'multihash'] : []), FILE]);
  return report.container.before.ranges;
}

const items = fs.readFileSync(FILE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const get = (item, pointer) => pointer.split('/').slice(1).reduce((v, k) => (v == null ? undefined : v[k]), item);
const isKeyValue = (v) => v === undefined || v === null || ['string', 'number', 'boolean'].includes(typeof v);

// Each query with its own predicate, written independently of the engine.
const QUERIES = [
  {sql: "SELECT * FROM c WHERE c.customerId = 'c-2018'", match: (i) => i.customerId === 'c-2018'},
  {sql: 'SELECT * FROM c WHERE c.customerId = @c', match: null},  // bound to the most common value
  {sql: "SELECT * FROM c WHERE c.status = 'shipped' AND c.total > 100",
   match: (i) => i.status === 'shipped' && typeof i.total === 'number' && i.total > 100},
  {sql: "SELECT c.id FROM c WHERE c.customerId IN ('c-2018', 'c-1001') AND c.channel = 'app'",
   match: (i) => (i.customerId === 'c-2018' || i.customerId === 'c-1001') && i.channel === 'app'},
  {sql: "SELECT * FROM c WHERE STARTSWITH(c.address.city, 'Sea') OR c.address.country = 'NO'",
   match: (i) => (typeof i.address?.city === 'string' && i.address.city.startsWith('Sea')) ||
                 i.address?.country === 'NO'},
];

test('EPKs equal @azure/cosmos, matches and partitions equal an independent count', () => {
  const keys = [['/customerId'], ['/id'], ['/status', '/customerId']];
  const out = cli(['compare', '--format', 'json', '--ru', RU, '--no-write-spread',
                   ...keys.flatMap((k) => ['-c', k.join(',')]),
                   ...QUERIES.flatMap((q) => ['--query', q.sql]), FILE]);
  // The parameter took the value of /customerId the most items hold.
  const counts = new Map();
  for (const i of items) if (typeof i.customerId === 'string') counts.set(i.customerId, (counts.get(i.customerId) ?? 0) + 1);
  const [common, most] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
  const bound = out.queries[1].parameters[0];
  assert.deepEqual([bound.name, bound.value, bound.from, bound.items], ['@c', common, 'most_common', most]);
  QUERIES[1].match = (i) => i.customerId === common;

  for (const [k, keyPaths] of keys.entries()) {
    const row = out.keys[k];
    const ranges = layout(keyPaths);
    const rangeOf = (epk) => ranges.find((r) => r.min <= epk && epk < r.max).id;
    for (const [q, query] of QUERIES.entries()) {
      const got = row.queries[q];
      const label = `${row.label}: ${query.sql}`;
      const matching = items.filter(query.match);
      assert.equal(got.matching_items, matching.length, label);
      const holding = new Set();
      for (const item of matching) {
        const values = keyPaths.map((p) => get(item, p));
        if (!values.every(isKeyValue)) continue;
        holding.add(rangeOf(hashPartitionKey(values.map((v) => (v === undefined ? {} : v)), V2(keyPaths))));
      }
      assert.equal(got.physical_partitions_with_matches, holding.size, label);
      if (got.single_partition) {
        // The EPK of the literal (or bound value), as the SDK hashes it.
        const value = q === 1 ? common : 'c-2018';
        assert.equal(got.epk, hashPartitionKey([value], V2(keyPaths)), label);
        assert.deepEqual(got.range_ids, [rangeOf(got.epk)], label);
        assert.equal(got.physical_partitions, 1, label);
      }
      if (got.kind === 'all') assert.equal(got.physical_partitions, ranges.length, label);
    }
  }
  // Under /customerId the literal and parameter queries are single-partition; the IN list two.
  assert.deepEqual(out.keys[0].queries.map((q) => q.kind), ['single', 'single', 'all', 'several', 'all']);
  assert.deepEqual(out.keys[1].queries.map((q) => q.kind), ['all', 'all', 'all', 'all', 'all']);
  assert.deepEqual(out.keys[2].queries.map((q) => q.kind), ['all', 'all', 'prefix', 'all', 'all']);
});

test('bad queries and parameters fail with their location and the usage code', () => {
  const run = (...args) => spawnSync(CLI, ['compare', '-c', '/id', ...args, FILE], {encoding: 'utf8'});
  let r = run('--query', 'SELECT * FROM c WHERE');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /query 1: SC1002: Syntax error, unexpected end-of-file\./);
  r = run('--query', 'SELECT * FROM c WHERE c.price > @min');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /parameter @min is not compared by = or IN with a property/);
  r = run('--query', 'SELECT * FROM c WHERE c.price > @min', '--param', '@min=1e400');
  assert.equal(r.status, 2);
  r = run('--query-rate', '5');
  assert.match(r.stderr, /--query-rate: follows the --query/);
  r = run('--queries', '5');
  assert.match(r.stderr, /--queries: takes a FILE of queries/);
  r = run('--param', 'min=5');
  assert.match(r.stderr, /--param: takes @name=JSON/);
  r = run('--query', 'SELECT * FROM c WHERE ST_DISTANCE(c.loc, {"type":"Point","coordinates":[0,0]}) < 5');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /query 1: /);
});
