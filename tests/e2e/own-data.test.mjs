// Issue 18's first frictions: data loaded from a file starts from its own paths (the previous
// example's key must not put every item in the undefined partition), the candidate paths come
// most suitable first and all of them are listed, and no workload is assumed until the user gives
// one (throttling only against numbers the user chose).
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, figure, openPage, useBrowser} from './harness.mjs';

useBrowser();

/** Orders of 60 tenants (one holds a third), users inside tenants, an amount with cents. */
function orders(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const tenant = i % 3 === 0 ? 0 : 1 + (i % 59);
    lines.push(JSON.stringify({id: `o${i}`, tenantId: `t${tenant}`, userId: `t${tenant}-u${i % 211}`,
                               total: (i % 997) + 0.25, status: ['new', 'paid'][i % 2]}));
  }
  return `${lines.join('\n')}\n`;
}

describe('own data', () => {
  test('a loaded file drops the example\'s key for the advisor\'s pick, and says so', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      assert.equal(await page.inputValue(byTestId('key-input')), '/customerId', 'the example\'s key at first');
      const state = await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'orders-export.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(orders(3000)),
      }));
      assert.equal(state, 'ready');
      const key = await page.inputValue(byTestId('key-input'));
      assert.notEqual(key, '/customerId');
      // No undefined trap: every item holds the key in use.
      assert.equal(await figure(page, 'summary-undefined'), 0);
      assert.equal(await figure(page, 'summary-items'), 3000);
      const note = await page.textContent(byTestId('key-pick-note'));
      assert.ok(await page.isVisible(byTestId('key-pick-note')));
      assert.match(note, new RegExp(`Picked by the key advisor for this data: ${key.replace(/[/]/g, '\\/')} \\(`));
      // The list: most suitable first (the pick on top), every path listed, verdicts shown.
      const rows = page.locator(`${byTestId('candidate-rows')} tr`);
      assert.equal(await rows.first().getAttribute('data-path'), key);
      const paths = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.path));
      for (const p of ['/id', '/tenantId', '/userId', '/total', '/status']) assert.ok(paths.includes(p), `${p} listed`);
      const verdicts = Object.fromEntries(await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.path, tr.lastElementChild.textContent])));
      assert.equal(verdicts['/total'], 'poor', '/total is an amount, not an identifier');
      assert.notEqual(verdicts['/status'], 'good', 'two values are too few');

      // A key the user types is kept for the next file.
      await page.fill(byTestId('key-input'), '/tenantId');
      await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter'));
      assert.ok(await page.isHidden(byTestId('key-pick-note')), 'the note goes with a typed key');
      await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'more.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(orders(500)),
      }));
      assert.equal(await page.inputValue(byTestId('key-input')), '/tenantId');
      assert.equal(await figure(page, 'summary-partitions'), 60);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('pasted data starts from its own paths too', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.fill(byTestId('paste-input'), orders(400));
      assert.equal(await analysisAfter(page, () => page.click(byTestId('analyze-button'))), 'ready');
      assert.notEqual(await page.inputValue(byTestId('key-input')), '/customerId');
      assert.equal(await figure(page, 'summary-undefined'), 0);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('no workload is assumed: no throttling until the user gives request rates', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      assert.equal(await page.inputValue(byTestId('reads-input')), '0');
      assert.equal(await page.getAttribute(byTestId('demand-total-sub'), 'data-workload'), 'none');
      assert.match(await page.textContent(byTestId('demand-total-sub')), /No request rates given/);
      assert.equal(await figure(page, 'throttled-total'), 0);
      assert.equal(await figure(page, 'hot-count'), 0);
      await page.fill(byTestId('reads-input'), '3000');
      await analysisAfter(page, () => page.press(byTestId('reads-input'), 'Enter'));
      assert.equal(await page.getAttribute(byTestId('demand-total-sub'), 'data-workload'), 'given');
      assert.ok(await figure(page, 'throttled-total') > 0, '3,000 reads/s at 400 RU/s throttle');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
