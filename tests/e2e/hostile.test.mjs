// End-to-end tests of the page against hostile links and snippets, and of its security headers,
// in Debian's Chromium against build/site (run `make site` first): a #pp= link that inflates far
// past the link budget is refused with a clear message and the page keeps working; an embed
// snippet whose inline data holds "<!--<script>" and "</script>" does not swallow the host page
// and analyses the same bytes; the page and its worker run under serve.mjs's
// Content-Security-Policy (no 'unsafe-eval') with no violation. The time a bomb link takes to be
// refused is printed as a test diagnostic, never asserted.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {deflateRawSync} from 'node:zlib';
import {CONTENT_SECURITY_POLICY} from '../../scripts/serve.mjs';
import {formatBytes} from '../../web/common/format.js';
import {TIMEOUT, analysisAfter, byTestId, cqlAfter, expectReadyWith, expectedPartitions, exampleItems, openPage,
        parseItems, partitionsBySize, siteRoot, useBrowser} from './harness.mjs';

useBrowser();

/** A #pp= link of `chars` characters of one letter as a Cassandra script. */
function bombLink(base, chars) {
  const json = Buffer.concat([Buffer.from('{"m":"cassandra","s":"'), Buffer.alloc(chars, 0x61), Buffer.from('"}')]);
  return `${base}#pp=${deflateRawSync(json, {level: 9}).toString('base64url')}`;
}

/** Opens `link` as a real load and waits until the page says whether it restored it. */
async function openLink(link) {
  const opened = await openPage();
  await opened.page.waitForLoadState('networkidle');
  await opened.page.goto('about:blank');
  // What the first page still had in flight (an engine module it was warming) is aborted by this
  // navigation, on purpose: only the link's page is judged (seen once, a clean clone under load).
  opened.problems.length = 0;
  const started = Date.now();
  await opened.page.goto(link);
  await opened.page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.restored), null,
                                    {timeout: TIMEOUT});
  const ms = Date.now() - started;
  // The page's first analysis goes on whatever the link did; let it finish before driving the page.
  await opened.page.waitForFunction(() => Number(document.body.dataset.runs ?? 0) >= 1 && document.body.dataset.state !== 'busy',
                                    null, {timeout: TIMEOUT});
  return {...opened, ms};
}

