// The key comparison judged by real queries and by when the data was written (issue 38): a
// generated, time-ordered orders export is loaded as a file, /customerId, /id and /date are
// pinned, and Cosmos DB NoSQL queries are pasted into the query box (one with a rate, one with a
// parameter the data gives its value). Every number the table shows must be the engine's own
// (the wasm module's comparison of the same bytes, both reads, computed here in Node), each
// query's matching items an independent count in JavaScript, and the write spread must show what
// the keys do: /date sends each day's writes to one physical partition, /id spreads them.
// Authored.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {TIMEOUT, analysisAfter, byTestId, openPage, useBrowser} from './harness.mjs';
import {loadEngine} from '../wasm/helpers.mjs';

useBrowser();

/** Orders in the order they were written: 150 a day from 2024-01-01, random ids, skewed customers. */
function generateExport(count, seed = 7) {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const items = [];
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < count; i++) {
    const at = new Date(start + Math.floor(i / 150) * 86400000 + (i % 150) * 500000);
    const customer = rand() < 0.2 ? 3 : Math.floor(rand() * 900);
    items.push({id: Math.floor(rand() * 2 ** 48).toString(16).padStart(12, '0'), customerId: `c-${customer}`,
                date: at.toISOString().slice(0, 10), orderDate: at.toISOString(),
                status: ['new', 'paid', 'shipped'][Math.floor(rand() * 3)], total: Math.round(rand() * 100000) / 100});
  }
  return items;
}

const KEYS = [{kind: 'path', paths: '/customerId'}, {kind: 'path', paths: '/id'}, {kind: 'path', paths: '/date'}];
const QUERY_TEXT = [
  "SELECT * FROM c WHERE c.customerId = 'c-17'",
  '20 SELECT * FROM c WHERE c.customerId = @customer',
  "SELECT c.id, c.total FROM c WHERE c.date = '2024-03-05' AND c.status = 'paid'",
  'SELECT VALUE COUNT(1) FROM c WHERE c.total > 900',
].join('\n');

let dir;
let file;
let items;
let bytes;
let engine;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pp-compare-queries-'));
  file = join(dir, 'orders-by-time.ndjson');
  items = generateExport(45000);
  writeFileSync(file, `${items.map((i) => JSON.stringify(i)).join('\n')}\n`);
  bytes = readFileSync(file);
  ({engine} = await loadEngine());
});
after(() => rmSync(dir, {recursive: true, force: true}));

/** Each query's matching items, counted here without the engine. */
function independentCounts() {
  const perCustomer = new Map();
  for (const i of items) perCustomer.set(i.customerId, (perCustomer.get(i.customerId) ?? 0) + 1);
  // The parameter takes the value most items hold (the first seen among equals).
  let common = null;
  for (const [id, n] of perCustomer) if (common === null || n > perCustomer.get(common)) common = id;
  return [
    items.filter((i) => i.customerId === 'c-17').length,
    perCustomer.get(common),
    items.filter((i) => i.date === '2024-03-05' && i.status === 'paid').length,
    items.filter((i) => i.total > 900).length,
  ];
}

/** Every row of the table: {label, values: {col: data-value}, titles: {col: title}}. */
async function tableRows(page) {
  return page.$$eval(`${byTestId('compare-table')} tbody tr`, (trs) => trs.map((tr) => ({
    label: tr.dataset.key,
    values: Object.fromEntries([...tr.children].map((c) => [c.dataset.col, c.dataset.value])),
    titles: Object.fromEntries([...tr.children].map((c) => [c.dataset.col, c.title])),
  })));
}

