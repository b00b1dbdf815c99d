// Gzipped input on the page (issue 15): the worker recognises gzip by its first bytes and
// decompresses it with DecompressionStream on the way into the engine, for the Cosmos DB analysis
// (a file, the bundled .json.gz example fetched as raw bytes) and the Cassandra mode's bulk load.
// A .gz gives the same report as the JSON inside it; progress and the summary line give both
// sizes; a truncated or corrupt .gz is an error naming the file, never a short report; a shared
// link of a .gz file carries decompressed items. In Debian's Chromium against build/site.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gunzipSync, gzipSync} from 'node:zlib';
import {
  TIMEOUT, analysisAfter, byTestId, cqlAfter, examples, examplesDir, exampleItems, expectedPartitions, figure,
  openCassandra, openPage, useBrowser,
} from './harness.mjs';

useBrowser();

const exportEntry = examples.find((e) => e.id === 'cosmos-export');
const exportGz = readFileSync(join(examplesDir, 'cosmos-export.json.gz'));
const exportJson = gunzipSync(exportGz);

/** Every summary figure of the report on screen, and the partition table's rows. */
async function reportOnScreen(page) {
  const figures = await page.$$eval('[data-testid^="summary-"][data-value]',
                                    (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.testid, n.dataset.value])));
  const rows = await page.$$eval(`${byTestId('partition-rows')} tr`, (trs) => trs.map((tr) => tr.textContent));
  return {figures, rows};
}

async function sourceLine(page) {
  return page.$eval(byTestId('source-line'), (node) => ({text: node.textContent, bytes: node.dataset.bytes,
                                                         compressedBytes: node.dataset.compressedBytes}));
}

/** Analyses a file from the file input (the advisor may pick its key), then under `key`. */
async function analyzeFile(page, file, key) {
  const state = await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), file));
  if (state !== 'ready') return state;
  return analysisAfter(page, async () => {
    await page.fill(byTestId('key-input'), key);
    await page.press(byTestId('key-input'), 'Enter');
  });
}

