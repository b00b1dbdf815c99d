// End-to-end tests of the container sections of the page (physical partitions, growth and
// splits, workload and hot partitions, synthetic keys, query routing, the key advisor, located
// findings), in Debian's Chromium against build/site (run `make site` first).
//
//   node --test --test-concurrency=1 tests/e2e/
//
// Every expectation is computed here, independently of the engine: partition counts from the
// service's creation rule max(ceil(manual RU/s / 6,000) or ceil(autoscale max RU/s / 10,000),
// ceil(storage / 50 GB), 1) and, for a raise or growth, splits up to ceil(RU/s / 10,000) and
// ceil(storage / 50 GB) (issue 37; scaling-provisioned-throughput-best-practices.md); partition sizes from the
// example files' item texts; EPKs with @azure/cosmos's own hashPartitionKey; synthetic keys by
// building them in JS. The page must log no console error and fetch nothing off-origin.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {
  TIMEOUT, analysisAfter, byTestId, exampleItems, examples, examplesDir, expectedPartitions, figure, openPage,
  partitionsBySize, repo, resultsDir, useBrowser,
} from './harness.mjs';

// The SDK's exports map only exposes its entry point, so the hashing module is required by path.
const require = createRequire(import.meta.url);
const {hashPartitionKey} = require(join(repo, 'node_modules/@azure/cosmos/dist/commonjs/utils/hashing/hash.js'));

const GIB = 2 ** 30;
/** A new container's RU/s per physical partition: manual throughput, autoscale (its maximum). */
const CREATION_RU_PER_PARTITION = {manual: 6_000, autoscale: 10_000};
/** The most RU/s a physical partition serves (a raise past partitions x 10,000 splits). */
const RU_PER_PARTITION = 10_000;
const BYTES_PER_PARTITION = 50 * GIB;

useBrowser();

const exampleText = (id) => readFileSync(join(examplesDir, examples.find((e) => e.id === id).file), 'utf8');
const storageOf = (id, keyPaths) => partitionsBySize(exampleText(id), keyPaths).reduce((sum, p) => sum + p.bytes, 0);
/**
 * The creation rule: one physical partition per 6,000 RU/s manual (per 10,000 RU/s of an autoscale
 * maximum) and per 50 GB, at least one.
 */
const physicalPartitions = (ru, bytes, mode = 'manual') =>
  Math.max(Math.ceil(ru / CREATION_RU_PER_PARTITION[mode]), Math.ceil(bytes / BYTES_PER_PARTITION), 1);
/**
 * A container of `before` partitions raised to `ru` RU/s or grown to `bytes`: instant up to
 * before x 10,000 RU/s, beyond that splits up to ceil(RU/s / 10,000); storage splits up to
 * ceil(storage / 50 GB). No partition merges away.
 */
const raisedPartitions = (before, ru, bytes) =>
  Math.max(before, Math.ceil(ru / RU_PER_PARTITION), Math.ceil(bytes / BYTES_PER_PARTITION));

/** Picks an example and waits for its analysis. */
async function loadExample(page, id) {
  if ((await page.inputValue(byTestId('example-select'))) === id && (await page.evaluate(() => document.body.dataset.state)) === 'ready') {
    // Reload it anyway, so the example's container settings are in place.
    await analysisAfter(page, () => page.selectOption(byTestId('example-select'), examples[0].id === id ? examples[1].id : examples[0].id));
  }
  const state = await analysisAfter(page, () => page.selectOption(byTestId('example-select'), id));
  assert.equal(state, 'ready', `example ${id} analyzed`);
}

/**
 * Types a value into a number field and applies it with Enter; returns the page state after the
 * run. A value already there starts no run (the page skips a model that would change nothing).
 */
async function setNumber(page, testid, value) {
  if (Number(await page.inputValue(byTestId(testid))) === value) return page.evaluate(() => document.body.dataset.state);
  return analysisAfter(page, async () => {
    await page.fill(byTestId(testid), String(value));
    await page.press(byTestId(testid), 'Enter');
  });
}

