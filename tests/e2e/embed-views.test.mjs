// End-to-end tests of the element's chart views (issue 14) on examples/embed.html, in Debian's
// Chromium against build/site (run `make site` first): the logical → physical map of the vehicles
// example under /date and under its synthetic key, the ring of the compound-key example with a
// selected row's replicas, and the hotel sizing formula term by term. Each chart's table
// alternative is checked against the engine run here in Node (the per-domain modules the element
// loads, engine/partplay-cosmos.mjs, partplay-cql-element.mjs and partplay-sizing.mjs), the row tokens against cassandra-driver's tokenizer; the charts are
// screenshot into test-results/. Also: an element loads only its mode's engine module, and D3
// only when a chart view is listed.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startServer} from '../../scripts/serve.mjs';
import {logBins} from '../../web/common/charts.js';
import {formatBytes, formatInt, formatKey} from '../../web/common/format.js';
import {driverToken, encode} from '../oracles/cassandra.mjs';
import {TIMEOUT, launchChromium, elementSettled, examples, examplesDir, resultsDir, siteRoot} from './harness.mjs';

let server;
let browser;
let cosmos;
let cql;
let sizing;

before(async () => {
  assert.ok(existsSync(join(siteRoot, 'examples', 'embed.html')), 'build/site/examples/embed.html: run `make site` first');
  // The modules the element itself loads: one per domain.
  const api = await import(join(siteRoot, 'engine', 'partplay-api.mjs'));
  const load = (domain) => api.createEngine({wasmBinary: readFileSync(join(siteRoot, 'engine', `partplay-${domain}.wasm`))}, {domain});
  [cosmos, cql, sizing] = await Promise.all([load('cosmos'), load('cql-element'), load('sizing')]);
  server = await startServer({root: siteRoot, port: 0});
  browser = await launchChromium();
  mkdirSync(resultsDir, {recursive: true});
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.server.close(done) : done()));
});

/** A page on `url` recording problems and requests. */
async function open(url, {colorScheme = 'light', width = 1360} = {}) {
  const context = await browser.newContext({viewport: {width, height: 1000}, colorScheme});
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(url);
  return {page, problems, requests, close: () => context.close()};
}

/** Scrolls to #id and waits for its first finished run with its charts drawn; returns its state. */
async function ready(page, id) {
  await page.$eval(`#${id}`, (el) => el.scrollIntoView({block: 'center'}));
  return elementSettled(page, id);
}

/** The rows of the table `testid` inside #id's shadow root, as cell texts. */
const tableRows = (page, id, testid) => page.$eval(`#${id}`, (el, t) =>
  [...el.shadowRoot.querySelectorAll(`[data-testid="${t}"] tbody tr`)].map((tr) => [...tr.children].map((c) => c.textContent)), testid);

/** What the chart `testid` of #id holds: an svg with marks and an accessible name, focusable. */
const chartOf = (page, id, testid) => page.$eval(`#${id}`, (el, t) => {
  const node = el.shadowRoot.querySelector(`[data-testid="${t}-chart"]`);
  const svg = node?.querySelector('svg');
  return {svg: !!svg, marks: svg ? svg.querySelectorAll('rect, path, circle').length : 0, tabIndex: node?.tabIndex,
          label: node?.getAttribute('aria-label') ?? '', width: svg ? Number(svg.getAttribute('width')) : 0};
}, testid);

const vehicles = examples.find((e) => e.id === 'vehicles');
/** The engine's report of the vehicles example under `synthetic` or /date, as the element asks for it. */
function vehiclesReport(synthetic) {
  const analysis = cosmos.newAnalysis({key_paths: [vehicles.key], ...(synthetic ? {synthetic: {separator: '.', ...vehicles.synthetic}} : {})});
  analysis.feed(readFileSync(join(examplesDir, vehicles.file)));
  const report = analysis.finish({maxPartitions: 100, container: {...vehicles.container, ru_per_second: 40000}});
  analysis.dispose();
  return report;
}