describe('hostile links and snippets', {timeout: 10 * TIMEOUT}, () => {
  for (const [chars, pattern] of [
    [20_000_000, /^The link could not be restored: the link unpacks to more than 64 KiB/],
    [100_000_000, /^The link could not be restored: the link is \d+ characters long, longer than any link this page writes/],
  ]) {
    test(`a link inflating to ${chars / 1e6} M characters is refused and the page still works`, {timeout: 3 * TIMEOUT},
         async (t) => {
      const start = await openPage();
      const base = start.page.url().split('#')[0];
      await start.close();
      const link = bombLink(base, chars);
      const {page, problems, close, ms} = await openLink(link);
      try {
        t.diagnostic(`${link.length - base.length} characters of link refused ${ms} ms after navigation started`);
        assert.equal(await page.evaluate(() => document.body.dataset.restored), 'failed');
        assert.match(await page.textContent(byTestId('share-status')), pattern);
        // The page still works: the Cosmos DB view analyses, the Cassandra mode did not get the script.
        const items = exampleItems('orders');
        await page.fill(byTestId('key-input'), '/address/city');
        assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
        await expectReadyWith(page, expectedPartitions(items, ['/address/city']), items);
        assert.equal(await page.evaluate(() => document.body.dataset.mode ?? 'cosmos'), 'cosmos');
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }

  test('a snippet whose data holds <!--<script> and </script> leaves the host page whole and reads the same bytes',
       {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const text = [
        '{"id": "1", "userId": "<!--<script>", "note": "opens a comment"}',
        '{"id": "2", "userId": "</script><p id=\\"injected\\">x</p>", "note": "closes the script"}',
        '{"id": "3", "userId": "<!--<script>", "note": "&lt; stays as typed, &amp;amp; too"}',
        '{"id": "4", "userId": "plain", "note": "</SCRIPT >"}',
      ].join('\n');
      await page.fill(byTestId('paste-input'), text);
      await page.fill(byTestId('key-input'), '/userId');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('analyze-button'))), 'ready');
      const items = parseItems(text);
      const expected = expectedPartitions(items, ['/userId']);
      await expectReadyWith(page, expected, items);

      await page.click(byTestId('copy-embed'));
      await page.waitForFunction(() => document.querySelector('#share-output').value.includes('<partition-playground'));
      const snippet = await page.inputValue(byTestId('share-output'));
      assert.match(snippet, /<script type="application\/json" data-escaped="html">/);
      const hostUrl = new URL('hostile-host.html', page.url()).href;
      await page.route(hostUrl, (route) => route.fulfill({contentType: 'text/html', body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body><main>${snippet}
<p id="after">The host page goes on.</p></main></body></html>`}));
      await page.goto(hostUrl);
      assert.equal(await page.textContent('#after'), 'The host page goes on.', 'the rest of the host page is there');
      assert.equal(await page.locator('#injected').count(), 0, 'nothing from the data became markup');
      await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('partition-playground')?.dataset.state),
                                 null, {timeout: TIMEOUT});
      const el = 'partition-playground';
      assert.equal(await page.$eval(el, (node) => node.dataset.state), 'ready');
      assert.equal(await page.$eval(el, (node) => Number(node.dataset.items)), items.length);
      assert.equal(await page.$eval(el, (node) => Number(node.dataset.partitions)), expected.partitions);
      // The bytes the engine measured are the original text's, not the escaped snippet's.
      const largest = partitionsBySize(text, ['/userId'])[0];
      assert.equal(await page.locator(`${el} [data-figure="largest partition"] dd`).textContent(), formatBytes(largest.bytes));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('security headers', {timeout: 3 * TIMEOUT}, () => {
  test('the page and its worker run under the Content-Security-Policy without eval, with no violation',
       {timeout: 2 * TIMEOUT}, async () => {
    // The engine's glue is built without eval or new Function (-sDYNAMIC_EXECUTION=0).
    // Every build: the full module and the per-domain ones the page and the element load.
    for (const name of ['partplay.mjs', 'partplay-cosmos.mjs', 'partplay-cosmos-fast.mjs', 'partplay-cql.mjs', 'partplay-cql-element.mjs',
                        'partplay-sizing.mjs']) {
      const glue = readFileSync(join(siteRoot, 'engine', name), 'utf8');
      assert.doesNotMatch(glue, /new Function\s*\(|\beval\s*\(/, `${name} has no eval and no new Function`);
    }
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /'unsafe-eval'|'unsafe-inline'/);

    const {page, problems, close} = await openPage();
    try {
      for (const path of ['./', 'worker/worker.js', 'engine/partplay-cosmos-fast.wasm', 'no-such-file']) {
        const r = await fetch(new URL(path, page.url()), {method: 'HEAD'});
        assert.equal(r.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, `${path} carries the policy`);
        assert.equal(r.headers.get('x-content-type-options'), 'nosniff', `${path} says nosniff`);
      }
      // Violations are counted from the first byte of the next load.
      await page.addInitScript(() => {
        window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      await page.reload();
      await page.waitForFunction(() => document.body.dataset.state === 'ready', null, {timeout: TIMEOUT});
      const items = exampleItems('orders');
      await page.fill(byTestId('key-input'), '/address/city');
      assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
      await expectReadyWith(page, expectedPartitions(items, ['/address/city']), items);
      // The Cassandra and sizing modes run under it too.
      await page.click(byTestId('mode-cassandra'));
      await page.waitForFunction((sel) => {
        const node = document.querySelector(sel);
        return Number(node.dataset.cqlRuns ?? 0) >= 1 && node.dataset.cqlPending === '0' && node.dataset.cqlState !== 'busy';
      }, byTestId('cassandra-view'), {timeout: TIMEOUT});
      assert.equal(await cqlAfter(page, () => page.click(byTestId('cql-run'))), 'ready');
      assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
      assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused to/i.test(p)), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
