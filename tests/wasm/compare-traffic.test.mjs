// The key comparison's second read (report/key_traffic.h, issue 38): `partplay compare`'s write
// spread and monotonicity equal an independent count in JavaScript over the same items, each
// item placed by the wasm module's effectivePartitionKey in the physical partitions
// `partplay analyze` reports for that key and RU/s. Authored.
import {before, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {CLI, ROOT, loadEngine} from './helpers.mjs';

let engine;
before(async () => {
  ({engine} = await loadEngine());
});

const FILE = path.join(ROOT, 'examples/orders.ndjson');
const RU = '40000';

function cli(args) {
  const r = spawnSync(CLI, args, {encoding: 'utf8', maxBuffer: 1 << 26});
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The key's physical partitions as `analyze` lays them out: [{min, max}] in EPK order. */
function ranges(key) {
  const report = cli(['analyze', '--key', key, '--ru', RU, '--format', 'json', FILE]);
  return report.container.before.ranges.map((r) => ({min: r.min, max: r.max}));
}

/** Ordinal comparison of two EPKs (upper-case hex: a string comparison orders them). */
const rangeOf = (layout, epk) => layout.findIndex((r) => r.min <= epk && epk < r.max);

/** Cosmos DB's order of key values of one type: numbers numerically, strings by UTF-8 bytes. */
function compareValues(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

test('write spread and monotonicity per key equal an independent count over the items', () => {
  const items = fs.readFileSync(FILE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const keys = ['/status', '/customerId', '/id'];
  const out = cli(['compare', '--format', 'json', '--ru', RU, '--write-window', '1d',
                   ...keys.flatMap((k) => ['-c', k]), FILE]);
  assert.equal(out.traffic_measured, true);
  for (const [i, key] of keys.entries()) {
    const row = out.keys[i];
    const w = row.write_spread;
    const layout = ranges(key);
    assert.equal(w.physical_partitions, layout.length, key);
    assert.equal(w.time_path, '/orderDate');
    assert.equal(w.time_path_detected, true);
    assert.equal(w.window_seconds, 86400);
    // Group by UTC day; per day the distinct key values and ranges, and the busiest range.
    const days = new Map();
    let changes = 0, rises = 0, timedChanges = 0, concordant = 0, prev = null;
    for (const item of items) {
      const value = item[key.slice(1)];
      const placed = value === undefined || ['string', 'number', 'boolean'].includes(typeof value) || value === null;
      const t = Date.parse(item.orderDate);
      const day = Math.floor(t / 86400000);
      if (!days.has(day)) days.set(day, {n: 0, placed: 0, values: new Set(), ranges: new Map()});
      const d = days.get(day);
      d.n++;
      if (!placed) continue;
      const epk = engine.effectivePartitionKey(value === undefined ? '[{}]' : JSON.stringify([value]), '2');
      const r = rangeOf(layout, epk);
      d.placed++;
      d.values.add(JSON.stringify(value ?? null) + (value === undefined ? 'u' : ''));
      d.ranges.set(r, (d.ranges.get(r) ?? 0) + 1);
      if (prev && value !== undefined && prev.value !== undefined) {
        const order = compareValues(value, prev.value);
        if (order !== 0) {
          changes++;
          if (order > 0) rises++;
          if (t !== prev.t) {
            timedChanges++;
            if ((order > 0) === (t > prev.t)) concordant++;
          }
        }
      }
      prev = {value, t};
    }
    let logical = 0, physical = 0, busiest = 0;
    for (const d of days.values()) {
      logical += d.values.size * d.n;
      physical += d.ranges.size * d.n;
      busiest += (d.placed ? Math.max(...d.ranges.values()) / d.placed : 0) * d.n;
    }
    const close = (a, b) => Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b));
    assert.equal(w.windows, days.size, key);
    assert.equal(w.timed_items, items.length, key);
    assert.ok(close(w.logical_per_window, logical / items.length), `${key} ${w.logical_per_window}`);
    assert.ok(close(w.physical_per_window, physical / items.length), `${key} ${w.physical_per_window}`);
    assert.ok(close(w.busiest_share, busiest / items.length), `${key} ${w.busiest_share}`);
    if (key !== '/customerId') {  // every value a string: the JS order is Cosmos DB's
      const m = row.monotonicity;
      assert.equal(m.key_changes, changes, key);
      assert.ok(close(m.rises_with_input, rises / changes), key);
      assert.equal(m.timed_changes, timedChanges, key);
      assert.ok(close(m.follows_time, concordant / timedChanges), key);
    }
  }
});
