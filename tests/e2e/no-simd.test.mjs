// A browser without wasm SIMD (Safari before 16.4) gets the engine built without it
// (partplay-nosimd; wasm/partplay-api.mjs createEngine). Chromium runs SIMD, so the page is opened
// with ?simd=0, which makes every engine worker load that build as such a browser would: the page
// says so, and shows what the SIMD build shows for the same file, good or bad, in one worker and
// in two, and runs the Cassandra mode.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, analysisAfter, byTestId, cqlAfter, cqlRuns, elementSettled, engineWorkers, figure, openPage, useBrowser} from './harness.mjs';

useBrowser();

/** An NDJSON file of `count` items over 700 users; a truncated `true` at item `badAt`. */
function generate(count, badAt = -1) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    if (i === badAt) lines.push('{"id":"bad","userId":"u1","paid":tru}');
    else lines.push(JSON.stringify({id: `o${i}`, userId: `u${(i * 7919) % 700}`, paid: i % 3 === 0,
                                    note: 'n'.repeat(i % 50), city: i % 5 ? 'Zürich' : 'Oslo'}));
  }
  return `${lines.join('\n')}\n`;
}

/** Opens the page with `query`, analyses `text` keyed by /userId; what it shows and loaded. */
async function shown(query, text) {
  const wasm = new Set();
  const {page, problems, close} = await openPage({query, beforeLoad: (opened) => opened.on('request', (r) => {
    const name = r.url().match(/engine\/([\w-]+\.wasm)/)?.[1];
    if (name) wasm.add(name);
  })});
  try {
    await page.waitForFunction(() => document.body.dataset.state === 'ready', null, {timeout: TIMEOUT});
    await page.fill(byTestId('key-input'), '/userId');
    const state = await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
      name: 'orders.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(text),
    }));
    const out = {state};
    if (state === 'ready') {
      for (const id of ['summary-items', 'summary-partitions', 'summary-undefined', 'summary-invalid']) {
        out[id] = await figure(page, id);
      }
    } else {
      out.code = await page.getAttribute(byTestId('error-panel'), 'data-code');
      out.text = (await page.textContent(byTestId('error-panel'))).replace(/\s+/g, ' ').trim();
    }
    const engine = {simd: await page.evaluate(() => document.body.dataset.engineSimd),
                    footer: await page.textContent(byTestId('engine-version')), wasm: [...wasm].sort(),
                    workers: engineWorkers(page).length};
    assert.deepEqual(problems, []);
    return {out, engine, page, close};
  } catch (e) {
    await close();
    throw e;
  }
}