describe('key comparison by queries and write time', () => {
  test('pasted queries on a time-ordered export: every number is the engine\'s, /date concentrates writes, /id spreads them',
       {timeout: 4 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      assert.equal(await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), file)), 'ready');
      await page.fill(byTestId('ru-input'), '40000');
      await analysisAfter(page, () => page.press(byTestId('ru-input'), 'Enter'));
      for (const k of KEYS) {
        await page.selectOption(byTestId('compare-kind'), k.kind);
        await page.fill(byTestId('compare-paths'), k.paths);
        await page.click(byTestId('compare-pin'));
      }
      await page.fill(byTestId('compare-queries'), QUERY_TEXT);
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => ['ready', 'error'].includes(
        document.querySelector('[data-testid="compare-root"]').dataset.state), null, {timeout: 3 * TIMEOUT});
      assert.equal(await page.getAttribute(byTestId('compare-root'), 'data-state'), 'ready',
                   await page.textContent(byTestId('compare-form-error')));

      // The engine's comparison of the same bytes under the same container, read twice.
      const container = JSON.parse(await page.getAttribute(byTestId('compare-root'), 'data-container'));
      const keys = KEYS.map((k) => ({key_paths: [k.paths]}));
      const cmp = engine.newComparison({keys, query_text: QUERY_TEXT});
      cmp.feed(bytes);
      cmp.finish();
      cmp.compare({container, queryText: QUERY_TEXT});
      assert.ok(cmp.secondReadPending);
      cmp.feedSecond(bytes);
      const expected = cmp.finishSecond();
      cmp.dispose();
      assert.equal(expected.traffic_measured, true);

      const rows = await tableRows(page);
      assert.equal(rows.length, KEYS.length);
      const counts = independentCounts();
      for (const row of rows) {
        const own = expected.keys.find((k) => k.label === row.label);
        assert.ok(own, row.label);
        const v = row.values;
        assert.equal(Number(v.rank), own.rank, `${row.label}: rank`);
        assert.equal(Number(v.logical), own.logical_partitions, `${row.label}: logical partitions`);
        assert.equal(Number(v.physical), own.physical_partitions, `${row.label}: physical partitions`);
        assert.equal(Number(v.routed), expected.queries.length - own.fanout_queries, `${row.label}: routed queries`);
        assert.equal(Number(v.writes), own.write_spread.busiest_share, `${row.label}: busiest share per window`);
        assert.equal(Number(v.monotonic), Number(own.monotonicity.monotonic), `${row.label}: monotonic`);
        assert.equal(Number(v.problems), own.problems.length, `${row.label}: problems`);
        // Each query's matches: the engine's count, equal to the independent one, shown in words.
        own.queries.forEach((q, i) => {
          assert.equal(q.matching_items, counts[i], `${row.label}: query ${i + 1} matches`);
          const n = q.physical_partitions_with_matches;
          assert.ok(row.titles.routed.includes(`${counts[i].toLocaleString('en-US')} matching items in ` +
                                               `${n.toLocaleString('en-US')} physical partition${n === 1 ? '' : 's'}`),
                    `${row.label}: query ${i + 1} in ${row.titles.routed}`);
        });
      }
      const byLabel = Object.fromEntries(rows.map((r) => [r.label, r]));
      // One day's writes all share a /date: one physical partition takes every write of a window.
      assert.equal(Number(byLabel['/date'].values.writes), 1);
      assert.match(byLabel['/date'].titles.writes, /windows of a day by \/orderDate|windows of a day by \/date/);
      assert.match(byLabel['/date'].titles.writes, /concentrated: a problem/);
      // Random ids spread them: the busiest of the physical partitions takes far less than half.
      const physical = Number(byLabel['/id'].values.physical);
      assert.ok(physical >= 4, `${physical} physical partitions`);
      assert.ok(Number(byLabel['/id'].values.writes) < 2 / physical, byLabel['/id'].titles.writes);
      assert.equal(byLabel['/id'].values.monotonic, '0');
      assert.equal(byLabel['/date'].values.monotonic, '1');
      // The pick is the engine's, with its sentence.
      assert.equal(await page.textContent(byTestId('compare-why')), expected.why);
      assert.notEqual(expected.keys[expected.best]?.label, '/date');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a query the parser refuses is named with its line and column, and the last table goes', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.selectOption(byTestId('compare-kind'), 'path');
      await page.fill(byTestId('compare-paths'), '/customerId');
      await page.click(byTestId('compare-pin'));
      // A comparison that stands, on the page's example data.
      await page.fill(byTestId('compare-queries'), "SELECT * FROM c WHERE c.customerId = 'c-1'");
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'ready',
                                 null, {timeout: TIMEOUT});
      assert.equal(await page.isVisible(`${byTestId('compare-root')} .keycmp-body`), true);
      await page.fill(byTestId('compare-queries'), "SELECT * FROM c\nSELECT * FROM c WHERE c.customerId = 'c-1' AND");
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'error',
                                 null, {timeout: TIMEOUT});
      const error = await page.textContent(byTestId('compare-form-error'));
      // Named by its place and located in the box: line 2, just past the query (46 characters).
      assert.match(error, /^query 2: /);
      assert.match(error, /\(line 2, column 47 of the queries\)$/);
      assert.equal(await page.isHidden(`${byTestId('compare-root')} .keycmp-body`), true);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
