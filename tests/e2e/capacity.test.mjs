// End-to-end tests of the service's throughput rules on the page and in the element (issue 37):
// a raise past the instant maximum and its uneven splits, the instant maximum, the minimum RU/s, a
// scale-down, serverless capacity, merging partitions, the RU/s a workload needs and throughput
// redistribution. In Debian's Chromium against build/site (run `make site` first).
//
//   node --test --test-concurrency=1 tests/e2e/capacity.test.mjs
//
// The partition counts, instant maxima, floors and the even-split recipe are computed here from the
// documents' rules (scaling-provisioned-throughput-best-practices.md, concepts-limits.md,
// serverless-performance.md, merge.md; articles/cosmos-db/ in MicrosoftDocs azure-databases-docs);
// the sentences the engine writes (RU/s needed, redistribution) are compared with the native CLI's
// report of the same data. Authored cases.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {TIMEOUT, analysisAfter, byTestId, elementSettled, examplesDir, openPage, repo, useBrowser} from './harness.mjs';

useBrowser();

const CLI = join(repo, 'build', 'native', 'partplay');
const fmt = (n) => new Intl.NumberFormat('en-US').format(n);

/** The docs' rules, written out here. */
const RULES = {
  created: (ru) => Math.max(1, Math.ceil(ru / 6000)),          // manual: one partition per 6,000 RU/s
  raised: (before, ru) => Math.max(before, Math.ceil(ru / 10000)),  // splits up to ceil(RU/s / 10,000)
  instant: (partitions) => partitions * 10000,
  minimum: (gb, highest) => Math.max(400, Math.ceil(gb * 1), Math.ceil(highest / 100)),
  // "Scale to 10,000 x P x 2^k first": the least such figure at or above the target.
  evenSplit: (p, ru) => 10000 * p * 2 ** Math.ceil(Math.log2(ru / (10000 * p))),
};

/** Types a number and applies it with Enter (a value already there starts no run). */
async function setNumber(page, testid, value) {
  if ((await page.inputValue(byTestId(testid))) === String(value)) return;
  await analysisAfter(page, async () => {
    await page.fill(byTestId(testid), String(value));
    await page.press(byTestId(testid), 'Enter');
  });
}

/** The native CLI's JSON report of an example with these arguments. */
const cliReport = (file, args) => JSON.parse(execFileSync(CLI, ['analyze', ...args, '--format', 'json', join(examplesDir, file)],
                                                          {encoding: 'utf8', maxBuffer: 1 << 28}));
const lineText = (page, id) => page.textContent(`${byTestId('capacity-lines')} ${byTestId(id)}`);
const lineIds = (page) => page.$$eval(`${byTestId('capacity-lines')} li`, (lis) => lis.map((li) => li.dataset.testid));

