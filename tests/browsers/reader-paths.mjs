// The paths a reader takes through the playground, for one browser engine: the checks of the
// Chromium suite (tests/e2e/page, cql, sizing, embed and share tests) that show an engine
// difference, ported onto the cross-engine driver API (drivers.mjs). Every expected value is
// computed here, as the Chromium tests do: partitions by the plain-JS grouping of
// tests/e2e/harness.mjs, Cassandra tokens by npm cassandra-driver (tests/oracles/cassandra.mjs),
// row order by sorting in JS, sizing by the data-modelling guide's formulas. Any console error,
// page error, unhandled rejection, off-origin request or HTTP error fails the test.
//
//   readerPaths('firefox');   // from firefox.test.mjs; one browser for the whole file
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {driverToken, encode} from '../oracles/cassandra.mjs';
import {examples, examplesDir, exampleItems, expectedPartitions, parseItems} from '../e2e/harness.mjs';
import {TIMEOUT, analysisAfter, byTestId, expectReadyWith, figure, useEngine} from './harness.mjs';

const token = (value, type) => driverToken(encode(value, type));
const byToken = (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
const squeeze = (s) => s.replace(/\s+/g, ' ').trim();
/** en-US grouping, as the engine writes its arithmetic lines: 73000 -> "73,000". */
const grouped = (v) => v.toLocaleString('en-US', {maximumFractionDigits: 2});

/** The rows INSERTed by `insert into T (c1, ...) values (v1, ...)` lines (plain literals). */
function insertedRows(script) {
  const rows = [];
  for (const m of script.matchAll(/insert\s+into\s+\S+\s*\(([^)]*)\)\s*values\s*\(((?:'(?:[^']|'')*'|[^)'])*)\)/gi)) {
    const columns = m[1].split(',').map((c) => c.trim());
    const values = [...m[2].matchAll(/'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)/g)]
      .map((v) => (v[1] !== undefined ? v[1].replaceAll("''", "'") : Number(v[2])));
    rows.push(Object.fromEntries(columns.map((c, i) => [c, values[i]])));
  }
  return rows;
}

/** What Cassandra returns for SELECT * of (user, id) rows: upserts, partitions by token, ids ascending. */
function compoundOrder(rows) {
  const byKey = new Map();
  for (const row of rows) byKey.set(`${row.user}\u0000${row.id}`, row);
  return [...byKey.values()].map((r) => ({...r, token: token(r.user, 'text')}))
    .sort((a, b) => byToken(a.token, b.token) || a.id - b.id);
}

// ---------------------------------------------------------------------------------------------
// The Cassandra panel.

const cqlPanel = byTestId('cassandra-view');

/** Waits until the Cassandra panel finished more than `n` requests and has none queued. */
function cqlIdle(page, n) {
  return page.waitFor(({sel, n}) => {
    const node = document.querySelector(sel);
    return Number(node.dataset.cqlRuns ?? 0) > n && node.dataset.cqlPending === '0' && node.dataset.cqlState !== 'busy';
  }, {sel: cqlPanel, n}, {what: 'the CQL request to finish'});
}

/** The results on the page: [{kind, columns, rows: [{cells, token, shownToken, key, replicas}], error}]. */
function cqlResults(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid="cql-result"]')].map((li) => {
    const table = li.querySelector('table.cql-rows');
    const columns = table ? [...table.querySelectorAll('thead th[data-column]')].map((th) => th.dataset.column) : [];
    const rows = table ? [...table.querySelectorAll('tbody tr')].map((tr) => ({
      cells: [...tr.children].slice(0, columns.length).map((td) => td.textContent),
      token: tr.dataset.token ?? null,
      shownToken: tr.querySelector('[data-testid="cql-row-token"]')?.textContent ?? null,
      key: tr.dataset.key ? JSON.parse(tr.dataset.key) : null,
      replicas: tr.dataset.replicas ? JSON.parse(tr.dataset.replicas) : null,
    })) : [];
    const error = li.querySelector('[data-testid="cql-error-message"]');
    return {kind: li.dataset.kind, columns, rows, error: error ? error.textContent : null};
  }));
}