describe('gzip input in the Cosmos DB mode', () => {
  test('the .json.gz example and the .gz file give the report of the JSON inside, with both sizes', {timeout: 3 * TIMEOUT}, async () => {
    assert.ok(exportEntry, 'examples/index.json offers cosmos-export');
    const dir = mkdtempSync(join(tmpdir(), 'pp-gz-'));
    const {page, problems, close} = await openPage();
    try {
      // The example, fetched as raw gzip bytes (no Content-Encoding).
      assert.equal(await analysisAfter(page, () => page.selectOption(byTestId('example-select'), 'cosmos-export')), 'ready');
      assert.equal(await page.inputValue(byTestId('key-input')), '/tenantId');
      const items = exampleItems('cosmos-export');
      assert.equal(items.length, 1500);
      assert.equal(await figure(page, 'summary-items'), 1500);
      assert.equal(await figure(page, 'summary-partitions'), expectedPartitions(items, ['/tenantId']).partitions);
      const line = await sourceLine(page);
      assert.equal(Number(line.bytes), exportJson.length, 'sizes are the JSON\'s');
      assert.equal(Number(line.compressedBytes), exportGz.length, 'the gzip size is given too');
      assert.match(line.text, /\d KB of JSON, \d+(\.\d)? KB gzip read/, line.text);
      const fromExample = await reportOnScreen(page);

      // The same export as a .gz file and as the JSON file: the same report.
      const gzFile = join(dir, 'container.json.gz');
      writeFileSync(gzFile, exportGz);
      const jsonFile = join(dir, 'container.json');
      writeFileSync(jsonFile, exportJson);
      assert.equal(await analyzeFile(page, jsonFile, '/tenantId'), 'ready');
      const fromJson = await reportOnScreen(page);
      assert.equal((await sourceLine(page)).compressedBytes, undefined, 'plain JSON has one size');
      assert.equal(await analyzeFile(page, gzFile, '/tenantId'), 'ready');
      const fromGz = await reportOnScreen(page);
      assert.deepEqual(fromGz, fromJson);
      assert.deepEqual(fromExample, fromJson);
      assert.equal(Number((await sourceLine(page)).compressedBytes), exportGz.length);

      // The same name without .gz: gzip is known by its bytes, not its name.
      const disguised = join(dir, 'export.json');
      writeFileSync(disguised, exportGz);
      assert.equal(await analyzeFile(page, disguised, '/tenantId'), 'ready');
      assert.deepEqual(await reportOnScreen(page), fromJson);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('own .gz data: the key picked is not a system property the service writes', {timeout: TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-gz-pick-'));
    const {page, problems, close} = await openPage();
    try {
      const file = join(dir, 'export.json.gz');
      writeFileSync(file, exportGz);
      // The key input holds the first example's key (the page's own), so the advisor picks one.
      assert.equal(await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), file)), 'ready');
      const picked = await page.inputValue(byTestId('key-input'));
      assert.doesNotMatch(picked, /^\/_(rid|self|etag|attachments|ts)$/, `picked ${picked}`);
      const note = await page.textContent(byTestId('key-pick-note'));
      assert.match(note, new RegExp(`Picked by the key advisor for this data: ${picked}`), note);
      // The engine's advisor judges the system properties poor, saying why (the verdict's title).
      const rid = page.locator(`${byTestId('candidate-rows')} tr`, {hasText: '/_rid'}).locator('td.verdict');
      assert.equal((await rid.textContent()).trim(), 'poor');
      assert.match(await rid.getAttribute('title'), /system property Cosmos DB writes when it stores an item/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a big .gz streams with progress giving the gzip read and the JSON consumed', {timeout: 3 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-gz-big-'));
    // About 190 MB of JSON: long enough (over the half second before the progress line shows)
    // for an engine that reads a few hundred MB a second.
    const ITEMS = 2_400_000;
    const KEYS = 700;
    const file = join(dir, 'big.ndjson.gz');
    const parts = [];
    for (let start = 0; start < ITEMS; start += 50_000) {
      let block = '';
      for (let i = start; i < start + 50_000; i++) {
        block += `{"id":"${i}","k":"key-${i % KEYS}","v":${(i * 7919) % 100003},"pad":"${(i * 31).toString(36).repeat(6)}"}\n`;
      }
      parts.push(Buffer.from(block));
    }
    const json = Buffer.concat(parts);
    const gz = gzipSync(json, {level: 6});
    writeFileSync(file, gz);
    const {page, problems, close} = await openPage();
    try {
      await page.fill(byTestId('key-input'), '/k');
      const runs = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
      // Every text the progress line takes (it is drawn once the panel shows, after half a
      // second), watched in the page so a short run cannot slip between two polls.
      await page.evaluate(() => {
        const text = document.querySelector('#progress-text');
        window.progressTexts = [];
        new MutationObserver(() => window.progressTexts.push(text.textContent))
          .observe(text, {childList: true, characterData: true, subtree: true});
      });
      await page.setInputFiles(byTestId('file-input'), file);
      await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.state !== 'busy',
                                 runs, {timeout: 2 * TIMEOUT});
      // "Analyzing big.ndjson.gz: 1.2 MB of 9.8 MB gzip · 6.3 MB of JSON (12.0%) · 51,234 items"
      const texts = await page.evaluate(() => window.progressTexts);
      const pattern = / of [\d.]+ [KM]B gzip · [\d.]+ [KM]?B of JSON \([\d.]+%\) · [\d,]+ items/;
      assert.ok(texts.some((t) => pattern.test(t)), `progress texts: ${JSON.stringify(texts)}`);
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
      assert.equal(await figure(page, 'summary-items'), ITEMS);
      assert.equal(await figure(page, 'summary-partitions'), KEYS);
      const line = await sourceLine(page);
      assert.equal(Number(line.bytes), json.length);
      assert.equal(Number(line.compressedBytes), gz.length);
      assert.match(line.text, /MB of JSON, [\d.]+ MB gzip read/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a truncated or corrupt .gz is an error naming the file, never a short report', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-gz-bad-'));
    const {page, problems, close} = await openPage();
    try {
      const itemsBefore = await figure(page, 'summary-items');
      const cut = join(dir, 'cut.json.gz');
      writeFileSync(cut, exportGz.subarray(0, exportGz.length >> 1));
      assert.equal(await analyzeFile(page, cut, '/tenantId'), 'error');
      const message = await page.textContent(byTestId('error-message'));
      assert.match(message, /cut\.json\.gz is not valid gzip: .+ \(it stopped after [\d.]+ KB of [\d.]+ KB of gzip, [\d.]+ KB decompressed\)/,
                   message);
      // Every byte decompressed but the checksum at the end is wrong: still an error, not a report.
      const crc = Buffer.from(exportGz);
      crc[crc.length - 8] ^= 0xff;
      const badCrc = join(dir, 'crc.json.gz');
      writeFileSync(badCrc, crc);
      assert.equal(await analyzeFile(page, badCrc, '/tenantId'), 'error');
      assert.match(await page.textContent(byTestId('error-message')), /crc\.json\.gz is not valid gzip/);
      // A bad header (compression method 7): refused at once.
      const header = Buffer.from(exportGz);
      header[2] = 7;
      const badHeader = join(dir, 'header.json.gz');
      writeFileSync(badHeader, header);
      assert.equal(await analyzeFile(page, badHeader, '/tenantId'), 'error');
      assert.match(await page.textContent(byTestId('error-message')), /header\.json\.gz is not valid gzip: .+ \(it stopped after/);
      // The report on screen is still the earlier one, whole.
      assert.equal(await figure(page, 'summary-items'), itemsBefore);
      // Console errors are the page's own error reports here; nothing else.
      assert.deepEqual(problems.filter((p) => !/not valid gzip/.test(p)), []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a link shared from a .gz file carries its first items, decompressed', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-gz-share-'));
    const {page, problems, close} = await openPage();
    let other;
    try {
      const file = join(dir, 'export.json.gz');
      writeFileSync(file, exportGz);
      assert.equal(await analyzeFile(page, file, '/tenantId'), 'ready');
      await page.evaluate(() => { document.querySelector('#share-output').value = ''; });
      await page.click(byTestId('copy-link'));
      await page.waitForFunction(() => document.querySelector('#share-output').value.includes('#pp='), null, {timeout: TIMEOUT});
      const link = await page.inputValue(byTestId('share-output'));
      const status = await page.textContent(byTestId('share-status'));
      const m = status.match(/It carries the first (\d+) items of export\.json\.gz \(([\d.]+) KB of more\), not the whole data\./);
      assert.ok(m, status);
      const carried = Number(m[1]);
      assert.ok(carried > 5 && carried < 1500, `${carried} items`);
      other = await openPage();
      await other.page.waitForLoadState('networkidle');
      await other.page.goto('about:blank');
      await other.page.goto(link);
      await other.page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.restored), null, {timeout: TIMEOUT});
      assert.equal(await other.page.evaluate(() => document.body.dataset.restored), 'done');
      assert.equal(await figure(other.page, 'summary-items'), carried);
      const first = exampleItems('cosmos-export').slice(0, carried);
      assert.equal(await figure(other.page, 'summary-partitions'), expectedPartitions(first, ['/tenantId']).partitions);
      assert.deepEqual(problems, []);
      assert.deepEqual(other.problems, []);
    } finally {
      await other?.close();
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });
});

