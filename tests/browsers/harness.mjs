// Shared plumbing of the cross-engine suite: one browser of one engine per test file, the site
// behind the suite's server (server.mjs), and the page-level helpers the reader paths use. The
// reference model (plain-JS grouping, example items) is tests/e2e/harness.mjs's, imported.
//
//   const suite = useEngine('webkit');        // before/after: server and browser for this file
//   const page = await suite.openPage();      // the playground, its first analysis settled
//   ...
//   await suite.done(page);                   // asserts no problem was recorded, closes the page
import {after, afterEach, before} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {TIMEOUT, launch} from './drivers.mjs';
import {startSuiteServer} from './server.mjs';
import {resultsDir, siteRoot} from '../e2e/harness.mjs';

export {TIMEOUT};
export const byTestId = (id) => `[data-testid="${id}"]`;

/**
 * Starts the suite's server and `engine`'s browser (with `env`: drivers.mjs launch) around this
 * file's tests; `label` names its screenshots (the engine's name by default).
 */
export function useEngine(engine, {env, label = engine} = {}) {
  const suite = {engine, browser: null, site: null};

  before(async () => {
    assert.ok(existsSync(join(siteRoot, 'index.html')),
              `${siteRoot}/index.html is missing: run \`make site\` first (or set SITE_ROOT)`);
    suite.site = await startSuiteServer({root: siteRoot});
    suite.browser = await launch(engine, {env});
    console.log(`# ${suite.browser.name} ${suite.browser.version}`);
  }, {timeout: 2 * TIMEOUT});

  // A test that failed half-way leaves its page open: close it, so the next test gets the browser.
  let open = null;
  afterEach(async () => {
    await open?.close().catch(() => {});
    open = null;
  });

  after(async () => {
    await suite.browser?.close();
    await suite.site?.close();
  });

  /** Opens `path` of the site (the playground by default) and, for the playground, waits for its first run. */
  suite.openPage = async (path = '') => {
    const page = await suite.browser.openPage(new URL(path, suite.site.url).href);
    open = page;
    page.httpErrorsFrom = suite.site.httpErrors.length;
    if (path === '' || path.startsWith('#')) await settledPage(page);
    return page;
  };

  /** No console error, page error, unhandled rejection, off-origin request or HTTP error; then closes. */
  suite.done = async (page) => {
    const problems = [...await page.problems(), ...suite.site.httpErrors.slice(page.httpErrorsFrom)];
    await page.close();
    open = null;
    assert.deepEqual(problems, [], `${engine}: problems on the page`);
  };

  /** Saves a screenshot of the viewport as test-results/<name>-<engine>.png. */
  suite.screenshot = async (page, name) => {
    mkdirSync(resultsDir, {recursive: true});
    const path = join(resultsDir, `${name}-${label}.png`);
    await page.screenshot(path);
    return path;
  };
  return suite;
}

/** Waits until the playground finished loading (ready or error). */
export function settledPage(page) {
  return page.waitFor(() => ['ready', 'error'].includes(document.body.dataset.state), undefined,
                      {what: 'the page to settle'});
}

const runs = (page) => page.evaluate(() => Number(document.body.dataset.runs ?? 0));

/** Runs `action` and waits until the page finished the analysis it started. Returns the state. */
export async function analysisAfter(page, action) {
  const before = await runs(page);
  await action();
  await page.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.state !== 'busy',
                     before, {what: 'the analysis to finish'});
  return page.evaluate(() => document.body.dataset.state);
}

export async function figure(page, id) {
  const value = await page.attribute(byTestId(id), 'data-value');
  assert.notEqual(value, null, `${id} has a data-value`);
  return Number(value);
}

/** The page shows `expected` ({partitions, undefinedItems, invalidItems}) for `items`, no error. */
export async function expectReadyWith(page, expected, items) {
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
  assert.equal(await figure(page, 'summary-partitions'), expected.partitions, 'logical partitions');
  assert.equal(await figure(page, 'summary-undefined'), expected.undefinedItems, 'items without the key');
  assert.equal(await figure(page, 'summary-invalid'), expected.invalidItems, 'items with an invalid key');
  assert.equal(await figure(page, 'summary-items'), items.length, 'items');
  assert.equal(await page.visible(byTestId('error-panel')), false, 'no error panel');
}
