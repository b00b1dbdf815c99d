// Issue 40: "a message when its worker or engine cannot load". The element's module loads, but its
// worker script or its engine's .wasm does not (a 404, a page or plain text in place of the file,
// a Content-Security-Policy that blocks the worker or the wasm): within a few seconds the element
// says so in its own box (what failed, the file's URL, what its server answered, what to change),
// keeps its size, shows the author's fallback content below, and the page's console carries the
// same sentence. Served from build/site by scripts/serve.mjs; each failure made by routing the
// file's request (Playwright intercepts the worker's own fetches too). A .wasm served as
// text/plain still runs (the engine compiles it once downloaded): the element renders.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {startServer} from '../../scripts/serve.mjs';
import {TIMEOUT, launchChromium, siteRoot} from './harness.mjs';

/** How long the element may take to say it could not start. */
const FEW_SECONDS = 8_000;
const FALLBACK = 'A picture of the example: the interactive version did not load.';

let server;
let browser;

before(async () => {
  assert.ok(existsSync(join(siteRoot, 'partition-playground.js')), `${siteRoot}: run \`make site\` first`);
  server = await startServer({root: siteRoot, port: 0});
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.server.close(done) : done()));
});

/** A fulfilled response of the real file with its headers changed. */
function withHeaders(headers) {
  return async (route) => {
    const response = await route.fetch();
    await route.fulfill({response, headers: {...response.headers(), ...headers}});
  };
}

const notFound = (route) => route.fulfill({status: 404, contentType: 'text/plain', body: 'Not found'});

/**
 * A page of the site's origin holding one element of `mode` with a fallback text, the files routed
 * as `routes` say ([[pattern, handler]]), the page sent with `csp` when given. Returns the element's
 * state once it has finished, the time that took, its box, and the console's errors.
 */
async function embed({mode = 'cassandra', routes = [], csp = null, wait = FEW_SECONDS}) {
  const context = await browser.newContext({viewport: {width: 1000, height: 800}});
  const page = await context.newPage();
  const errors = [];
  const pageErrors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const host = `${server.url}failing-host.html`;
  await context.route(host, (route) => route.fulfill({
    status: 200, contentType: 'text/html; charset=utf-8', headers: csp ? {'Content-Security-Policy': csp} : {},
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>an article</title></head><body><main>' +
      '<h1>An article</h1><script type="module" src="partition-playground.js"></script>' +
      `<partition-playground mode="${mode}">${FALLBACK}</partition-playground><p>The article goes on.</p></main></body></html>`}));
  for (const [pattern, handler] of routes) await context.route(pattern, handler);
  const started = Date.now();
  await page.goto(host);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('partition-playground')?.dataset.state),
                             null, {timeout: wait});
  const ms = Date.now() - started;
  const seen = await page.$eval('partition-playground', (el) => {
    const box = el.getBoundingClientRect();
    const root = el.shadowRoot;
    const slot = root.querySelector('[data-testid="fallback"] slot');
    return {
      state: el.dataset.state, failure: el.dataset.failure ?? null, width: box.width, height: box.height,
      status: root.querySelector('[data-testid="status"]')?.textContent ?? null,
      message: root.querySelector('[data-testid="load-failure-message"]')?.textContent ?? null,
      urls: [...root.querySelectorAll('[data-testid="load-failure-message"] code')].map((c) => c.textContent),
      messageVisible: root.querySelector('[data-testid="load-failure"]')?.checkVisibility() ?? false,
      fallback: slot ? slot.assignedNodes().map((n) => n.textContent).join('').trim() : null,
      fallbackVisible: slot ? slot.parentElement.checkVisibility() && slot.parentElement.getBoundingClientRect().height > 0 : false,
    };
  });
  return {page, seen, ms, errors, pageErrors, close: () => context.close()};
}

/** The checks every failure shares: an error state with a visible message naming `url`, logged too. */
function assertShown({seen, ms, errors, pageErrors}, url, what) {
  assert.equal(seen.state, 'error', what);
  assert.equal(seen.failure, 'load', what);
  assert.ok(ms < FEW_SECONDS, `${what}: shown after ${ms} ms`);
  assert.ok(seen.width > 0 && seen.height > 0, `${what}: the element keeps its box (${seen.width} x ${seen.height})`);
  assert.ok(seen.messageVisible, `${what}: the message is visible`);
  assert.equal(seen.status, 'Could not start');
  assert.ok(seen.urls.includes(url), `${what}: the message names ${url} (${JSON.stringify(seen.urls)}): ${seen.message}`);
  assert.equal(seen.fallback, FALLBACK, `${what}: the author's fallback content is shown below`);
  assert.ok(seen.fallbackVisible, `${what}: the fallback is visible`);
  assert.ok(errors.some((line) => line.startsWith('<partition-playground> could not start: ') && line.includes(url)),
            `${what}: the console says it: ${JSON.stringify(errors)}`);
  assert.deepEqual(pageErrors, [], `${what}: no uncaught error`);
}