// ---------------------------------------------------------------------------------------------
// The embed article.

/**
 * Waits until the element #id finished a run; returns its state. An element starts once it is
 * visible, and the elements above it grow as they finish: a poll that finds it out of view
 * before it has run scrolls it back, as a reader would (a layout shift right after a scroll left
 * #pp-composite unstarted once in Firefox).
 */
async function elementSettled(page, id) {
  await page.waitFor((sel) => {
    const el = document.querySelector(sel);
    const box = el?.getBoundingClientRect();
    if (box && (box.bottom <= 0 || box.top >= innerHeight) && Number(el.dataset.runs ?? 0) < 1) {
      el.scrollIntoView({block: 'center'});
    }
    return el && Number(el.dataset.runs ?? 0) >= 1 && el.dataset.state !== 'loading';
  }, `#${id}`, {what: `#${id} to finish its run`});
  return page.evaluate((sel) => document.querySelector(sel).dataset.state, `#${id}`);
}

/** What an element shows, whitespace squeezed: the message of an element in its error state. */
async function elementText(page, id) {
  const text = await page.evaluate((sel) => document.querySelector(sel).shadowRoot.textContent, `#${id}`);
  return squeeze(text).slice(0, 600);
}

/** The SELECT tables of an element: [{columns, rows: [[cell]]}], and its errors [{line, column, text}]. */
function elementCql(page, id) {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const tables = [...root.querySelectorAll('[data-testid="cql-rows"] table')].map((t) => ({
      columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
    }));
    const errors = [...root.querySelectorAll('[data-testid="cql-error"] p.error')].map((p) => ({
      line: Number(p.dataset.line), column: Number(p.dataset.column), text: p.textContent}));
    return {tables, errors};
  }, `#${id}`);
}

// ---------------------------------------------------------------------------------------------

/**
 * Registers the reader paths for `engine` in the calling test file. `simd: false` with `env`
 * that turns wasm SIMD off in the browser (webkit: JSC_useWasmSIMD=0): the page must find SIMD
 * missing itself and run the engine built without it.
 */
