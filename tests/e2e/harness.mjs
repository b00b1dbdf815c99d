// Shared plumbing of the end-to-end tests: the static server over build/site, Debian's Chromium
// through playwright-core, a page that records console errors, page errors, failed and off-origin
// requests, and the plain-JS reference model the expectations are computed with.
//
//   import {useBrowser, openPage, ...} from './harness.mjs';
//   useBrowser();                       // starts the server and the browser for this test file
//   const {page, problems, close} = await openPage();
//
// SITE_ROOT overrides the served directory (default build/site; run `make site` first); CHROMIUM
// the browser binary (default /usr/bin/chromium).
import {after, before} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {gunzipSync} from 'node:zlib';
import {chromium} from 'playwright-core';
import {startServer} from '../../scripts/serve.mjs';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const siteRoot = resolve(repo, process.env.SITE_ROOT ?? 'build/site');
export const examplesDir = join(repo, 'examples');
export const resultsDir = join(repo, 'test-results');
export const TIMEOUT = 60_000;

// ---------------------------------------------------------------------------------------------
// The reference model, in plain JS.

/** Items of a JSON text: one object, an array of objects, or NDJSON. */
export function parseItems(text) {
  const trimmed = text.trim();
  try {
    const value = JSON.parse(trimmed);
    return Array.isArray(value) ? value : [value];
  } catch {
    return trimmed.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
  }
}

/** RFC 6901 lookup; undefined when the path is absent. */
export function lookup(document, pointer) {
  if (pointer === '') return document;
  assert.ok(pointer.startsWith('/'), `bad pointer ${pointer}`);
  let value = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, token)) {
      return undefined;
    }
    value = value[token];
  }
  return value;
}

/** {partitions, undefinedItems, invalidItems} as Cosmos DB would group `items`. */
export function expectedPartitions(items, keyPaths) {
  const keys = new Set();
  let undefinedItems = 0;
  let invalidItems = 0;
  for (const item of items) {
    const values = keyPaths.map((p) => lookup(item, p));
    if (values.some((v) => (v !== null && typeof v === 'object') || (typeof v === 'number' && !Number.isFinite(v)))) {
      invalidItems++;
      continue;
    }
    if (values.some((v) => v === undefined)) undefinedItems++;
    // Tag each value with its type: "5" and 5 differ; numbers are doubles (5.0 === 5, -0 === 0).
    keys.add(JSON.stringify(values.map((v) =>
      v === undefined ? ['u'] : typeof v === 'number' ? ['n', v === 0 ? 0 : v] : [typeof v, v])));
  }
  return {partitions: keys.size, undefinedItems, invalidItems};
}

export const examples = JSON.parse(readFileSync(join(examplesDir, 'index.json'), 'utf8'));
export const exampleItems = (id) => {
  const entry = examples.find((e) => e.id === id);
  assert.ok(entry, `example ${id} is in examples/index.json`);
  return parseItems(exampleText(entry.file));
};
/** An example file's text (a .gz one decompressed, as the page's worker reads it). */
export const exampleText = (file) => {
  const bytes = readFileSync(join(examplesDir, file));
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
};

// ---------------------------------------------------------------------------------------------
// Browser plumbing.

let server;
let baseUrl;
let browser;

/** Debian's Chromium, headless, with the flags every end-to-end test runs it with, then `args`. */
export function launchChromium(args = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run', '--disable-quic', ...args],
  });
}

/**
 * Starts the server and the browser before this file's tests and stops them after; `args` are
 * added to the browser's command line (e.g. `--js-flags=--expose-gc`).
 */
export function useBrowser({args = []} = {}) {
  before(async () => {
    assert.ok(existsSync(join(siteRoot, 'index.html')),
              `${siteRoot}/index.html is missing: run \`make site\` first (or set SITE_ROOT)`);
    ({server, url: baseUrl} = await startServer({root: siteRoot, port: 0}));
    browser = await launchChromium(args);
  });

  after(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done()));
  });
}

