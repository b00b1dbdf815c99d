// Issue 40, friction 5: the Cosmos DB flow says what its figures are. A key within its share on a
// busy partition is not badged "over its share"; a bar's throttled percentage is its own
// partition's, apart from the headline's share of all requests; "a split cannot help" names each
// key once; a split's children (new ids) are not "moved" elsewhere, and the after-map says which
// partition each child came from; the query route is given on each layout with that layout's ids;
// EPK ranges shortened never read alike; sizes read "57.3 KB", never "64574.0 KB".
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, exampleText, figure, openPage, partitionsBySize, useBrowser} from './harness.mjs';

useBrowser();

const GIB = 2 ** 30;

async function setNumber(page, testid, value) {
  if (Number(await page.inputValue(byTestId(testid))) === value) return page.evaluate(() => document.body.dataset.state);
  return analysisAfter(page, async () => {
    await page.fill(byTestId(testid), String(value));
    await page.press(byTestId(testid), 'Enter');
  });
}

async function food(page) {
  assert.equal(await analysisAfter(page, () => page.selectOption(byTestId('example-select'), 'food')), 'ready');
}

describe('the Cosmos DB flow in words', () => {
  test('hot table badges, the throttled figures, and "a split cannot help" once per key', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      await food(page);
      assert.equal(await setNumber(page, 'ru-input', 30_000), 'ready');
      assert.equal(await setNumber(page, 'reads-input', 60_000), 'ready');
      await analysisAfter(page, () => page.selectOption(byTestId('spread-select'), 'zipf'));
      assert.equal(await setNumber(page, 'zipf-input', 1.2), 'ready');
      const rows = await page.$$eval(`${byTestId('hot-rows')} tr`, (trs) => trs.map((tr) => ({
        hot: tr.dataset.hot === 'true', badge: tr.lastElementChild.textContent})));
      assert.ok(rows.some((r) => r.hot), 'a hot key');
      const bystanders = rows.filter((r) => !r.hot && /throttled/.test(r.badge));
      assert.ok(bystanders.length > 0, `a key within its share on a throttled partition: ${JSON.stringify(rows)}`);
      for (const r of bystanders) {
        assert.doesNotMatch(r.badge, /over its share/, 'a key within its share is not "over its share"');
        assert.match(r.badge, /^on busy P\d+: \d+(\.\d)?% throttled$/);
      }
      // The headline is the share of all requests; each bar's label is its own partition's.
      const overall = await figure(page, 'throttled-total');
      const labels = await page.$$eval(`${byTestId('demand-chart')} text.over-label`, (ts) => ts.map((t) => t.textContent));
      assert.ok(labels.length > 0);
      for (const l of labels) assert.match(l, /% of its requests 429$/);
      assert.match(await page.textContent(`${byTestId('throttled-total')} ~ .figure-sub`), /all requests, every partition together/);
      assert.ok(overall > 0);

      // Grown until one food group alone passes 50 GB: the callout names each key once.
      const largest = partitionsBySize(exampleText('food.json'), ['/foodGroup'])[0];
      assert.equal(await setNumber(page, 'growth-input', Math.ceil((60 * GIB) / largest.bytes)), 'ready');
      const callout = await page.textContent(byTestId('split-cannot-help'));
      const findings = await page.$$eval(`${byTestId('finding')}`, (fs) => fs.map((f) => f.dataset.code));
      assert.ok(findings.filter((c) => ['logical_partition_over_20gb', 'physical_partition_over_50gb', 'hot_partition',
        'logical_partition_over_10000_ru'].includes(c)).length >= 2, `several findings name the key: ${findings}`);
      assert.equal(callout.split(largest.key[0]).length - 1, 1, callout);
      assert.match(callout, /A split cannot help/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('after a split: lineage, no false moves, the route on each layout, EPKs told apart', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      await food(page);
      assert.equal(await setNumber(page, 'ru-input', 12_000), 'ready');
      assert.equal(await setNumber(page, 'grown-ru-input', 200_000), 'ready');
      const largest = partitionsBySize(exampleText('food.json'), ['/foodGroup'])[0];
      await page.fill(byTestId('route-input'), largest.key[0]);
      assert.equal(await analysisAfter(page, () => page.press(byTestId('route-input'), 'Enter')), 'ready');

      const splits = await page.locator(`${byTestId('split-rows')} tr`).count();
      assert.ok(splits >= 10, `${splits} splits`);
      // Every logical partition went into a child of its own partition: nothing moved elsewhere.
      const summary = page.locator(byTestId('moved-summary'));
      assert.ok(Number(await summary.getAttribute('data-count')) > 0);
      assert.equal(await summary.getAttribute('data-elsewhere'), '0');
      assert.match(await summary.textContent(), /went, whole, into the two children.*None moved to an unrelated/);
      assert.equal(await page.locator(`${byTestId('moved-list')} li`).count(), 0);

      // The after-map names each child's parent; each layout's ids are its own.
      const beforeIds = new Set(await page.$$eval(`${byTestId('map-table')} tbody tr`, (trs) => trs.map((tr) => tr.dataset.range)));
      // Columns too narrow for "P3 ← P0" sit under a bracket per original partition: "from P0", "from P1".
      const lineage = await page.$$eval(`${byTestId('map-after')} text.lineage-label`, (ts) => ts.map((t) => t.textContent));
      assert.deepEqual(lineage, [...beforeIds].map((id) => `from P${id}`));
      const routed = JSON.parse(await page.getAttribute(byTestId('route-result'), 'data-ranges'));
      assert.equal(routed.length, 1);
      assert.ok(beforeIds.has(String(routed[0])), `the route ${routed} is on the layout drawn (${[...beforeIds]})`);
      assert.match(await page.textContent(byTestId('route-result')), /After growing \(\d+ physical partitions, new ids for split children\): P\d+\./);
      const afterRouted = await page.$$eval(`${byTestId('map-after')} g.column`, (cs) => cs.filter((c) => c.querySelector('.route-outline')).length);
      assert.equal(afterRouted, 1, 'the after-map outlines the route after growing');

      // Shortened EPK boundaries never read alike: a deep split's children share a long prefix.
      const shortened = await page.evaluate(async () => {
        const {distinctEpkLength, epkRangeText} = await import('./cosmos/container-charts.js');
        const ranges = [{min: '', max: '05C1D5'}, {min: '05C1D5', max: '05C1DA80'}, {min: '05C1DA80', max: '3F'},
                        {min: '3F', max: 'FF'}];
        const keep = distinctEpkLength(ranges, 4);
        // A range whose two ends read alike, "[05C1…, 05C1…)", looks empty.
        const alike = (keep_) => ranges.filter((r) => { const [a, b] = epkRangeText(r, keep_).slice(1, -1).split(', '); return a === b; }).length;
        return {keep, texts: ranges.map((r) => epkRangeText(r, keep)), alikeAtFour: alike(4), alikeAtKeep: alike(keep)};
      });
      assert.equal(shortened.keep, 5);
      assert.equal(shortened.alikeAtFour, 1, 'four digits make [05C1…, 05C1…)');
      assert.equal(shortened.alikeAtKeep, 0, shortened.texts.join(' '));
      const epks = await page.$$eval(`${byTestId('partition-map')} text.range-epk`, (ts) => ts.map((t) => t.textContent));
      assert.equal(new Set(epks).size, epks.length, epks.join(' '));
      await page.locator(byTestId('map-after')).screenshot({path: 'test-results/cosmos-words-after-map.png'});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