async function dataset(page, testid, field) {
  return page.$eval(byTestId(testid), (node, f) => node.dataset[f], field);
}

describe('Container model on the page', {timeout: 12 * TIMEOUT}, () => {
  test('RU/s decides the number of physical partitions; the map and its table follow', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'food');
      const bytes = storageOf('food', ['/foodGroup']);
      for (const ru of [400, 18_000, 40_000, 400]) {
        assert.equal(await setNumber(page, 'ru-input', ru), 'ready', `modelled at ${ru} RU/s`);
        const expected = physicalPartitions(ru, bytes);
        assert.equal(await figure(page, 'physical-count'), expected, `${ru} RU/s -> ${expected} physical partitions`);
        assert.equal(await page.locator(`${byTestId('partition-map')} g.column`).count(), expected, 'one map column each');
        assert.equal(await page.locator(`${byTestId('map-table')} tbody tr`).count(), expected, 'one table row each');
        const explain = await page.textContent(byTestId('physical-explain'));
        assert.match(explain, new RegExp(`needs ${expected} physical partition`), explain);
        // Every range's share is the throughput divided evenly.
        assert.equal(await figure(page, 'physical-share'), ru / expected);
      }
      // The summary is untouched by a container change (no re-read: the same logical partitions).
      const items = exampleItems('food');
      assert.equal(await figure(page, 'summary-partitions'), expectedPartitions(items, ['/foodGroup']).partitions);

      // Autoscale: the partitions are sized for the maximum; the minimum is 10% of it.
      await analysisAfter(page, () => page.check(byTestId('ru-autoscale')));
      assert.equal(await setNumber(page, 'ru-input', 30_000), 'ready');
      assert.equal(await figure(page, 'physical-count'), physicalPartitions(30_000, bytes, 'autoscale'));
      assert.match(await page.textContent(byTestId('ru-hint')), /3,000 RU\/s/);

      // The EPK of every listed logical partition is the SDK's, and its physical partition holds it.
      await analysisAfter(page, () => page.check(byTestId('ru-manual')));
      const largest = partitionsBySize(exampleText('food'), ['/foodGroup'])[0];
      const row = page.locator(`${byTestId('partition-rows')} tr`).first();
      assert.equal(await row.getAttribute('data-key'), largest.label);
      assert.equal(await row.getAttribute('data-epk'), hashPartitionKey(largest.key, {paths: ['/foodGroup'], kind: 'Hash', version: 2}));
      await analysisAfter(page, () => page.selectOption(byTestId('hash-version'), '1'));
      assert.equal(await page.locator(`${byTestId('partition-rows')} tr`).first().getAttribute('data-epk'),
                   hashPartitionKey(largest.key, {paths: ['/foodGroup'], kind: 'Hash', version: 1}), 'V1 EPK');
      assert.ok(await page.isEnabled(byTestId('large-keys')), 'large partition keys is a V1 choice');
      await analysisAfter(page, () => page.selectOption(byTestId('hash-version'), '2'));
      assert.ok(await page.isDisabled(byTestId('large-keys')), 'V2 always has large partition keys');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('growing splits physical partitions: before and after, splits and moves listed', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'food');
      const bytes = storageOf('food', ['/foodGroup']);
      assert.equal(await setNumber(page, 'ru-input', 18_000), 'ready');
      const before = physicalPartitions(18_000, bytes);
      assert.equal(await figure(page, 'physical-count'), before);

      // Twice the throughput: past the instant maximum (before x 10,000 RU/s), so ranges split
      // for throughput up to ceil(36,000 / 10,000).
      assert.equal(await setNumber(page, 'grown-ru-input', 36_000), 'ready');
      const raised = raisedPartitions(before, 36_000, bytes);
      assert.ok(raised > before, 'the raise needs splits');
      assert.equal(Number(await dataset(page, 'growth-summary', 'after')), raised);
      let splits = page.locator(`${byTestId('split-rows')} tr`);
      assert.equal(await splits.count(), raised - before, 'one split per new range');
      for (const reason of await splits.evaluateAll((rows) => rows.map((r) => r.dataset.reason))) assert.equal(reason, 'throughput');
      assert.ok(await page.isVisible(byTestId('map-after')), 'the after picture is shown');
      assert.equal(await page.locator(`${byTestId('map-after')} g.column`).count(), raised);
      assert.equal(await page.locator(`${byTestId('map-before')} g.column`).count(), before);

      // Data grown to 180 GB at the original throughput: storage forces splits (past the 150 GB
      // that the 3 partitions 18,000 RU/s creates can hold).
      assert.equal(await setNumber(page, 'grown-ru-input', 0), 'ready');
      const growth = Math.ceil((180 * GIB) / bytes);
      assert.ok(Math.ceil((bytes * growth) / BYTES_PER_PARTITION) > before, 'more than the created partitions hold');
      assert.equal(await setNumber(page, 'growth-input', growth), 'ready');
      const after = Number(await dataset(page, 'growth-summary', 'after'));
      assert.ok(after >= raisedPartitions(before, 18_000, bytes * growth), `${after} ranges hold ${growth}× the data`);
      assert.ok(after > before, 'the grown layout has more physical partitions');
      splits = page.locator(`${byTestId('split-rows')} tr`);
      assert.equal(await splits.count(), after - before, 'each split adds one range');
      assert.ok((await splits.evaluateAll((rows) => rows.map((r) => r.dataset.reason))).includes('storage'));
      // Moves are counted; only moves to an unrelated partition are listed (a split's children
      // hold their parent's logical partitions, whole, under new ids: cosmos-words.test.mjs).
      const moved = Number(await dataset(page, 'moved-summary', 'count'));
      const elsewhere = Number(await dataset(page, 'moved-summary', 'elsewhere'));
      assert.ok(moved > 0 && elsewhere >= 0 && elsewhere <= moved);
      assert.equal(await page.locator(`${byTestId('moved-list')} li`).count() > 0, elsewhere > 0, 'examples of unrelated moves');
      // The grown food groups pass 20 GB: a located finding names them.
      const largest = partitionsBySize(exampleText('food'), ['/foodGroup'])[0];
      if (largest.bytes * growth > 20 * GIB) {
        const finding = page.locator(`${byTestId('finding')}[data-code="logical_partition_over_20gb"]`);
        assert.equal(await finding.count(), 1, 'a logical partition over 20 GB is a finding');
        assert.match(await finding.textContent(), /Vegetables and Vegetable Products/);
      }

      // So large that one logical partition alone passes 50 GB: no split can help.
      const huge = Math.ceil((60 * GIB) / largest.bytes);
      assert.equal(await setNumber(page, 'growth-input', huge), 'ready');
      assert.ok(await page.isVisible(byTestId('split-cannot-help')), 'the page says a split cannot help');
      assert.match(await page.textContent(byTestId('split-cannot-help')), /cannot help/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('Zipf requests name the largest logical partition as the hot key', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'food');
      assert.equal(await setNumber(page, 'ru-input', 400), 'ready');
      assert.equal(await setNumber(page, 'reads-input', 20_000), 'ready');
      await analysisAfter(page, () => page.selectOption(byTestId('spread-select'), 'zipf'));
      assert.equal(await setNumber(page, 'zipf-input', 2), 'ready');
      // Zipf gives the n-th largest partition 1/n^s of the requests: the largest is the hottest.
      const largest = partitionsBySize(exampleText('food'), ['/foodGroup'])[0];
      const first = page.locator(`${byTestId('hot-rows')} tr`).first();
      assert.equal(await first.getAttribute('data-key'), largest.label, 'the hottest key is the largest partition');
      assert.equal(await first.getAttribute('data-hot'), 'true');
      assert.ok(await figure(page, 'hot-count') >= 1);
      const cause = page.locator(byTestId('hot-cause'));
      assert.ok(await cause.isVisible(), 'the cause is explained');
      assert.equal(await cause.getAttribute('data-cause'), 'single_key');
      assert.match(await cause.textContent(), /Vegetables and Vegetable Products/);
      assert.match(await cause.textContent(), /Splitting cannot help/);
      // The throttled fraction is shown per physical partition (chart and table) and in all.
      assert.ok(await figure(page, 'throttled-total') > 0, 'some requests are throttled');
      assert.ok(Number(await page.locator(`${byTestId('demand-table')} tbody tr`).first().getAttribute('data-throttled')) > 0);
      assert.ok(await page.locator(`${byTestId('demand-chart')} g.demand.over`).count() >= 1, 'a bar over its share');
      assert.ok(await page.locator(`${byTestId('partition-map')} g.block.hot`).count() >= 1, 'the map marks it hot');
      assert.ok(await page.locator(`${byTestId('cost-table')} tbody tr`).count() > 0, 'the charges used are listed');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('requests in proportion to a field read the field and name the busiest key', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'vehicles');
      await page.selectOption(byTestId('spread-select'), 'field');
      assert.ok(await page.isVisible(byTestId('weight-path')), 'the field input shows for this spread');
      // A new field needs the data read again (the sums are per logical partition).
      const state = await analysisAfter(page, async () => {
        await page.fill(byTestId('weight-path'), '/speedKph');
        await page.press(byTestId('weight-path'), 'Enter');
      });
      assert.equal(state, 'ready');
      assert.equal(await dataset(page, 'demand-total-sub', 'spread'), 'field');
      // Its demand follows the sum of speedKph per date (items of one example are of a size).
      const sums = new Map();
      for (const item of exampleItems('vehicles')) sums.set(item.date, (sums.get(item.date) ?? 0) + (item.speedKph ?? 0));
      const busiest = [...sums].sort((a, b) => b[1] - a[1])[0][0];
      assert.equal(await page.locator(`${byTestId('hot-rows')} tr`).first().getAttribute('data-key'), JSON.stringify(busiest));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a synthetic key on the vehicles example spreads the data; fan-out is stated', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'vehicles');
      const items = exampleItems('vehicles');
      const plain = partitionsBySize(exampleText('vehicles'), ['/date']);
      assert.equal(await figure(page, 'summary-partitions'), plain.length);

      // The example suggests date + hash(VIN) mod 400.
      assert.equal(await page.inputValue(byTestId('synthetic-kind')), 'hash_suffix');
      assert.equal(await page.inputValue(byTestId('synthetic-suffix-path')), '/vin');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'ready');
      const count = async (side) => Number(await page.getAttribute(byTestId(`compare-partitions-${side}`), 'data-value'));
      const largest = async (side) => Number(await page.getAttribute(byTestId(`compare-largest-${side}`), 'data-value'));
      assert.equal(await count('plain'), plain.length);
      assert.equal(await largest('plain'), plain[0].bytes);
      assert.ok(await count('synthetic') > await count('plain'), 'more logical partitions');
      assert.ok(await largest('synthetic') < await largest('plain'), 'a smaller largest partition');
      // Each day splits into at most 400 suffixes, and at most one per vehicle.
      const vins = new Set(items.map((i) => i.vin)).size;
      assert.ok(await count('synthetic') <= plain.length * Math.min(400, vins));
      assert.match(await page.textContent(byTestId('compare-fanout-synthetic')), /^1 key/);
      // The results now show the synthetic key; the switch goes back to the plain one.
      assert.equal(await figure(page, 'summary-partitions'), await count('synthetic'));
      assert.ok(await page.isVisible(byTestId('view-switch')));
      await page.check(byTestId('view-plain'));  // drawn at once: no worker round trip
      assert.equal(await figure(page, 'summary-partitions'), plain.length);

      // Concatenation: exactly the distinct date-vin pairs.
      await page.selectOption(byTestId('synthetic-kind'), 'concat');
      await page.fill(byTestId('synthetic-paths'), '/date, /vin');
      await page.fill(byTestId('synthetic-separator'), '-');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'ready');
      assert.equal(await count('synthetic'), new Set(items.map((i) => `${i.date}-${i.vin}`)).size);

      // A random suffix: a read by date must ask all N keys.
      await page.selectOption(byTestId('synthetic-kind'), 'random_suffix');
      await page.fill(byTestId('synthetic-buckets'), '10');
      assert.equal(await analysisAfter(page, () => page.click(byTestId('synthetic-apply'))), 'ready');
      assert.ok(await count('synthetic') <= plain.length * 10);
      assert.ok(await count('synthetic') > plain.length);
      assert.match(await page.textContent(byTestId('compare-fanout-synthetic')), /must query 10 keys/);
      assert.equal(Number(await page.getAttribute(byTestId('compare-fanout-synthetic'), 'data-value')), 10);

      // Container changes re-model both keys.
      assert.equal(await setNumber(page, 'ru-input', 20_000), 'ready');
      assert.equal(Number(await page.getAttribute(byTestId('compare-physical-plain'), 'data-value')),
                   physicalPartitions(20_000, storageOf('vehicles', ['/date'])), 'ceil(20,000 / 6,000)');
      assert.equal(Number(await page.getAttribute(byTestId('compare-physical-synthetic'), 'data-value')),
                   physicalPartitions(20_000, storageOf('vehicles', ['/date'])));

      await page.click(byTestId('synthetic-remove'));
      assert.ok(await page.isHidden(byTestId('view-switch')), 'no synthetic key any more');
      assert.equal(await figure(page, 'summary-partitions'), plain.length);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('query routing: a full key goes to one physical partition, a prefix to a range', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'food');
      assert.equal(await setNumber(page, 'ru-input', 40_000), 'ready');
      const largest = partitionsBySize(exampleText('food'), ['/foodGroup'])[0];
      const state = await analysisAfter(page, async () => {
        await page.fill(byTestId('route-input'), largest.label);
        await page.click(byTestId('route-apply'));
      });
      assert.equal(state, 'ready');
      assert.equal(await dataset(page, 'route-result', 'kind'), 'single');
      const ids = JSON.parse(await dataset(page, 'route-result', 'ranges'));
      assert.equal(ids.length, 1, 'one physical partition');
      assert.equal(await page.locator(`${byTestId('partition-map')} g.column.routed`).count(), 1, 'highlighted in the map');
      // It is the partition that holds the key (by the SDK's EPK and the range bounds in the table).
      const epk = hashPartitionKey(largest.key, {paths: ['/foodGroup'], kind: 'Hash', version: 2});
      const bounds = await page.locator(`${byTestId('map-table')} tbody tr[data-range="${ids[0]}"] td`).allTextContents();
      const min = bounds[1] === '""' ? '' : bounds[1];
      assert.ok(epk >= min && (bounds[2] === 'FF' || epk < bounds[2]), `${epk} in [${min}, ${bounds[2]})`);
      // Bare text is taken as a string.
      await analysisAfter(page, async () => {
        await page.fill(byTestId('route-input'), 'Breakfast Cereals');
        await page.press(byTestId('route-input'), 'Enter');
      });
      assert.equal(await dataset(page, 'route-result', 'kind'), 'single');

      // A hierarchical key: MultiHash is chosen, and a prefix touches a range of EPKs.
      await loadExample(page, 'orders');
      const hierarchical = ['/address/country', '/customerId'];
      await analysisAfter(page, async () => {
        await page.fill(byTestId('key-input'), hierarchical.join(', '));
        await page.press(byTestId('key-input'), 'Enter');
      });
      assert.equal(await page.inputValue(byTestId('hash-version')), 'multihash');
      assert.equal(await setNumber(page, 'ru-input', 40_000), 'ready');
      const country = exampleItems('orders').map((o) => o.address?.country).find((c) => typeof c === 'string');
      await analysisAfter(page, async () => {
        await page.fill(byTestId('route-input'), JSON.stringify([country]));
        await page.click(byTestId('route-apply'));
      });
      assert.equal(await dataset(page, 'route-result', 'kind'), 'range');
      const prefixIds = JSON.parse(await dataset(page, 'route-result', 'ranges'));
      assert.ok(prefixIds.length >= 1 && prefixIds.length <= physicalPartitions(40_000, 0));
      assert.equal(await page.locator(`${byTestId('partition-map')} g.column.routed`).count(), prefixIds.length);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the key advisor ranks candidates with a verdict, and a click uses one', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'food');
      // The first few are listed; the button shows every candidate.
      if (await page.isVisible(byTestId('advisor-more'))) await page.click(byTestId('advisor-more'));
      const rows = page.locator(`${byTestId('advisor-rows')} tr[data-path]`);
      assert.ok(await rows.count() > 1, 'several candidates');
      const verdicts = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.verdict));
      for (const v of verdicts) assert.ok(['good', 'fair', 'poor'].includes(v), `verdict ${v}`);
      const ranks = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.rank)));
      assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), 'listed by rank');
      assert.ok((await page.locator(`${byTestId('advisor-rows')} tr.reasons-row li`).count()) > 0, 'reasons in words');
      // /id is unique per item: one partition per item once chosen.
      const idRow = page.locator(`${byTestId('advisor-rows')} tr[data-path="/id"]`);
      assert.equal(await idRow.count(), 1, '/id is a candidate');
      assert.notEqual(await idRow.getAttribute('data-verdict'), 'poor');
      assert.equal(await analysisAfter(page, () => idRow.locator('button').click()), 'ready');
      assert.equal(await page.inputValue(byTestId('key-input')), '/id');
      const items = exampleItems('food');
      assert.equal(await figure(page, 'summary-partitions'), expectedPartitions(items, ['/id']).partitions);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('findings locate the items that break a rule', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const lines = [
        '{"id": "a", "userId": "u1", "n": 1}',
        '{"userId": "u1", "n": 2}',
        '{"id": "a", "userId": "u1", "n": 3}',
        '{"id": "b", "userId": {"nested": true}}',
      ];
      const text = lines.join('\n') + '\n';
      await page.fill(byTestId('key-input'), '/userId');
      const state = await analysisAfter(page, async () => {
        await page.fill(byTestId('paste-input'), text);
        await page.click(byTestId('analyze-button'));
      });
      assert.equal(state, 'ready');
      const lineStart = (n) => lines.slice(0, n - 1).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);

      const missing = page.locator(`${byTestId('finding')}[data-code="missing_id"]`);
      assert.equal(await missing.count(), 1, 'an item without id is a finding');
      assert.equal(await missing.getAttribute('data-count'), '1');
      const item = missing.locator(byTestId('finding-item')).first();
      assert.equal(await item.getAttribute('data-line'), '2');
      assert.equal(await item.getAttribute('data-column'), '1');
      assert.equal(await item.getAttribute('data-item-index'), '1');
      assert.equal(Number(await item.getAttribute('data-byte-offset')), lineStart(2));

      const duplicate = page.locator(`${byTestId('finding')}[data-code="duplicate_id"]`);
      assert.equal(await duplicate.count(), 1, 'a repeated id in one logical partition is a finding');
      assert.equal(await duplicate.locator(byTestId('finding-item')).first().getAttribute('data-line'), '3');

      const invalid = page.locator(`${byTestId('finding')}[data-code="invalid_key_type"]`);
      assert.equal(await invalid.count(), 1, 'an object as the key value is a finding');
      assert.equal(await invalid.getAttribute('data-severity'), 'error');
      assert.equal(await invalid.locator(byTestId('finding-item')).first().getAttribute('data-line'), '4');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('screenshot of the container panel with the map', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await loadExample(page, 'food');
      assert.equal(await setNumber(page, 'ru-input', 30_000), 'ready');
      const largest = partitionsBySize(exampleText('food'), ['/foodGroup'])[0];
      await analysisAfter(page, async () => {
        await page.fill(byTestId('route-input'), largest.label);
        await page.click(byTestId('route-apply'));
      });
      assert.ok(await page.locator(`${byTestId('partition-map')} svg g.column`).count() >= 2);
      mkdirSync(resultsDir, {recursive: true});
      await page.locator(byTestId('container-panel')).screenshot({path: join(resultsDir, 'container-view.png')});
      await page.locator(byTestId('workload-panel')).screenshot({path: join(resultsDir, 'workload-view.png')});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

// The parts that need no browser: the protocol's new messages and the map's stacking.
describe('web/protocol.js: container messages', () => {
  test('model, release and the container/synthetic options of analyze are validated', async () => {
    const protocol = await import('../../web/worker/protocol.js');
    const {request, validateRequest, Request} = protocol;
    const container = {hash_version: '2', ru_per_second: 18000, autoscale: false, growth: 2, grown_ru_per_second: 0,
                       workload: {point_reads_per_second: 10, spread: 'zipf', zipf_exponent: 1.2}, route: ['a'], top_per_range: 20};
    const ok = [
      request(1, Request.MODEL, {container}),
      request(2, Request.MODEL, {slot: 'synthetic', container: null, maxPartitions: 100}),
      request(3, Request.RELEASE, {slot: 'synthetic'}),
      request(4, Request.REANALYZE, {keyPaths: ['/date'], slot: 'synthetic', weightPath: '/w', container,
                                     synthetic: {kind: 'hash_suffix', separator: '.', buckets: 400, suffix_path: '/vin'}}),
      request(5, Request.ANALYZE, {source: {kind: 'text', text: '{}'}, keyPaths: ['/a'],
                                   synthetic: {kind: 'concat', paths: ['/a', '/b'], separator: '-'}}),
    ];
    for (const m of ok) assert.equal(validateRequest(m), m);
    // Shapes only: values (an unknown hash_version or spread or synthetic kind, buckets < 0, a
    // hash_suffix without suffix_path) are the engine's, tests/wasm/protocol-wiring.test.mjs.
    const bad = [
      request(1, Request.MODEL, {container: {ru_per_second: '400'}}),
      request(1, Request.MODEL, {container: {hash_version: 3}}),
      request(1, Request.MODEL, {container: {workload: {spread: 5}}}),
      request(1, Request.MODEL, {container: {route: 'a'}}),
      request(1, Request.MODEL, {slot: 'no spaces allowed'}),
      request(1, Request.RELEASE, {}),
      request(1, Request.REANALYZE, {keyPaths: ['/a'], synthetic: {kind: 5}}),
      request(1, Request.REANALYZE, {keyPaths: ['/a'], synthetic: {kind: 'random_suffix', buckets: 1.5}}),
      request(1, Request.REANALYZE, {keyPaths: ['/a'], synthetic: {kind: 'hash_suffix', buckets: 4, suffix_path: 7}}),
      request(1, Request.REANALYZE, {keyPaths: ['/a'], weightPath: 5}),
    ];
    for (const m of bad) assert.throws(() => validateRequest(m), TypeError, JSON.stringify(m));
  });

  test('a physical partition stacks its listed logical partitions by size, then the others', async () => {
    const {stackRange, epkRangeText} = await import('../../web/cosmos/container-charts.js');
    const blocks = stackRange({top: [{key: ['b'], epk: '1', items: 1, bytes: 10, demand_ru: 1, hot: false},
                                     {key: ['a'], epk: '2', items: 2, bytes: 30, demand_ru: 9, hot: true}],
                               others_partitions: 3, others_bytes: 5});
    assert.deepEqual(blocks.map((b) => [b.kind, b.bytes, b.y0, b.y1, b.hot]),
                     [['logical', 30, 0, 30, true], ['logical', 10, 30, 40, false], ['others', 5, 40, 45, false]]);
    assert.equal(epkRangeText({min: '', max: 'FF'}), '["", FF)');
    assert.equal(epkRangeText({min: '1FFFFFFFFFFF', max: '3FFFFFFFFFFF'}), '[1FFF…, 3FFF…)');
  });
});
