// Issue 40, friction 7: the Sizing mode follows the schema it is given, and sizes a table from the
// rows the Cassandra mode put in it. In Debian's Chromium against build/site (run `make site`):
//
//   node --test tests/e2e/sizing-schema.test.mjs
//
// (a) An example picked, then another schema pasted (a table with no date column): no field of
// the example's table is left (averages, rows, growth, the time bucket asked for), the picker says
// "Your own schema", no split is offered for a column the table lacks, and the sizing succeeds
// once the new table's own figures are given. The example's own table, pasted again without its
// date column, loses the month bucket of date (said on the page) and is sized instead of failing
// with "a time bucket: the table has no column date".
// (b) Rows INSERTed by a script, and rows bulk-loaded from a CSV file, in the Cassandra mode: the
// Sizing mode sizes each table from its rows, and every figure (rows per partition, the largest
// partitions and their bytes, the form's measured averages, the average case) equals what this
// test computes from the rows it wrote. Authored.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {
  TIMEOUT, byTestId, cqlAfter, examplesDir, openCassandra, openPage, resultsDir, runScript, useBrowser,
} from './harness.mjs';

useBrowser();

const sizingView = byTestId('sizing-view');
const T_AVG = 8;

async function sizingRuns(page) {
  return page.$eval(sizingView, (v) => Number(v.dataset.sizingRuns ?? 0));
}

/** Runs `action` and waits until the sizing form finished the computation it started; its state. */
async function sizingAfter(page, action) {
  const runs = await sizingRuns(page);
  await action();
  await page.waitForFunction((r) => {
    const v = document.getElementById('sizing-view');
    return Number(v.dataset.sizingRuns) > r && v.dataset.sizingState !== 'busy';
  }, runs, {timeout: TIMEOUT});
  return page.$eval(sizingView, (v) => v.dataset.sizingState);
}

/** Opens the Sizing mode and waits for its first computation (the first example). */
async function openSizing(page) {
  await page.click(byTestId('mode-sizing'));
  await page.waitForFunction(() => {
    const v = document.getElementById('sizing-view');
    return Number(v.dataset.sizingRuns) > 0 && v.dataset.sizingState !== 'busy';
  }, null, {timeout: TIMEOUT});
}

const value = (page, testid) => page.inputValue(byTestId(testid));
const dataValue = async (page, selector) => Number(await page.getAttribute(selector, 'data-value'));
const avgFields = (page) => page.$$eval(`${byTestId('sizing-avg-fields')} input`,
  (inputs) => inputs.map((i) => [i.dataset.column, i.value]));
const averageCase = `${byTestId('sizing-result')} ${byTestId('sizing-case')}[data-case="average"]`;