describe('The service\'s throughput rules on the page', {timeout: 8 * TIMEOUT}, () => {
  test('created at 12,000 and raised to 30,000: one uneven split, the instant maximum, the floor', {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await setNumber(page, 'created-ru-input', 12000);
      await setNumber(page, 'ru-input', 30000);
      const before = RULES.created(12000);
      const after = RULES.raised(before, 30000);
      assert.equal(Number(await page.getAttribute(byTestId('physical-count'), 'data-value')), after);
      const change = await lineText(page, 'capacity-change');
      assert.ok(change.includes(`Raised from 12,000 to 30,000 RU/s, past the instant maximum of ${fmt(RULES.instant(before))} RU/s`), change);
      assert.ok(change.includes(`${before} → ${after} physical partitions`), change);
      assert.ok(change.includes(`raise to ${fmt(RULES.evenSplit(before, 30000))} RU/s first, then lower to 30,000`), change);
      assert.ok((await lineText(page, 'capacity-instant')).startsWith(`Instant maximum: ${fmt(RULES.instant(after))} RU/s`));
      assert.ok((await lineText(page, 'capacity-minimum')).startsWith(
        `Lowest throughput it can be set to: ${fmt(RULES.minimum(0, 30000))} RU/s`));
      // The floor beside the RU/s input too.
      assert.match(await page.textContent(byTestId('ru-hint')), new RegExp(`The lowest it can be set to: ${fmt(RULES.minimum(0, 30000))} RU/s`));

      // A creation above the current figure is a scale-down: the same partitions, less RU/s each,
      // and a merge that the docs' two conditions allow.
      await setNumber(page, 'created-ru-input', 60000);
      await setNumber(page, 'ru-input', 6000);
      const created = RULES.created(60000);
      assert.equal(Number(await page.getAttribute(byTestId('physical-count'), 'data-value')), created);
      assert.ok((await lineText(page, 'capacity-change')).startsWith(
        `Lowered from 60,000 to 6,000 RU/s: instant, the same ${created} physical partitions`));
      const merge = await lineText(page, 'capacity-merge');
      assert.ok(merge.includes(`${fmt(6000 / created)} RU/s per physical partition (under 3,000 RU/s)`), merge);
      assert.ok(merge.includes('Merged to 1 physical partition (the fewest'), merge);
      assert.ok(await page.isVisible(byTestId('merge-commands')));
      assert.ok((await page.textContent(byTestId('merge-cli'))).startsWith('az cosmosdb sql container merge'));

      // Burst capacity: with 3,000 reads/s some of those 600 RU/s partitions ask a little more than
      // their share; the busiest one banks 5 minutes of its share and spends it (the CLI's figures).
      await setNumber(page, 'reads-input', 3000);
      const scaled = cliReport('orders.ndjson', ['--key', '/customerId', '--ru', '6000', '--created-ru', '60000', '--reads', '3000']);
      const bursting = scaled.container.before.ranges.filter((r) => r.burst_eligible && r.burst_seconds > 0);
      assert.ok(bursting.length > 0, 'some partition bursts');
      const busiest = bursting.reduce((a, b) => (b.demand_ru > a.demand_ru ? b : a));
      const burst = await lineText(page, 'capacity-burst');
      assert.ok(burst.startsWith(`Burst capacity: P${busiest.id} banks ${fmt(Math.round(busiest.burst_bank_ru))} RU of idle ` +
                                 `throughput and absorbs its ${fmt(Math.round(busiest.demand_ru))} RU/s for `), burst);
      assert.equal(busiest.burst_bank_ru, 600 * 300, 'five minutes of a 600 RU/s share');
      await setNumber(page, 'reads-input', 0);

      // Below the floor (1% of the highest RU/s ever, 600, or 400): an error naming the floor.
      await setNumber(page, 'ru-input', 500);
      assert.ok(await page.isVisible(byTestId('error-panel')));
      const message = await page.textContent(byTestId('error-message'));
      assert.match(message, /600/, message);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('serverless: capacity by storage, no RU/s input', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await analysisAfter(page, () => page.check(byTestId('ru-serverless')));
      assert.ok(await page.isDisabled(byTestId('ru-input')));
      const line = await lineText(page, 'capacity-serverless');
      // Up to 250 GB: 5,000 RU/s in all (serverless-performance.md); the example is a few hundred KB.
      assert.ok(line.startsWith('Serverless: 1 physical partition for '), line);
      assert.ok(line.includes('5,000 RU/s in all'), line);
      const ids = await lineIds(page);
      assert.ok(!ids.includes('capacity-minimum') && !ids.includes('capacity-merge'), ids.join(' '));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a workload: the RU/s it needs and the redistribution, in the engine\'s words', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await analysisAfter(page, () => page.selectOption(byTestId('example-select'), 'food'));
      const report = cliReport('food.json', ['--key', '/foodGroup', '--ru', '30000', '--reads', '20000', '--writes', '500']);
      const c = report.container;
      assert.ok(c.ru_needed.judged && c.redistribution.judged, 'the food example\'s workload throttles');
      assert.equal(await lineText(page, 'capacity-needed'), `RU/s needed so that no physical partition throttles: ${c.ru_needed.reason}`);
      assert.equal(await lineText(page, 'capacity-redistribution'), `Throughput redistribution: ${c.redistribution.reason}`);
      const details = await page.$eval(byTestId('redistribution-commands'), (d) => ({hidden: d.hidden, open: d.open}));
      assert.deepEqual(details, {hidden: !c.redistribution.possible, open: false}, 'shown when possible, closed until asked');
      if (c.redistribution.possible) {
        assert.equal(await page.textContent(byTestId('redistribution-cli')), c.redistribution.azure_cli.join('\n'));
      }
      // Autoscale: the hour's bill, every partition scaled to the busiest one's need or each alone.
      await analysisAfter(page, () => page.check(byTestId('ru-autoscale')));
      const auto = cliReport('food.json', ['--key', '/foodGroup', '--ru', '30000', '--autoscale', '--reads', '20000', '--writes', '500'])
        .container.before;
      assert.ok(auto.autoscale_billed_ru_per_second > 0);
      assert.equal(await lineText(page, 'capacity-autoscale'),
                   `Autoscale billing for this workload, per hour: ${fmt(Math.round(auto.autoscale_billed_ru_per_second))} RU/s ` +
                   '(every partition scaled to the busiest one\'s need), ' +
                   `${fmt(Math.round(auto.autoscale_dynamic_billed_ru_per_second))} RU/s with dynamic scaling (each partition on its own).`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('A shared-throughput database on the page', {timeout: 2 * TIMEOUT}, () => {
  test('the database\'s partitions and every container\'s throttling', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await setNumber(page, 'ru-input', 20000);
      await analysisAfter(page, () => page.check(byTestId('shared-database')));
      assert.equal(await page.locator(byTestId('shared-row')).count(), 1, 'a first row to fill in');
      const row = page.locator(byTestId('shared-row')).first();
      await row.locator('input').nth(0).fill('audit');
      await row.locator('input').nth(1).fill('3');
      await analysisAfter(page, async () => {
        await row.locator('input').nth(2).fill('4000');
        await row.locator('input').nth(2).press('Enter');
      });
      // A shared database is created at 10,000 RU/s per partition (not the manual 6,000).
      assert.equal(Number(await page.getAttribute(byTestId('physical-count'), 'data-value')), 2);
      const line = await lineText(page, 'capacity-shared');
      assert.ok(line.startsWith('Shared-throughput database: The database\'s 20,000 RU/s are shared by 2 containers on its ' +
                                '2 physical partitions (10,000 RU/s each).'), line);
      assert.ok(line.includes('audit: 4,000 RU/s asked'), line);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('The same rules in the element', {timeout: 2 * TIMEOUT}, () => {
  test('created-ru and serverless attributes show the page\'s lines', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.evaluate(async () => {
        await import('./partition-playground.js');
        for (const [id, attrs] of [['pp-raised', {ru: '30000', 'created-ru': '12000'}], ['pp-serverless', {serverless: ''}],
                                   ['pp-shared', {ru: '20000', 'shared-with': '[{"name": "audit", "storage_gb": 3, "demand_ru": 4000}]'}],
                                   ['pp-food', {example: 'food', key: '/foodGroup', ru: '30000'}]]) {
          const el = document.createElement('partition-playground');
          el.id = id;
          for (const [k, v] of Object.entries({mode: 'cosmos', example: 'orders', key: '/customerId', readonly: '', ...attrs})) {
            el.setAttribute(k, v);
          }
          document.body.prepend(el);
        }
      });
      assert.equal(await elementSettled(page, 'pp-raised', problems), 'ready');
      assert.equal(await elementSettled(page, 'pp-serverless', problems), 'ready');
      const lines = (id) => page.$eval(`#${id}`, (el) => Object.fromEntries(
        [...el.shadowRoot.querySelectorAll('[data-testid="capacity"] li')].map((li) => [li.dataset.testid, li.textContent])));
      const raised = await lines('pp-raised');
      const pageLines = Object.fromEntries(await Promise.all((await lineIds(page)).map(async (id) => [id, await lineText(page, id)])));
      assert.ok(raised['capacity-change'].includes('Raised from 12,000 to 30,000 RU/s'), raised['capacity-change']);
      assert.ok(raised['capacity-change'].includes(`${RULES.created(12000)} → 3 physical partitions`));
      assert.ok(raised['capacity-instant'].startsWith(`Instant maximum: ${fmt(RULES.instant(3))} RU/s`));
      assert.ok(raised['capacity-minimum'].startsWith('Lowest throughput it can be set to: 400 RU/s'));
      // The page with the same container words every line alike (one module, capacity-lines.js).
      await setNumber(page, 'created-ru-input', 12000);
      await setNumber(page, 'ru-input', 30000);
      const samePage = Object.fromEntries(await Promise.all((await lineIds(page)).map(async (id) => [id, await lineText(page, id)])));
      assert.deepEqual(raised, samePage);
      assert.ok(pageLines['capacity-minimum'].startsWith('Lowest throughput it can be set to: 400 RU/s'));
      assert.equal(await elementSettled(page, 'pp-shared', problems), 'ready');
      const shared = await lines('pp-shared');
      assert.ok(shared['capacity-shared'].startsWith('Shared-throughput database: The database\'s 20,000 RU/s are shared by 2 ' +
                                                      'containers on its 2 physical partitions (10,000 RU/s each).'), shared['capacity-shared']);
      assert.ok(shared['capacity-shared'].includes('audit: 4,000 RU/s asked'), shared['capacity-shared']);
      // The food example brings its workload (examples/index.json): the engine's sentences.
      assert.equal(await elementSettled(page, 'pp-food', problems), 'ready');
      const food = await lines('pp-food');
      const c = cliReport('food.json', ['--key', '/foodGroup', '--ru', '30000', '--reads', '20000', '--writes', '500']).container;
      assert.equal(food['capacity-needed'], `RU/s needed so that no physical partition throttles: ${c.ru_needed.reason}`);
      assert.equal(food['capacity-redistribution'], `Throughput redistribution: ${c.redistribution.reason}`);
      assert.equal(food['capacity-merge'], `Merging partitions: ${c.merge.reason}`);
      const serverless = await lines('pp-serverless');
      assert.ok(serverless['capacity-serverless'].includes('5,000 RU/s in all'), JSON.stringify(serverless));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
