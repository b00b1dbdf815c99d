// Issue 40, friction 1: a shared link reproduces what was shared. For a small paste, every figure
// of the sharer's report, synthetic key, comparison, workload, growth and route is the same in a
// fresh browser context opened on the link; for a file that does not travel, the opened page says
// which data is missing and shows no figures in its place (the bundled example must not pass for
// it), with the key and every setting as the sharer had them (the key bar's RU/s too).
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, copiedShare, openPage, useBrowser} from './harness.mjs';

useBrowser();

function orders(n, pad = 0) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const day = 1 + (i % 28);
    lines.push(JSON.stringify({id: `o${i}`, tenantId: `t${i % 7}`, userId: `u${i % 23}`,
                               orderDate: `2024-0${1 + (i % 3)}-${String(day).padStart(2, '0')}T10:00:00Z`,
                               ...(pad ? {note: 'n'.repeat(pad)} : {})}));
  }
  return `${lines.join('\n')}\n`;
}

async function setValue(page, testid, value) {
  await analysisAfter(page, async () => {
    await page.fill(byTestId(testid), String(value));
    await page.press(byTestId(testid), 'Enter');
  });
}

/** Every figure on show: each results element with a data-value, the comparison's cells, and a few sentences. */
async function figures(page) {
  return page.evaluate(() => {
    const out = {};
    const visible = (n) => n.getClientRects().length > 0;
    for (const n of document.querySelectorAll('[data-testid="results"] [data-testid][data-value]')) {
      if (visible(n)) out[n.dataset.testid] = n.dataset.value;
    }
    for (const td of document.querySelectorAll('[data-testid="compare-table"] tbody [data-col]')) {
      out[`compare:${td.closest('tr').dataset.key}:${td.dataset.col}`] = td.dataset.value;
    }
    for (const id of ['route-result', 'growth-summary', 'moved-summary', 'demand-total-sub', 'synthetic-examples']) {
      const n = document.querySelector(`[data-testid="${id}"]`);
      if (n && visible(n)) out[id] = n.textContent;
    }
    out.hot = [...document.querySelectorAll('[data-testid="hot-rows"] tr')].map((tr) => tr.textContent).join('|');
    out.view = document.querySelector('[data-testid="results"]').dataset.view;
    return out;
  });
}

async function openLink(link) {
  const other = await openPage({viewport: {width: 1366, height: 768}});
  await other.page.goto('about:blank');  // a new document: the link is read as the page loads
  await other.page.goto(link);
  await other.page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.restored), null, {timeout: 3 * TIMEOUT});
  return other;
}

