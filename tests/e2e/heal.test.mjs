// End-to-end tests of the self-healing worker (web/client.js, web/worker.js, protocol.js "Engine
// failures") in Debian's Chromium against build/site (run `make site` first). A failure is forced
// the way a test may (protocol.js): `self.crashNextRequestForTesting` set in the worker makes its
// next request break the wasm engine (a trap, std::abort, a stack overflow) inside a real request
// of the page. Each failure must reject that request with a sentence saying what failed, replace
// the worker, and leave the page working: five in a row, then a normal script and a normal
// analysis, on the full page and in a <partition-playground> element. Also: a CQL literal nested
// 10,000 deep gives a clear error and the next script works. No console error anywhere.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {formatInt} from '../../web/common/format.js';
import {TIMEOUT, analysisAfter, byTestId, expectReadyWith, expectedPartitions, exampleItems, openPage,
        useBrowser} from './harness.mjs';

useBrowser();

const panel = byTestId('cassandra-view');
const KINDS = ['trap', 'abort', 'stack', 'trap', 'abort'];
/** What each forced failure says in parentheses (the trap's or abort's own words). */
const REASON = {trap: /unreachable/, abort: /Aborted\(/, stack: /memory access out of bounds|call stack|stack/i};

const SCRIPT = `CREATE KEYSPACE h WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE h.t (k text, c int, PRIMARY KEY (k, c));
INSERT INTO h.t (k, c) VALUES ('a', 1);
INSERT INTO h.t (k, c) VALUES ('a', 2);
INSERT INTO h.t (k, c) VALUES ('b', 1);
SELECT k, c FROM h.t;`;

async function cqlAfter(page, action) {
  const runs = await page.$eval(panel, (node) => Number(node.dataset.cqlRuns ?? 0));
  await action();
  await page.waitForFunction(({selector, n}) => {
    const node = document.querySelector(selector);
    return Number(node.dataset.cqlRuns ?? 0) > n && node.dataset.cqlPending === '0' && node.dataset.cqlState !== 'busy';
  }, {selector: panel, n: runs}, {timeout: TIMEOUT});
}

/**
 * Arms `worker` so its next request breaks the engine with `kind`. Resolves to {next, closed}:
 * the worker started next, and the old one's closing.
 */
async function armCrash(page, worker, kind) {
  const next = page.waitForEvent('worker', {timeout: TIMEOUT});
  const closed = new Promise((resolve) => worker.once('close', resolve));
  await worker.evaluate((k) => { self.crashNextRequestForTesting = k; }, kind);
  return {next, closed};
}

// The page's problems but an engine file's download that a worker killed here on purpose was
// still making (net::ERR_ABORTED): its replacement loads the engine again.
function realProblems(problems) {
  return problems.filter((p) => !/^request failed: \S+\/engine\/partplay[\w-]*\.(wasm|mjs) net::ERR_ABORTED$/.test(p));
}

async function rowsShown(page) {
  return page.$$eval(`${panel} table.cql-rows tbody tr`,
                     (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
}

describe('a worker that heals', {timeout: 10 * TIMEOUT}, () => {
  test('the page: five engine failures in a row, then a normal script and a normal analysis work', {timeout: 5 * TIMEOUT},
       async () => {
    const {page, problems, close} = await openPage();
    try {
      await cqlAfter(page, () => page.click(byTestId('mode-cassandra')));
      await page.fill(byTestId('cql-editor'), SCRIPT);
      assert.equal(page.workers().length, 1, 'the page has one worker');
      let worker = page.workers()[0];
      for (const [i, kind] of KINDS.entries()) {
        const {next, closed} = await armCrash(page, worker, kind);
        await cqlAfter(page, () => page.click(byTestId('cql-run')));
        worker = await next;
        await closed;
        const status = await page.textContent(byTestId('cql-status'));
        assert.match(status, /^The engine stopped while running this script \(.+\)\. It has been restarted\./, `failure ${i + 1}`);
        assert.match(status, REASON[kind], `failure ${i + 1} (${kind}) says what failed: ${status}`);
        assert.match(status, /The session was reset: its keyspaces, tables and rows are gone/);
        assert.equal(await page.getAttribute(byTestId('cql-status'), 'data-code'), 'engine_failed');
        assert.deepEqual(await rowsShown(page), [], 'no results of the failed run are shown');
      }
      // The same script now runs on the fresh engine.
      await cqlAfter(page, () => page.click(byTestId('cql-run')));
      assert.match(await page.textContent(byTestId('cql-status')), /6 statements .* no errors/);
      assert.deepEqual((await rowsShown(page)).sort(), [['a', '1'], ['a', '2'], ['b', '1']]);

      // Cosmos DB mode: its analysis went with the first failure; re-modelling reads the data again.
      await page.click(byTestId('mode-cosmos'));
      const items = exampleItems('orders');
      const armed = await armCrash(page, worker, 'trap');
      assert.equal(await analysisAfter(page, () => page.selectOption(byTestId('hash-version'), '1')), 'error');
      worker = await armed.next;
      await armed.closed;
      const message = await page.textContent(byTestId('error-message'));
      assert.match(message, /^The engine stopped while .+ \(unreachable\)\. It has been restarted\. The next step reads the data again\.$/);
      assert.equal(await page.getAttribute(byTestId('error-panel'), 'data-code'), 'engine_failed');
      await page.fill(byTestId('key-input'), '/address/city');
      assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
      await page.waitForFunction(() => document.body.dataset.state !== 'busy', null, {timeout: TIMEOUT});
      await expectReadyWith(page, expectedPartitions(items, ['/address/city']), items);
      assert.equal(await page.inputValue(byTestId('hash-version')), '1');
      assert.deepEqual(realProblems(problems), []);
    } finally {
      await close();
    }
  });

  test('the element: five engine failures in a row, then a normal script and a normal analysis work',
       {timeout: 5 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.waitForLoadState('networkidle');  // leaving aborts the full page's background fetches
      const hostUrl = new URL('heal-host.html', page.url()).href;
      await page.route(hostUrl, (route) => route.fulfill({contentType: 'text/html', body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body><main>
<script type="module" src="partition-playground.js"></script>
<partition-playground id="pp" mode="cassandra" example="orders" key="/address/city"><script type="text/cql">
${SCRIPT}
</script></partition-playground></main></body></html>`}));
      const first = page.waitForEvent('worker', {timeout: TIMEOUT});
      await page.goto(hostUrl);
      let worker = await first;
      const el = '#pp';
      const settled = async (n) => {
        await page.waitForFunction(({sel, n}) => {
          const node = document.querySelector(sel);
          return Number(node.dataset.runs ?? 0) > n && node.dataset.state !== 'loading';
        }, {sel: el, n}, {timeout: TIMEOUT});
        return page.$eval(el, (node) => node.dataset.state);
      };
      assert.equal(await settled(0), 'ready');
      assert.equal(await page.$eval(el, (node) => node.dataset.selects), '1');
      const run = async () => {
        const n = await page.$eval(el, (node) => Number(node.dataset.runs));
        await page.locator(`${el} button[type="submit"]`).click();
        return settled(n);
      };
      for (const [i, kind] of KINDS.entries()) {
        const {next, closed} = await armCrash(page, worker, kind);
        assert.equal(await run(), 'error', `failure ${i + 1}`);
        worker = await next;
        await closed;
        const text = await page.locator(`${el} [data-testid="error"]`).textContent();
        assert.match(text, /^The engine stopped while (resetting the session|running this script) \(.+\)\. It has been restarted\.$/);
        assert.match(text, REASON[kind]);
      }
      assert.equal(await run(), 'ready');
      assert.equal(await page.$eval(el, (node) => node.dataset.selects), '1');
      assert.equal(await page.$eval(el, (node) => node.dataset.errors), '0');
      assert.deepEqual(await page.$$eval(`${el} [data-testid="cql-rows"] tbody tr`,
                                         (trs) => trs.map((tr) => `${tr.children[0].textContent}/${tr.children[1].textContent}`)).then((r) => r.sort()),
                       ['a/1', 'a/2', 'b/1']);
      // The same element as Cosmos DB: an analysis of the orders example.
      const n = await page.$eval(el, (node) => Number(node.dataset.runs));
      await page.$eval(el, (node) => node.setAttribute('mode', 'cosmos'));
      assert.equal(await settled(n), 'ready');
      const expected = expectedPartitions(exampleItems('orders'), ['/address/city']);
      assert.equal(await page.$eval(el, (node) => Number(node.dataset.partitions)), expected.partitions);
      assert.equal(await page.$eval(el, (node) => Number(node.dataset.items)), exampleItems('orders').length);
      assert.match(await page.locator(`${el} [data-testid="status"]`).textContent(),
                   new RegExp(`${formatInt(expected.partitions)} logical partitions`));
      assert.deepEqual(realProblems(problems), []);
    } finally {
      await close();
    }
  });

  test('an uncaught error or an unhandled rejection in the worker restarts it too', {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await cqlAfter(page, () => page.click(byTestId('mode-cassandra')));
      let worker = page.workers()[0];
      for (const [what, expected] of [
        ['rejection', /^The engine stopped \(lost on purpose\)\. It has been restarted\. The session was reset/],
        ['error', /^The engine worker stopped: .*thrown on purpose\. It has been restarted\. The session was reset/],
      ]) {
        const next = page.waitForEvent('worker', {timeout: TIMEOUT});
        const closed = new Promise((resolve) => worker.once('close', resolve));
        await cqlAfter(page, () => worker.evaluate((kind) => {
          if (kind === 'rejection') Promise.reject(new Error('lost on purpose'));
          else setTimeout(() => { throw new Error('thrown on purpose'); }, 0);
        }, what));
        worker = await next;
        await closed;
        assert.match(await page.textContent(byTestId('cql-status')), expected, what);
      }
      await page.fill(byTestId('cql-editor'), SCRIPT);
      await cqlAfter(page, () => page.click(byTestId('cql-run')));
      assert.deepEqual((await rowsShown(page)).sort(), [['a', '1'], ['a', '2'], ['b', '1']]);
      assert.deepEqual(realProblems(problems), []);
    } finally {
      await close();
    }
  });

  test('a CQL literal nested 10,000 deep gives a clear error; the next script works', {timeout: 3 * TIMEOUT}, async (t) => {
    const {page, problems, close} = await openPage();
    try {
      await cqlAfter(page, () => page.click(byTestId('mode-cassandra')));
      const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
      await page.fill(byTestId('cql-editor'), `CREATE KEYSPACE n WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE n.t (k int PRIMARY KEY, v list<int>);
INSERT INTO n.t (k, v) VALUES (1, ${deep});`);
      await cqlAfter(page, () => page.click(byTestId('cql-run')));
      const status = await page.textContent(byTestId('cql-status'));
      const errors = await page.$$eval(`${panel} [data-testid="cql-result"][data-kind="error"]`,
                                       (items) => items.map((li) => li.textContent));
      t.diagnostic(errors.length ? errors.join(' | ') : status);
      // Either the engine refuses the depth with a located error (a nesting limit), or, without
      // one, the engine fails and the worker heals with a sentence saying so. Never a silent hang.
      if (errors.length) {
        assert.match(errors.join('\n'), /nest|deep|depth/i);
        assert.match(status, /1 error/);
      } else {
        assert.match(status, /^The engine stopped while running this script \(.+\)\. It has been restarted\./);
      }
      await page.fill(byTestId('cql-editor'), SCRIPT);
      await cqlAfter(page, () => page.click(byTestId('cql-run')));
      assert.match(await page.textContent(byTestId('cql-status')), /no errors/);
      assert.deepEqual((await rowsShown(page)).sort(), [['a', '1'], ['a', '2'], ['b', '1']]);
      assert.deepEqual(realProblems(problems), []);
    } finally {
      await close();
    }
  });
});