describe('gzip input in the Cassandra bulk load', () => {
  test('a .ndjson.gz file loads as the JSON inside, the result giving both sizes', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-gz-cql-'));
    const {page, problems, close} = await openCassandra();
    try {
      const rows = [];
      for (let i = 0; i < 3000; i++) rows.push({user: `g${i % 70}`, id: Math.floor(i / 70), message: `gz ${i} ✓`});
      const json = Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const gz = gzipSync(json);
      const file = join(dir, 'messages.ndjson.gz');
      writeFileSync(file, gz);
      assert.equal(await page.inputValue(byTestId('cql-load-table')), 'uprofile.user');
      assert.equal(await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), file)), 'ready');
      const status = byTestId('cql-load-status');
      assert.equal(await page.getAttribute(status, 'data-rows'), '3000');
      assert.equal(await page.getAttribute(status, 'data-bytes'), String(json.length));
      assert.equal(await page.getAttribute(status, 'data-compressed-bytes'), String(gz.length));
      assert.match(await page.textContent(status),
                   /Loaded 3,000 rows from messages\.ndjson\.gz \([\d.]+ KB of JSON, [\d.]+ KB gzip\) into uprofile\.user/);
      assert.ok(await page.isChecked(byTestId('cql-load-format-json')), 'a .ndjson.gz is JSON');
      // A truncated one: the error names the file; the rows decompressed before it stay.
      const cut = join(dir, 'cut.ndjson.gz');
      writeFileSync(cut, gz.subarray(0, gz.length - 20));
      assert.equal(await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), cut)), 'error');
      assert.match(await page.textContent(status), /cut\.ndjson\.gz is not valid gzip/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
