// Embedding from a CDN (issue 18): the element on a page of one origin, its files (module, worker,
// wasm, examples) served from another origin by `scripts/serve.mjs --cors`. The worker starts
// from a same-origin blob: module that imports the real one; the result equals the same
// element's on its own origin.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {createServer} from 'node:http';
import {join} from 'node:path';
import {startServer} from '../../scripts/serve.mjs';
import {TIMEOUT, expectedPartitions, exampleItems, openPage, repo, siteRoot, useBrowser} from './harness.mjs';

useBrowser();

let cdn;
let docs;
before(async () => {
  cdn = await startServer({root: siteRoot, port: 0, cors: true});
  // The embedding page: a docs site of its own origin, with no policy of ours, served for real (a
  // fulfilled route would not count as loopback for Chromium's local-network checks).
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs page</title></head><body><main>' +
    `<script type="module" src="${cdn.url}partition-playground.js"></script>` +
    '<partition-playground mode="cosmos" example="orders" key="/customerId"></partition-playground>' +
    '</main></body></html>';
  const server = createServer((req, res) => {
    const page = req.url === '/' || req.url === '/index.html';
    // No favicon: 204, so the browser logs no failed request.
    res.writeHead(page ? 200 : 204, page ? {'Content-Type': 'text/html; charset=utf-8'} : {});
    res.end(page ? html : undefined);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  docs = {server, url: `http://127.0.0.1:${server.address().port}/`};
});
after(async () => {
  await new Promise((done) => cdn.server.close(done));
  await new Promise((done) => docs.server.close(done));
});

describe('the element with its files on another origin', () => {
  test('renders the example with the worker started from a blob: module', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const host = new URL(docs.url);
      assert.notEqual(new URL(cdn.url).origin, host.origin, 'two origins');
      const workers = [];
      page.on('worker', (w) => workers.push(w.url()));
      await page.goto(host.href);
      // What the harness's first page left unfinished when it was left is not this page's.
      problems.length = 0;
      await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('partition-playground')?.dataset.state),
                                 null, {timeout: TIMEOUT});
      const state = await page.$eval('partition-playground', (el) => el.dataset.state);
      assert.equal(state, 'ready', await page.$eval('partition-playground', (el) => el.shadowRoot?.textContent ?? ''));
      const expected = expectedPartitions(exampleItems('orders'), ['/customerId']);
      assert.equal(await page.$eval('partition-playground', (el) => Number(el.dataset.partitions)), expected.partitions);
      assert.ok(workers.some((u) => u.startsWith('blob:')), `a blob: worker (${workers.join(', ')})`);
      // The only problems allowed are the requests off the harness's origin (the docs page's and
      // the files').
      const cdnOrigin = new URL(cdn.url).origin;
      assert.deepEqual(problems.filter((p) => !p.startsWith(`off-origin request: ${cdnOrigin}`) &&
                                             !p.startsWith(`off-origin request: ${host.origin}`)), []);
      assert.ok(problems.some((p) => p.startsWith(`off-origin request: ${cdnOrigin}`)), 'the files came from the other origin');
    } finally {
      await close();
    }
  });

  // Issue 40, friction 3: `make serve` could not be embedded from another origin (no CORS header,
  // CORP same-origin) and the element failed invisibly. The server `make serve` runs, with no flag.
  test('make serve\'s server can be embedded from another origin with no flag', {timeout: 2 * TIMEOUT}, async () => {
    const child = spawn(process.execPath, [join(repo, 'scripts', 'serve.mjs'), '--root', siteRoot, '--port', '0'],
                        {stdio: ['ignore', 'pipe', 'inherit']});
    let served;
    const {page, problems, close} = await openPage();
    try {
      const filesUrl = await new Promise((ok, fail) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = out.match(/Partition Playground: (http:\/\/\S+)/);
          if (m) ok(m[1].endsWith('/') ? m[1] : `${m[1]}/`);
        });
        child.on('exit', (code) => fail(new Error(`serve.mjs exited ${code}`)));
      });
      const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title></head><body>' +
        `<script type="module" src="${filesUrl}partition-playground.js"></script>` +
        '<partition-playground mode="cosmos" example="orders" key="/customerId">Fallback: the map did not load.</partition-playground>' +
        '</body></html>';
      served = createServer((req, res) => {
        const index = req.url === '/';
        res.writeHead(index ? 200 : 204, index ? {'Content-Type': 'text/html; charset=utf-8'} : {});
        res.end(index ? html : undefined);
      });
      await new Promise((ok) => served.listen(0, '127.0.0.1', ok));
      await page.goto(`http://127.0.0.1:${served.address().port}/`);
      problems.length = 0;
      await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('partition-playground')?.dataset.state),
                                 null, {timeout: TIMEOUT});
      assert.equal(await page.$eval('partition-playground', (el) => el.dataset.state), 'ready');
      assert.equal(await page.$eval('partition-playground', (el) => Number(el.dataset.partitions)),
                   expectedPartitions(exampleItems('orders'), ['/customerId']).partitions);
      // Once it runs, the fallback is not shown: the element draws in its shadow root.
      assert.equal(await page.$eval('partition-playground', (el) => el.checkVisibility?.() !== false && el.getBoundingClientRect().height > 0), true);
    } finally {
      await close();
      child.kill();
      if (served) await new Promise((done) => served.close(done));
    }
  });

  test('an element whose script is blocked shows its fallback text', {timeout: TIMEOUT}, async () => {
    const {page, close} = await openPage();
    try {
      await page.route('**/partition-playground.js', (route) => route.abort('blockedbyclient'));
      await page.setContent('<!doctype html><html lang="en"><body><script type="module" src="/partition-playground.js"></script>' +
        '<partition-playground mode="cosmos" example="orders">Fallback: the interactive map did not load.</partition-playground>' +
        '</body></html>');
      await page.waitForTimeout(300);
      const text = await page.$eval('partition-playground', (el) => el.innerText);
      assert.equal(text, 'Fallback: the interactive map did not load.');
      assert.equal(await page.$eval('partition-playground', (el) => el.shadowRoot), null);
    } finally {
      await close();
    }
  });
});
