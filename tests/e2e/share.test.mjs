// End-to-end tests of the full page's "Copy link" and "Copy embed snippet" (web/embed-share.js),
// in Debian's Chromium against build/site (run `make site` first): a copied link opened in a new
// page restores the same view (mode, key, hash version, RU/s, counts; a Cassandra script and its
// results, or its example when the script was too long to travel); the copied snippet, put on a
// page of its own, shows the same partitions.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {encodeState} from '../../web/common/embed-share.js';
import {TIMEOUT, byTestId, examplesDir, expectedPartitions, exampleItems, figure, openPage, useBrowser} from './harness.mjs';

useBrowser();

async function settle(page, n) {
  await page.waitForFunction((runs) => Number(document.body.dataset.runs ?? 0) > runs && document.body.dataset.state !== 'busy',
                             n, {timeout: TIMEOUT});
}
const runs = (page) => page.evaluate(() => Number(document.body.dataset.runs ?? 0));

async function copiedLink(page) {
  await page.click(byTestId('copy-link'));
  await page.waitForFunction(() => document.querySelector('#share-output').value.includes('#pp='), null, {timeout: TIMEOUT});
  return page.inputValue(byTestId('share-output'));
}

/** Opens `link` in a fresh page (a real load, not a same-document hash change) and waits for the restore. */
async function openLink(link) {
  const opened = await openPage();
  // Leave only once the page's own background fetches are done (an aborted one counts as failed).
  await opened.page.waitForLoadState('networkidle');
  await opened.page.goto('about:blank');
  await opened.page.goto(link);
  await opened.page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.restored), null, {timeout: TIMEOUT});
  assert.equal(await opened.page.evaluate(() => document.body.dataset.restored), 'done');
  return opened;
}

