// Issue 40, friction 4: "tenant + month of orderDate". A synthetic key's part may take a piece of
// a value (the year, month, day or hour of an ISO-8601 or epoch time, LEFT, SUBSTRING), in the
// synthetic-key form and in the key comparison alike; a value a part cannot read leaves its item
// in the undefined partition (counted, never dropped), and a part the engine does not know is an
// error naming it. The expected partitions are computed here from the items, independently.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, figure, openPage, useBrowser} from './harness.mjs';

useBrowser();

/** 600 orders of 12 tenants over five months; every 50th order's date is epoch milliseconds, one is "soon". */
function orders() {
  const items = [];
  for (let i = 0; i < 600; i++) {
    const tenant = `t${i % 12}`;
    const ms = Date.UTC(2024, 0, 1) + i * 6 * 3600 * 1000 + (i % 7) * 60000;  // 6 hours apart: 150 days
    const orderDate = i === 77 ? 'soon' : i % 50 === 0 ? ms : new Date(ms).toISOString();
    items.push({id: `o${i}`, tenantId: tenant, orderDate, sku: `SKU-${i % 9}-${i % 5}`});
  }
  return items;
}

/** The month bucket as the engine builds it: YYYY-MM of the UTC time, or null (no key). */
function monthOf(value) {
  const d = typeof value === 'number' ? new Date(value) : /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
  if (d === null || Number.isNaN(d.getTime())) return null;
  return d.toISOString().slice(0, 7);
}

describe('synthetic keys from pieces of values', () => {
  test('tenant + month of orderDate, in the form and in the comparison', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      const items = orders();
      const ndjson = `${items.map((i) => JSON.stringify(i)).join('\n')}\n`;
      assert.equal(await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'tenant-orders.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(ndjson),
      })), 'ready');
      await page.fill(byTestId('key-input'), '/tenantId');
      assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');

      const keys = new Set();
      let undefinedItems = 0;
      for (const item of items) {
        const month = monthOf(item.orderDate);
        if (month === null) undefinedItems++;
        else keys.add(`${item.tenantId}-${month}`);
      }
      assert.equal(undefinedItems, 1);
      assert.equal(keys.size, 12 * 5);

      await page.selectOption(byTestId('synthetic-kind'), 'concat');
      assert.match(await page.getAttribute(byTestId('synthetic-paths'), 'placeholder'), /month\(\/orderDate\)/);
      await page.fill(byTestId('synthetic-paths'), '/tenantId, month(/orderDate)');
      await page.fill(byTestId('synthetic-separator'), '-');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'ready');
      const count = async (side) => Number(await page.getAttribute(byTestId(`compare-partitions-${side}`), 'data-value'));
      assert.equal(await count('plain'), 12);
      // The undefined partition ({}) holds the one order dated "soon".
      assert.equal(await count('synthetic'), keys.size + 1);
      assert.equal(await figure(page, 'summary-undefined'), undefinedItems);
      assert.match(await page.textContent(byTestId('synthetic-examples')), /t\d+-2024-0[1-5]/);

      // A piece the engine does not know: its error names the part.
      await page.fill(byTestId('synthetic-paths'), '/tenantId, week(/orderDate)');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'error');
      assert.match(await page.textContent(byTestId('error-message')), /week\(\/orderDate\).*month\(\/PATH\)/);

      // The same key pinned in the comparison beside the tenant alone and the SKU's first 5 letters.
      for (const [kind, paths] of [['path', '/tenantId'], ['concat', '/tenantId, month(/orderDate)'],
        ['concat', '/tenantId, left(/sku, 5)']]) {
        await page.selectOption(byTestId('compare-kind'), kind);
        if (kind === 'concat') assert.match(await page.getAttribute(byTestId('compare-paths'), 'placeholder'), /month\(/);
        await page.fill(byTestId('compare-paths'), paths);
        await page.click(byTestId('compare-pin'));
      }
      assert.ok(await page.isHidden(byTestId('compare-form-error')));
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('[data-testid="compare-root"]').dataset.state),
                                 null, {timeout: TIMEOUT});
      assert.equal(await page.getAttribute(byTestId('compare-root'), 'data-state'), 'ready',
                   await page.textContent(byTestId('compare-form-error')));
      const rows = await page.$$eval(`${byTestId('compare-table')} tbody tr`, (trs) => Object.fromEntries(trs.map((tr) => [
        tr.dataset.key, Object.fromEntries([...tr.children].map((c) => [c.dataset.col, c.dataset.value]))])));
      assert.equal(Number(rows['/tenantId-month(/orderDate)'].logical), keys.size + 1);
      // "SKU-0".."SKU-8": the tenant-prefix pairs the orders hold.
      const prefixes = new Set(items.map((i) => `${i.tenantId}-${i.sku.slice(0, 5)}`));
      assert.equal(Number(rows['/tenantId-left(/sku, 5)'].logical), prefixes.size);
      const whole = new Set(items.map((i) => `${i.tenantId}-${i.sku}`));
      assert.ok(prefixes.size < whole.size, 'the whole SKU would make more keys: LEFT cut it');
      assert.equal(Number(rows['/tenantId'].logical), 12);
      assert.deepEqual(problems.filter((p) => !/week\(/.test(p)), []);
    } finally {
      await close();
    }
  });
});
