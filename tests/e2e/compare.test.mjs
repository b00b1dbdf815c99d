// "Which key?" (issue 18): a generated 30+ MB export with one skewed tenant is loaded as a file,
// five keys are pinned (two plain paths, /id, a synthetic key and a hierarchical key), and the
// comparison table's numbers must equal the engine's own single-key reports of the same data under
// the same container (computed here in Node with the wasm module); the pick must be the key with
// no 20 GB breach and the lowest busiest-partition demand. Screenshots at 1366x768 and 390 px;
// axe finds nothing serious.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {TIMEOUT, analysisAfter, byTestId, examplesDir, openPage, resultsDir, useBrowser} from './harness.mjs';
import {loadEngine} from '../wasm/helpers.mjs';

useBrowser();

/** A seeded export: tenant t0 holds ~40% of the orders; users inside tenants; ~330 bytes each. */
function generateExport(items, seed = 11) {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const lines = [];
  const pad = 'x'.repeat(150);
  for (let i = 0; i < items; i++) {
    const tenant = rand() < 0.4 ? 0 : 1 + Math.floor(rand() * 199);
    const user = Math.floor(rand() * 400);
    const total = Math.round(rand() * 100000) / 100 + 0.01;
    lines.push(JSON.stringify({
      id: `o-${i}`, tenantId: `t${tenant}`, userId: `t${tenant}-u${user}`,
      day: `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      total, status: ['new', 'paid', 'shipped'][i % 3], note: pad,
    }));
  }
  return `${lines.join('\n')}\n`;
}

const KEYS = [
  {kind: 'path', paths: '/tenantId', key: {key_paths: ['/tenantId']}},
  {kind: 'path', paths: '/userId', key: {key_paths: ['/userId']}},
  {kind: 'path', paths: '/id', key: {key_paths: ['/id']}},
  {kind: 'concat', paths: '/tenantId, /day',
   key: {key_paths: ['/tenantId'], synthetic: {kind: 'concat', paths: ['/tenantId', '/day'], separator: '-'}}},
  {kind: 'hierarchical', paths: '/tenantId, /userId', key: {key_paths: ['/tenantId', '/userId']}},
];

let dir;
let file;
let bytes;
let engine;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pp-compare-'));
  file = join(dir, 'orders-export.ndjson');
  writeFileSync(file, generateExport(120000));
  bytes = readFileSync(file);
  assert.ok(bytes.length > 30e6, `the export has ${bytes.length} bytes`);
  ({engine} = await loadEngine());
});
after(() => rmSync(dir, {recursive: true, force: true}));

async function pinAll(page) {
  for (const k of KEYS) {
    await page.selectOption(byTestId('compare-kind'), k.kind);
    await page.fill(byTestId('compare-paths'), k.paths);
    await page.click(byTestId('compare-pin'));
  }
  assert.equal(await page.locator(`${byTestId('compare-pins')} li`).count(), KEYS.length);
}

async function compared(page) {
  await page.click(byTestId('compare-run'));
  await page.waitForFunction(() => {
    const root = document.querySelector('[data-testid="compare-root"]');
    return root.dataset.state === 'ready' || root.dataset.state === 'error';
  }, null, {timeout: TIMEOUT * 2});
  assert.equal(await page.getAttribute(byTestId('compare-root'), 'data-state'), 'ready',
               await page.textContent(byTestId('compare-form-error')));
}

/** Every row of the table: {index, label, best, values: {col: number}}. */
async function tableRows(page) {
  return page.$$eval(`${byTestId('compare-table')} tbody tr`, (trs) => trs.map((tr) => ({
    index: Number(tr.dataset.index),
    label: tr.dataset.key,
    best: tr.classList.contains('best'),
    values: Object.fromEntries([...tr.children].map((c) => [c.dataset.col, c.dataset.value])),
  })));
}

describe('key comparison on a loaded export', () => {
  test('five pinned keys: the table equals each key\'s own report, and the pick is explained', async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      assert.equal(await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), file)), 'ready');
      await page.fill(byTestId('ru-input'), '20000');
      await analysisAfter(page, () => page.press(byTestId('ru-input'), 'Enter'));
      await page.fill(byTestId('growth-input'), '2000');
      await analysisAfter(page, () => page.press(byTestId('growth-input'), 'Enter'));
      await page.fill(byTestId('reads-input'), '4000');
      await analysisAfter(page, () => page.press(byTestId('reads-input'), 'Enter'));
      await pinAll(page);
      await compared(page);

      const container = JSON.parse(await page.getAttribute(byTestId('compare-root'), 'data-container'));
      assert.equal(container.ru_per_second, 20000);
      assert.equal(container.growth, 2000);
      const rows = await tableRows(page);
      assert.equal(rows.length, KEYS.length);
      const facts = [];
      for (const row of rows) {
        const {key} = KEYS[row.index];
        const analysis = engine.newAnalysis({...key, discover_items: 0});
        analysis.feed(bytes);
        const hash = key.key_paths.length > 1 ? 'multihash' : container.hash_version;
        const own = analysis.finish({maxPartitions: 1, container: {...container, hash_version: hash}});
        analysis.dispose();
        const last = own.container.grown ? own.container.after : own.container.before;
        const over = own.container.findings.find((f) => f.code === 'logical_partition_over_20gb')?.count ?? 0;
        const busiest = Math.max(...last.ranges.map((r) => r.demand_ru));
        const v = row.values;
        assert.equal(Number(v.logical), own.partition_count, `${row.label}: logical partitions`);
        assert.equal(Number(v.largest), own.largest_partition.bytes, `${row.label}: largest`);
        assert.equal(Number(v.after), own.largest_partition.bytes * 2000, `${row.label}: largest after growth`);
        assert.equal(Number(v.breach), over, `${row.label}: over 20 GB`);
        assert.equal(Number(v.physical), last.ranges.length, `${row.label}: physical partitions`);
        assert.equal(Number(v.busiest), busiest, `${row.label}: busiest demand`);
        assert.equal(Number(v.throttled), last.throttled_fraction, `${row.label}: throttled`);
        facts.push({row, over, busiest, problems: Number(v.problems), monotonic: v.monotonic === '1'});
      }
      // The skewed tenant breaks 20 GB after growth: /tenantId (and the hierarchical prefix is fine).
      assert.ok(facts.find((f) => f.row.label === '/tenantId').over > 0);
      // The pick: no breach, no problem, not monotonic along the input when another is not, and
      // the lowest busiest demand among those.
      const clean = facts.filter((f) => f.over === 0 && f.problems === 0);
      assert.ok(clean.length >= 2, 'several keys without a breach');
      const steady = clean.some((f) => !f.monotonic) ? clean.filter((f) => !f.monotonic) : clean;
      const lowest = Math.min(...steady.map((f) => f.busiest));
      const best = facts.find((f) => f.row.best);
      assert.ok(best, 'a row is marked as the pick');
      assert.equal(best.over, 0);
      assert.ok(Math.abs(best.busiest - lowest) <= 1e-9 * lowest, `${best.row.label} has the lowest busiest demand`);
      const why = await page.textContent(byTestId('compare-why'));
      assert.ok(why.startsWith(`${best.row.label} is the pick`), why);

      // Sorting by a column reorders the rows; the chart draws one bar per key.
      await page.click(`${byTestId('compare-table')} th button:text("Logical partitions")`);
      const sorted = (await tableRows(page)).map((r) => Number(r.values.logical));
      assert.deepEqual(sorted, [...sorted].sort((a, b) => a - b));
      assert.equal(await page.locator(`${byTestId('compare-chart')} rect`).count(), KEYS.length);

      // A query list: the kept comparison is judged again on Compare; /id sends a tenant query everywhere.
      await page.fill(byTestId('compare-queries'), '/tenantId\n/tenantId, /userId');
      await compared(page);
      const routed = Object.fromEntries((await tableRows(page)).map((r) => [r.label, Number(r.values.routed)]));
      assert.equal(routed['/id'], 0);
      assert.equal(routed['[/tenantId, /userId]'], 1);
      assert.equal(routed['/tenantId'], 2);

      mkdirSync(resultsDir, {recursive: true});
      await page.locator(byTestId('compare-panel')).scrollIntoViewIfNeeded();
      await page.screenshot({path: join(resultsDir, 'compare-1366.png')});
      const axe = await new AxeBuilder({page}).include(byTestId('compare-panel')).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.help}`), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('at 390 px in dark mode: the comparison fits its column and axe finds nothing serious', async () => {
    const {page, problems, close} = await openPage({viewport: {width: 390, height: 844}, colorScheme: 'dark'});
    try {
      await page.selectOption(byTestId('compare-kind'), 'path');
      for (const path of ['/customerId', '/id', '/total']) {
        await page.fill(byTestId('compare-paths'), path);
        await page.click(byTestId('compare-pin'));
      }
      // A bad spec is refused with a sentence, and nothing is pinned.
      await page.fill(byTestId('compare-paths'), 'customerId');
      await page.click(byTestId('compare-pin'));
      assert.match(await page.textContent(byTestId('compare-form-error')), /not a JSON pointer/);
      assert.equal(await page.locator(`${byTestId('compare-pins')} li`).count(), 3);
      await compared(page);
      const rows = await tableRows(page);
      const total = rows.find((r) => r.label === '/total');
      assert.ok(Number(total.values.problems) >= 1, '/total looks like a measure');
      // The panel fits its column: the wide table scrolls inside its own box.
      const overflow = await page.$eval(byTestId('compare-panel'), (n) => n.scrollWidth - n.clientWidth);
      assert.ok(overflow <= 0, `the comparison panel overflows by ${overflow} px`);
      const panelRight = await page.$eval(byTestId('compare-panel'), (n) => n.getBoundingClientRect().right);
      assert.ok(panelRight <= 390, `the panel ends at ${panelRight} px`);
      mkdirSync(resultsDir, {recursive: true});
      await page.locator(byTestId('compare-panel')).scrollIntoViewIfNeeded();
      await page.screenshot({path: join(resultsDir, 'compare-390.png')});
      const axe = await new AxeBuilder({page}).include(byTestId('compare-panel')).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.help}`), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the element shows the same comparison (compare, queries, growth attributes)', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const hostUrl = new URL('compare-element.html', page.url()).href;
      await page.route(hostUrl, (route) => route.fulfill({contentType: 'text/html', body:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>compare</title></head><body><main>' +
        '<script type="module" src="partition-playground.js"></script>' +
        '<partition-playground mode="cosmos" example="orders" view="compare" growth="100000" ' +
        'compare="/customerId; /id; /customerId,/id; /total; hash:/customerId:/id:10" queries="/customerId"></partition-playground>' +
        '</main></body></html>'}));
      await page.goto(hostUrl);
      // What the full page left unfinished when it was left is not this page's.
      problems.length = 0;
      await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('partition-playground')?.dataset.state),
                                 null, {timeout: TIMEOUT});
      assert.equal(await page.$eval('partition-playground', (el) => el.dataset.state), 'ready');
      const shown = await page.$eval('partition-playground', (el) => {
        const section = el.shadowRoot.querySelector('[data-testid="compare"]');
        return {why: section.querySelector('[data-testid="compare-why"]').textContent, best: section.dataset.best,
                labels: [...section.querySelectorAll('tbody tr')].map((tr) => tr.children[1].textContent)};
      });
      const cmp = engine.newComparison({keys: [
        {key_paths: ['/customerId']}, {key_paths: ['/id']}, {key_paths: ['/customerId', '/id']}, {key_paths: ['/total']},
        {key_paths: ['/customerId'], synthetic: {kind: 'hash_suffix', suffix_path: '/id', buckets: 10, separator: '-'}}],
                                        queries: [{filter: ['/customerId']}], second_read: false});
      cmp.feed(readFileSync(join(examplesDir, 'orders.ndjson')));
      cmp.finish();
      const expected = cmp.compare({container: {ru_per_second: 400, growth: 100000}, queries: [{filter: ['/customerId']}]});
      cmp.dispose();
      assert.equal(shown.why, expected.why);
      assert.deepEqual(shown.labels, [...expected.keys].sort((a, b) => a.rank - b.rank).map((k) => k.label));
      assert.equal(shown.best, expected.best >= 0 ? expected.keys[expected.best].label : '');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
