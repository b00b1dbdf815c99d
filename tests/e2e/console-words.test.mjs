// Issue 18's Cassandra console and words: a clicked result row brings its place on the ring into
// view; the token and replicas are readable without sideways scrolling at 1366 px; a run of
// applied statements is folded into one line; a replication setting naming a datacenter the ring
// lacks is flagged where the replication and the replicas show; and every term of the glossary
// has a "?" that opens its explanation in place, by keyboard.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, byTestId, openCassandra, openPage, runScript, useBrowser} from './harness.mjs';
import {GLOSSARY} from '../../web/common/glossary.js';

useBrowser();

const inserts = (n) => Array.from({length: n}, (_, i) =>
  `INSERT INTO shop.orders (customer, id, total) VALUES ('c${i % 7}', ${i}, ${i}.5);`).join('\n');

describe('the Cassandra console', () => {
  test('20 INSERTs fold into one line; a clicked row brings the ring into view; tokens fit', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({viewport: {width: 1366, height: 768}});
    try {
      await runScript(page, `CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE shop.orders (customer text, id int, total decimal, PRIMARY KEY (customer, id));
${inserts(20)}
SELECT customer, id, total, token(customer) FROM shop.orders WHERE customer = 'c3';`);
      const run = page.locator(byTestId('cql-result-run'));
      assert.equal(await run.count(), 1);
      assert.equal(await run.getAttribute('data-count'), '20');
      assert.match(await run.locator('summary').textContent(), /#3–#22: 20 INSERTs applied/);
      // The rows' token and replicas columns are on screen without scrolling sideways.
      const scroll = page.locator(`${byTestId('cql-result')}[data-kind="rows"] .table-scroll`).first();
      const widths = await scroll.evaluate((n) => [n.scrollWidth, n.clientWidth]);
      assert.ok(widths[0] <= widths[1], `the rows scroll sideways (${widths})`);
      // Clicking a row scrolls the ring into view.
      await page.evaluate(() => window.scrollTo(0, 0));
      const row = page.locator(`${byTestId('cql-result')}[data-kind="rows"] ${byTestId('cql-row')}`).first();
      await row.click();
      await page.waitForFunction(() => {
        const r = document.getElementById('ring-chart').getBoundingClientRect();
        return r.top < window.innerHeight && r.bottom > 0;
      }, null, {timeout: TIMEOUT});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a keyspace naming a datacenter the ring lacks is flagged where its replicas show', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({viewport: {width: 1366, height: 768}});
    try {
      await runScript(page, `CREATE KEYSPACE geo WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE geo.t (k int PRIMARY KEY, v text);
INSERT INTO geo.t (k, v) VALUES (1, 'a');
SELECT * FROM geo.t;`);
      const flag = page.locator(byTestId('replication-missing-dc'));
      assert.ok(await flag.isVisible());
      assert.match(await flag.textContent(), /names datacenter dc1, which the ring does not have \(its datacenter: datacenter1\)/);
      await page.locator(`${byTestId('cql-result')}[data-kind="rows"] ${byTestId('cql-row')}`).first().click();
      assert.match(await page.textContent(byTestId('selection-replica-note')), /names dc1, which the ring does not have/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('words', () => {
  test('every glossary term has a "?" that opens its explanation by keyboard', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      for (const [id, [term, text]] of Object.entries(GLOSSARY)) {
        const sizing = ['tavg', 'nv', 'st'].includes(id);
        if (sizing) await page.click(byTestId('mode-sizing'));
        const button = page.locator(`.term-help[data-term="${id}"]`).first();
        assert.ok(await button.isVisible(), `${term} has a visible "?"`);
        assert.equal(await button.getAttribute('aria-label'), `What is ${term}?`);
        await button.focus();
        await page.keyboard.press('Enter');
        assert.equal(await button.getAttribute('aria-expanded'), 'true');
        const def = page.locator(`#${await button.getAttribute('aria-controls')}`);
        assert.ok(await def.isVisible(), `${term}'s explanation shows`);
        // The quotas in it are the engine's (limits table), filled in by the page.
        const filled = await page.evaluate(async (t) => (await import(new URL('common/glossary.js', location.href).href)).glossaryText(t), text);
        assert.doesNotMatch(filled, /\{/);
        assert.equal(await def.textContent(), `${term}: ${filled}`);
        await page.keyboard.press('Enter');
        assert.ok(await def.isHidden(), `${term}'s explanation closes`);
        if (sizing) await page.click(byTestId('mode-cosmos'));
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
