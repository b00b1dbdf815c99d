// Sharing never drops data silently (issue 18): with data from a file, "Copy link" says what the
// link carries — the first items, up to 16 KB, or no data at all when the user says so — and the
// link restores exactly those items; the snippet box shows a snippet's lines, so a copied CQL
// script keeps them.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, copiedShare, figure, openPage, useBrowser} from './harness.mjs';

useBrowser();

function orders(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({id: `o${i}`, tenantId: `t${i % 13}`, note: 'n'.repeat(60)}));
  }
  return `${lines.join('\n')}\n`;
}

describe('sharing data from a file', () => {
  test('the link carries the first items and says so; unticked, it says it carries none', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    let other;
    try {
      assert.ok(await page.isHidden(byTestId('share-include-label')), 'no data choice for an example');
      await page.fill(byTestId('key-input'), '/tenantId');
      const text = orders(600);  // ~57 KB: more than a link holds
      await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'orders.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(text),
      }));
      assert.ok(await page.isVisible(byTestId('share-include-label')));
      const {value: link, status} = await copiedShare(page, 'copy-link', '#pp=');
      const m = status.match(/It carries the first (\d+) items of orders\.ndjson \(([\d.]+ KB) of ([\d.]+ KB)\), not the whole data\./);
      assert.ok(m, status);
      const carried = Number(m[1]);
      assert.ok(carried > 100 && carried < 600, `${carried} items`);
      // The link restores exactly those items.
      other = await openPage();
      await other.page.waitForLoadState('networkidle');
      await other.page.goto('about:blank');
      await other.page.goto(link);
      await other.page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.restored), null, {timeout: TIMEOUT});
      assert.equal(await other.page.evaluate(() => document.body.dataset.restored), 'done');
      assert.equal(await figure(other.page, 'summary-items'), carried);
      assert.equal(await other.page.inputValue(byTestId('key-input')), '/tenantId');
      assert.equal(await figure(other.page, 'summary-partitions'), 13);

      // Unticked: the link says it carries no data.
      await page.uncheck(byTestId('share-include'));
      const bare = await copiedShare(page, 'copy-embed', '<partition-playground');
      assert.match(bare.status, /It carries no data: orders\.ndjson stays on this machine/);
      assert.doesNotMatch(bare.value, /application\/json/);
      // Ticked again, the snippet carries the items inline.
      await page.check(byTestId('share-include'));
      const withData = await copiedShare(page, 'copy-embed', 'application/json');
      assert.match(withData.status, /It carries the first \d+ items/);
      assert.deepEqual(problems, []);
    } finally {
      await other?.close();
      await close();
    }
  });

  test('a copied CQL script keeps its lines in the snippet box', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.click(byTestId('mode-cassandra'));
      await page.waitForFunction(() => {
        const node = document.querySelector('[data-testid="cassandra-view"]');
        return node && Number(node.dataset.cqlRuns ?? 0) >= 1 && node.dataset.cqlState !== 'busy';
      }, null, {timeout: TIMEOUT});
      const script = await page.inputValue('#cql-editor');
      const lines = script.split('\n').length;
      assert.ok(lines > 3);
      const {value} = await copiedShare(page, 'copy-embed', '<partition-playground');
      assert.ok(value.split('\n').length >= lines, 'the snippet keeps the script\'s lines');
      assert.equal(await page.$eval('#share-output', (n) => n.tagName), 'TEXTAREA');
      assert.ok(await page.$eval('#share-output', (n) => n.rows) > 1, 'the box shows several lines');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
