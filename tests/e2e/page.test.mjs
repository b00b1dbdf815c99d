// End-to-end test of the page: Debian's Chromium, driven by playwright-core, against
// scripts/serve.mjs serving build/site (run `make site` first).
//
//   node --test tests/e2e/
//
// SITE_ROOT overrides the served directory. Expected numbers are computed here from the example
// files with plain JS (the Cosmos DB grouping rules: a missing key is its own partition, numbers
// compare as doubles, "5" and 5 differ, objects and arrays are invalid keys), never hard-coded.
// The server, browser and reference model are in harness.mjs.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {
  TIMEOUT, analysisAfter, byTestId, exampleItems, examples, expectReadyWith, expectedPartitions, figure, openPage,
  parseItems, resultsDir, useBrowser,
} from './harness.mjs';

useBrowser();

// ---------------------------------------------------------------------------------------------

describe('Partition Playground page', {timeout: 5 * TIMEOUT}, () => {
  test('analyzes the first example on load and shows the summary, table and histogram', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const first = examples[0];
      const items = exampleItems(first.id);
      await expectReadyWith(page, expectedPartitions(items, [first.key]), items);
      assert.equal(await page.inputValue(byTestId('key-input')), first.key);
      assert.equal(await page.inputValue(byTestId('example-select')), first.id);

      // The table is capped and says so; rows show typed keys.
      const rows = await page.locator(`${byTestId('partition-rows')} tr`).count();
      const total = await figure(page, 'summary-partitions');
      assert.equal(rows, Math.min(total, 25));
      assert.equal(Number(await page.getAttribute(byTestId('partitions-status'), 'data-total')), total);
      assert.equal(Number(await page.getAttribute(byTestId('partitions-status'), 'data-shown')), rows);
      assert.match(await page.textContent(byTestId('partitions-status')), /^Showing 1–\d+ of /);
      // The histogram is an SVG with at least one bar; candidate paths are listed.
      assert.ok(await page.locator(`${byTestId('histogram')} svg rect.bar`).count() > 0, 'histogram bars');
      assert.ok(await page.locator(`${byTestId('candidate-rows')} button`).count() > 0, 'candidate paths');
      // The insights are the engine's (report.insights): some orders lack /customerId, and its values are
      // strings and numbers; keys in a message are drawn as keys, never as "{0}".
      const insights = await page.$$eval(`${byTestId('insights')} li`,
        (items) => items.map((li) => ({code: li.dataset.code, text: li.textContent, keys: li.querySelectorAll('.key').length})));
      const byCode = Object.fromEntries(insights.map((i) => [i.code, i]));
      for (const code of ['some_undefined', 'largest_share', 'largest_vs_limit', 'mixed_types']) {
        assert.ok(byCode[code], `insight ${code} in ${JSON.stringify(insights)}`);
      }
      assert.equal(byCode.mixed_types.keys, 2);
      assert.equal(byCode.some_undefined.keys, 1);
      assert.ok(insights.every((i) => !/\{\d+\}/.test(i.text)), JSON.stringify(insights));
      assert.match(byCode.largest_vs_limit.text, /of the 20 GB limit/);

      mkdirSync(resultsDir, {recursive: true});
      await page.screenshot({path: join(resultsDir, 'main-view.png'), fullPage: false});
      await page.screenshot({path: join(resultsDir, 'main-view-full.png'), fullPage: true});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('loads other examples from the picker', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      for (const example of examples.slice(1)) {
        const state = await analysisAfter(page, () => page.selectOption(byTestId('example-select'), example.id));
        assert.equal(state, 'ready', `${example.id} analyzed`);
        assert.equal(await page.inputValue(byTestId('key-input')), example.key);
        const items = exampleItems(example.id);
        await expectReadyWith(page, expectedPartitions(items, [example.key]), items);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('re-analyzes when the key path changes (typed, escaped, and from a candidate)', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const first = examples[0];
      const items = exampleItems(first.id);
      const before = expectedPartitions(items, [first.key]);
      for (const key of ['/address/city', '/promo~1code', '/status']) {
        const expected = expectedPartitions(items, [key]);
        const state = await analysisAfter(page, async () => {
          await page.fill(byTestId('key-input'), key);
          await page.press(byTestId('key-input'), 'Enter');
        });
        assert.equal(state, 'ready', `analyzed with ${key}`);
        await expectReadyWith(page, expected, items);
      }
      assert.notEqual(expectedPartitions(items, ['/address/city']).partitions, before.partitions,
                      'the examples make a key change visible');

      // A hierarchical key: several paths, separated by commas.
      const hierarchical = ['/address/country', '/customerId'];
      const stateH = await analysisAfter(page, async () => {
        await page.fill(byTestId('key-input'), hierarchical.join(', '));
        await page.press(byTestId('key-input'), 'Enter');
      });
      assert.equal(stateH, 'ready');
      await expectReadyWith(page, expectedPartitions(items, hierarchical), items);

      // Clicking a candidate path uses it.
      const candidate = page.locator(`${byTestId('candidate-rows')} button`, {hasText: /^\/channel$/});
      if (await candidate.count()) {
        const state = await analysisAfter(page, () => candidate.click());
        assert.equal(state, 'ready');
        assert.equal(await page.inputValue(byTestId('key-input')), '/channel');
        await expectReadyWith(page, expectedPartitions(items, ['/channel']), items);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('malformed JSON shows a located error', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const text = '{"id": "1", "userId": "a"}\n{"id": "2", "userId": "b"}\n{"id": "3", "userId": }\n';
      await page.fill(byTestId('key-input'), '/userId');
      const state = await analysisAfter(page, async () => {
        await page.fill(byTestId('paste-input'), text);
        await page.click(byTestId('analyze-button'));
      });
      assert.equal(state, 'error');
      const panel = page.locator(byTestId('error-panel'));
      assert.ok(await panel.isVisible(), 'error panel visible');
      assert.equal(await page.getAttribute(byTestId('error-panel'), 'data-code'), 'malformed_json');
      assert.ok((await page.textContent(byTestId('error-message'))).trim().length > 0, 'a message');
      assert.equal((await page.textContent(`${byTestId('error-line')} dd`)).trim(), '3', 'line 3');
      // The first bad byte is the '}' where a value should be (ASCII text: columns = characters).
      const line3 = text.split('\n')[2];
      const expectedColumn = line3.indexOf('}') + 1;
      const column = Number((await page.textContent(`${byTestId('error-column')} dd`)).trim());
      assert.equal(column, expectedColumn, 'column of the unexpected }');
      assert.equal((await page.textContent(`${byTestId('error-item-index')} dd`)).trim(), '#2', 'item #2 (0-based)');
      const offset = Number((await page.textContent(`${byTestId('error-byte-offset')} dd`)).trim().replace(/\D/g, ''));
      assert.equal(offset, text.indexOf(line3) + expectedColumn - 1, 'byte offset of the unexpected }');
      assert.match(await page.textContent(byTestId('error-panel')), /line\s*3/);
      assert.match(await page.textContent(byTestId('error-panel')), new RegExp(`column\\s*${expectedColumn}`));
      // The excerpt shows the offending line.
      assert.match(await page.textContent(byTestId('error-excerpt')), /"id": "3"/);

      // Fixing the text clears the error.
      const fixed = text.replace('"userId": }', '"userId": "a"}');
      const again = await analysisAfter(page, async () => {
        await page.fill(byTestId('paste-input'), fixed);
        await page.click(byTestId('analyze-button'));
      });
      assert.equal(again, 'ready');
      assert.ok(await panel.isHidden(), 'error panel hidden again');
      assert.equal(await figure(page, 'summary-partitions'), expectedPartitions(parseItems(fixed), ['/userId']).partitions);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a key path without the leading slash is an error', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const state = await analysisAfter(page, async () => {
        await page.fill(byTestId('key-input'), 'userId');
        await page.press(byTestId('key-input'), 'Enter');
      });
      assert.equal(state, 'error');
      assert.ok(await page.isVisible(byTestId('error-panel')));
      assert.equal(await page.getAttribute(byTestId('error-panel'), 'data-code'), 'bad_key_path');
      assert.match(await page.textContent(byTestId('error-message')), /userId/);
      // The excerpt points into the key path itself.
      assert.match(await page.textContent(byTestId('error-excerpt')), /key path: userId\n\s+\^/);

      // A good key recovers from the same source.
      const first = examples[0];
      const again = await analysisAfter(page, async () => {
        await page.fill(byTestId('key-input'), first.key);
        await page.press(byTestId('key-input'), 'Enter');
      });
      assert.equal(again, 'ready');
      const items = exampleItems(first.id);
      await expectReadyWith(page, expectedPartitions(items, [first.key]), items);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a chosen file is analyzed, with typed keys and the undefined partition', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const items = [];
      for (let i = 0; i < 300; i++) {
        const item = {id: `u-${i}`, n: i, address: {city: ['Oslo', 'Lyon', 'Kyoto'][i % 3]}};
        if (i % 10 === 0) item.userId = 5;             // the number 5
        else if (i % 10 === 1) item.userId = '5';      // the string "5": a different partition
        else if (i % 10 === 2) item.userId = 5.0;      // the same double as 5
        else if (i % 10 === 3) { /* no userId: the undefined partition */ }
        else if (i % 10 === 4) item.userId = null;
        else if (i % 10 === 5) item.userId = true;
        else if (i === 9) item.userId = {nested: 1}; // invalid key
        else item.userId = `user-${i % 37}`;
        items.push(item);
      }
      // Raw lines JSON.stringify cannot write: -0 and 0 are one key, 5.0 and 5e0 are the number 5.
      const ndjson = items.map((o) => JSON.stringify(o)).join('\n') +
        '\n{"id": "z1", "userId": -0}\n{"id": "z2", "userId": 0}\n{"id": "z3", "userId": 5.0}\n{"id": "z4", "userId": 5e0}\n';
      items.push(...parseItems(ndjson).slice(items.length));
      assert.equal(items.length, 304);
      await page.fill(byTestId('key-input'), '/userId');
      const state = await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
        name: 'users.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(ndjson),
      }));
      assert.equal(state, 'ready');
      const expected = expectedPartitions(items, ['/userId']);
      await expectReadyWith(page, expected, items);
      assert.match(await page.textContent(byTestId('source-line')), /users\.ndjson/);

      // "5" and 5 are separate rows, and the undefined partition is shown as undefined.
      const keys = await page.locator(`${byTestId('partition-rows')} tr td:nth-child(2)`).allTextContents();
      const all = new Set(keys.map((k) => k.trim()));
      const total = await figure(page, 'summary-partitions');
      if (total <= 25) {
        for (const k of ['5', '"5"', 'undefined', 'null', 'true']) assert.ok(all.has(k), `row for ${k} in ${[...all]}`);
      }
      assert.ok(all.has('5') && all.has('"5"'), 'the number 5 and the string "5" are different partitions');

      // A change of key re-reads the file in the worker.
      const again = await analysisAfter(page, async () => {
        await page.fill(byTestId('key-input'), '/address/city');
        await page.press(byTestId('key-input'), 'Enter');
      });
      assert.equal(again, 'ready');
      await expectReadyWith(page, expectedPartitions(items, ['/address/city']), items);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a large file streams with a progress bar while the main thread stays free', {timeout: 2 * TIMEOUT}, async () => {
    // ~330 MB of NDJSON on disk, handed to the file input as a file (Playwright streams it): more
    // than the engine reads in the half second before the progress bar shows. Each item holds
    // 100 numbers, every one of them validated (a long string alone is scanned 16 bytes at a
    // time, which two workers read at about 600 MB/s).
    const dir = mkdtempSync(join(tmpdir(), 'pp-e2e-'));
    const file = join(dir, 'large.ndjson');
    const ITEMS = 1_000_000;
    const KEYS = 1000;
    const numbers = JSON.stringify(Array.from({length: 100}, (_, n) => n));
    const fd = openSync(file, 'w');
    for (let start = 0; start < ITEMS; start += 50_000) {
      let block = '';
      for (let i = start; i < start + 50_000; i++) block += `{"id":"${i}","k":"key-${i % KEYS}","n":${numbers}}\n`;
      writeSync(fd, block);
    }
    closeSync(fd);
    const {page, problems, close} = await openPage();
    try {
      await page.fill(byTestId('key-input'), '/k');
      const runs = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
      // Watched in the page, so a fast run cannot slip between two polls: whether the bar showed
      // and what it said, how long the page was busy, and how often a 20 ms timer ran meanwhile.
      await page.evaluate(() => {
        const bar = document.querySelector('[data-testid="progress"]');
        const text = document.querySelector('#progress-text');
        const seen = window.seen = {shown: false, texts: [], ticks: 0, busySince: 0, busyMs: 0};
        new MutationObserver(() => {
          if (!bar.hidden) seen.shown = true;
          if (!bar.hidden) seen.texts.push(text.textContent);
        }).observe(bar, {attributes: true, childList: true, characterData: true, subtree: true});
        new MutationObserver(() => {
          const busy = document.body.dataset.state === 'busy';
          if (busy && !seen.busySince) seen.busySince = performance.now();
          if (!busy && seen.busySince && !seen.busyMs) seen.busyMs = performance.now() - seen.busySince;
        }).observe(document.body, {attributes: true, attributeFilter: ['data-state']});
        setInterval(() => { if (document.body.dataset.state === 'busy') seen.ticks++; }, 20);
      });
      await page.setInputFiles(byTestId('file-input'), file);
      await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.state !== 'busy',
                                 runs, {timeout: 2 * TIMEOUT});
      const seen = await page.evaluate(() => window.seen);
      // Work longer than half a second shows the progress bar, naming the file...
      assert.ok(seen.busyMs > 600, `the analysis took ${seen.busyMs} ms: too short to test the bar`);
      assert.ok(seen.shown, `busy ${seen.busyMs} ms and no progress bar`);
      assert.ok(seen.texts.some((t) => /large\.ndjson|Analyzing/.test(t)), seen.texts.join('\n'));
      // ...and the main thread kept answering while the workers parsed: busy, not blocked.
      assert.ok(seen.ticks >= seen.busyMs / 20 / 4, `${seen.ticks} timer ticks in ${seen.busyMs} ms`);
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
      assert.equal(await figure(page, 'summary-items'), ITEMS);
      assert.equal(await figure(page, 'summary-partitions'), KEYS);
      assert.ok(await page.isHidden(byTestId('progress')), 'the progress bar goes away');
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a file dropped on the drop zone is analyzed', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const items = [{id: 'a', city: 'Oslo'}, {id: 'b', city: 'Lyon'}, {id: 'c', city: 'Oslo'}, {id: 'd'}];
      const text = JSON.stringify(items);
      await page.fill(byTestId('key-input'), '/city');
      const dataTransfer = await page.evaluateHandle((json) => {
        const dt = new DataTransfer();
        dt.items.add(new File([json], 'dropped.json', {type: 'application/json'}));
        return dt;
      }, text);
      const state = await analysisAfter(page, () => page.dispatchEvent(byTestId('dropzone'), 'drop', {dataTransfer}));
      assert.equal(state, 'ready');
      await expectReadyWith(page, expectedPartitions(items, ['/city']), items);
      assert.match(await page.textContent(byTestId('source-line')), /dropped\.json/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('dark mode renders without errors', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({colorScheme: 'dark'});
    try {
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
      mkdirSync(resultsDir, {recursive: true});
      await page.screenshot({path: join(resultsDir, 'main-view-dark.png')});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