describe('shareable state', () => {
  test('a Cosmos DB link restores the same view in a new page; the snippet shows the same partitions', async () => {
    const {page, problems, close} = await openPage();
    let other;
    try {
      // Orders, keyed by /address/city, hash V1, 12,000 RU/s.
      await page.selectOption(byTestId('hash-version'), '1');
      await page.fill(byTestId('ru-input'), '12000');
      await page.fill(byTestId('key-input'), '/address/city');
      const n = await runs(page);
      await page.press(byTestId('key-input'), 'Enter');
      await settle(page, n);
      await page.waitForTimeout(800);  // a debounced settings change may start one more run
      await page.waitForFunction(() => document.body.dataset.state !== 'busy', null, {timeout: TIMEOUT});
      const expected = expectedPartitions(exampleItems('orders'), ['/address/city']);
      assert.equal(await figure(page, 'summary-partitions'), expected.partitions);

      const link = await copiedLink(page);
      assert.ok(link.startsWith(new URL('/', page.url()).href), link);
      other = await openLink(link);
      const p2 = other.page;
      assert.equal(await p2.inputValue(byTestId('example-select')), 'orders');
      assert.equal(await p2.inputValue(byTestId('key-input')), '/address/city');
      assert.equal(await p2.inputValue(byTestId('hash-version')), '1');
      assert.equal(await p2.inputValue(byTestId('ru-input')), '12000');
      for (const id of ['summary-partitions', 'summary-items', 'summary-undefined', 'summary-invalid']) {
        assert.equal(await figure(p2, id), await figure(page, id), id);
      }
      assert.deepEqual(other.problems, []);

      // The embed snippet, on a page of its own (same origin), shows the same partition count.
      await page.click(byTestId('copy-embed'));
      await page.waitForFunction(() => document.querySelector('#share-output').value.includes('<partition-playground'));
      const snippet = await page.inputValue(byTestId('share-output'));
      assert.match(snippet, /<partition-playground mode="cosmos" example="orders" key="\/address\/city" hash-version="1" ru="12000"[^>]* view="summary map histogram">/);
      const snippetUrl = new URL('snippet-test.html', page.url()).href;
      await p2.route(snippetUrl, (route) => route.fulfill({contentType: 'text/html', body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>snippet</title></head><body><main>${snippet}</main></body></html>`}));
      await p2.waitForLoadState('networkidle');
      await p2.goto(snippetUrl);
      await p2.waitForFunction(() => document.querySelector('partition-playground')?.dataset.state === 'ready', null, {timeout: TIMEOUT});
      assert.equal(await p2.$eval('partition-playground', (el) => Number(el.dataset.partitions)), expected.partitions);
      assert.equal(await p2.$eval('partition-playground', (el) => el.shadowRoot.querySelectorAll('[data-testid="map-table"] tbody tr').length),
                   2, 'ceil(12,000 / 6,000) physical partitions (the creation rule)');
      assert.deepEqual(other.problems, []);
      assert.deepEqual(problems, []);
    } finally {
      await other?.close();
      await close();
    }
  });

  test('a Cassandra link restores the script and its results', async () => {
    const {page, problems, close} = await openPage();
    let other;
    try {
      await page.click(byTestId('mode-cassandra'));
      const panel = byTestId('cassandra-view');
      const idle = (n) => page.waitForFunction(({sel, n}) => {
        const node = document.querySelector(sel);
        return Number(node.dataset.cqlRuns ?? 0) > n && node.dataset.cqlPending === '0' && node.dataset.cqlState !== 'busy';
      }, {sel: panel, n}, {timeout: TIMEOUT});
      await idle(0);
      const script = `CREATE KEYSPACE s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE s.t (k text, c int, PRIMARY KEY (k, c));
INSERT INTO s.t (k, c) VALUES ('a', 2);
INSERT INTO s.t (k, c) VALUES ('a', 1);
INSERT INTO s.t (k, c) VALUES ('b', 1);
SELECT k, c FROM s.t;`;
      await page.fill(byTestId('cql-editor'), script);
      const n = await page.$eval(panel, (node) => Number(node.dataset.cqlRuns));
      await page.click(byTestId('cql-run'));
      await idle(n);
      const rowsOf = (p) => p.$$eval(`${byTestId('cassandra-view')} table.cql-rows tbody tr`,
                                     (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
      const before = await rowsOf(page);
      assert.equal(before.length, 3);

      const link = await copiedLink(page);
      other = await openLink(link);
      assert.equal(await other.page.evaluate(() => document.body.dataset.mode), 'cassandra');
      assert.equal(await other.page.inputValue(byTestId('cql-editor')), script);
      assert.deepEqual(await rowsOf(other.page), before);
      assert.deepEqual(other.problems, []);
      assert.deepEqual(problems, []);
    } finally {
      await other?.close();
      await close();
    }
  });

  test('a Cassandra link whose script was too long to inline restores its example', async () => {
    const {page, close} = await openPage();
    const base = page.url().split('#')[0];
    await close();
    // What the page writes when the editor holds more than fits in a link: the example's id, no script.
    const script = readFileSync(join(examplesDir, 'cql', 'uprofile-composite-key.cql'), 'utf8');
    const other = await openLink(`${base}${await encodeState({m: 'cassandra', e: 'uprofile-composite-key', n: 4})}`);
    try {
      const p2 = other.page;
      assert.equal(await p2.evaluate(() => document.body.dataset.mode), 'cassandra');
      assert.equal(await p2.inputValue(byTestId('cql-example')), 'uprofile-composite-key');
      assert.equal(await p2.inputValue(byTestId('cql-editor')), script);
      assert.equal(await p2.inputValue(byTestId('ring-nodes')), '4');
      assert.ok(await p2.$$eval(`${byTestId('cassandra-view')} table.cql-rows tbody tr`, (trs) => trs.length) > 0,
                'the example ran');
      assert.deepEqual(other.problems, []);
    } finally {
      await other.close();
    }
  });

  test('a link naming a CQL example the page does not have says so', async () => {
    const {page, close} = await openPage();
    const base = page.url().split('#')[0];
    await close();
    const opened = await openPage();
    try {
      await opened.page.waitForLoadState('networkidle');
      await opened.page.goto('about:blank');
      await opened.page.goto(`${base}${await encodeState({m: 'cassandra', e: 'no-such-example'})}`);
      await opened.page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.restored), null,
                                        {timeout: TIMEOUT});
      assert.equal(await opened.page.evaluate(() => document.body.dataset.restored), 'failed');
      assert.equal(await opened.page.textContent(byTestId('share-status')),
                   'The link could not be restored: this page has no CQL example "no-such-example"');
      assert.deepEqual(opened.problems, []);
    } finally {
      await opened.close();
    }
  });
});