/**
 * A fresh page (1360x1000 unless `viewport` says) with its console errors and page errors
 * collected; `initScript` (a function) runs in every page of it before the page's own scripts.
 * It opens the page's URL with `query` (e.g. '?simd=0'); `beforeLoad(page)` runs before that.
 */
export async function openPage({colorScheme = 'light', viewport = {width: 1360, height: 1000}, initScript,
                                 query = '', beforeLoad} = {}) {
  const context = await browser.newContext({viewport, colorScheme});
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  // Everything must come from our own origin.
  page.on('request', (r) => {
    if (!r.url().startsWith(baseUrl) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) {
      problems.push(`off-origin request: ${r.url()}`);
    }
  });
  await beforeLoad?.(page);
  await page.goto(new URL(query, baseUrl).href);
  await page.waitForFunction(() => document.body.dataset.state === 'ready' || document.body.dataset.state === 'error',
                             null, {timeout: TIMEOUT});
  const close = async () => {
    await context.close();
  };
  return {page, problems, close};
}

export const byTestId = (id) => `[data-testid="${id}"]`;

/** Whether a Playwright worker is an engine worker's reader thread (web/worker/reader.js). */
export const isReaderThread = (worker) => /\/reader\.js(\?|$)/.test(worker.url());
/** The page's engine workers (worker.js), without their reader threads. */
export const engineWorkers = (page) => page.workers().filter((w) => !isReaderThread(w));

/**
 * Waits until the <partition-playground> #id finished a run; returns its state. An instance starts
 * once it is visible, and the instances above it grow as they finish: until it has run, a poll
 * that finds it out of view scrolls it back, as a reader would (one in view is not scrolled: the
 * lazy-start test relies on that). On a timeout the error names the instance, its data-* state,
 * its status text, whether it is in view, and `problems` (it timed out once in a clean clone).
 */
export async function elementSettled(page, id, problems = []) {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    const box = el?.getBoundingClientRect();
    if (box && (box.bottom <= 0 || box.top >= innerHeight) && Number(el.dataset.runs ?? 0) < 1) {
      el.scrollIntoView({block: 'center'});
    }
    return el && Number(el.dataset.runs ?? 0) >= 1 && el.dataset.state !== 'loading';
  }, `#${id}`, {timeout: TIMEOUT}).catch(async (error) => {
    const seen = await page.$eval(`#${id}`, (el) => ({
      ...el.dataset, inView: (({top, bottom}) => bottom > 0 && top < innerHeight)(el.getBoundingClientRect()),
      status: el.shadowRoot?.querySelector('[data-testid="status"]')?.textContent,
    })).catch(() => 'gone');
    throw new Error(`#${id} never ran: ${JSON.stringify(seen)}; page problems: ${JSON.stringify(problems)}`,
                    {cause: error});
  });
  return page.$eval(`#${id}`, (el) => el.dataset.state);
}

/** Runs `action` and waits until the page finished the analysis it started. Returns the state. */
export async function analysisAfter(page, action) {
  const runs = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.state !== 'busy',
                             runs, {timeout: TIMEOUT});
  return page.evaluate(() => document.body.dataset.state);
}

export async function figure(page, id) {
  const value = await page.getAttribute(byTestId(id), 'data-value');
  assert.notEqual(value, null, `${id} has a data-value`);
  return Number(value);
}

export async function expectReadyWith(page, expected, items) {
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
  assert.equal(await figure(page, 'summary-partitions'), expected.partitions, 'logical partitions');
  assert.equal(await figure(page, 'summary-undefined'), expected.undefinedItems, 'items without the key');
  assert.equal(await figure(page, 'summary-invalid'), expected.invalidItems, 'items with an invalid key');
  assert.equal(await figure(page, 'summary-items'), items.length, 'items');
  assert.ok(await page.isHidden(byTestId('error-panel')), 'no error panel');
}

// ---------------------------------------------------------------------------------------------
// Item texts and partition sizes, as the engine measures them: an item's bytes are the UTF-8
// length of its JSON text as it stands in the input.

