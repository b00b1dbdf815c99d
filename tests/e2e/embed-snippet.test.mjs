// Issue 40, friction 2: "Copy embed snippet" writes what the page shows. With a container, a
// workload, growth, the applied synthetic key beside the plain one and a comparison run, the
// snippet on a page of its own draws the plain and the synthetic key side by side, each with its
// map and histogram, and the comparison's table, every figure equal to the page's.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, figure, openPage, useBrowser} from './harness.mjs';

useBrowser();

async function setValue(page, testid, value) {
  if (Number(await page.inputValue(byTestId(testid))) === value) return;
  await analysisAfter(page, async () => {
    await page.fill(byTestId(testid), String(value));
    await page.press(byTestId(testid), 'Enter');
  });
}

describe('the embed snippet is what the page shows', () => {
  test('a synthetic key beside the plain one, with charts and the comparison', {timeout: 4 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    let other;
    try {
      assert.equal(await analysisAfter(page, () => page.selectOption(byTestId('example-select'), 'vehicles')), 'ready');
      await setValue(page, 'ru-input', 40_000);
      await setValue(page, 'reads-input', 20_000);
      await setValue(page, 'growth-input', 5);
      // The example suggests /date + hash(/vin) mod 400.
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'ready');
      const plain = Number(await page.getAttribute(byTestId('compare-partitions-plain'), 'data-value'));
      const synthetic = Number(await page.getAttribute(byTestId('compare-partitions-synthetic'), 'data-value'));
      assert.ok(synthetic > plain);
      await page.check(byTestId('view-plain'));
      const throttled = await figure(page, 'throttled-total');
      for (const spec of ['/date', '/vin']) {
        await page.selectOption(byTestId('compare-kind'), 'path');
        await page.fill(byTestId('compare-paths'), spec);
        await page.click(byTestId('compare-pin'));
      }
      await page.fill(byTestId('compare-queries'), '/vin\nSELECT * FROM c WHERE c.date = @d');
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'ready', null, {timeout: TIMEOUT});
      const logical = Object.fromEntries(await page.$$eval(`${byTestId('compare-table')} tbody tr`, (trs) =>
        trs.map((tr) => [tr.dataset.key, Number(tr.querySelector('[data-col="logical"]').dataset.value)])));

      await page.evaluate(() => { document.querySelector('#share-output').value = ''; });
      await page.click(byTestId('copy-embed'));
      await page.waitForFunction(() => document.querySelector('#share-output').value.includes('<partition-playground'));
      const snippet = await page.inputValue(byTestId('share-output'));
      assert.match(await page.textContent(byTestId('share-status')), /The comparison's 1 SQL query is left out/);
      assert.match(snippet, /key="hash:\/date:\/vin:400"/);
      assert.match(snippet, /view="summary map histogram"/);
      assert.match(snippet, /reads="20000"/);
      assert.match(snippet, /growth="5"/);
      assert.match(snippet, /compare="\/date; \/vin"/);
      assert.equal((snippet.match(/<partition-playground /g) ?? []).length, 3);

      other = await openPage({viewport: {width: 1366, height: 900}});
      const url = new URL('snippet-page.html', page.url()).href;
      await other.page.route(url, (route) => route.fulfill({contentType: 'text/html', body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>snippet</title></head><body><main>${snippet}</main></body></html>`}));
      await other.page.goto(url);
      await other.page.waitForFunction(() => [...document.querySelectorAll('partition-playground')].every((e) => e.dataset.state === 'ready'),
                                       null, {timeout: 3 * TIMEOUT});
      const elements = other.page.locator('partition-playground');
      // Side by side: the plain key left of the synthetic key, on one row.
      const [a, b] = [await elements.nth(0).boundingBox(), await elements.nth(1).boundingBox()];
      assert.ok(b.x > a.x + a.width - 1 && Math.abs(a.y - b.y) < 2, 'the pair sits side by side');
      assert.equal(Number(await elements.nth(0).getAttribute('data-partitions')), plain);
      assert.equal(Number(await elements.nth(1).getAttribute('data-partitions')), synthetic);
      for (const i of [0, 1]) {
        const charts = await elements.nth(i).evaluate((el) => ['map', 'histogram'].map((id) =>
          el.shadowRoot.querySelectorAll(`[data-testid="${id}"] svg`).length));
        assert.deepEqual(charts, [1, 1], 'each draws its map and histogram');
      }
      const shownThrottled = await elements.nth(0).evaluate((el) =>
        Number(el.shadowRoot.querySelector('[data-testid="figure-throttled-demand"] dd').dataset.value));
      assert.equal(shownThrottled, throttled, 'the same workload and container: the same throttling');
      const table = Object.fromEntries(await elements.nth(2).evaluate((el) =>
        [...el.shadowRoot.querySelectorAll('[data-testid="compare-table"] tbody tr')].map((tr) =>
          [tr.cells[1].textContent, Number(tr.cells[2].textContent.replace(/,/g, ''))])));
      assert.deepEqual(table, logical);
      assert.deepEqual(problems, []);
      assert.deepEqual(other.problems, []);
    } finally {
      await other?.close();
      await close();
    }
  });
});