describe('the element when its worker or engine cannot load', {timeout: 10 * TIMEOUT}, () => {
  test('the worker script answers 404', {timeout: TIMEOUT}, async () => {
    const url = `${server.url}worker/worker.js?domain=cql&size=small`;
    const shown = await embed({routes: [[/\/worker\/worker\.js/, notFound]]});
    try {
      assertShown(shown, url, 'worker 404');
      assert.match(shown.seen.message, /^The engine worker could not start: .* answered HTTP 404 Not Found: the file is not there\. Serve every file/);
    } finally {
      await shown.close();
    }
  });

  test('the worker script is served as text/plain', {timeout: TIMEOUT}, async () => {
    const url = `${server.url}worker/worker.js?domain=cql&size=small`;
    const shown = await embed({routes: [[/\/worker\/worker\.js/, withHeaders({'content-type': 'text/plain'})]]});
    try {
      assertShown(shown, url, 'worker as text/plain');
      assert.match(shown.seen.message, /was served as text\/plain, and a browser runs a module only when it is served as JavaScript\. Have the server send \.js and \.mjs files as text\/javascript\./);
    } finally {
      await shown.close();
    }
  });

  test('the page\'s Content-Security-Policy blocks the worker', {timeout: TIMEOUT}, async () => {
    const url = `${server.url}worker/worker.js?domain=cql&size=small`;
    const shown = await embed({csp: "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'"});
    try {
      assertShown(shown, url, 'worker blocked by the page');
      assert.match(shown.seen.message, /^The engine worker was blocked by the page's Content-Security-Policy \(worker-src\): .* Allow http:\/\/127\.0\.0\.1:\d+ in worker-src\./);
    } finally {
      await shown.close();
    }
  });

  test('the engine\'s .wasm answers 404 (Cassandra and Cosmos DB)', {timeout: TIMEOUT}, async () => {
    for (const [mode, file] of [['cassandra', 'partplay-cql-element.wasm'], ['cosmos', 'partplay-cosmos.wasm']]) {
      const url = `${server.url}engine/${file}`;
      const shown = await embed({mode, routes: [[/\.wasm$/, notFound]]});
      try {
        assertShown(shown, url, `${mode}: wasm 404`);
        assert.match(shown.seen.message, /^The engine's WebAssembly file could not be loaded: \S+ answered HTTP 404 Not Found: the file is not there\./);
      } finally {
        await shown.close();
      }
    }
  });

  test('a page is served in place of the .wasm', {timeout: TIMEOUT}, async () => {
    const url = `${server.url}engine/partplay-cql-element.wasm`;
    const shown = await embed({routes: [[/\.wasm$/, (route) => route.fulfill({
      status: 200, contentType: 'text/html', body: '<!doctype html><title>Page not found</title>'})]]});
    try {
      assertShown(shown, url, 'wasm as a page');
      assert.match(shown.seen.message, /is not WebAssembly: it was served as text\/html and begins "<!doctype html><title>Pa…"\. A page was sent in place of the file/);
      assert.match(shown.seen.message, /have the server send it as application\/wasm\.$/);
    } finally {
      await shown.close();
    }
  });

  test('the worker\'s Content-Security-Policy does not allow WebAssembly', {timeout: TIMEOUT}, async () => {
    const url = `${server.url}engine/partplay-cql-element.wasm`;
    const shown = await embed({routes: [[/\/worker\/worker\.js/, withHeaders({'content-security-policy': "default-src 'self'; script-src 'self'"})]]});
    try {
      assertShown(shown, url, 'wasm blocked by the policy');
      assert.match(shown.seen.message, /arrived, but a Content-Security-Policy does not let the browser compile it: its script-src needs 'wasm-unsafe-eval'/);
    } finally {
      await shown.close();
    }
  });

  test('a .wasm served as text/plain still runs: the element renders', {timeout: TIMEOUT}, async () => {
    const shown = await embed({routes: [[/\.wasm$/, withHeaders({'content-type': 'text/plain'})]], wait: TIMEOUT});
    try {
      assert.equal(shown.seen.state, 'ready', JSON.stringify(shown.seen));
      assert.equal(shown.seen.failure, null);
      assert.equal(await shown.page.$eval('partition-playground', (el) => el.dataset.selects), '4');
      assert.deepEqual(shown.errors, []);
      assert.deepEqual(shown.pageErrors, []);
    } finally {
      await shown.close();
    }
  });
});