describe('a shared link carries the whole state', () => {
  test('a small paste: every figure of the report, synthetic key, comparison, workload and growth', {timeout: 6 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    let other;
    try {
      await page.fill(byTestId('paste-input'), orders(90));
      assert.equal(await analysisAfter(page, () => page.click(byTestId('analyze-button'))), 'ready');
      await page.fill(byTestId('key-input'), '/tenantId');
      assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
      await setValue(page, 'ru-input', 12_000);
      await setValue(page, 'reads-input', 9_000);
      await setValue(page, 'writes-input', 700);
      await analysisAfter(page, () => page.selectOption(byTestId('spread-select'), 'zipf'));
      await setValue(page, 'zipf-input', 1.4);
      await setValue(page, 'growth-input', 40);
      await page.selectOption(byTestId('synthetic-kind'), 'concat');
      await page.fill(byTestId('synthetic-paths'), '/tenantId, month(/orderDate)');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'ready');
      await page.check(byTestId('view-plain'));
      // A route belongs to the key on show (the synthetic key's cleared it): routed on the plain key.
      await page.fill(byTestId('route-input'), 't3');
      await analysisAfter(page, () => page.press(byTestId('route-input'), 'Enter'));
      for (const [kind, paths] of [['path', '/tenantId'], ['path', '/userId'], ['hierarchical', '/tenantId, /userId']]) {
        await page.selectOption(byTestId('compare-kind'), kind);
        await page.fill(byTestId('compare-paths'), paths);
        await page.click(byTestId('compare-pin'));
      }
      await page.fill(byTestId('compare-queries'), 'SELECT * FROM c WHERE c.tenantId = @t');
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'ready', null, {timeout: TIMEOUT});
      const mine = await figures(page);
      assert.ok(Object.keys(mine).filter((k) => k.startsWith('compare:')).length >= 15, 'the comparison is on show');
      assert.match(mine['route-result'], /A query for "t3"/);
      assert.match(mine['growth-summary'], /Data ×40/);
      assert.equal(mine.view, 'plain');

      const {value: link, status} = await copiedShare(page, 'copy-link', '#pp=');
      assert.match(status, /Link (copied|ready)/);
      other = await openLink(link);
      assert.equal(await other.page.evaluate(() => document.body.dataset.restored), 'done',
                   await other.page.textContent(byTestId('share-status')));
      await other.page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'ready', null, {timeout: TIMEOUT});
      const theirs = await figures(other.page);
      assert.deepEqual(theirs, mine);
      assert.equal(await other.page.inputValue(byTestId('quick-ru-input')), '12000', 'the key bar shows the container\'s RU/s');
      assert.equal(await other.page.inputValue(byTestId('synthetic-paths')), '/tenantId, month(/orderDate)');
      assert.ok(await other.page.isHidden(byTestId('shared-data-note')), 'all the data travelled');
      assert.deepEqual(problems, []);
      assert.deepEqual(other.problems, []);
    } finally {
      await other?.close();
      await close();
    }
  });

  test('a file that does not travel: the opened page names it and shows no figures', {timeout: 4 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    let other;
    let partial;
    try {
      const text = orders(900, 80);
      await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'tenant-export.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(text),
      }));
      await page.fill(byTestId('key-input'), '/userId');
      assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
      await setValue(page, 'ru-input', 30_000);
      await setValue(page, 'reads-input', 2_000);
      await page.uncheck(byTestId('share-include'));
      const {value: link, status} = await copiedShare(page, 'copy-link', '#pp=');
      assert.match(status, /carries no data: tenant-export\.ndjson stays on this machine/);

      other = await openLink(link);
      assert.equal(await other.page.evaluate(() => document.body.dataset.restored), 'done');
      const note = other.page.locator(byTestId('shared-data-note'));
      assert.ok(await note.isVisible());
      assert.equal(await note.getAttribute('data-missing'), 'true');
      assert.match(await note.textContent(), /shared from tenant-export\.ndjson \([\d.]+ KB\), which stays on the sharer's machine.*no figures are shown/);
      // Nothing stands in for the data: no results, and the example selector does not name an example.
      assert.ok(await other.page.isHidden(byTestId('results')), 'no figures of another data set');
      assert.equal(await other.page.inputValue(byTestId('example-select')), '');
      // The key and every setting as shared; the key bar agrees with the container section.
      assert.equal(await other.page.inputValue(byTestId('key-input')), '/userId');
      assert.equal(await other.page.inputValue(byTestId('ru-input')), '30000');
      assert.equal(await other.page.inputValue(byTestId('quick-ru-input')), '30000');
      assert.equal(await other.page.inputValue(byTestId('reads-input')), '2000');
      // Applying the key with no data reads nothing (the note stays).
      await other.page.press(byTestId('key-input'), 'Enter');
      assert.ok(await other.page.isHidden(byTestId('results')));
      assert.ok(await note.isVisible());

      // Ticked: the first items travel, and the opened page says its figures are of those only.
      await page.check(byTestId('share-include'));
      const withData = await copiedShare(page, 'copy-link', '#pp=');
      const carried = Number(withData.status.match(/It carries the first (\d+) items/)[1]);
      partial = await openLink(withData.value);
      const partialNote = partial.page.locator(byTestId('shared-data-note'));
      assert.equal(await partialNote.getAttribute('data-missing'), 'false');
      assert.match(await partialNote.textContent(), new RegExp(`carries the first ${carried} items of tenant-export\\.ndjson`));
      assert.equal(Number(await partial.page.getAttribute(byTestId('summary-items'), 'data-value')), carried);
      assert.deepEqual(problems, []);
    } finally {
      await partial?.close();
      await other?.close();
      await close();
    }
  });
  test('a Sizing link: the schema, table, settings, averages and splits, and every figure', {timeout: 4 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    let other;
    const view = byTestId('sizing-view');
    const runs = (p) => p.$eval(view, (v) => Number(v.dataset.sizingRuns ?? 0));
    const settled = (p, after) => p.waitForFunction((r) => {
      const v = document.getElementById('sizing-view');
      return Number(v.dataset.sizingRuns) > r && v.dataset.sizingState !== 'busy';
    }, after, {timeout: TIMEOUT});
    /** The sizing figures on show: each data-value of the result, the options and the growth. */
    const sizingFigures = (p) => p.evaluate(() => Object.fromEntries(
      [...document.querySelectorAll('#sizing-view [data-testid][data-value]')].filter((n) => n.getClientRects().length)
        .map((n, i) => [`${n.dataset.testid}:${i}`, n.dataset.value])));
    try {
      await page.click(byTestId('mode-sizing'));
      await settled(page, 0);
      const schema = `CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE iot.readings (sensor text, day date, ts timestamp, note text, value double,
  PRIMARY KEY ((sensor, day), ts)) WITH CLUSTERING ORDER BY (ts ASC);`;
      let n = await runs(page);
      await page.fill(byTestId('sizing-cql'), schema);
      await settled(page, n);
      for (const [testid, v] of [['sizing-rows', '86400'], ['sizing-partitions', '5000'], ['sizing-growth-rows', '1440'],
        ['avg-size-sensor', '12'], ['avg-size-note', '40']]) {
        n = await runs(page);
        await page.fill(byTestId(testid), v);
        await settled(page, n);
      }
      n = await runs(page);
      await page.selectOption(byTestId('split-kind'), 'hash_bucket');
      await page.fill(byTestId('split-buckets'), '8');
      await page.click(byTestId('split-add'));
      await settled(page, n);
      const mine = await sizingFigures(page);
      assert.ok(Object.keys(mine).length >= 10, JSON.stringify(mine));
      assert.equal(await page.locator(byTestId('split-item')).count(), 1);

      await page.evaluate(() => { document.querySelector('#share-output').value = ''; });
      await page.click(byTestId('copy-link'));
      await page.waitForFunction(() => document.querySelector('#share-output').value.includes('#pp='), null, {timeout: TIMEOUT});
      other = await openLink(await page.inputValue(byTestId('share-output')));
      assert.equal(await other.page.evaluate(() => document.body.dataset.restored), 'done',
                   await other.page.textContent(byTestId('share-status')));
      assert.equal(await other.page.evaluate(() => document.body.dataset.mode), 'sizing');
      assert.equal(await other.page.inputValue(byTestId('sizing-cql')), schema);
      assert.equal(await other.page.inputValue(byTestId('sizing-rows')), '86400');
      assert.equal(await other.page.inputValue(byTestId('avg-size-note')), '40');
      assert.equal(await other.page.locator(byTestId('split-item')).count(), 1);
      assert.deepEqual(await sizingFigures(other.page), mine);
      // The snippet sizes the same table of the same schema at the same rows.
      await page.click(byTestId('copy-embed'));
      await page.waitForFunction(() => document.querySelector('#share-output').value.includes('<partition-playground'));
      const snippet = await page.inputValue(byTestId('share-output'));
      assert.match(snippet, /<partition-playground mode="sizing" table="iot\.readings" rows-per-partition="86400">\s*<script type="text\/cql">/);
      assert.ok(snippet.includes('CREATE TABLE iot.readings'));
      assert.deepEqual(problems, []);
      assert.deepEqual(other.problems, []);
    } finally {
      await other?.close();
      await close();
    }
  });
});