describe('the chart views of <partition-playground> (examples/embed.html)', () => {
  test('the logical → physical map of /date next to its synthetic-key fix', async () => {
    const {page, problems, close} = await open(`${server.url}examples/embed.html`);
    try {
      const byRange = {};
      for (const [id, synthetic] of [['pp-date-map', false], ['pp-synthetic-map', true]]) {
        assert.equal(await ready(page, id), 'ready', id);
        const expected = vehiclesReport(synthetic).container.before;
        const rows = await tableRows(page, id, 'map-table');
        assert.deepEqual(rows.map((r) => r.slice(0, 5)), expected.ranges.map((r) => [
          String(r.id), formatInt(r.logical_partitions), formatBytes(r.bytes),
          r.top?.[0] ? formatKey(r.top[0].key) : '–', r.top?.[0] ? formatBytes(r.top[0].bytes) : '–']), `${id}: the map's table`);
        const chart = await chartOf(page, id, 'map');
        assert.ok(chart.svg && chart.marks > expected.ranges.length, `${id}: the map is drawn`);
        assert.equal(chart.tabIndex, 0, `${id}: the chart is keyboard reachable`);
        assert.match(chart.label, /Logical to physical partition map/);
        byRange[id] = expected;
        await page.locator(`#${id}`).screenshot({path: join(resultsDir, `embed-${id}.png`)});
      }
      // The lesson the pair shows: one hot /date partition, the synthetic key spreading it.
      const hottest = (layout) => Math.max(...layout.ranges.map((r) => r.top?.[0]?.bytes ?? 0));
      assert.ok(hottest(byRange['pp-date-map']) > 10 * hottest(byRange['pp-synthetic-map']),
                'the synthetic key splits the hot date');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the ring of the compound-key example with the selected row\'s replicas; another row by keyboard', async () => {
    const {page, problems, close} = await open(`${server.url}examples/embed.html`);
    try {
      assert.equal(await ready(page, 'pp-ring'), 'ready');
      // The engine, as the element runs it: a 5-node, 8-vnode ring, then the example's script.
      const session = cql.createCqlSession();
      session.configureRing({nodes: 5, num_tokens: 8});  // the engine's defaults for the rest
      const script = await page.$eval('#pp-ring script[type="text/cql"]', (s) => s.textContent);
      const first = session.execute(script).results.find((r) => r.kind === 'rows');
      const ring = session.ring('uprofile');
      const layout = session.tableLayout('uprofile.user', {scan_partitions: 50000, max_partitions: 4000, ru_per_second: 40000});
      session.dispose();
      const names = ring.nodes.map((n) => n.name ?? n.address);
      const third = first.partitions[first.row_partition[2]];
      // The row's token, independently: cassandra-driver's Murmur3 of the partition key (user text).
      const userColumn = first.columns.findIndex((c) => c.name === 'user');
      assert.equal(third.token, driverToken(encode(first.rows[2][userColumn], 'text')).toString());
      const placed = layout.partitions.find((p) => p.token === third.token);
      const selection = await page.$eval('#pp-ring', (el) => ({token: el.dataset.selectedToken, replicas: el.dataset.selectedReplicas}));
      assert.deepEqual(selection, {token: third.token, replicas: third.replicas.join(',')});
      assert.deepEqual(await tableRows(page, 'pp-ring', 'ring-replicas'), third.replicas.map((n, i) => [
        formatInt(i + 1), names[n], ring.tokens[placed.replica_vnodes[i]].token]));
      const nodes = await tableRows(page, 'pp-ring', 'ring-nodes');
      assert.deepEqual(nodes.map((r) => [r[0], r[1], r[3]]), names.map((name, i) => [
        name, formatInt(ring.tokens.filter((t) => t.node === i).length), third.replicas.includes(i) ? 'yes' : '']));
      const chart = await chartOf(page, 'pp-ring', 'ring');
      assert.ok(chart.svg && chart.marks >= ring.tokens.length, 'the ring is drawn, an arc per vnode');
      assert.match(chart.label, new RegExp(`token ${third.token}`));
      await page.locator('#pp-ring').screenshot({path: join(resultsDir, 'embed-pp-ring.png')});

      // The first row's "Show" button, reached and pressed from the keyboard.
      const firstRow = first.partitions[first.row_partition[0]];
      const button = page.locator('#pp-ring').locator('[data-testid="select-row"]').first();
      await button.focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((t) => document.querySelector('#pp-ring').dataset.selectedToken === t, firstRow.token,
                                 {timeout: TIMEOUT});
      assert.equal(await button.getAttribute('aria-pressed'), 'true');
      assert.deepEqual((await tableRows(page, 'pp-ring', 'ring-replicas')).map((r) => r[1]), firstRow.replicas.map((n) => names[n]));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the hotel sizing formula, term by term, with the limits', async () => {
    const {page, problems, close} = await open(`${server.url}examples/embed.html`);
    try {
      assert.equal(await ready(page, 'pp-hotel-formula'), 'ready');
      const entries = JSON.parse(readFileSync(join(examplesDir, 'cql', 'sizing.json'), 'utf8'));
      const {id: _id, title: _t, file, description: _d, ...rest} = entries.find((e) => e.id === 'hotel');
      const report = sizing.sizeTable({cql: readFileSync(join(examplesDir, 'cql', file), 'utf8'), ...rest});
      const t = report.average.terms;
      assert.deepEqual((await tableRows(page, 'pp-hotel-formula', 'sizing-chart-terms')).map((r) => [r[0], r[2]]), [
        ['Σ pk', formatInt(t.sum_partition_key)], ['Σ s', formatInt(t.sum_static)],
        ['Nr × (Σr + Σc)', formatInt(t.rows_term)], ['Nv × t_avg', formatInt(t.metadata_term)], ['St', formatInt(t.st_bytes)]]);
      assert.equal(t.sum_partition_key + t.sum_static + t.rows_term + t.metadata_term, t.st_bytes, 'the terms add up to St');
      const limits = await tableRows(page, 'pp-hotel-formula', 'sizing-chart-limits');
      assert.ok(limits.some((r) => /100/.test(r[0]) && r[1] === 'size (St)'), 'the 100 MB limit on St is listed');
      const chart = await chartOf(page, 'pp-hotel-formula', 'sizing-chart');
      assert.ok(chart.svg && chart.marks >= 5, 'a bar per term and the total');
      assert.equal(await page.$eval('#pp-hotel-formula', (el) => el.dataset.st), String(t.st_bytes));
      await page.locator('#pp-hotel-formula').screenshot({path: join(resultsDir, 'embed-pp-hotel-formula.png')});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the charts follow the --pp-* theme and dark mode, with their table views open', async () => {
    const {page, problems, close} = await open(`${server.url}examples/embed.html`, {colorScheme: 'dark'});
    try {
      assert.equal(await ready(page, 'pp-date-map'), 'ready');
      const fills = await page.$eval('#pp-date-map', (el) => {
        el.style.setProperty('--pp-accent', 'rgb(1, 2, 3)');
        const bar = el.shadowRoot.querySelector('[data-testid="map-chart"] text');
        return {text: getComputedStyle(bar).fill, bg: getComputedStyle(el).backgroundColor};
      });
      assert.notEqual(fills.text, 'rgb(0, 0, 0)', 'chart text takes the theme colour, not black');
      await page.$eval('#pp-date-map', (el) => { el.shadowRoot.querySelector('details.table-view').open = true; });
      await page.locator('#pp-date-map').screenshot({path: join(resultsDir, 'embed-pp-date-map-dark.png')});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('the histogram view', () => {
  test('view="histogram partitions": the size histogram with its bins table, as the engine\'s sizes give', async () => {
    const url = `${server.url}examples/histogram-host.html`;
    const context = await browser.newContext({viewport: {width: 1000, height: 900}});
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
    await page.route(url, (route) => route.fulfill({contentType: 'text/html', body:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>histogram</title>
<script type="module" src="../partition-playground.js"></script></head><body><main>
<partition-playground id="pp" mode="cosmos" example="orders" key="/customerId" view="histogram partitions"></partition-playground>
</main></body></html>`}));
    try {
      await page.goto(url);
      assert.equal(await ready(page, 'pp'), 'ready');
      const orders = examples.find((e) => e.id === 'orders');
      const analysis = cosmos.newAnalysis({key_paths: ['/customerId']});
      analysis.feed(readFileSync(join(examplesDir, orders.file)));
      const report = analysis.finish({maxPartitions: 100});
      analysis.dispose();
      const bins = logBins(report.partition_bytes).filter((b) => b.count > 0);
      assert.deepEqual(await tableRows(page, 'pp', 'histogram-table'), bins.map((b) => [
        formatBytes(b.x0), formatBytes(b.x1), formatInt(b.count), formatBytes(b.bytes)]));
      assert.equal(bins.reduce((n, b) => n + b.count, 0), report.partition_count, 'every partition is in a bin');
      const chart = await chartOf(page, 'pp', 'histogram');
      assert.ok(chart.svg && chart.marks >= bins.length, 'a bar per bin');
      assert.equal(await page.$eval('#pp', (el) => el.shadowRoot.querySelectorAll('[data-testid="partitions"] tbody tr').length), 10,
                   'the partitions table is listed beside the chart');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

describe('an element loads only what its mode and views need', () => {
  /** A page with one element (`attrs`), served beside examples/embed.html; the paths it requested. */
  async function loads(attrs) {
    const url = `${server.url}examples/only-one.html`;
    const context = await browser.newContext({viewport: {width: 1200, height: 900}});
    const page = await context.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    page.on('worker', (w) => w.url());
    await page.route(url, (route) => route.fulfill({contentType: 'text/html', body:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>one</title>
<script type="module" src="../partition-playground.js"></script></head><body><main>
<partition-playground id="pp" ${attrs}></partition-playground></main></body></html>`}));
    try {
      await page.goto(url);
      await page.waitForFunction(() => {
        const el = document.querySelector('#pp');
        return Number(el.dataset.runs ?? 0) >= 1 && el.dataset.state !== 'loading';
      }, null, {timeout: TIMEOUT});
      assert.equal(await page.$eval('#pp', (el) => el.dataset.state), 'ready');
      return requests;
    } finally {
      await context.close();
    }
  }

  test('Cosmos DB mode: the cosmos engine only; D3 only with a chart', async () => {
    const tables = await loads('mode="cosmos" example="vehicles" key="/date"');
    assert.ok(tables.some((p) => p.endsWith('/engine/partplay-cosmos.wasm')));
    assert.deepEqual(tables.filter((p) => /partplay-(cql|sizing|cosmos-fast)|partplay\.wasm|d3\.min\.js|-views\.js/.test(p)), []);
    const charts = await loads('mode="cosmos" example="vehicles" key="/date" view="map histogram"');
    assert.ok(charts.some((p) => p.endsWith('/vendor/d3.min.js')) && charts.some((p) => p.endsWith('/embed/cosmos-views.js')));
    assert.deepEqual(charts.filter((p) => /partplay-(cql|sizing|cosmos-fast)|partplay\.wasm|cassandra-views|sizing-views/.test(p)), []);
  });

  test('Cassandra and sizing modes: their own engine only', async () => {
    for (const [attrs, own, others] of [
      // The element's Cassandra module (no bulk loads), never the page's partplay-cql.
      ['mode="cassandra" example="uprofile-compound-key" view="results ring"', 'cql-element',
       /partplay-(cosmos|sizing|cql\.)|partplay\.wasm|cosmos-views|sizing-views/],
      ['mode="sizing" example="hotel" view="sizing"', 'sizing', /partplay-(cosmos|cql)|partplay\.wasm|cosmos-views|cassandra-views/],
    ]) {
      const requests = await loads(attrs);
      assert.ok(requests.some((p) => p.endsWith(`/engine/partplay-${own}.wasm`)), attrs);
      assert.deepEqual(requests.filter((p) => others.test(p)), [], attrs);
    }
  });
});
