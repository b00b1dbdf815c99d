// The element as an npm package (issue 40): scripts/pack-element.mjs writes the package from
// build/site, `npm pack` makes the tarball, and the tarball unpacked is served from a second origin
// the way a CDN serving npm packages serves it, below a versioned path
// (/npm/partition-playground-element@<version>/dist/partition-playground.js). A page of the first
// origin embeds the element from there, in each mode with a chart: every file it asks for is in
// the package, the worker and the wasm come from the versioned path, and each renders its view.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createServer} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {startServer} from '../../scripts/serve.mjs';
import {TIMEOUT, elementSettled, expectedPartitions, openPage, repo, siteRoot, useBrowser} from './harness.mjs';

useBrowser();

const NAME = 'partition-playground-element';
const ITEMS = Array.from({length: 60}, (_, i) => ({id: String(i), userId: `u${i % 7}`, day: i < 45 ? 'today' : `d${i % 5}`}));

let work;
let tarball;
let entries;
let manifest;
let cdn;
let docs;
const served = [];

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'pp-pack-'));
  const out = execFileSync(process.execPath, [join(repo, 'scripts', 'pack-element.mjs'), '--root', siteRoot,
                                              '--out', join(work, 'package'), '--pack', join(work, 'tgz')],
                           {encoding: 'utf8'});
  tarball = out.trim().split('\n').at(-1).split(' ')[0];
  entries = execFileSync('tar', ['-tzf', tarball], {encoding: 'utf8'}).trim().split('\n');
  manifest = JSON.parse(readFileSync(join(work, 'package', 'package.json'), 'utf8'));
  // The CDN: the tarball unpacked below /npm/<name>@<version>/, with the CORS headers a CDN sends.
  const unpacked = join(work, 'cdn', 'npm', `${NAME}@${manifest.version}`);
  mkdirSync(unpacked, {recursive: true});
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
  cdn = await startServer({root: join(work, 'cdn'), port: 0, cors: true});
  cdn.server.on('request', (req, res) => res.on('finish', () => served.push({path: req.url, status: res.statusCode})));
  const module = `${cdn.url}npm/${NAME}@${manifest.version}/dist/partition-playground.js`;
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs page</title></head><body><main>' +
    `<script type="module" src="${module}"></script>` +
    '<partition-playground id="inline" mode="cosmos" key="/day" ru="40000" view="summary physical map" readonly>' +
    `<script type="application/json">${JSON.stringify(ITEMS)}</script></partition-playground>` +
    '<partition-playground id="example" mode="cosmos" example="orders" key="/customerId" view="summary histogram" readonly>' +
    '</partition-playground>' +
    '<partition-playground id="cql" mode="cassandra" nodes="4" vnodes="4" view="results ring" readonly><script type="text/cql">' +
    "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};\n" +
    'CREATE TABLE k.t (user text, id int, PRIMARY KEY (user, id));\n' +
    "INSERT INTO k.t (user, id) VALUES ('ann', 1);\nINSERT INTO k.t (user, id) VALUES ('bob', 2);\nSELECT * FROM k.t;\n" +
    '</script></partition-playground>' +
    '<partition-playground id="sizing" mode="sizing" example="hotel" view="sizing" readonly></partition-playground>' +
    '</main></body></html>';
  const server = createServer((req, res) => {
    const page = req.url === '/';
    res.writeHead(page ? 200 : 204, page ? {'Content-Type': 'text/html; charset=utf-8'} : {});
    res.end(page ? html : undefined);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  docs = {server, url: `http://127.0.0.1:${server.address().port}/`};
});

after(async () => {
  if (cdn) await new Promise((done) => cdn.server.close(done));
  if (docs) await new Promise((done) => docs.server.close(done));
  if (work) rmSync(work, {recursive: true, force: true});
});

