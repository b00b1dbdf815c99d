// Synthetic keys from pieces of values on the command line (issue 40, friction 4): analyze
// --synthetic and compare --candidate take concat parts such as month(/orderDate); the keys are
// checked against the months computed here from the example's items. Authored.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import {ROOT, run} from './helpers.mjs';

const ORDERS = path.join(ROOT, 'examples/orders.ndjson');
const items = fs.readFileSync(ORDERS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

test('analyze --synthetic concat:/customerId,month(/orderDate): one partition per customer and month', () => {
  const r = run(['analyze', '--key', '/customerId', '--synthetic', 'concat:/customerId,month(/orderDate)',
                 '--separator', '|', '--format', 'json', ORDERS]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const expected = new Map();
  let undefinedItems = 0;
  for (const item of items) {
    if (typeof item.customerId === 'object' && item.customerId !== null) continue;  // an invalid key, not a partition
    if (item.customerId === undefined || item.orderDate === undefined) {
      undefinedItems++;
      continue;
    }
    const k = `${item.customerId}|${new Date(item.orderDate).toISOString().slice(0, 7)}`;
    expected.set(k, (expected.get(k) ?? 0) + 1);
  }
  assert.ok(expected.size > 100);
  assert.equal(report.undefined_key_items, undefinedItems);
  const got = new Map(report.partitions.filter((p) => typeof p.key[0] === 'string').map((p) => [p.key[0], p.items]));
  assert.deepEqual(got, expected);
});

test('a part the engine does not know is a usage error naming it', () => {
  const bad = run(['compare', '--candidate', 'concat:/customerId,week(/orderDate)', ORDERS]);
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /week\(\/orderDate\)/);
  assert.match(bad.stderr, /month\(\/A\)/);
  const ok = run(['compare', '--candidate', 'concat:/customerId, month(/orderDate)', '--candidate', '/customerId',
                  '--format', 'json', ORDERS]);
  assert.equal(ok.status, 0, ok.stderr);
  const labels = JSON.parse(ok.stdout).keys.map((k) => k.label);
  assert.deepEqual(labels.sort(), ['/customerId', '/customerId-month(/orderDate)']);
});
