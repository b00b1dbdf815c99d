// End-to-end tests of the sizing mode (docs/sizing.md): the formulas with the user's numbers in
// every term, the redesign advisor's before and after, the growth chart with its crossing days,
// the data-driven sizing of the Cosmos DB mode's analysis, and located errors. In Debian's
// Chromium against build/site (run `make site` first):
//
//   node --test --test-concurrency=1 tests/e2e/sizing.test.mjs
//
// Every expected number is computed here from the formulas of the Cassandra data-modelling guide
// and the example files (the CQL schema read with a small parser of its own, the JSON items
// grouped in plain JS), never copied from the engine. The page must log no console error and
// fetch nothing off-origin.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  TIMEOUT, byTestId, examples, examplesDir, openPage, partitionsBySize, resultsDir, useBrowser,
} from './harness.mjs';

useBrowser();

// ---------------------------------------------------------------------------------------------
// The reference: the guide's formulas, CQL's fixed type sizes, nearest-rank percentiles.

/** CQL types of a fixed size, in bytes (docs/sizing.md). */
const FIXED_SIZES = {
  boolean: 1, tinyint: 1, smallint: 2, int: 4, date: 4, float: 4, bigint: 8, counter: 8, timestamp: 8, time: 8,
  double: 8, uuid: 16, timeuuid: 16,
};
const T_AVG = 8;
const MONTH_DAYS = 365.25 / 12;

/** en-US grouping, as the engine writes its arithmetic lines: 73000 -> "73,000". */
const n = (v) => v.toLocaleString('en-US', {maximumFractionDigits: 2});

/**
 * The one CREATE TABLE of a schema file: {columns: [{name, type, role}], replicationFactor}. A
 * deliberately small parser for the example files: one column per line, a PRIMARY KEY clause
 * with the partition key in parentheses, a SimpleStrategy keyspace.
 */
function readSchema(text) {
  const body = /CREATE TABLE\s+\w+\s*\(([\s\S]*?)\)\s*(?:WITH[^;]*)?;/i.exec(text)[1];
  const key = /PRIMARY KEY\s*\(\s*\(([^)]*)\)\s*(?:,([^)]*))?\)/i.exec(body);
  const partitionKey = key[1].split(',').map((s) => s.trim());
  const clustering = (key[2] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const columns = [];
  for (const line of body.split('\n')) {
    const m = /^\s*(\w+)\s+(\w+)(\s+STATIC)?\s*,?\s*$/i.exec(line);
    if (!m || /^PRIMARY$/i.test(m[1])) continue;
    const role = partitionKey.includes(m[1]) ? 'partition_key' : clustering.includes(m[1]) ? 'clustering'
      : m[3] ? 'static' : 'regular';
    columns.push({name: m[1], type: m[2].toLowerCase(), role});
  }
  const rf = Number(/'replication_factor'\s*:\s*(\d+)/.exec(text)?.[1] ?? 1);
  return {columns, replicationFactor: rf};
}

/** Every term of the guide's formulas for one partition of Nr rows. */
function partitionSize(columns, nr, avg, {partitions = 1, rf = 1} = {}) {
  const size = (c) => FIXED_SIZES[c.type] ?? avg[c.name];
  const sum = (role) => columns.filter((c) => c.role === role).reduce((s, c) => s + size(c), 0);
  const nc = columns.length;
  const npk = columns.filter((c) => c.role === 'partition_key' || c.role === 'clustering').length;
  const ns = columns.filter((c) => c.role === 'static').length;
  const nv = nr * (nc - npk - ns) + ns;
  const t = {nr, nc, npk, ns, nv, sumPk: sum('partition_key'), sumStatic: sum('static'), sumRegular: sum('regular'),
             sumClustering: sum('clustering')};
  t.rowsTerm = nr * (t.sumRegular + t.sumClustering);
  t.metadataTerm = nv * T_AVG;
  t.st = t.sumPk + t.sumStatic + t.rowsTerm + t.metadataTerm;
  t.table = t.st * partitions * rf;
  return t;
}

/** Nearest rank: the p-th percentile of n sorted values is the one of rank ceil(p/100 × n). */
const percentile = (sorted, p) => sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1];