describe('the element as an npm package', () => {
  test('npm pack gives package.json, a README and dist/ only, the element as its entry', () => {
    assert.match(tarball, new RegExp(`${NAME}-${manifest.version}\\.tgz$`));
    const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    assert.equal(manifest.name, NAME);
    assert.equal(manifest.version, root.version, 'the version is the project\'s');
    assert.equal(manifest.private, undefined);
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.exports['.'], './dist/partition-playground.js');
    const outside = entries.filter((e) => !e.startsWith('package/dist/') && e !== 'package/package.json' && e !== 'package/README.md');
    assert.deepEqual(outside, [], 'nothing outside dist/ but package.json and README.md');
    for (const file of ['partition-playground.js', 'worker/worker.js', 'worker/reader.js', 'engine/partplay-api.mjs',
                        'engine/partplay-cosmos.wasm', 'engine/partplay-cql-element.wasm', 'engine/partplay-sizing.wasm',
                        'engine/partplay-nosimd.wasm', 'vendor/d3.min.js', 'charts.css', 'examples/index.json']) {
      assert.ok(entries.includes(`package/dist/${file}`), `dist/${file} is packed`);
    }
    // The full page's files, which the element never loads, are not.
    for (const file of ['index.html', 'app.js', 'styles.css', 'engine/partplay-cosmos-fast.wasm', 'engine/partplay.wasm',
                        'engine/partplay-cql.wasm', 'cosmos/cosmos-view.js', 'examples/embed.html']) {
      assert.ok(!entries.includes(`package/dist/${file}`), `dist/${file} is not packed`);
    }
  });

  test('served from a versioned path on a second origin, embedded in a page of the first, it renders', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const host = new URL(docs.url);
      assert.notEqual(new URL(cdn.url).origin, host.origin, 'two origins');
      await page.goto(host.href);
      problems.length = 0;  // what the harness's first page left is not this page's
      served.length = 0;
      for (const id of ['inline', 'example', 'cql', 'sizing']) {
        assert.equal(await elementSettled(page, id, problems), 'ready',
                     await page.$eval(`#${id}`, (el) => el.shadowRoot?.textContent ?? ''));
      }
      // Its views: the tables with rows and the charts drawn.
      const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('partition-playground')].map((el) => {
        const root = el.shadowRoot;
        const rows = (testid) => root.querySelectorAll(`[data-testid="${testid}"] tbody tr`).length;
        return [el.id, {physical: rows('physical'), ringNodes: rows('ring-nodes'), terms: rows('sizing-chart-terms'),
                        svgs: root.querySelectorAll('.chart svg').length, partitions: Number(el.dataset.partitions ?? NaN)}];
      })));
      assert.equal(shown.inline.partitions, expectedPartitions(ITEMS, ['/day']).partitions);
      assert.ok(shown.inline.physical > 0 && shown.inline.svgs > 0, JSON.stringify(shown.inline));
      assert.ok(shown.example.partitions > 0 && shown.example.svgs > 0, JSON.stringify(shown.example));
      assert.ok(shown.cql.ringNodes === 4 && shown.cql.svgs > 0, JSON.stringify(shown.cql));
      assert.ok(shown.sizing.terms > 0 && shown.sizing.svgs > 0, JSON.stringify(shown.sizing));
      // Every file came from the package's versioned path and was there.
      const prefix = `/npm/${NAME}@${manifest.version}/dist/`;
      assert.deepEqual(served.filter((r) => r.status !== 200 || !r.path.startsWith(prefix)), [], 'every request answered from dist/');
      const paths = served.map((r) => new URL(r.path, cdn.url).pathname.slice(prefix.length));
      for (const file of ['worker/worker.js', 'engine/partplay-cosmos.wasm', 'engine/partplay-cql-element.wasm',
                          'engine/partplay-sizing.wasm', 'vendor/d3.min.js', 'charts.css', 'examples/orders.ndjson']) {
        assert.ok(paths.includes(file), `${file} was loaded from ${prefix} (${paths.join(', ')})`);
      }
      const cdnOrigin = new URL(cdn.url).origin;
      assert.deepEqual(problems.filter((p) => !p.startsWith(`off-origin request: ${cdnOrigin}${prefix}`) &&
                                             !p.startsWith(`off-origin request: ${host.origin}`)), []);
    } finally {
      await close();
    }
  });
});
