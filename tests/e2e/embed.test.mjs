// End-to-end tests of the embeddable element <partition-playground> (web/partition-playground.js)
// on examples/embed.html, in Debian's Chromium against build/site (run `make site` first).
//
// Expectations are computed here: Cassandra tokens with npm cassandra-driver's Murmur3Tokenizer
// (as tests/e2e/cql.test.mjs does), row order by sorting in JS, Cosmos DB logical partitions with
// the harness's plain-JS grouping. Every page must log no console error and fetch nothing
// off-origin; an instance below the fold must not create its worker until scrolled to; the same
// site copied under /docs/pp/ must work unchanged.
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {cpSync, existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {startServer} from '../../scripts/serve.mjs';
import {driverToken, encode} from '../oracles/cassandra.mjs';
import {TIMEOUT, launchChromium, elementSettled, expectedPartitions, exampleItems, repo, siteRoot} from './harness.mjs';

const token = (value, type) => driverToken(encode(value, type));
const byToken = (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

let server;
let browser;
let subServer;
let subRoot;

before(async () => {
  assert.ok(existsSync(join(siteRoot, 'examples', 'embed.html')), 'build/site/examples/embed.html: run `make site` first');
  server = await startServer({root: siteRoot, port: 0});
  // The same site below a sub-path: /docs/pp/ (a copy, since the server refuses symlinks out of its root).
  subRoot = mkdtempSync(join(tmpdir(), 'pp-subpath-'));
  mkdirSync(join(subRoot, 'docs'), {recursive: true});
  cpSync(siteRoot, join(subRoot, 'docs', 'pp'), {recursive: true});
  subServer = await startServer({root: subRoot, port: 0});
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const s of [server, subServer]) await new Promise((done) => (s ? s.server.close(done) : done()));
  if (subRoot) rmSync(subRoot, {recursive: true, force: true});
});

/** A page on `url` recording problems, requests and workers; `prefix` is what every URL must start with. */
async function open(url, prefix) {
  const context = await browser.newContext({viewport: {width: 1360, height: 1000}});
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  const workers = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('request', (r) => {
    requests.push(r.url());
    if (!r.url().startsWith(prefix) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) {
      problems.push(`request outside ${prefix}: ${r.url()}`);
    }
  });
  page.on('worker', (w) => workers.push(w.url()));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(url);
  return {page, problems, requests, workers, close: () => context.close()};
}

/** The SELECT tables of an instance: [{columns, rows: [[cell]]}], and its errors [{line, column, text}]. */
async function cqlOutput(page, id) {
  return page.$eval(`#${id}`, (el) => {
    const root = el.shadowRoot;
    const tables = [...root.querySelectorAll('[data-testid="cql-rows"] table')].map((t) => ({
      columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
    }));
    const errors = [...root.querySelectorAll('[data-testid="cql-error"] p.error')].map((p) => ({
      line: Number(p.dataset.line), column: Number(p.dataset.column), text: p.textContent}));
    return {tables, errors};
  });
}

const embedUrl = () => `${server.url}examples/embed.html`;
const INSTANCES = ['pp-primary', 'pp-compound', 'pp-composite', 'pp-date', 'pp-synthetic', 'pp-hotel'];

describe('examples/embed.html', () => {
  test('every instance shows its result, computed independently', async () => {
    const {page, problems, close} = await open(embedUrl(), server.url);
    try {
      for (const id of INSTANCES) {
        await page.$eval(`#${id}`, (el) => el.scrollIntoView({block: 'center'}));
        assert.equal(await elementSettled(page, id), 'ready', `${id} is ready`);
      }

      // Primary key (id int): every row its own partition, in token order.
      const primary = await cqlOutput(page, 'pp-primary');
      const people = [[1, 'theo', 'hello'], [2, 'theo', 'hello again'], [3, 'ann', 'hi']]
        .map(([id, user, message]) => ({cells: [String(id), user, message], token: token(id, 'int')}))
        .sort((a, b) => byToken(a.token, b.token));
      assert.deepEqual(primary.tables[0].columns, ['id', 'user', 'message', 'token', 'replicas']);
      assert.deepEqual(primary.tables[0].rows.map((r) => r.slice(0, 4)), people.map((p) => [...p.cells, p.token]));
      for (const row of primary.tables[0].rows) {   // nodes="5" rf="2": two distinct replicas of node1..node5
        const replicas = row[4].split(', ');
        assert.equal(new Set(replicas).size, 2, `rf="2": ${row[4]}`);
        assert.ok(replicas.every((r) => /^node[1-5]$/.test(r)), `nodes="5": ${row[4]}`);
      }

      // Compound key (user, id): partitions in token order, rows by id within each.
      const compound = await cqlOutput(page, 'pp-compound');
      const messages = [['theo', 1, 'hello'], ['theo', 2, 'hello again'], ['ann', 2, 'second'], ['ann', 1, 'first']]
        .map(([user, id, message]) => ({user, id, message, token: token(user, 'text')}))
        .sort((a, b) => byToken(a.token, b.token) || a.id - b.id);
      assert.deepEqual(compound.tables[0].columns, ['user', 'id', 'message', 'token', 'replicas']);
      assert.deepEqual(compound.tables[0].rows.map((r) => r.slice(0, 4)),
                       messages.map((m) => [m.user, String(m.id), m.message, m.token]));
      for (const row of compound.tables[0].rows) assert.equal(row[4].split(', ').length, 3, 'three replicas (RF 3)');
      assert.equal(compound.errors.length, 0);

      // Composite key: half the partition key is refused, located at line 7, column 1 of the script.
      const composite = await cqlOutput(page, 'pp-composite');
      assert.equal(composite.tables[0].rows.length, 3);
      assert.equal(composite.errors.length, 1);
      assert.deepEqual([composite.errors[0].line, composite.errors[0].column], [7, 1]);
      assert.match(composite.errors[0].text, /ALLOW FILTERING/);

      // Cosmos DB, /date: the logical partitions and items of the plain-JS grouping; created with 40,000 RU/s manual,
      // 7 physical partitions (ceil(40,000 / 6,000), the service's creation rule).
      const vehicles = exampleItems('vehicles');
      const expected = expectedPartitions(vehicles, ['/date']);
      const date = await page.$eval('#pp-date', (el) => ({
        partitions: Number(el.dataset.partitions), items: Number(el.dataset.items),
        listed: el.shadowRoot.querySelectorAll('[data-testid="partitions"] tbody tr').length,
        physical: [...el.shadowRoot.querySelectorAll('[data-testid="physical"] tbody tr')].map((tr) => tr.children[4].textContent),
      }));
      assert.equal(date.partitions, expected.partitions);
      assert.equal(date.items, vehicles.length);
      assert.equal(date.listed, Math.min(7, expected.partitions));
      assert.equal(date.physical.length, 7, 'ceil(40,000 / 6,000) physical partitions');
      assert.ok(date.physical.every((share) => share.replace(/\D/g, '') === String(Math.round(40_000 / 7))), 'each gets 40,000 / 7 RU/s');

      // The synthetic key spreads the same readings over many more logical partitions.
      const synthetic = await page.$eval('#pp-synthetic', (el) => ({
        partitions: Number(el.dataset.partitions), items: Number(el.dataset.items),
        physical: el.shadowRoot.querySelectorAll('[data-testid="physical"] tbody tr').length,
        partitionsTable: el.shadowRoot.querySelectorAll('[data-testid="partitions"]').length,
      }));
      assert.equal(synthetic.items, vehicles.length);
      assert.ok(synthetic.partitions > expected.partitions * 10, `synthetic key: ${synthetic.partitions} partitions`);
      assert.equal(synthetic.physical, 7, 'the same 40,000 RU/s container: ceil(40,000 / 6,000)');
      assert.equal(synthetic.partitionsTable, 0, 'view="physical" shows only that panel');

      // Hotel sizing (examples/cql/sizing.json "hotel"): Nr = 100 × 730 rows; Nc = 4 columns, Npk = 3,
      // Ns = 0; per row a boolean (1 byte) regular and a date (4) + smallint (2) clustering; the
      // hotel_id averages 5 bytes; t_avg 8 bytes a value (docs/sizing.md).
      const nr = 100 * 730;
      const nv = nr * (4 - 3 - 0) + 0;
      const st = 5 + 0 + nr * (1 + 4 + 2) + nv * 8;
      const hotel = await page.$eval('#pp-hotel', (el) => ({
        nv: Number(el.dataset.nv), st: Number(el.dataset.st),
        terms: Object.fromEntries([...el.shadowRoot.querySelectorAll('[data-testid="sizing-terms"] tbody tr')]
          .map((tr) => [tr.children[0].textContent, Number(tr.children[2].textContent.replace(/\D/g, ''))])),
        options: el.shadowRoot.querySelectorAll('[data-testid="sizing-options"] tbody tr').length,
      }));
      assert.deepEqual([hotel.nv, hotel.st], [nv, st]);
      assert.equal(hotel.terms.Nr, nr);
      assert.equal(hotel.terms.Nv, nv);
      assert.equal(hotel.terms['rows term'], nr * 7);
      assert.equal(hotel.terms['metadata term'], nv * 8);
      assert.equal(hotel.terms.St, st);
      assert.ok(hotel.options >= 1, 'a redesign option (month buckets)');

      // readonly: no editing controls; without it, labelled ones.
      assert.equal(await page.locator('#pp-date form').isVisible(), false, 'readonly hides the controls');
      assert.equal(await page.locator('#pp-compound textarea').isVisible(), true);
      assert.equal(await page.locator('#pp-compound textarea').getAttribute('id'),
                   await page.locator('#pp-compound label.script').getAttribute('for'), 'the script field is labelled');

      // Each instance keeps its own state: editing one (compound) leaves another (primary) alone.
      const before = await cqlOutput(page, 'pp-primary');
      await page.$eval('#pp-compound', (el) => el.scrollIntoView({block: 'center'}));
      const textarea = page.locator('#pp-compound textarea');
      await textarea.fill(`CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE k.t (a text PRIMARY KEY);
INSERT INTO k.t (a) VALUES ('x');
SELECT a FROM k.t;`);
      await page.locator('#pp-compound button[type=submit]').click();
      await page.waitForFunction(() => document.querySelector('#pp-compound').dataset.runs === '2', null, {timeout: TIMEOUT});
      const edited = await cqlOutput(page, 'pp-compound');
      assert.deepEqual(edited.tables[0].rows.map((r) => r.slice(0, 2)), [['x', token('x', 'text')]]);
      assert.deepEqual(await cqlOutput(page, 'pp-primary'), before);

      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('an instance below the fold starts its engine only when scrolled to', async () => {
    const {page, problems, requests, workers, close} = await open(embedUrl(), server.url);
    try {
      await elementSettled(page, 'pp-compound');
      await page.waitForTimeout(500);
      const states = await page.$$eval('partition-playground', (els) => els.map((el) => [el.id, el.dataset.engine]));
      const on = states.filter(([, engine]) => engine === 'on').map(([id]) => id);
      assert.ok(on.includes('pp-compound'));
      assert.ok(!on.includes('pp-hotel'), 'the last instance has not started');
      assert.equal(workers.length, on.length, 'one worker per started instance, none for the others');
      assert.ok(!requests.some((u) => u.endsWith('hotel_sizing.cql')), 'its script was not fetched');
      assert.ok(!requests.some((u) => u.endsWith('vehicles.ndjson')), 'nor the vehicles data');

      await page.$eval('#pp-hotel', (el) => el.scrollIntoView({block: 'center'}));
      assert.equal(await elementSettled(page, 'pp-hotel'), 'ready');
      assert.equal(await page.$eval('#pp-hotel', (el) => el.dataset.engine), 'on');
      assert.ok(workers.length > on.length, 'a worker was created for it');
      assert.ok(requests.some((u) => u.endsWith('hotel_sizing.cql')));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('works when the site is served under a sub-path', async () => {
    const prefix = `${subServer.url}docs/pp/`;
    const {page, problems, requests, workers, close} = await open(`${prefix}examples/embed.html`, prefix);
    try {
      assert.equal(await elementSettled(page, 'pp-compound'), 'ready');
      await page.$eval('#pp-date', (el) => el.scrollIntoView({block: 'center'}));
      assert.equal(await elementSettled(page, 'pp-date'), 'ready');
      assert.equal(await page.$eval('#pp-date', (el) => Number(el.dataset.partitions)),
                   expectedPartitions(exampleItems('vehicles'), ['/date']).partitions);
      assert.ok(workers.every((u) => u.startsWith(prefix)), 'workers from the sub-path');
      for (const domain of ['cql-element', 'cosmos']) {
        assert.ok(requests.some((u) => u === `${prefix}engine/partplay-${domain}.wasm`), `the ${domain} wasm from the sub-path`);
      }
      assert.ok(requests.some((u) => u === `${prefix}examples/vehicles.ndjson`), 'the example from the sub-path');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