/** The raw text of every top-level object in `text` (NDJSON, an array of objects, one object). */
export function itemTexts(text) {
  const items = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  const top = text.trimStart().startsWith('[') ? 1 : 0;  // the depth items start at
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (c === '{' && depth === top) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (c === '}' && start >= 0 && depth === top) {
        items.push(text.slice(start, i + 1));
        start = -1;
      }
    }
  }
  return items;
}

/**
 * The logical partitions of `text` under `keyPaths` with their items and bytes, largest bytes
 * first: [{key: [values], label, items, bytes}]. label is how the page writes a one-value key
 * (JSON text: "a" for strings, 5 for numbers).
 */
export function partitionsBySize(text, keyPaths) {
  const groups = new Map();
  for (const raw of itemTexts(text)) {
    const item = JSON.parse(raw);
    const values = keyPaths.map((p) => lookup(item, p));
    if (values.some((v) => v !== null && typeof v === 'object')) continue;
    const id = JSON.stringify(values.map((v) => (v === undefined ? ['u'] : [typeof v, v])));
    const group = groups.get(id) ?? {key: values, label: values.length === 1 ? JSON.stringify(values[0] ?? {}) : null,
                                     items: 0, bytes: 0};
    group.items++;
    group.bytes += Buffer.byteLength(raw, 'utf8');
    groups.set(id, group);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || b.items - a.items);
}

// ---------------------------------------------------------------------------------------------
// The Cassandra mode (cql.test.mjs, console-words.test.mjs).

// The Cassandra mode's panel: the CQL helpers below wait on its data-cql-* attributes.
const cqlPanel = byTestId('cassandra-view');

export async function cqlRuns(page) {
  return page.$eval(cqlPanel, (node) => Number(node.dataset.cqlRuns ?? 0));
}

/** Runs `action` and waits until the Cassandra panel finished the request it started. Returns its state. */
export async function cqlAfter(page, action) {
  const runs = await cqlRuns(page);
  await action();
  // Settled: at least one more request finished and none is queued (a control that loses focus
  // may start one of its own).
  await page.waitForFunction(({selector, n}) => {
    const node = document.querySelector(selector);
    return Number(node.dataset.cqlRuns ?? 0) > n && node.dataset.cqlPending === '0' && node.dataset.cqlState !== 'busy';
  }, {selector: cqlPanel, n: runs}, {timeout: TIMEOUT});
  return page.$eval(cqlPanel, (node) => node.dataset.cqlState);
}

/**
 * A fresh page switched to the Cassandra mode, its first example in the editor and, unless
 * `run: false`, run with the Run button (the mode opens on an empty session: nothing runs by itself).
 */
export async function openCassandra({run = true, ...options} = {}) {
  const opened = await openPage(options);
  const {page} = opened;
  await page.click(byTestId('mode-cassandra'));
  await page.waitForFunction((selector) => {
    const node = document.querySelector(selector);
    return Number(node.dataset.cqlRuns ?? 0) >= 1 && node.dataset.cqlPending === '0' && node.dataset.cqlState !== 'busy';
  }, cqlPanel, {timeout: TIMEOUT});
  if (run) await cqlAfter(page, () => page.click(byTestId('cql-run')));
  return opened;
}

export async function runScript(page, script) {
  await page.fill(byTestId('cql-editor'), script);
  return cqlAfter(page, () => page.click(byTestId('cql-run')));
}

/** Clicks a share button (copy-link, copy-embed, ...) and waits for the share output to hold `marker`: {value, status}. */
export async function copiedShare(page, button, marker) {
  await page.evaluate(() => { document.querySelector('#share-output').value = ''; });
  await page.click(byTestId(button));
  await page.waitForFunction((m) => document.querySelector('#share-output').value.includes(m), marker, {timeout: TIMEOUT});
  return {value: await page.inputValue(byTestId('share-output')), status: await page.textContent(byTestId('share-status'))};
}
