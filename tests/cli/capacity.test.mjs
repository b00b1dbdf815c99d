// The capacity rules through the CLI (issue 37; docs/cosmos-model.md "Capacity, as the service
// documents it"): the creation rule, a raise past the instant maximum, the minimum RU/s, the
// 1,000,000 RU/s quota, serverless, and the RU/s needed, in the table and in the JSON.
import assert from 'node:assert/strict';
import path from 'node:path';
import test from 'node:test';

import {ROOT, run} from './helpers.mjs';

const FOOD = path.join(ROOT, 'examples/food.json');
const analyze = (...args) => run(['analyze', '--key', '/foodGroup', ...args, FOOD]);
const json = (...args) => {
  const r = analyze('--format', 'json', ...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).container;
};

test('18,000 RU/s manual is 3 physical partitions of 6,000; autoscale 30,000 is 3 of 10,000', () => {
  const c = json('--ru', '18000');
  assert.equal(c.before.ranges.length, 3);
  assert.equal(c.before.ranges[0].ru_share, 6000);
  assert.equal(c.before.partitions_at_creation, 3);
  assert.equal(c.before.instant_maximum_ru_per_second, 30000);
  const a = json('--ru', '30000', '--autoscale');
  assert.equal(a.before.ranges.length, 3);
  assert.equal(a.before.throughput_mode, 'autoscale');
});

test('--created-ru 12000 --ru 30000 splits one of 2 partitions: keyspace 50/25/25 and the recipe', () => {
  const c = json('--created-ru', '12000', '--ru', '30000');
  assert.equal(c.created_ru_per_second, 12000);
  assert.equal(c.before.change.kind, 'splits');
  assert.equal(c.before.change.instant_maximum_ru_per_second, 20000);
  assert.equal(c.before.change.even_split_ru_per_second, 40000);
  assert.equal(c.before.change.uneven, true);
  assert.deepEqual(c.before.ranges.map((r) => r.keyspace_fraction).sort(), [0.25, 0.25, 0.5]);
  assert.equal(c.before_splits.length, 1);
  const table = analyze('--created-ru', '12000', '--ru', '30000');
  assert.match(table.stdout, /raise to 40000 RU\/s first, then lower to 30000/);
  assert.equal(json('--created-ru', '12000', '--ru', '20000').before.change.kind, 'instant');
  const down = json('--created-ru', '30000', '--ru', '10000');
  assert.equal(down.before.change.kind, 'down');
  assert.equal(down.before.ranges.length, 5);
});

test('RU/s below the minimum, above 1,000,000 without a reason, serverless with --ru: errors', () => {
  const low = analyze('--ru', '300');
  assert.notEqual(low.status, 0);
  assert.match(low.stderr, /ru_per_second: 300 RU\/s is below the 400 RU\/s/);
  const history = analyze('--created-ru', '100000', '--ru', '900');
  assert.notEqual(history.status, 0);
  assert.match(history.stderr, /below the 1,000 RU\/s/);
  const big = analyze('--ru', '1200000');
  assert.notEqual(big.status, 0);
  assert.match(big.stderr, /--quota-increase/);
  assert.equal(analyze('--ru', '1200000', '--quota-increase', 'ticket 42', '--format', 'json').status, 0);
  const serverless = analyze('--serverless', '--ru', '400');
  assert.equal(serverless.status, 2);
  assert.match(serverless.stderr, /--serverless takes no --ru/);
});

test('a shared database: bad --shared-with and shared_with are located errors (authored)', () => {
  for (const bad of ['audit', 'audit:', ':3', 'audit:x', 'audit:3:-1', 'audit:-3', 'a:1:2:3']) {
    const r = analyze('--shared-database', '--shared-with', bad);
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--shared-with takes NAME:GB or NAME:GB:RU/, bad);
  }
  const stray = analyze('--shared-with', 'audit:3', '--format', 'json');
  assert.notEqual(stray.status, 0);
  assert.match(stray.stderr, /shared_with: other containers share throughput only in a shared-throughput database/);
  const container = (shared) => analyze('--format', 'json', '--container-json', JSON.stringify({ru_per_second: 20000, ...shared}));
  for (const [shared, message] of [
    [{shared_database: true, shared_with: {name: 'a'}}, /shared_with.*must be an array of containers/],
    [{shared_database: true, shared_with: ['a']}, /shared_with.*must hold objects/],
    [{shared_database: true, shared_with: [{name: 'a', storage_gb: 'x'}]}, /shared_with\[\]\.storage_gb.*finite number/],
    [{shared_database: true, shared_with: [{name: 'a', rows: 1}]}, /rows/],
    [{shared_database: true, shared_with: Array.from({length: 26}, (_, i) => ({name: `c${i}`}))}, /more than the 25/],
    [{shared_database: true, shared_with: Array.from({length: 25}, (_, i) => ({name: `c${i}`}))}, /26 containers in all, more than the 25/],
  ]) {
    const r = container(shared);
    assert.notEqual(r.status, 0, JSON.stringify(shared));
    assert.match(r.stderr, message, JSON.stringify(shared));
  }
  const ok = json('--ru', '20000', '--shared-database', '--shared-with', 'audit:3:4000');
  assert.equal(ok.shared_database.containers[1].name, 'audit');
  assert.equal(ok.shared_database.containers[1].storage_bytes, 3 * 2 ** 30);
});

test('--serverless: capacity by storage', () => {
  const c = json('--serverless');
  assert.equal(c.serverless, true);
  assert.equal(c.before.throughput_mode, 'serverless');
  assert.equal(c.before.ranges.length, 1);
  assert.equal(c.before.ru_per_second, 5000);
});

test('RU/s needed: at the figure nothing throttles, at 100 RU/s less something does', () => {
  const c = json('--ru', '400', '--reads', '20000');
  const n = c.ru_needed;
  assert.equal(n.judged, true);
  assert.equal(n.possible, true);
  assert.ok(n.manual_ru_per_second > 0);
  assert.equal(json('--ru', String(n.manual_ru_per_second), '--reads', '20000').before.throttled_fraction, 0);
  assert.ok(json('--ru', String(n.manual_ru_per_second - 100), '--reads', '20000').before.throttled_fraction > 0);
  const t = run(['compare', '-c', '/foodGroup', '-c', '/id', '--ru', '400', '--reads', '2000', FOOD]);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /RU\/s needed/);
});
