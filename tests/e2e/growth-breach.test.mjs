// Growth tells the breach (issue 18): a logical partition over 20 GB after growth is said in the
// growth section, outlined on the "after" map, and counted in the synthetic-key comparison; the
// before/after maps fit their boxes.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, openPage, useBrowser} from './harness.mjs';

useBrowser();

describe('growth', () => {
  test('a partition over 20 GB after growth is stated and marked', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      // Orders keyed by /customerId: the largest customer holds ~100 KB, so x300,000 is ~30 GB.
      await page.fill(byTestId('growth-input'), '300000');
      await analysisAfter(page, () => page.press(byTestId('growth-input'), 'Enter'));
      const summary = page.locator(byTestId('growth-summary'));
      assert.ok(Number(await summary.getAttribute('data-over20gb')) > 0);
      assert.match(await summary.textContent(), /more than the 20 GB a logical partition may store after growth x300000/);
      assert.match(await summary.textContent(), /no split can help/);
      assert.ok(await page.locator('#map-after .over-limit').count() > 0, 'the after map outlines it');
      for (const id of ['map-before', 'map-after']) {
        const [svgW, boxW] = await page.$eval(`#${id}`, (n) => [n.querySelector('svg')?.getBoundingClientRect().width ?? 0,
                                                               n.getBoundingClientRect().width]);
        assert.ok(svgW <= boxW + 1, `${id}: ${svgW} px in a ${boxW} px box`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