describe('Sizing follows the schema (issue 40, friction 7)', {timeout: 10 * TIMEOUT}, () => {
  test('an example, then another schema pasted: nothing of the example is left, and it sizes', {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await openSizing(page);
      // The sensor example: its status average, its growth, a day bucket of reading_time.
      assert.equal(await sizingAfter(page, () => page.selectOption(byTestId('sizing-example'), 'sensor')), 'ready');
      assert.deepEqual(await avgFields(page), [['status', '6']]);
      assert.equal(await value(page, 'sizing-growth-rows'), '1440');
      assert.equal(await page.locator(`${byTestId('split-item')}[data-kind="time_bucket"]`).count(), 1);

      // A cart table: no date, timestamp or timeuuid column at all.
      const carts = "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n" +
        'CREATE TABLE shop.cart_items (\n  cart_id uuid,\n  sku text,\n  quantity int,\n  note text,\n' +
        '  PRIMARY KEY (cart_id, sku)\n);\n';
      assert.equal(await sizingAfter(page, () => page.fill(byTestId('sizing-cql'), carts)), 'idle',
                   'nothing to compute before the rows per partition are given');
      assert.equal(await value(page, 'sizing-example'), '', 'the picker leaves the example');
      assert.equal(await page.$eval(byTestId('sizing-example'), (s) => s.selectedOptions[0].textContent), 'Your own schema');
      assert.equal(await page.textContent(byTestId('sizing-example-description')), '');
      assert.deepEqual(await page.$$eval(`${byTestId('sizing-table')} option`, (os) => os.map((o) => o.value)),
                       ['shop.cart_items']);
      // The cart table's own variable-width columns, empty; none of the sensor table's.
      assert.deepEqual(await avgFields(page), [['sku', ''], ['note', '']]);
      for (const [testid, expected] of [['sizing-rows', ''], ['sizing-worst-rows', ''], ['sizing-partitions', '1'],
                                        ['sizing-rf', ''], ['sizing-growth-rows', ''], ['sizing-retention', '0'],
                                        ['sizing-horizon', '']]) {
        assert.equal(await value(page, testid), expected, testid);
      }
      assert.equal(await page.locator(byTestId('split-item')).count(), 0, 'no split asked for the cart table');
      // No time bucket is offered: the table has no column to take it from.
      await page.selectOption(byTestId('split-kind'), 'time_bucket');
      assert.equal(await page.locator(`${byTestId('split-column')} option`).count(), 0);
      assert.ok(await page.isDisabled(byTestId('split-add')));
      assert.match(await page.textContent(byTestId('split-note')), /no date, timestamp or timeuuid clustering column/);
      await page.selectOption(byTestId('split-kind'), 'move_clustering_column');
      assert.deepEqual(await page.$$eval(`${byTestId('split-column')} option`, (os) => os.map((o) => o.value)), ['sku']);
      assert.ok(await page.isHidden(byTestId('sizing-error-panel')), 'no error for what is not given yet');
      assert.match(await page.textContent(byTestId('sizing-status')), /rows per partition/);
      mkdirSync(resultsDir, {recursive: true});
      await page.screenshot({path: join(resultsDir, 'sizing-own-schema.png'), fullPage: true});

      // The cart's own figures: 40 items a cart, 12-byte SKUs, 30-byte notes.
      // Nv = 40 × (4 − 2 − 0) = 80; St = 16 + 40 × (4 + 30 + 12) + 80 × 8 = 2,496.
      const state = await sizingAfter(page, async () => {
        await page.fill(byTestId('sizing-rows'), '40');
        await page.fill(byTestId('avg-size-sku'), '12');
        await page.fill(byTestId('avg-size-note'), '30');
        await page.click(byTestId('sizing-compute'));
      });
      assert.equal(state, 'ready');
      const nr = 40;
      const nv = nr * (4 - 2 - 0);
      const st = 16 + nr * (4 + 30 + 12) + nv * T_AVG;
      assert.equal(await dataValue(page, byTestId('sizing-nv')), nv);
      assert.equal(await dataValue(page, `${averageCase} ${byTestId('case-st')}`), st);
      assert.ok(await page.isHidden(byTestId('sizing-error-panel')));

      // The hotel example, then its own table pasted with `night int` for `date date`: its month
      // bucket of date goes, said on the page, and the table is sized (Nv and St as with date: an
      // int is 4 bytes like a date).
      assert.equal(await sizingAfter(page, () => page.selectOption(byTestId('sizing-example'), 'hotel')), 'ready');
      assert.equal(await page.locator(`${byTestId('split-item')}[data-kind="time_bucket"]`).count(), 1);
      const hotel = readFileSync(join(examplesDir, 'cql', 'hotel_sizing.cql'), 'utf8')
        .replace('  date date,', '  night int,').replace('(hotel_id), date, room_number', '(hotel_id), night, room_number');
      assert.equal(await sizingAfter(page, () => page.fill(byTestId('sizing-cql'), hotel)), 'ready');
      assert.equal(await page.locator(byTestId('split-item')).count(), 0, 'the month bucket of date is gone');
      assert.ok(await page.isVisible(byTestId('split-dropped')));
      assert.match(await page.textContent(byTestId('split-dropped')), /month bucket from date over 730 days: it has no column date/);
      assert.ok(await page.isHidden(byTestId('sizing-error-panel')), 'no "the table has no column date"');
      assert.deepEqual(await avgFields(page), [['hotel_id', '5']], 'the same table keeps its own average');
      assert.equal(await value(page, 'sizing-growth-rows'), '100', 'and its own growth');
      assert.equal(await dataValue(page, byTestId('sizing-nv')), 73_000);
      assert.equal(await dataValue(page, `${averageCase} ${byTestId('case-st')}`), 5 + 73_000 * (1 + 4 + 2) + 73_000 * T_AVG);
      // Back to the cart schema: the cart table's figures as they were left.
      assert.equal(await sizingAfter(page, () => page.fill(byTestId('sizing-cql'), carts)), 'ready');
      assert.deepEqual(await avgFields(page), [['sku', '12'], ['note', '30']]);
      assert.equal(await value(page, 'sizing-rows'), '40');
      assert.equal(await dataValue(page, `${averageCase} ${byTestId('case-st')}`), st);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // --- (b) From the rows of a CQL table.

  const FIXED = {int: 4, date: 4, timestamp: 8, double: 8};
  const bytesOf = (type, v) => (type === 'text' ? Buffer.byteLength(v, 'utf8') : FIXED[type]);

  /**
   * Each partition of `rows` of a table ({columns: {name: type}, partitionKey, clustering}) with
   * its rows, values and bytes as the sizing formulas count them (no static column): the key's
   * bytes once, each row's clustering and regular values, Nv × 8. Largest St first.
   */
  function partitionsOf(table, rows) {
    const regular = Object.keys(table.columns).filter((c) => !table.partitionKey.includes(c) && !table.clustering.includes(c));
    const parts = new Map();
    for (const r of rows) {
      const key = JSON.stringify(table.partitionKey.map((c) => String(r[c])));
      if (!parts.has(key)) {
        parts.set(key, {key, rows: 0, bytes: table.partitionKey.reduce((s, c) => s + bytesOf(table.columns[c], r[c]), 0)});
      }
      const p = parts.get(key);
      p.rows++;
      p.bytes += [...table.clustering, ...regular].reduce((s, c) => s + bytesOf(table.columns[c], r[c]), 0);
    }
    return [...parts.values()].map((p) => {
      const nv = p.rows * regular.length;
      return {key: p.key, rows: p.rows, nv, st: p.bytes + nv * T_AVG};
    }).sort((a, b) => b.st - a.st);
  }

  /** In the Sizing mode: sizes `table` from its rows; waits for the measurement and the form's sizing. */
  async function sizeFromRows(page, table) {
    await page.click(byTestId('mode-sizing'));
    await page.waitForFunction((t) => [...document.querySelectorAll('#rows-sizing-table option')].some((o) => o.value === t),
      table, {timeout: TIMEOUT});
    await page.selectOption(byTestId('rows-sizing-table'), table);
    const runs = await page.$eval(sizingView, (v) => Number(v.dataset.rowsRuns ?? 0));
    const state = await sizingAfter(page, () => page.click(byTestId('rows-sizing-run')));
    await page.waitForFunction((r) => Number(document.getElementById('sizing-view').dataset.rowsRuns) > r, runs,
                               {timeout: TIMEOUT});
    assert.equal(await page.$eval(sizingView, (v) => v.dataset.rowsState), 'ready');
    return state;
  }

  /** The measured figures on the page against the reference `parts`. */
  async function checkMeasured(page, table, parts) {
    const report = byTestId('rows-sizing-report');
    const rows = parts.reduce((s, p) => s + p.rows, 0);
    assert.equal(await page.getAttribute(report, 'data-table'), table);
    assert.equal(Number(await page.getAttribute(report, 'data-partitions')), parts.length);
    assert.equal(Number(await page.getAttribute(report, 'data-rows')), rows);
    // The largest partitions, in order: key, rows, values, bytes.
    const largest = await page.$$eval(`${byTestId('rows-largest')} tbody tr`, (trs) => trs.map((tr) => ({
      key: tr.dataset.key, rows: Number(tr.dataset.rows), nv: Number(tr.dataset.nv), st: Number(tr.dataset.stBytes)})));
    assert.deepEqual(largest, parts.slice(0, 10));
    // Rows per partition: min, p50 (nearest rank), max.
    const nr = parts.map((p) => p.rows).sort((a, b) => a - b);
    const cell = (row, stat) => `${byTestId('rows-sizing-result')} ${byTestId(row)} td[data-stat="${stat}"]`;
    assert.equal(await dataValue(page, cell('data-nr', 'min')), nr[0]);
    assert.equal(await dataValue(page, cell('data-nr', 'p50')), nr[Math.ceil(nr.length / 2) - 1]);
    assert.equal(await dataValue(page, cell('data-nr', 'max')), nr.at(-1));
    assert.equal(await dataValue(page, cell('data-st', 'max')), parts[0].st);
    assert.equal(await dataValue(page, cell('data-st', 'total')), parts.reduce((s, p) => s + p.st, 0));
    return {rows, meanRows: rows / parts.length, meanSt: parts.reduce((s, p) => s + p.st, 0) / parts.length, maxRows: nr.at(-1)};
  }

  test('rows INSERTed in the Cassandra mode: the table sized from them', {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({run: false});
    try {
      const table = {columns: {sensor: 'text', day: 'date', ts: 'timestamp', value: 'double', note: 'text'},
                     partitionKey: ['sensor', 'day'], clustering: ['ts']};
      // 3 partitions of 3, 1 and 2 rows; 'café' is 5 UTF-8 bytes.
      const rows = [
        ['s1', '2024-05-01', 3, ['ok', 'café', 'warm']],
        ['s2', '2024-05-01', 1, ['x']],
        ['hall1', '2024-05-02', 2, ['', '']],
      ].flatMap(([sensor, day, n, notes]) => Array.from({length: n}, (_, i) =>
        ({sensor, day, ts: `${day} 00:0${i}:00+0000`, value: i + 0.25, note: notes[i]})));
      const script = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n" +
        'CREATE TABLE iot.readings (sensor text, day date, ts timestamp, value double, note text, ' +
        'PRIMARY KEY ((sensor, day), ts));\n' +
        rows.map((r) => `INSERT INTO iot.readings (sensor, day, ts, value, note) VALUES ('${r.sensor}', '${r.day}', ` +
          `'${r.ts}', ${r.value}, '${r.note}');`).join('\n') + '\n';
      assert.equal(await runScript(page, script), 'ready');

      assert.equal(await sizeFromRows(page, 'iot.readings'), 'ready', 'the form sized the measured figures');
      const parts = partitionsOf(table, rows);
      assert.deepEqual(parts.map((p) => [p.key, p.rows, p.st]),
                       [['["s1","2024-05-01"]', 3, 6 + 3 * 16 + 11 + 6 * 8], ['["hall1","2024-05-02"]', 2, 9 + 2 * 16 + 4 * 8],
                        ['["s2","2024-05-01"]', 1, 6 + 16 + 1 + 2 * 8]]);
      const m = await checkMeasured(page, 'iot.readings', parts);

      // The form: the table's schema, the mean rows (2), the largest as the worst case (3), the
      // measured averages (sensor 9 / 3 partitions = 3, note 12 / 6 rows = 2), the partitions.
      assert.match(await value(page, 'sizing-cql'), /CREATE TABLE iot\.readings/);
      assert.equal(await value(page, 'sizing-table'), 'iot.readings');
      assert.equal(await value(page, 'sizing-example'), '');
      assert.match(await page.textContent(byTestId('sizing-example-description')), /measured from its 6 rows/);
      assert.equal(Number(await value(page, 'sizing-rows')), m.meanRows);
      assert.equal(Number(await value(page, 'sizing-worst-rows')), m.maxRows);
      assert.equal(Number(await value(page, 'sizing-partitions')), parts.length);
      const sensorAvg = rows.filter((r, i) => rows.findIndex((o) => o.sensor === r.sensor && o.day === r.day) === i)
        .reduce((s, r) => s + bytesOf('text', r.sensor), 0) / parts.length;
      const noteAvg = rows.reduce((s, r) => s + bytesOf('text', r.note), 0) / rows.length;
      assert.deepEqual(await avgFields(page), [['sensor', String(sensorAvg)], ['note', String(noteAvg)]]);
      // Nothing rounds here, so the formulas' average case is the measured mean, to the byte.
      assert.equal(await dataValue(page, `${averageCase} ${byTestId('case-st')}`), m.meanSt);
      assert.equal(await dataValue(page, byTestId('sizing-nv')), m.meanRows * 2);
      assert.ok(await page.isHidden(byTestId('sizing-error-panel')));
      mkdirSync(resultsDir, {recursive: true});
      await page.screenshot({path: join(resultsDir, 'sizing-from-rows.png'), fullPage: true});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('rows bulk-loaded from a CSV file: the table sized from them', {timeout: 3 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-sizing-rows-'));
    const {page, problems, close} = await openCassandra({run: false});
    try {
      const table = {columns: {device: 'text', seq: 'int', payload: 'text'}, partitionKey: ['device'], clustering: ['seq']};
      // 4 devices with 1 to 9 events, payloads of 3 to 14 bytes.
      const rows = [];
      for (const [device, n] of [['dev-a', 9], ['dev-b', 1], ['dev-c', 4], ['dev-d', 6]]) {
        for (let seq = 0; seq < n; seq++) rows.push({device, seq, payload: `p${'x'.repeat((seq * 5 + device.length) % 12)}ok`});
      }
      const file = join(dir, 'events.csv');
      writeFileSync(file, ['device,seq,payload', ...rows.map((r) => `${r.device},${r.seq},${r.payload}`)].join('\n') + '\n');
      const schema = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n" +
        'CREATE TABLE iot.events (device text, seq int, payload text, PRIMARY KEY (device, seq));\n';
      assert.equal(await runScript(page, schema), 'ready');
      await page.selectOption(byTestId('cql-load-table'), 'iot.events');
      await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), file));
      assert.equal(await page.getAttribute(byTestId('cql-load-status'), 'data-rows'), String(rows.length));

      assert.equal(await sizeFromRows(page, 'iot.events'), 'ready');
      const parts = partitionsOf(table, rows);
      assert.deepEqual(parts.map((p) => [p.key, p.rows]), [['["dev-a"]', 9], ['["dev-d"]', 6], ['["dev-c"]', 4], ['["dev-b"]', 1]]);
      const m = await checkMeasured(page, 'iot.events', parts);
      assert.equal(Number(await value(page, 'sizing-rows')), m.meanRows);
      assert.equal(Number(await value(page, 'sizing-worst-rows')), m.maxRows);
      // The measured averages, to 2 decimals, as the form takes them.
      const round2 = (x) => Math.round(x * 100) / 100;
      const deviceAvg = parts.reduce((s, p) => s + Buffer.byteLength(JSON.parse(p.key)[0]), 0) / parts.length;
      const payloadAvg = rows.reduce((s, r) => s + bytesOf('text', r.payload), 0) / rows.length;
      assert.deepEqual(await avgFields(page), [['device', String(round2(deviceAvg))], ['payload', String(round2(payloadAvg))]]);
      // The largest partition is over none of the limits: the worst case is within them too.
      assert.ok(await page.isVisible(`${byTestId('sizing-result')} ${byTestId('sizing-case')}[data-case="worst_case"]`));
      assert.equal(await page.$$eval(`${byTestId('rows-sizing-result')} ${byTestId('data-threshold')}`,
        (lis) => lis.filter((li) => li.dataset.partitions !== '0').length), 0);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
