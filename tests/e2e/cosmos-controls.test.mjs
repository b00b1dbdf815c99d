// Issue 40, friction 6: the Cosmos DB controls while working. While a file loads, the candidate
// table no longer lists the previous data's paths; the key field shows a whole hierarchical key;
// the comparison table keeps its key column in view when scrolled sideways; its problems column
// says what the problems are, not a bare count.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, openPage, useBrowser} from './harness.mjs';

useBrowser();

function items(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({id: `i${i}`, tenantId: `t${i % 40}`, userId: `u${i % 333}`, sessionId: `s${i}`,
                               total: (i % 97) + 0.5, flag: i % 2 === 0}));
  }
  return `${lines.join('\n')}\n`;
}

describe('the Cosmos DB controls', () => {
  test('a loading file clears the previous paths; a hierarchical key fits its field', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      const paths = async () => page.$$eval(`${byTestId('candidate-rows')} tr`, (trs) => trs.map((tr) => tr.dataset.path));
      assert.ok((await paths()).includes('/customerId'), 'the example\'s paths at first');
      // A file big enough to take a while: what the page shows while it loads.
      let seen;
      assert.equal(await analysisAfter(page, async () => {
        await page.setInputFiles(byTestId('file-input'), {name: 'sessions.ndjson', mimeType: 'application/x-ndjson',
                                                           buffer: Buffer.from(items(150_000))});
        seen = await page.evaluate(() => ({
          state: document.body.dataset.state,
          paths: [...document.querySelectorAll('[data-testid="candidate-rows"] tr')].map((tr) => tr.dataset.path),
          note: document.querySelector('[data-testid="candidates-note"]').textContent,
        }));
      }), 'ready');
      assert.equal(seen.state, 'busy', 'looked at while the file loads');
      assert.deepEqual(seen.paths, [], 'no path of the previous data while the file loads');
      assert.match(seen.note, /reading sessions\.ndjson/);
      const after = await paths();
      assert.ok(after.includes('/sessionId') && !after.includes('/customerId'), after.join(' '));

      // A three-level key is read whole in its field.
      const key = '/tenantId, /userId, /sessionId';
      await page.fill(byTestId('key-input'), key);
      const fits = await page.$eval(byTestId('key-input'), (input) => input.scrollWidth <= input.clientWidth);
      assert.ok(fits, 'the whole key shows');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the comparison keeps its key column in view and names its problems', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 390, height: 844}});
    try {
      assert.equal(await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'sessions.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(items(2000))})), 'ready');
      for (const path of ['/tenantId', '/total', '/flag']) {
        await page.selectOption(byTestId('compare-kind'), 'path');
        await page.fill(byTestId('compare-paths'), path);
        await page.click(byTestId('compare-pin'));
      }
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'ready', null, {timeout: TIMEOUT});
      const wrap = page.locator(`${byTestId('compare-table')} >> xpath=..`);
      const before = await page.$eval(`${byTestId('compare-table')} tbody th[data-col="key"]`, (th) => {
        th.scrollIntoView({block: 'center'});
        return th.getBoundingClientRect().left;
      });
      await wrap.evaluate((node) => { node.scrollLeft = node.scrollWidth; });
      const scrolled = await wrap.evaluate((node) => node.scrollLeft);
      assert.ok(scrolled > 100, `the table scrolls sideways on a phone (${scrolled})`);
      const key = await page.$eval(`${byTestId('compare-table')} tbody th[data-col="key"]`, (th) => {
        const r = th.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
        return {left: r.left, onTop: th.contains(hit)};
      });
      const edge = await wrap.evaluate((node) => node.getBoundingClientRect().left);
      assert.ok(before > edge, 'the rank column comes first');
      assert.ok(Math.abs(key.left - edge) <= 2, `the key column holds at the table's left edge (${key.left} vs ${edge})`);
      assert.ok(key.onTop, 'and is not covered by the scrolled cells');
      // Problems in words: /total looks like a measure, /flag has two values.
      const cells = Object.fromEntries(await page.$$eval(`${byTestId('compare-table')} tbody tr`, (trs) =>
        trs.map((tr) => [tr.dataset.key, tr.querySelector('[data-col="problems"]').textContent])));
      assert.doesNotMatch(cells['/total'], /^\d+$/);
      assert.match(cells['/total'], /measure/);
      assert.match(cells['/flag'], /\d+ distinct value|values/);
      assert.match(cells['/tenantId'], /only 40 distinct values/);
      // Each problem is said, and the count stays the cell's value (the column sorts by it).
      for (const [count, text] of await page.$$eval(`${byTestId('compare-table')} tbody [data-col="problems"]`,
        (tds) => tds.map((td) => [Number(td.dataset.value), td.textContent]))) {
        assert.equal(count === 0 ? text : text.split('; ').length >= count, count === 0 ? 'none' : true, text);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
