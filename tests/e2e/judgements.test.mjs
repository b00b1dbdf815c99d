// The page's judgements are the engine's: the words beside the Gini figure and the storage
// balance of the physical partitions, read from the page, equal the report fields the engine
// writes for the same data (report.spread, container.before.storage_balance; docs/report.md),
// computed here by the engine module of build/site loaded in Node. The data is bench-like: items
// keyed by /userId with a skew whose Gini is about 0.37, where the page once said "moderately
// skewed" beside the engine's finding "fairly even … a good spread".
//
//   node --test --test-concurrency=1 tests/e2e/judgements.test.mjs   (after `make site`)
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {TIMEOUT, analysisAfter, byTestId, figure, openPage, siteRoot, useBrowser} from './harness.mjs';

useBrowser();

/** NDJSON of 150 users, user k holding ceil(k^1.2 / 3) items: a Gini of about 0.37. */
function benchLikeItems() {
  const lines = [];
  let id = 0;
  for (let k = 1; k <= 150; k++) {
    const n = Math.ceil(k ** 1.2 / 3);
    for (let i = 0; i < n; i++) {
      lines.push(JSON.stringify({id: `i-${String(id++).padStart(6, '0')}`, userId: `user-${String(k).padStart(3, '0')}`,
                                 amount: (id % 97) + 0.5, city: 'Oslo'}));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The engine's report for `text` keyed by /userId under `container`, from build/site's module. */
async function engineReport(text, container) {
  const {createEngine} = await import(pathToFileURL(join(siteRoot, 'engine', 'partplay-api.mjs')).href);
  const wasmBinary = readFileSync(join(siteRoot, 'engine', 'partplay-cosmos-fast.wasm'));
  const engine = await createEngine({wasmBinary}, {domain: 'cosmos-fast'});
  return engine.analyzeBytes(new TextEncoder().encode(text), {key_paths: ['/userId']}, {container});
}

test('the Gini verdict and the storage balance on the page are the engine\'s', {timeout: 4 * TIMEOUT}, async () => {
  const text = benchLikeItems();
  const ru = 40000;
  const {page, problems, close} = await openPage();
  try {
    await page.waitForFunction(() => Number(document.body.dataset.runs ?? 0) >= 1, null, {timeout: TIMEOUT});
    await page.$eval(byTestId('paste-input'), (node, value) => { node.value = value; }, text);
    assert.equal(await analysisAfter(page, () => page.click(byTestId('analyze-button'))), 'ready');
    await page.fill(byTestId('key-input'), '/userId');
    assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
    await page.fill(byTestId('quick-ru-input'), String(ru));
    assert.equal(await analysisAfter(page, () => page.press(byTestId('quick-ru-input'), 'Enter')), 'ready');

    const report = await engineReport(text, {ru_per_second: ru});
    // The bench-like case: between the page's old 0.3 and the engine's 0.5.
    assert.ok(report.gini > 0.3 && report.gini < 0.5, `Gini ${report.gini}`);
    assert.equal(report.spread.verdict, 'fairly even');
    assert.ok(report.insights.some((i) => i.code === 'even_spread' && i.message.includes('fairly even')),
              'the engine\'s finding says "fairly even"');

    const pageGini = await figure(page, 'summary-gini');
    assert.ok(Math.abs(pageGini - report.gini) < 1e-9, `page Gini ${pageGini}, engine ${report.gini}`);
    assert.equal(await page.textContent(byTestId('summary-gini-verdict')), report.spread.verdict);
    assert.equal(await page.$eval(byTestId('summary-gini'), (n) => n.closest('.figure').classList.contains('warn')),
                 report.spread.level === 'warn');
    assert.ok(await page.$$eval(byTestId('insights') + ' li[data-code="even_spread"]', (l) => l.length === 1),
              'the page lists the engine\'s even_spread finding');

    const balance = report.container.before.storage_balance;
    assert.equal(report.container.before.ranges.length, 7, 'created with 40,000 RU/s manual: ceil(40,000 / 6,000)');
    assert.equal(await page.getAttribute(byTestId('physical-balance'), 'data-verdict'), balance.verdict);
    assert.ok(Math.abs((await figure(page, 'physical-balance')) - balance.max_over_mean) < 1e-9);
    assert.equal(await page.$eval(byTestId('physical-balance'), (n) => n.closest('.figure').classList.contains('warn')),
                 balance.level === 'warn');
    assert.match(await page.textContent(byTestId('physical-balance-verdict')), new RegExp(`^${balance.verdict} `));
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
