// The full page keeps its inputs in reach (issue 14): in Cosmos DB mode, with the results scrolled
// to any section, the partition key input (and at wide widths the data choice) is still on
// screen, and so is the container's RU/s, at a laptop's 1366x768 and a phone's 390 px.
// Screenshots of each land in test-results/.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {byTestId, openPage, resultsDir, useBrowser} from './harness.mjs';

useBrowser();

/** Whether the element matching `selector` lies wholly inside the viewport. */
const onScreen = (page, selector) => page.$eval(selector, (node) => {
  const r = node.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
});

describe('inputs in reach while the results change', () => {
  for (const {name, viewport, wide} of [
    {name: 'laptop', viewport: {width: 1366, height: 768}, wide: true},
    {name: 'phone', viewport: {width: 390, height: 844}, wide: false},
  ]) {
    test(`${name} (${viewport.width}x${viewport.height}): the key stays on screen beside the results`, async () => {
      const {page, problems, close} = await openPage({viewport});
      try {
        assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
        for (const heading of ['#partitions-heading', '#container-heading', '#advisor-heading']) {
          await page.$eval(heading, (node) => node.scrollIntoView({block: 'start'}));
          // The sticky key bar may cover a heading scrolled to the very top: the section below it shows.
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          assert.ok(await onScreen(page, byTestId('key-input')), `${heading}: the key input is on screen`);
          assert.ok(await page.$eval(heading, (node) => {
            const r = node.getBoundingClientRect();
            return r.bottom > 0 && r.top < innerHeight;
          }), `${heading}: the section is on screen`);
          if (wide) assert.ok(await onScreen(page, byTestId('example-select')), `${heading}: the data choice is on screen`);
        }
        await page.$eval('#container-heading', (node) => node.scrollIntoView({block: 'start'}));
        await page.screenshot({path: join(resultsDir, `layout-${name}.png`)});
        // The key still works from there: a new key re-analyses while the container section shows.
        const runs = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
        await page.fill(byTestId('key-input'), '/id');
        await page.press(byTestId('key-input'), 'Enter');
        await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.state !== 'loading',
                                   runs, {timeout: 60_000});
        assert.ok(await onScreen(page, byTestId('key-input')));
        // The RU/s beside the key is the container's: a container created with 40,000 RU/s manual
        // has 7 physical partitions (ceil(40,000 / 6,000), the service's creation rule), and the
        // container form shows the same number.
        assert.ok(await onScreen(page, byTestId('quick-ru-input')), 'the RU/s is on screen');
        await page.fill(byTestId('quick-ru-input'), '40000');
        await page.press(byTestId('quick-ru-input'), 'Enter');
        await page.waitForFunction(() => document.querySelector('[data-testid="physical-count"]')?.textContent === '7',
                                   null, {timeout: 60_000});
        assert.equal(await page.inputValue(byTestId('ru-input')), '40000');
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
