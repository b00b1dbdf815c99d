// Accessibility scans (axe-core through @axe-core/playwright, WCAG 2 A and AA rules) of the full
// page in each mode and of the embed page with every instance started, in Debian's Chromium
// against build/site (run `make site` first). Fails on any serious or critical violation; the
// minor and moderate ones are printed.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import {TIMEOUT, byTestId, cqlAfter, elementSettled, openPage, useBrowser} from './harness.mjs';

useBrowser();

async function scan(page, label) {
  const results = await new AxeBuilder({page}).withTags(['wcag2a', 'wcag2aa']).analyze();
  const describeOne = (v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.slice(0, 5)
    .map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ')}`).join('\n    ')}`;
  const minor = results.violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  if (minor.length) console.log(`${label}: minor/moderate\n  ${minor.map(describeOne).join('\n  ')}`);
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map(describeOne), [], `${label}: serious or critical violations`);
}

describe('accessibility (axe, wcag2a + wcag2aa)', () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`the full page, Cosmos DB mode (${colorScheme})`, async () => {
      const {page, problems, close} = await openPage({colorScheme});
      try {
        await scan(page, `full page, cosmos, ${colorScheme}`);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }

  test('the full page, Cassandra mode', async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.click(byTestId('mode-cassandra'));
      await page.waitForFunction(() => {
        const node = document.querySelector('[data-testid="cassandra-view"]');
        return node && Number(node.dataset.cqlRuns ?? 0) >= 1 && node.dataset.cqlState !== 'busy';
      }, null, {timeout: TIMEOUT});
      await scan(page, 'full page, cassandra, nothing run');
      await cqlAfter(page, () => page.click(byTestId('cql-run')));
      await scan(page, 'full page, cassandra');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the full page, Sizing mode', async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.click(byTestId('mode-sizing'));
      await page.waitForFunction(() => {
        const v = document.getElementById('sizing-view');
        return Number(v.dataset.sizingRuns) > 0 && v.dataset.sizingState !== 'busy';
      }, null, {timeout: TIMEOUT});
      await scan(page, 'full page, sizing');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`the embed page, every instance started (${colorScheme})`, async () => {
      const {page, problems, close} = await openPage({colorScheme});
      try {
        await page.waitForLoadState('networkidle');  // leaving aborts the full page's background fetches
        await page.goto(new URL('examples/embed.html', page.url()).href);
        const ids = await page.$$eval('partition-playground', (els) => els.map((el) => el.id));
        for (const id of ids) {
          await page.$eval(`#${id}`, (el) => el.scrollIntoView({block: 'center'}));
          await elementSettled(page, id, problems);
        }
        await scan(page, `embed page, ${colorScheme}`);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