const hotelText = readFileSync(join(examplesDir, 'cql', 'hotel_sizing.cql'), 'utf8');
const hotel = readSchema(hotelText);
const HOTEL = {rows: '100*730', nr: 100 * 730, avg: {hotel_id: 5}, partitions: 5000};

// ---------------------------------------------------------------------------------------------
// Driving the page.

const sizingView = byTestId('sizing-view');
/** A case (average, worst_case, growth) of the table as it is (the options hold cases too). */
const resultCase = (name) => `${byTestId('sizing-result')} ${byTestId('sizing-case')}[data-case="${name}"]`;

/** Opens the sizing mode with the keyboard (the tab list's End key) and waits for its first run. */
async function openSizing(page) {
  await page.focus(byTestId('mode-cosmos'));
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute(byTestId('mode-sizing'), 'aria-selected'), 'true', 'End selects the last tab');
  assert.ok(await page.isVisible(sizingView), 'the sizing panel shows');
  await page.waitForFunction(() => {
    const v = document.getElementById('sizing-view');
    return Number(v.dataset.sizingRuns) > 0 && v.dataset.sizingState !== 'busy';
  }, null, {timeout: TIMEOUT});
}

/** Runs `action` and waits until the sizing form finished the computation it started. */
async function sizingAfter(page, action) {
  const runs = await page.$eval(sizingView, (v) => Number(v.dataset.sizingRuns));
  await action();
  await page.waitForFunction((r) => {
    const v = document.getElementById('sizing-view');
    return Number(v.dataset.sizingRuns) > r && v.dataset.sizingState !== 'busy';
  }, runs, {timeout: TIMEOUT});
  return page.$eval(sizingView, (v) => v.dataset.sizingState);
}

/** Fills fields ({testid: value}) and computes once (the Compute button). */
async function computeWith(page, fields) {
  return sizingAfter(page, async () => {
    for (const [testid, value] of Object.entries(fields)) await page.fill(byTestId(testid), String(value));
    await page.click(byTestId('sizing-compute'));
  });
}

/** Enters the hotel numbers of the guide: 100 rooms × 730 nights, 5-byte hotel ids, 5,000 hotels. */
async function enterHotel(page, extra = {}) {
  // The engine lists the table with the keyspace the script's USE put it in.
  assert.equal(await page.inputValue(byTestId('sizing-table')), 'hotel.available_rooms_by_hotel_date');
  return computeWith(page, {'sizing-rows': HOTEL.rows, 'avg-size-hotel_id': HOTEL.avg.hotel_id,
                            'sizing-partitions': HOTEL.partitions, 'sizing-worst-rows': '', 'sizing-growth-rows': '',
                            ...extra});
}

const text = (page, selector) => page.textContent(selector).then((t) => t.replace(/\s+/g, ' ').trim());
const dataValue = async (page, selector) => Number(await page.getAttribute(selector, 'data-value'));

async function removeAllSplits(page) {
  while (await page.locator(byTestId('split-remove')).count()) {
    await sizingAfter(page, () => page.locator(byTestId('split-remove')).first().click());
  }
}