export function readerPaths(engine, {simd = true, env} = {}) {
  const suite = useEngine(engine, {env, label: simd ? engine : `${engine}-nosimd`});

  describe(`reader paths in ${engine}${simd ? '' : ' without wasm SIMD'}`, {timeout: 30 * TIMEOUT}, () => {
    test('the page opens with the first example analysed', {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      const first = examples[0];
      const items = exampleItems(first.id);
      await expectReadyWith(page, expectedPartitions(items, [first.key]), items);
      assert.equal(await page.value(byTestId('key-input')), first.key);
      assert.equal(await page.value(byTestId('example-select')), first.id);
      const shown = await page.evaluate(() => ({
        rows: document.querySelectorAll('[data-testid="partition-rows"] tr').length,
        total: Number(document.querySelector('[data-testid="partitions-status"]').dataset.total),
        bars: document.querySelectorAll('[data-testid="histogram"] svg rect.bar').length,
        candidates: document.querySelectorAll('[data-testid="candidate-rows"] button').length,
        insights: [...document.querySelectorAll('[data-testid="insights"] li')].map((li) => li.dataset.code),
      }));
      assert.equal(shown.total, await figure(page, 'summary-partitions'));
      assert.equal(shown.rows, Math.min(shown.total, 25), 'the table is capped at 25 rows');
      assert.ok(shown.bars > 0, 'histogram bars');
      assert.ok(shown.candidates > 0, 'candidate paths');
      for (const code of ['some_undefined', 'largest_share', 'mixed_types']) {
        assert.ok(shown.insights.includes(code), `insight ${code} in ${shown.insights}`);
      }
      // The product's own probe: whether this browser runs wasm SIMD, and so which build runs,
      // which the footer names.
      assert.equal(await page.evaluate(() => import(new URL('engine/partplay-api.mjs', document.baseURI).href)
        .then((api) => api.supportsWasmSimd())), simd, 'wasm SIMD');
      assert.equal(await page.evaluate(() => document.body.dataset.engineSimd), String(simd));
      const footer = await page.evaluate(() => document.querySelector('[data-testid="engine-version"]').textContent);
      if (simd) assert.match(footer, /^Engine \S+\.$/);
      else assert.match(footer, /its build without WebAssembly SIMD \(this browser does not run WebAssembly SIMD\)/);
      // The layout holds: nothing wider than the viewport.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no horizontal scroll');
      await suite.screenshot(page, 'main-view');
      await suite.done(page);
    });

    test('a key change, typed with the keyboard, re-analyses', {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      const items = exampleItems(examples[0].id);
      for (const key of ['/address/city', '/promo~1code']) {
        const state = await analysisAfter(page, () => page.type(byTestId('key-input'), key, {enter: true}));
        assert.equal(state, 'ready', `analysed with ${key}`);
        assert.equal(await page.value(byTestId('key-input')), key);
        await expectReadyWith(page, expectedPartitions(items, [key]), items);
      }
      // A hierarchical key.
      const hierarchical = ['/address/country', '/customerId'];
      assert.equal(await analysisAfter(page, () => page.type(byTestId('key-input'), hierarchical.join(', '), {enter: true})),
                   'ready');
      await expectReadyWith(page, expectedPartitions(items, hierarchical), items);
      await suite.done(page);
    });

    test('a pasted malformed item shows its located error', {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      const text = '{"id": "1", "userId": "a"}\n{"id": "2", "userId": "b"}\n{"id": "3", "userId": }\n';
      await page.fill(byTestId('key-input'), '/userId');
      const state = await analysisAfter(page, async () => {
        await page.fill(byTestId('paste-input'), text);
        await page.click(byTestId('analyze-button'));
      });
      assert.equal(state, 'error');
      assert.equal(await page.visible(byTestId('error-panel')), true, 'the error panel shows');
      assert.equal(await page.attribute(byTestId('error-panel'), 'data-code'), 'malformed_json');
      const line3 = text.split('\n')[2];
      const column = line3.indexOf('}') + 1;
      const located = await page.evaluate(() => Object.fromEntries(
        ['error-line', 'error-column', 'error-item-index', 'error-byte-offset']
          .map((id) => [id, document.querySelector(`[data-testid="${id}"] dd`).textContent.trim()])));
      assert.deepEqual(located, {'error-line': '3', 'error-column': String(column), 'error-item-index': '#2',
                                 'error-byte-offset': located['error-byte-offset']});
      assert.equal(Number(located['error-byte-offset'].replace(/\D/g, '')), text.indexOf(line3) + column - 1);
      assert.match(await page.text(byTestId('error-excerpt')), /"id": "3"/);

      const fixed = text.replace('"userId": }', '"userId": "a"}');
      const again = await analysisAfter(page, async () => {
        await page.fill(byTestId('paste-input'), fixed);
        await page.click(byTestId('analyze-button'));
      });
      assert.equal(again, 'ready');
      assert.equal(await figure(page, 'summary-partitions'), expectedPartitions(parseItems(fixed), ['/userId']).partitions);
      await suite.done(page);
    });

    test('a gzipped export (.json.gz) reads as the JSON inside it (DecompressionStream)', {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      await page.fill(byTestId('key-input'), '/tenantId');
      const state = await analysisAfter(page, () => page.setFiles(byTestId('file-input'), [join(examplesDir, 'cosmos-export.json.gz')]));
      assert.equal(state, 'ready');
      const items = exampleItems('cosmos-export');
      await expectReadyWith(page, expectedPartitions(items, ['/tenantId']), items);
      assert.match(await page.text(byTestId('source-line')), /KB of JSON, [\d.]+ KB gzip read/);
      await suite.done(page);
    });

    test('a file chosen with the file input streams with the progress bar', {timeout: 4 * TIMEOUT}, async () => {
      // ~150 MB of NDJSON: long enough that the progress bar (shown after half a second) appears.
      const dir = mkdtempSync(join(tmpdir(), `pp-${engine}-`));
      const file = join(dir, 'large.ndjson');
      const ITEMS = 1_000_000;
      const KEYS = 1000;
      const pad = 'x'.repeat(100);
      const fd = openSync(file, 'w');
      for (let start = 0; start < ITEMS; start += 50_000) {
        let block = '';
        for (let i = start; i < start + 50_000; i++) block += `{"id":"${i}","k":"key-${i % KEYS}","pad":"${pad}"}\n`;
        writeSync(fd, block);
      }
      closeSync(fd);
      const page = await suite.openPage();
      try {
        await page.fill(byTestId('key-input'), '/k');
        // The page records what the progress bar showed (polling over WebDriver could miss it).
        await page.evaluate(() => {
          const bar = document.getElementById('progress');
          const seen = {shown: false, texts: new Set()};
          window.__progressSeen = seen;
          new MutationObserver(() => {
            if (!bar.hidden) {
              seen.shown = true;
              seen.texts.add(document.getElementById('progress-text').textContent);
            }
          }).observe(bar, {attributes: true, subtree: true, childList: true, characterData: true});
        });
        const state = await analysisAfter(page, () => page.setFiles(byTestId('file-input'), [file]));
        // An error's own words in the failure (the panel says what went wrong, and where).
        assert.equal(state, 'ready', state === 'error' ? await page.text(byTestId('error-panel')) : undefined);
        const seen = await page.evaluate(() => ({shown: window.__progressSeen.shown, texts: [...window.__progressSeen.texts]}));
        assert.equal(seen.shown, true, 'the progress bar showed');
        assert.ok(seen.texts.some((t) => /large\.ndjson/.test(t)), `it named the file: ${seen.texts}`);
        assert.equal(await figure(page, 'summary-items'), ITEMS);
        assert.equal(await figure(page, 'summary-partitions'), KEYS);
        assert.equal(await page.visible(byTestId('progress')), false, 'the progress bar goes away');
        assert.match(await page.text(byTestId('source-line')), /large\.ndjson/);
        await suite.done(page);
      } finally {
        rmSync(dir, {recursive: true, force: true});
      }
    });

    test('one worker reads a file ahead on its reader thread, and reports what the bytes report', {timeout: 2 * TIMEOUT},
         async () => {
      const page = await suite.openPage();
      const seen = await page.evaluate(async () => {
        const {PlaygroundClient} = await import(new URL('worker/client.js', location.href).href);
        const client = new PlaygroundClient({workers: 1});
        try {
          await client.ready;
          const lines = [];
          for (let i = 0; i < 40000; i++) lines.push(JSON.stringify({id: `i${i}`, k: `k${i % 997}`, pad: 'p'.repeat(i % 40)}));
          const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
          const plain = ({timing, source, slot, ...report}) => JSON.stringify({...report, partition_bytes: Array.from(report.partition_bytes)});
          const asFile = await client.analyze({source: {kind: 'file', file: new File([bytes], 'ahead.ndjson')}, keyPaths: ['/k']});
          const asBytes = await client.analyze({source: {kind: 'bytes', buffer: bytes.slice().buffer}, keyPaths: ['/k']});
          return {same: plain(asFile) === plain(asBytes), items: asFile.items, readAhead: asFile.timing.read_ahead,
                  cores: navigator.hardwareConcurrency};
        } finally {
          client.terminate();
        }
      });
      console.log(`# ${engine}: ${seen.cores} cores, read ahead: ${seen.readAhead}`);
      assert.equal(seen.items, 40000);
      assert.equal(seen.same, true, 'the file\'s report is the bytes\' report');
      // Where a second core is free the reader thread reads: Gecko and WebKit start it as a
      // nested module worker too (a browser where it cannot start reads in the worker).
      assert.equal(seen.readAhead, seen.cores > 1);
      await suite.done(page);
    });

    test('Cassandra mode runs a script: rows in clustering order with the driver\'s tokens', {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      await page.click(byTestId('mode-cassandra'));
      await cqlIdle(page, 0);
      // The first example, in the editor on entering the mode (not run: the session starts empty), run with Run.
      const script = readFileSync(join(examplesDir, 'cql', 'uprofile-compound-key.cql'), 'utf8');
      assert.equal(await page.value(byTestId('cql-editor')), script);
      assert.equal((await cqlResults(page)).length, 0, 'nothing has run');
      const opened = await page.evaluate((sel) => Number(document.querySelector(sel).dataset.cqlRuns), cqlPanel);
      await page.click(byTestId('cql-run'));
      await cqlIdle(page, opened);
      const expected = compoundOrder(insertedRows(script));
      const all = await cqlResults(page);
      const full = all.find((r) => r.kind === 'rows');
      assert.deepEqual(full.columns, ['user', 'id', 'message']);
      assert.deepEqual(full.rows.map((r) => r.cells), expected.map((r) => [r.user, String(r.id), r.message]));
      assert.deepEqual(full.rows.map((r) => [r.token, r.shownToken]), expected.map((r) => [r.token, r.token]));
      assert.ok(full.rows.every((r) => r.replicas.length === 3 && new Set(r.replicas).size === 3), 'RF 3');
      assert.equal(all.filter((r) => r.kind === 'error').length, 1, 'the query without the partition key is refused');

      // A script of the reader's own, run with the button.
      const mine = `CREATE KEYSPACE s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE s.m (user text, id int, message text, PRIMARY KEY (user, id));
INSERT INTO s.m (user, id, message) VALUES ('zoë', 3, 'c');
INSERT INTO s.m (user, id, message) VALUES ('ann', 9, 'b');
INSERT INTO s.m (user, id, message) VALUES ('zoë', 1, 'a');
INSERT INTO s.m (user, id, message) VALUES ('bo', 2, 'd');
INSERT INTO s.m (user, id, message) VALUES ('ann', 4, 'e');
SELECT * FROM s.m;`;
      await page.fill(byTestId('cql-editor'), mine);
      const n = await page.evaluate((sel) => Number(document.querySelector(sel).dataset.cqlRuns), cqlPanel);
      await page.click(byTestId('cql-run'));
      await cqlIdle(page, n);
      const rows = (await cqlResults(page)).find((r) => r.kind === 'rows').rows;
      const want = compoundOrder(insertedRows(mine));
      assert.deepEqual(rows.map((r) => [...r.cells, r.token]), want.map((r) => [r.user, String(r.id), r.message, r.token]));
      await suite.screenshot(page, 'cassandra-view');
      await suite.done(page);
    });

    test('sizing shows the hotel numbers', {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      // The tab list's End key selects the last tab (Sizing).
      await page.press(byTestId('mode-cosmos'), 'End');
      assert.equal(await page.attribute(byTestId('mode-sizing'), 'aria-selected'), 'true');
      const sizingRuns = () => page.evaluate(() => Number(document.getElementById('sizing-view').dataset.sizingRuns));
      await page.waitFor(() => {
        const v = document.getElementById('sizing-view');
        return Number(v.dataset.sizingRuns) > 0 && v.dataset.sizingState !== 'busy';
      }, undefined, {what: 'the first sizing'});
      assert.equal(await page.value(byTestId('sizing-table')), 'hotel.available_rooms_by_hotel_date');
      const before = await sizingRuns();
      for (const [id, value] of Object.entries({'sizing-rows': '100*730', 'avg-size-hotel_id': '5', 'sizing-partitions': '5000',
                                                'sizing-worst-rows': '', 'sizing-growth-rows': ''})) {
        await page.fill(byTestId(id), value);
      }
      await page.click(byTestId('sizing-compute'));
      await page.waitFor((r) => {
        const v = document.getElementById('sizing-view');
        return Number(v.dataset.sizingRuns) > r && v.dataset.sizingState !== 'busy';
      }, before, {what: 'the hotel sizing'});
      // The guide's hotel: Nr = 100 × 730; 4 columns, 3 of them key columns, no static; per row a
      // boolean (1) regular and a date (4) + smallint (2) clustering; 5-byte hotel ids; 8 bytes of
      // metadata a value; 5,000 hotels, replication factor 3 (examples/cql/hotel_sizing.cql).
      const hotel = readFileSync(join(examplesDir, 'cql', 'hotel_sizing.cql'), 'utf8');
      const rf = Number(/'replication_factor'\s*:\s*(\d+)/.exec(hotel)[1]);
      const nr = 100 * 730;
      const nv = nr * (4 - 3 - 0) + 0;
      const st = 5 + 0 + nr * (1 + 4 + 2) + nv * 8;
      const average = `${byTestId('sizing-result')} ${byTestId('sizing-case')}[data-case="average"]`;
      const shown = await page.evaluate((avg) => ({
        nv: Number(document.querySelector('[data-testid="sizing-nv"]').dataset.value),
        st: Number(document.querySelector(`${avg} [data-testid="case-st"]`).dataset.value),
        total: Number(document.querySelector('[data-testid="sizing-total"]').dataset.value),
        stLine: document.querySelector(`${avg} [data-testid="case-st"]`).textContent,
        within: Boolean(document.querySelector(`${avg} [data-testid="sizing-within"]`)?.checkVisibility?.() ??
                        document.querySelector(`${avg} [data-testid="sizing-within"]`)?.getClientRects().length),
      }), average);
      assert.deepEqual([shown.nv, shown.st, shown.total], [nv, st, st * 5000 * rf]);
      assert.ok(squeeze(shown.stLine).includes(`= 5 + 0 + ${grouped(nr * 7)} + ${grouped(nv * 8)} = ${grouped(st)} bytes`),
                shown.stLine);
      assert.equal(shown.within, true, 'the average case is within every limit');
      await suite.screenshot(page, 'sizing-view');
      await suite.done(page);
    });

    test('the embed article: elements become ready when scrolled to, with the engine\'s numbers', {timeout: 2 * TIMEOUT},
         async () => {
      const page = await suite.openPage('examples/embed.html');
      await elementSettled(page, 'pp-primary');
      assert.notEqual(await page.attribute('#pp-hotel', 'data-engine'), 'on', 'the last element waits to be scrolled to');
      for (const id of ['pp-primary', 'pp-compound', 'pp-composite', 'pp-date', 'pp-synthetic', 'pp-hotel']) {
        await page.scrollIntoView(`#${id}`);
        const state = await elementSettled(page, id);
        assert.equal(state, 'ready', `${id} is ready${state === 'error' ? `: ${await elementText(page, id)}` : ''}`);
      }
      // Primary key (id int): a partition per row, in token order; nodes="5" rf="2".
      const primary = await elementCql(page, 'pp-primary');
      const people = [[1, 'theo', 'hello'], [2, 'theo', 'hello again'], [3, 'ann', 'hi']]
        .map(([id, user, message]) => ({cells: [String(id), user, message], token: token(id, 'int')}))
        .sort((a, b) => byToken(a.token, b.token));
      assert.deepEqual(primary.tables[0].columns, ['id', 'user', 'message', 'token', 'replicas']);
      assert.deepEqual(primary.tables[0].rows.map((r) => r.slice(0, 4)), people.map((p) => [...p.cells, p.token]));
      for (const row of primary.tables[0].rows) {
        const replicas = row[4].split(', ');
        assert.ok(replicas.length === 2 && new Set(replicas).size === 2 && replicas.every((r) => /^node[1-5]$/.test(r)), row[4]);
      }
      // Compound key (user, id): partitions in token order, rows by id within each.
      const compound = await elementCql(page, 'pp-compound');
      const messages = compoundOrder([['theo', 1, 'hello'], ['theo', 2, 'hello again'], ['ann', 2, 'second'], ['ann', 1, 'first']]
        .map(([user, id, message]) => ({user, id, message})));
      assert.deepEqual(compound.tables[0].rows.map((r) => r.slice(0, 4)), messages.map((m) => [m.user, String(m.id), m.message, m.token]));
      // Composite key: half the partition key is refused, located at line 7, column 1.
      const composite = await elementCql(page, 'pp-composite');
      assert.deepEqual(composite.errors.map((e) => [e.line, e.column]), [[7, 1]]);
      // Cosmos DB /date: the plain-JS grouping; a container created with 40,000 RU/s manual has
      // ceil(40,000 / 6,000) = 7 physical partitions (the scaling best-practices doc's creation rule).
      const vehicles = exampleItems('vehicles');
      const date = await page.evaluate(() => {
        const el = document.getElementById('pp-date');
        return {partitions: Number(el.dataset.partitions), items: Number(el.dataset.items),
                physical: el.shadowRoot.querySelectorAll('[data-testid="physical"] tbody tr').length};
      });
      assert.deepEqual(date, {partitions: expectedPartitions(vehicles, ['/date']).partitions, items: vehicles.length, physical: Math.ceil(40000 / 6000)});
      const synthetic = await page.evaluate(() => Number(document.getElementById('pp-synthetic').dataset.partitions));
      assert.ok(synthetic > date.partitions * 10, `the synthetic key spreads further: ${synthetic}`);
      // Hotel sizing: Nv and St by the guide's formulas.
      const nr = 100 * 730;
      const hotel = await page.evaluate(() => {
        const el = document.getElementById('pp-hotel');
        return [Number(el.dataset.nv), Number(el.dataset.st)];
      });
      assert.deepEqual(hotel, [nr, 5 + nr * 7 + nr * 8]);
      await page.scrollIntoView('#pp-compound');
      await suite.screenshot(page, 'embed');
      await suite.done(page);
    });

    test('a copied #pp= link restores the view in a fresh load; the snippet shows the same partitions',
         {timeout: 2 * TIMEOUT}, async () => {
      const page = await suite.openPage();
      await page.select(byTestId('hash-version'), '1');
      await page.fill(byTestId('ru-input'), '12000');
      assert.equal(await analysisAfter(page, () => page.type(byTestId('key-input'), '/address/city', {enter: true})), 'ready');
      // A debounced settings change may start one more run: wait until the page has been idle a while.
      await page.waitFor(() => new Promise((done) => setTimeout(() => done(document.body.dataset.state === 'ready'), 800)));
      const expected = expectedPartitions(exampleItems('orders'), ['/address/city']);
      assert.equal(await figure(page, 'summary-partitions'), expected.partitions);
      const figures = {};
      for (const id of ['summary-partitions', 'summary-items', 'summary-undefined', 'summary-invalid']) {
        figures[id] = await figure(page, id);
      }
      await page.click(byTestId('copy-link'));
      const link = await page.waitFor(() => {
        const value = document.getElementById('share-output').value;
        return value.includes('#pp=') && value;
      }, undefined, {what: 'the link'});
      assert.ok(link.startsWith(suite.site.url), link);
      await page.click(byTestId('copy-embed'));
      const snippet = await page.waitFor(() => {
        const value = document.getElementById('share-output').value;
        return value.includes('<partition-playground') && value;
      }, undefined, {what: 'the snippet'});

      // A real load of the link (not a same-document hash change).
      await page.goto('about:blank');
      await page.goto(link);
      await page.waitFor(() => ['done', 'failed'].includes(document.body.dataset.restored), undefined, {what: 'the restore'});
      assert.equal(await page.evaluate(() => document.body.dataset.restored), 'done');
      assert.deepEqual(await page.evaluate(() => ['example-select', 'key-input', 'hash-version', 'ru-input']
        .map((id) => document.querySelector(`[data-testid="${id}"]`).value)), ['orders', '/address/city', '1', '12000']);
      for (const [id, value] of Object.entries(figures)) assert.equal(await figure(page, id), value, id);

      // The snippet on a page of its own (same origin).
      assert.match(snippet, /<partition-playground mode="cosmos" example="orders" key="\/address\/city" hash-version="1" ru="12000" view="summary map histogram"><\/partition-playground>/);
      suite.site.addPage('/snippet-test.html', '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>snippet</title>' +
                         `</head><body><main>${snippet}</main></body></html>`);
      await page.goto(new URL('snippet-test.html', suite.site.url).href);
      await page.waitFor(() => document.querySelector('partition-playground')?.dataset.state === 'ready', undefined,
                         {what: 'the snippet element'});
      assert.deepEqual(await page.evaluate(() => {
        const el = document.querySelector('partition-playground');
        // The snippet asks for the views on screen: the map's table has a row per physical partition.
        return [Number(el.dataset.partitions), el.shadowRoot.querySelectorAll('[data-testid="map-table"] tbody tr').length];
      }), [expected.partitions, 2]);
      await suite.done(page);
    });
  });
}