describe('without wasm SIMD (?simd=0)', () => {
  test('the page loads the build without SIMD, says so, and shows what the SIMD build shows',
       {timeout: 8 * TIMEOUT}, async () => {
    // 5 MiB or more: the page cuts it among its workers (ingest/parts_plan.h kPageMinInputBytes).
    const good = generate(60000);
    assert.ok(good.length > 5 << 20);
    // The good file in one worker and in two (cut and merged), the bad one in two (its error
    // located across the cut).
    for (const [text, counts] of [[good, [1, 2]], [generate(60000, 50000), [2]]]) {
      for (const workers of counts) {
        const withSimd = await shown(`?workers=${workers}`, text);
        await withSimd.close();
        const without = await shown(`?simd=0&workers=${workers}`, text);
        await without.close();
        assert.deepEqual(without.out, withSimd.out, `${workers} worker(s)`);
        assert.equal(withSimd.engine.simd, 'true');
        assert.match(withSimd.engine.footer, /^Engine \S+\.$/);
        assert.ok(withSimd.engine.wasm.includes('partplay-cosmos-fast.wasm'), withSimd.engine.wasm.join());
        assert.equal(without.engine.simd, 'false');
        assert.match(without.engine.footer, /build without WebAssembly SIMD \(\?simd=0 asks for it\)/);
        assert.deepEqual(without.engine.wasm, ['partplay-nosimd.wasm'], 'no SIMD module is fetched');
        assert.ok(without.engine.workers >= workers, `${workers} engine worker(s) (${without.engine.workers})`);
        if (text === good) {
          assert.equal(without.out.state, 'ready');
          assert.equal(without.out['summary-items'], 60000);
          assert.equal(without.out['summary-partitions'], 700);
        } else {
          assert.equal(without.out.code, 'malformed_json');
          assert.match(without.out.text, /line\s*50,001\s*column\s*37/);
        }
      }
    }
  });

  test('with an older browser\'s features too (no constructable sheets, requestSubmit or deflate streams), ' +
       'the page and every embedded element work, and links say why they cannot be made', {timeout: 4 * TIMEOUT},
       async () => {
    // A link made where links work, to open in the older browser.
    const modern = await openPage();
    let link;
    try {
      await modern.page.click(byTestId('copy-link'));
      await modern.page.waitForFunction(() => document.querySelector('#share-output').value.includes('#pp='), null,
                                        {timeout: TIMEOUT});
      link = await modern.page.inputValue('#share-output');
    } finally {
      await modern.close();
    }
    // What Chromium has and Safari 15 lacks (besides wasm SIMD, left out by ?simd=0).
    const initScript = () => {
      delete ShadowRoot.prototype.adoptedStyleSheets;
      delete Document.prototype.adoptedStyleSheets;
      globalThis.CSSStyleSheet = function CSSStyleSheet() { throw new TypeError('Illegal constructor'); };
      delete HTMLFormElement.prototype.requestSubmit;
      delete globalThis.CompressionStream;
      delete globalThis.DecompressionStream;
    };
    const {page, problems, close} = await openPage({initScript});
    try {
      const base = new URL(page.url());
      await page.goto(new URL('?simd=0', base).href);
      await page.waitForFunction(() => document.body.dataset.state === 'ready', null, {timeout: TIMEOUT});
      problems.length = 0;  // the first page's requests, aborted by the navigation
      assert.equal(await page.evaluate(() => typeof HTMLFormElement.prototype.requestSubmit), 'undefined');
      // A key typed and applied with Enter (the form submitted without requestSubmit).
      await page.fill(byTestId('key-input'), '/status');
      assert.equal(await analysisAfter(page, () => page.press(byTestId('key-input'), 'Enter')), 'ready');
      assert.ok(await figure(page, 'summary-partitions') > 1);
      // No link can be packed: the share bar says why instead of failing silently.
      await page.click(byTestId('copy-link'));
      await page.waitForFunction(() => /No link: this browser cannot write links/.test(
        document.querySelector('#share-status').textContent), null, {timeout: TIMEOUT});
      assert.match(await page.textContent('#share-status'), /CompressionStream.*Safari 16\.4/);
      // A link opened here: it cannot be unpacked, and the page says so.
      await page.waitForLoadState('networkidle');  // leaving aborts the page's background fetches
      await page.goto('about:blank');  // a real load, not a same-document hash change
      await page.goto(new URL(`?simd=0${new URL(link).hash}`, base).href);
      await page.waitForFunction(() => document.body.dataset.restored === 'failed', null, {timeout: TIMEOUT});
      assert.match(await page.textContent('#share-status'), /could not be restored: this browser cannot unpack links/);
      // The embed page, as a host page without a strict style-src (our server sends one; without
      // constructable sheets the element's styles are <style> elements, which it would block):
      // every element runs, styled by <style> elements in its shadow root.
      await page.waitForLoadState('networkidle');
      await page.route(/examples\/embed\.html/, async (route) => {
        const response = await route.fetch();
        const headers = {...response.headers()};
        delete headers['content-security-policy'];
        await route.fulfill({response, headers});
      });
      await page.goto(new URL('examples/embed.html?simd=0', base).href);
      const ids = await page.$$eval('partition-playground', (els) => els.map((el) => el.id));
      for (const id of ids) {
        await page.$eval(`#${id}`, (el) => el.scrollIntoView({block: 'center'}));
        await elementSettled(page, id, problems);
      }
      const seen = await page.$$eval('partition-playground', (els) => els.map((el) => ({
        id: el.id, state: el.dataset.state, styles: el.shadowRoot.querySelectorAll('style').length,
        charts: el.shadowRoot.querySelectorAll('svg').length,
        chartStyle: el.shadowRoot.querySelector('style[data-pp-charts]') !== null,
        // Rules in force: the element's own (its header is a flex row) and the charts' (an svg a block).
        header: getComputedStyle(el.shadowRoot.querySelector('header')).display,
        chartSvg: ((svg) => (svg ? getComputedStyle(svg).display : null))(el.shadowRoot.querySelector('.chart svg')),
      })));
      for (const s of seen) {
        assert.notEqual(s.state, 'error', `${s.id} ran`);
        assert.ok(s.styles >= 1, `${s.id} has its <style>`);
        assert.equal(s.header, 'flex', `${s.id}: its styles apply`);
        if (s.chartSvg) {
          assert.ok(s.chartStyle, `${s.id} draws charts with the chart rules as a <style>`);
          assert.equal(s.chartSvg, 'block', `${s.id}: the chart rules apply`);
        }
      }
      assert.ok(seen.some((s) => s.chartSvg), 'some element drew a chart');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the Cassandra mode runs its example on the build without SIMD', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({query: '?simd=0'});
    try {
      await page.waitForFunction(() => document.body.dataset.state === 'ready', null, {timeout: TIMEOUT});
      await page.click(byTestId('mode-cassandra'));
      await page.waitForFunction(() => {
        const node = document.querySelector('[data-testid="cassandra-view"]');
        return Number(node.dataset.cqlRuns ?? 0) >= 1 && node.dataset.cqlState !== 'busy';
      }, null, {timeout: TIMEOUT});
      assert.ok(await cqlRuns(page) >= 1);
      assert.equal(await cqlAfter(page, () => page.click(byTestId('cql-run'))), 'ready');
      assert.ok(await page.$$eval(byTestId('cql-result'), (items) => items.length) > 0, 'the example ran');
      assert.equal(await page.evaluate(() => document.body.dataset.engineSimd), 'false');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