describe('Sizing mode on the page', {timeout: 10 * TIMEOUT}, () => {
  test('the hotel example: Nv, St and the table total with the numbers in every term', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await openSizing(page);
      assert.equal(await enterHotel(page), 'ready');
      const t = partitionSize(hotel.columns, HOTEL.nr, HOTEL.avg, {partitions: HOTEL.partitions, rf: hotel.replicationFactor});
      // The guide's numbers, recomputed: Nv = 73,000 and St = 5 + 0 + 511,000 + 584,000.
      assert.equal(t.nv, 73_000);
      assert.deepEqual([t.sumPk, t.sumStatic, t.rowsTerm, t.metadataTerm, t.st], [5, 0, 511_000, 584_000, 1_095_005]);

      assert.equal(await dataValue(page, byTestId('sizing-nv')), t.nv);
      assert.equal(await text(page, byTestId('sizing-nv')), n(t.nv));
      const average = resultCase('average');
      const nvLine = await text(page, `${average} ${byTestId('case-nv')}`);
      assert.ok(nvLine.includes(`Nv = ${n(t.nr)} × (${t.nc} − ${t.npk} − ${t.ns}) + ${t.ns} = ${n(t.nv)}`), nvLine);
      const stLine = await text(page, `${average} ${byTestId('case-st')}`);
      assert.ok(stLine.includes(`St = ${n(t.sumPk)} + ${n(t.sumStatic)} + ${n(t.nr)} × (${n(t.sumRegular)} + ${n(t.sumClustering)}) + ` +
        `${n(t.nv)} × ${T_AVG} = ${n(t.sumPk)} + ${n(t.sumStatic)} + ${n(t.rowsTerm)} + ${n(t.metadataTerm)} = ${n(t.st)} bytes (1.1 MB)`),
      stLine);
      for (const [term, value] of [['nr', t.nr], ['nc', t.nc], ['npk', t.npk], ['ns', t.ns], ['nv', t.nv],
                                   ['sum_partition_key', t.sumPk], ['sum_static', t.sumStatic],
                                   ['sum_regular', t.sumRegular], ['sum_clustering', t.sumClustering],
                                   ['rows_term', t.rowsTerm], ['metadata_term', t.metadataTerm], ['st_bytes', t.st],
                                   ['table_bytes', t.table]]) {
        assert.equal(await dataValue(page, `${average} tr[data-term="${term}"]`), value, term);
      }
      // The term table names the columns behind each sum.
      assert.match(await text(page, `${average} tr[data-term="sum_clustering"]`), /date 4 \+ room_number 2/);
      const tableLine = await text(page, `${average} ${byTestId('case-table')}`);
      assert.ok(tableLine.includes(`table = ${n(t.st)} × ${n(HOTEL.partitions)} × ${hotel.replicationFactor} = ${n(t.table)} bytes`),
                tableLine);
      assert.equal(await dataValue(page, byTestId('sizing-total')), t.table);
      assert.ok(await page.isVisible(`${average} ${byTestId('sizing-within')}`), 'the average case is within every limit');
      assert.match(await text(page, byTestId('sizing-rows-note')), /Nr = 100 × 730 = 73,000/);

      // The worst case, next to the average: 100 rooms × 1,500 nights is over the recommended 100,000 values.
      const worstRows = 100 * 1500;
      assert.equal(await computeWith(page, {'sizing-worst-rows': '100*1500'}), 'ready');
      const w = partitionSize(hotel.columns, worstRows, HOTEL.avg);
      const worst = resultCase('worst_case');
      assert.equal(await page.locator(`${byTestId('sizing-result')} ${byTestId('sizing-case')}`).count(), 2,
                   'average and worst case side by side');
      assert.equal(await dataValue(page, `${worst} ${byTestId('case-st')}`), w.st);
      assert.equal(await dataValue(page, byTestId('sizing-worst-st')), w.st);
      const finding = `${worst} ${byTestId('sizing-finding')}[data-code="values_over_100k"]`;
      assert.equal(await page.getAttribute(finding, 'data-severity'), 'warning');
      assert.match(await text(page, finding), new RegExp(`${n(w.nv)} values in one partition`));
      assert.equal(await page.locator(`${byTestId('sizing-redesign')}.bad`).count(), 1, 'a redesign is called for');

      // Every control labelled, every table header named, headings in order (axe-core; the colour
      // palette is the page's own and is left to the page-wide checks).
      const axe = await new AxeBuilder({page}).include('#sizing-view').disableRules(['color-contrast']).analyze();
      assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the advisor: a month bucket and a hash bucket before and after, recomputed', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await openSizing(page);
      await enterHotel(page);
      await removeAllSplits(page);
      assert.equal(await page.locator(byTestId('sizing-option')).count(), 0, 'no option asked for, none needed');

      // A month bucket of the date over the 730 nights, added with the form.
      await page.selectOption(byTestId('split-kind'), 'time_bucket');
      await page.selectOption(byTestId('split-column'), 'date');
      await page.selectOption(byTestId('split-unit'), 'month');
      await page.fill(byTestId('split-span'), '730');
      assert.equal(await sizingAfter(page, () => page.click(byTestId('split-add'))), 'ready');
      const k = Math.ceil(730 / MONTH_DAYS);
      assert.equal(k, 24);
      const bucketed = [{name: 'hotel_id', type: 'text', role: 'partition_key'}, {name: 'month', type: 'int', role: 'partition_key'},
                        ...hotel.columns.filter((c) => c.role !== 'partition_key')];
      const m = partitionSize(bucketed, Math.ceil(HOTEL.nr / k), HOTEL.avg);
      const before = partitionSize(hotel.columns, HOTEL.nr, HOTEL.avg);
      const month = `${byTestId('sizing-option')}[data-kind="time_bucket"][data-unit="month"]`;
      assert.equal(await page.locator(month).count(), 1);
      assert.equal(await text(page, `${month} ${byTestId('option-pk')} td:nth-child(3)`),
                   'PRIMARY KEY ((hotel_id, month), date, room_number)');
      assert.equal(await text(page, `${month} ${byTestId('option-pk')} td:nth-child(2)`),
                   'PRIMARY KEY ((hotel_id), date, room_number)');
      assert.equal(await dataValue(page, `${month} ${byTestId('option-nr')}`), m.nr);
      assert.equal(await dataValue(page, `${month} ${byTestId('option-nv')}`), m.nv);
      assert.equal(await dataValue(page, `${month} ${byTestId('option-st')}`), m.st);
      const stRow = await text(page, `${month} ${byTestId('option-st')}`);
      assert.ok(stRow.includes(`${n(before.st)} B`) && stRow.includes(`${n(m.st)} B`), stRow);
      assert.ok((await text(page, `${month} ${byTestId('option-st-arithmetic')}`)).includes(
        `= ${n(m.sumPk)} + ${n(m.sumStatic)} + ${n(m.rowsTerm)} + ${n(m.metadataTerm)} = ${n(m.st)} bytes`));
      assert.equal(await dataValue(page, `${month} ${byTestId('option-partitions')}`), HOTEL.partitions * k);
      assert.equal(await dataValue(page, `${month} ${byTestId('option-ppq')}`), k, 'a whole hotel now reads k partitions');
      assert.match(await text(page, `${month} ${byTestId('option-cost')}`), /24 partitions/);
      assert.match(await text(page, `${month} ${byTestId('option-tradeoff')}`), /month/);
      assert.match(await text(page, `${month} ${byTestId('option-verdict')}`), /clears every limit/);
      assert.match(await page.textContent(`${month} ${byTestId('option-create-table')}`),
                   /month int,[\s\S]*PRIMARY KEY \(\(hotel_id, month\), date, room_number\)/);

      // A hash bucket of 4.
      await page.selectOption(byTestId('split-kind'), 'hash_bucket');
      await page.fill(byTestId('split-buckets'), '4');
      assert.equal(await sizingAfter(page, () => page.click(byTestId('split-add'))), 'ready');
      const bucketCols = bucketed.map((c) => (c.name === 'month' ? {...c, name: 'bucket'} : c));
      const hb = partitionSize(bucketCols, Math.ceil(HOTEL.nr / 4), HOTEL.avg);
      const hash = `${byTestId('sizing-option')}[data-kind="hash_bucket"][data-buckets="4"]`;
      assert.equal(await dataValue(page, `${hash} ${byTestId('option-st')}`), hb.st);
      assert.equal(await dataValue(page, `${hash} ${byTestId('option-ppq')}`), 4);
      assert.equal(await page.locator(byTestId('split-item')).count(), 2, 'both options listed');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the growth chart crosses 100,000 values on the computed day', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await openSizing(page);
      const perDay = 100;
      const start = '2025-01-01';
      await page.fill(byTestId('sizing-start-date'), start);
      assert.equal(await enterHotel(page, {'sizing-growth-rows': perDay, 'sizing-retention': 0, 'sizing-horizon': ''}), 'ready');
      // After d days a partition holds perDay × d rows; one value per row (Nc − Npk − Ns = 1). The
      // first whole day over the limit (a value at the limit is within it):
      const valuesPerRow = partitionSize(hotel.columns, 1, HOTEL.avg).nv;
      let day = 0;
      while (perDay * day * valuesPerRow <= 100_000) day++;
      assert.equal(day, 1001);
      const date = new Date(Date.parse(`${start}T00:00:00Z`) + day * 86_400_000).toISOString().slice(0, 10);

      const chart = byTestId('growth-chart-nv');
      await page.waitForSelector(`${chart} svg`);
      const d = await page.getAttribute(`${chart} path.growth-line`, 'd');
      assert.ok(d && d.length > 20, 'the series is drawn');
      const label = `${chart} .crossing[data-code="values_over_100k"] ${byTestId('crossing-label')}`;
      assert.equal(await page.getAttribute(`${chart} .crossing[data-code="values_over_100k"]`, 'data-day'), String(day));
      assert.equal(await text(page, label), `day ${n(day)} · ${date}`);
      assert.equal(await page.locator(`${chart} .threshold[data-code="values_over_100k"] line`).count(), 1);
      assert.match(await page.getAttribute(`${chart} svg`, 'aria-label'), /crosses 100,000 values on day 1,001/);
      assert.ok(await page.isVisible(`${byTestId('growth-chart-st_bytes')} svg path.growth-line`), 'the size chart too');

      // The table view: 100 MB is crossed when 5 + perDay × d × (7 + 8) passes 100,000,000.
      const s1 = partitionSize(hotel.columns, 1, HOTEL.avg);
      const perRowBytes = s1.st - s1.sumPk - s1.sumStatic;
      const mbDay = Math.floor((100_000_000 - s1.sumPk) / (perDay * perRowBytes)) + 1;
      const rows = page.locator(`${byTestId('growth-crossings-table')} tr[data-code]`);
      assert.equal(await rows.count(), 4);
      assert.equal(await page.getAttribute(`${byTestId('growth-crossings-table')} tr[data-code="values_over_100k"]`, 'data-day'),
                   String(day));
      assert.equal(await page.getAttribute(`${byTestId('growth-crossings-table')} tr[data-code="size_over_100mb"]`, 'data-day'),
                   String(mbDay));
      assert.match(await text(page, `${byTestId('growth-crossings')} li[data-code="values_over_100k"]`),
                   new RegExp(`day ${n(day)} \\(${date}\\)`));

      // A retention of 730 days caps the partition at 73,000 values: never crossed.
      assert.equal(await computeWith(page, {'sizing-retention': 730}), 'ready');
      assert.equal(await page.getAttribute(`${byTestId('growth-crossings')} li[data-code="values_over_100k"]`, 'data-day'), 'never');
      assert.equal(await page.locator(`${chart} .crossing`).count(), 0);

      // Back to the crossing for the screenshot.
      assert.equal(await computeWith(page, {'sizing-retention': 0}), 'ready');
      mkdirSync(resultsDir, {recursive: true});
      await page.screenshot({path: join(resultsDir, 'sizing-view.png'), fullPage: true});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('from data: the orders example grouped by /customerId, p50, p99 and max', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const entry = examples[0];
      assert.equal(entry.id, 'orders', 'the page opens with the orders example analyzed');
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
      const keyPath = await page.inputValue(byTestId('key-input'));
      assert.equal(keyPath, entry.key);
      await openSizing(page);
      await page.waitForFunction(() => {
        const v = document.getElementById('sizing-view');
        return Number(v.dataset.dataRuns) > 0 && v.dataset.dataState === 'ready';
      }, null, {timeout: TIMEOUT});

      // Rows per partition = items per key; St = the JSON text bytes of its items.
      const groups = partitionsBySize(readFileSync(join(examplesDir, entry.file), 'utf8'), [keyPath]);
      const nr = groups.map((g) => g.items).sort((a, b) => a - b);
      const st = groups.map((g) => g.bytes).sort((a, b) => a - b);
      assert.equal(Number(await page.getAttribute(byTestId('data-sizing-report'), 'data-partitions')), groups.length);
      for (const [row, values] of [['data-nr', nr], ['data-st', st]]) {
        for (const [stat, expected] of [['min', values[0]], ['p50', percentile(values, 50)], ['p99', percentile(values, 99)],
                                        ['max', values[values.length - 1]]]) {
          assert.equal(await dataValue(page, `${byTestId(row)} td[data-stat="${stat}"]`), expected, `${row} ${stat}`);
        }
      }
      assert.match(await text(page, `${byTestId('data-nr')} td[data-stat="max"]`), new RegExp(`^${n(nr[nr.length - 1])}$`));

      // Nv = Nr × values per row: with 1,000 values per row the largest customers break 100,000 values.
      await page.fill(byTestId('data-values-per-row'), '1000');
      const runs = await page.$eval(sizingView, (v) => Number(v.dataset.dataRuns));
      await page.click(byTestId('data-sizing-run'));
      await page.waitForFunction((r) => Number(document.getElementById('sizing-view').dataset.dataRuns) > r &&
        document.getElementById('sizing-view').dataset.dataState === 'ready', runs, {timeout: TIMEOUT});
      const over = groups.filter((g) => g.items * 1000 > 100_000);
      const threshold = `${byTestId('data-threshold')}[data-code="values_over_100k"]`;
      assert.equal(Number(await page.getAttribute(threshold, 'data-partitions')), over.length);
      assert.ok(over.length > 0);
      for (const g of over) assert.ok((await text(page, threshold)).includes(g.key[0]), `${g.key[0]} is listed`);
      assert.equal(await dataValue(page, `${byTestId('data-nv')} td[data-stat="max"]`), nr[nr.length - 1] * 1000);
      // The histograms draw, with their table views.
      for (const measure of ['nv', 'st_bytes']) {
        assert.ok(await page.locator(`${byTestId(`data-histogram-${measure}`)} svg rect.bar`).count() > 0, `${measure} bars`);
        const binned = await page.$$eval(`${byTestId(`data-histogram-table-${measure}`)} tbody tr td:nth-child(3)`,
          (cells) => cells.reduce((s, c) => s + Number(c.textContent.replace(/\D/g, '')), 0));
        assert.equal(binned, groups.length, `every partition in one ${measure} bin`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('bad input: a missing average and a CQL syntax error, with message, line and column', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await openSizing(page);
      await enterHotel(page);
      // hotel_id is text: no fixed size, so its average is needed.
      assert.equal(await computeWith(page, {'avg-size-hotel_id': ''}), 'error');
      const error = byTestId('sizing-error');
      assert.equal(await page.getAttribute(error, 'data-code'), 'bad_option');
      assert.match(await text(page, byTestId('sizing-error-message')), /column hotel_id \(text\) has no fixed size/);
      assert.equal(await page.getAttribute(byTestId('avg-size-hotel_id'), 'aria-invalid'), 'true');
      assert.equal(await computeWith(page, {'avg-size-hotel_id': '5'}), 'ready');
      assert.ok(await page.isHidden(byTestId('sizing-error-panel')), 'the error goes away once fixed');

      // A rows formula that is not a product: located in the formula, not in the script.
      const formula = '100*x';
      assert.equal(await computeWith(page, {'sizing-rows': formula}), 'error');
      assert.equal(await page.getAttribute(error, 'data-source'), 'rows per partition');
      assert.equal(await page.getAttribute(error, 'data-column'), String(formula.indexOf('x') + 1));
      assert.match(await text(page, byTestId('sizing-error-message')), /rows per partition "100\*x"/);
      assert.equal(await computeWith(page, {'sizing-rows': HOTEL.rows}), 'ready');

      // A column without the comma before PRIMARY KEY: the parser stops at the "(" after it.
      const script = 'CREATE TABLE t (\n  a text,\n  b int\n  PRIMARY KEY (a, b)\n);\n';
      const lines = script.split('\n');
      const line = lines.findIndex((l) => l.includes('PRIMARY KEY (')) + 1;
      const column = lines[line - 1].indexOf('(') + 1;
      const state = await sizingAfter(page, () => page.fill(byTestId('sizing-cql'), script));
      assert.equal(state, 'error');
      // The engine lists no table for a script whose only CREATE TABLE does not parse; its error says why.
      assert.equal(await page.inputValue(byTestId('sizing-table')), '', 'the table picker follows the script');
      assert.equal(await page.getAttribute(error, 'data-code'), 'cql_syntax');
      assert.match(await text(page, byTestId('sizing-error-message')), /mismatched input '\('/);
      assert.equal(await page.getAttribute(error, 'data-line'), String(line));
      assert.equal(await page.getAttribute(error, 'data-column'), String(column));
      const where = Object.fromEntries(await page.$$eval(`${byTestId('sizing-error-location')} div`,
        (items) => items.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));
      assert.deepEqual(where, {error: 'cql_syntax', in: 'CQL', line: String(line), column: String(column)});
      const excerpt = await page.textContent(byTestId('sizing-error-excerpt'));
      const [shown, caret] = excerpt.split('\n');
      assert.ok(shown.endsWith(lines[line - 1]), excerpt);
      assert.equal(caret.indexOf('^') - (shown.length - lines[line - 1].length), column - 1, 'the caret under the column');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
