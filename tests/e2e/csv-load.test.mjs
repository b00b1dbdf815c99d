// The CSV choice of the Cassandra mode's bulk load (issue 15): a .csv file picks CSV and shows its
// options (header, delimiter, null text; quote, escape, timestamp format and columns under "More
// options"), the rows stream through the worker with progress and cancel, and land equal to
// `partplay cql`'s COPY ... FROM of the same file; bad rows are counted and listed with their
// line and column while the good ones load; the shop-load-csv example offers its CSV as a button.
// Screenshots of the panel at 1366x768 and 390 px. In Debian's Chromium against build/site, with
// build/native/partplay as the reference.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {TIMEOUT, byTestId, cqlAfter, cqlRuns, examplesDir, openCassandra, repo, resultsDir, runScript, useBrowser} from './harness.mjs';

useBrowser();

const CLI = join(repo, 'build', 'native', 'partplay');
const panel = byTestId('cassandra-view');
const status = byTestId('cql-load-status');

const SCHEMA = [
  "CREATE KEYSPACE IF NOT EXISTS iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
  'DROP TABLE IF EXISTS iot.readings;',
  'CREATE TABLE iot.readings (sensor text, at int, value int, note text, PRIMARY KEY (sensor, at));',
].join('\n');

/** `partplay cql` on a script next to the CSV: its output lines as JSON ({copy} or {columns, rows}). */
function cli(dir, script) {
  const file = join(dir, 'script.cql');
  writeFileSync(file, script);
  const out = execFileSync(CLI, ['cql', file], {encoding: 'utf8', maxBuffer: 1 << 28});
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

/** The rows of the page's result `index` as cqlsh text, and the CLI's rows as the same text. */
async function pageRows(page, index = 0) {
  return page.$$eval(byTestId('cql-result'), (items, i) => {
    const table = items[i]?.querySelector('table.cql-rows');
    if (!table) return null;
    const n = table.querySelectorAll('thead th[data-column]').length;
    return [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].slice(0, n).map((td) => td.textContent));
  }, index);
}
const cliRows = (answer) => answer.rows.map((row) => row.map((v) => (v === null ? 'null' : String(v))));

async function failuresOnScreen(page) {
  return page.$$eval(byTestId('cql-load-failure'), (lis) => lis.map((li) => ({
    line: Number(li.dataset.line), column: Number(li.dataset.column), text: li.textContent,
  })));
}

/**
 * A sensor CSV of `rows` records as `COPY iot.readings TO ... WITH HEADER = TRUE` writes it: the
 * columns in SELECT * order, quotes doubled, nulls empty.
 */
function sensorCsv(rows, sensors) {
  const lines = ['sensor,at,note,value'];
  for (let i = 0; i < rows; i++) {
    const note = i % 10 === 0 ? `"said ""hi"", twice"` : i % 10 === 1 ? 'plain' : '';
    lines.push(`s${i % sensors},${Math.floor(i / sensors)},${note},${(i * 7919) % 1000}`);
  }
  return lines.join('\n') + '\n';
}

describe('CSV in the bulk load', {timeout: 12 * TIMEOUT}, () => {
  test('a big CSV streams with progress and cancel, and loads the rows COPY FROM loads', {timeout: 6 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-csv-'));
    const {page, problems, close} = await openCassandra();
    try {
      const ROWS = 600_000;
      const SENSORS = 800;
      const file = join(dir, 'readings.csv');
      writeFileSync(file, sensorCsv(ROWS, SENSORS));
      assert.equal(await runScript(page, SCHEMA), 'ready');
      await page.selectOption(byTestId('cql-load-table'), 'iot.readings');
      assert.ok(await page.isHidden(byTestId('cql-csv-options')), 'JSON is chosen: no CSV options');

      // Cancelled half-way: the rows loaded so far stay.
      const before = await cqlRuns(page);
      await page.setInputFiles(byTestId('cql-load-input'), file);
      assert.ok(await page.isChecked(byTestId('cql-load-format-csv')), 'a .csv file is read as CSV');
      assert.ok(await page.isVisible(byTestId('cql-csv-options')), 'with its options shown');
      await page.waitForSelector(`${byTestId('cql-progress')}:not([hidden])`, {timeout: TIMEOUT});
      await page.click(byTestId('cql-load-cancel'));
      await page.waitForFunction(({selector, n}) => Number(document.querySelector(selector).dataset.cqlRuns) > n &&
        document.querySelector(selector).dataset.cqlPending === '0', {selector: panel, n: before}, {timeout: TIMEOUT});
      assert.match(await page.textContent(status), /cancelled/);

      // "Load it again": progress in bytes and rows, then every row.
      const runs = await cqlRuns(page);
      await page.click(byTestId('cql-load-again'));
      await page.waitForSelector(`${byTestId('cql-progress')}:not([hidden])`, {timeout: TIMEOUT});
      await page.waitForFunction(() => /Loading readings\.csv: [\d.]+ [KM]?B of [\d.]+ MB \([\d.]+%\) · [\d,]+ rows/
        .test(document.querySelector('#cql-progress-text').textContent), null, {timeout: TIMEOUT});
      await page.waitForFunction(({selector, n}) => Number(document.querySelector(selector).dataset.cqlRuns) > n &&
        document.querySelector(selector).dataset.cqlPending === '0', {selector: panel, n: runs}, {timeout: 4 * TIMEOUT});
      assert.equal(await page.$eval(panel, (node) => node.dataset.cqlState), 'ready');
      assert.equal(await page.getAttribute(status, 'data-rows'), String(ROWS));
      assert.equal(await page.getAttribute(status, 'data-failed'), '0');
      assert.ok(await page.isHidden(byTestId('cql-load-failures')), 'no failure listed');
      const load = await page.$$eval(`${byTestId('load-table')} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.rows)));
      assert.equal(load.reduce((a, b) => a + b, 0), 3 * ROWS, 'every row on its 3 replicas');

      // The same rows as partplay cql's COPY FROM of the same file.
      const queries = ["SELECT COUNT(*) FROM iot.readings;", "SELECT * FROM iot.readings WHERE sensor = 's7' LIMIT 150;",
                       "SELECT * FROM iot.readings WHERE sensor IN ('s0', 's799') AND at < 40;"];
      const native = cli(dir, `${SCHEMA}\nCOPY iot.readings FROM 'readings.csv' WITH HEADER = TRUE;\n` +
                         queries.join('\n'));
      assert.match(native[0].copy.message, new RegExp(`^${ROWS} rows imported`));
      assert.equal(await runScript(page, queries.join('\n')), 'ready');
      for (let i = 0; i < queries.length; i++) {
        assert.deepEqual(await pageRows(page, i), cliRows(native[i + 1]), queries[i]);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('bad rows are counted and listed with their line and column; the good ones load', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-csv-bad-'));
    const {page, problems, close} = await openCassandra({viewport: {width: 1366, height: 768}});
    try {
      // Semicolons, a NULL text, no header: chosen in the options. Four bad records.
      const csv = [
        's1;1;10;NULL',
        's1;2;twenty;x',           // not an int: line 2, column 6
        's1;3;30;"ok; quoted"',
        's2;1;5',                  // 3 fields for 4 columns
        's2;2;7;"fine"',
        's2;x;8;y',                // at: line 6, column 4
        's3;1;99999999999;z',      // out of int range
        's3;2;1;last',
      ].join('\n') + '\n';
      const file = join(dir, 'bad.csv');
      writeFileSync(file, csv);
      assert.equal(await runScript(page, SCHEMA), 'ready');
      await page.selectOption(byTestId('cql-load-table'), 'iot.readings');
      await page.check(byTestId('cql-load-format-csv'));
      await page.uncheck(byTestId('cql-csv-header'));
      await page.selectOption(byTestId('cql-csv-delimiter'), ';');
      await page.fill(byTestId('cql-csv-null'), 'NULL');
      await page.click(`${byTestId('cql-csv-more')} summary`);
      await page.fill(byTestId('cql-csv-columns'), 'sensor, at, value, note');
      assert.equal(await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), file)), 'ready');
      assert.equal(await page.getAttribute(status, 'data-rows'), '4');
      assert.equal(await page.getAttribute(status, 'data-failed'), '4');
      assert.match(await page.textContent(status), /Loaded 4 rows from bad\.csv \([\d,]+ B\) into iot\.readings .*4 rows failed, listed below\./);
      const failures = await failuresOnScreen(page);
      // Located as partplay cql locates them in COPY ... FROM of the same file.
      const native = cli(dir, `${SCHEMA}\nCOPY iot.readings (sensor, at, value, note) FROM 'bad.csv' WITH DELIMITER = ';' ` +
                         "AND NULL = 'NULL';\nSELECT * FROM iot.readings;");
      assert.match(native[0].copy.message, /^4 rows imported .*; 4 rows failed$/);
      assert.deepEqual(failures.map((f) => `bad.csv line ${f.line}, column ${f.column}${f.text.replace(/^line [\d,]+, column [\d,]+/, '')}`),
                       native[0].copy.failures);
      assert.deepEqual(failures.slice(0, 3).map((f) => [f.line, f.column]), [[2, 6], [4, 1], [6, 4]]);
      assert.equal(await runScript(page, 'SELECT * FROM iot.readings;'), 'ready');
      assert.deepEqual(await pageRows(page), cliRows(native[1]));

      mkdirSync(resultsDir, {recursive: true});
      await page.click(byTestId('cql-load-table'));
      await page.keyboard.press('Escape');
      await page.$eval(byTestId('cql-load'), (node) => node.scrollIntoView({block: 'start'}));
      await page.locator(byTestId('cql-load')).screenshot({path: join(resultsDir, 'csv-load-1366.png')});
      await page.setViewportSize({width: 390, height: 844});
      await page.$eval(byTestId('cql-load'), (node) => node.scrollIntoView({block: 'start'}));
      await page.locator(byTestId('cql-load')).screenshot({path: join(resultsDir, 'csv-load-390.png')});
      // Nothing of the panel is wider than the phone's screen.
      const overflow = await page.$eval(byTestId('cql-load'), (node) => node.scrollWidth - node.clientWidth);
      assert.ok(overflow <= 0, `the panel overflows by ${overflow} px`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('malformed CSV stops the load there; the rows and failures before it are shown', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-csv-stop-'));
    const {page, problems, close} = await openCassandra();
    try {
      const file = join(dir, 'open-quote.csv.gz');
      writeFileSync(file, gzipSync(Buffer.from('sensor,at,note,value\ns1,1,a,1\ns1,2,b,two\ns1,3,"never closed,3\ns1,4,d,4\n')));
      assert.equal(await runScript(page, SCHEMA), 'ready');
      await page.selectOption(byTestId('cql-load-table'), 'iot.readings');
      await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), file));
      assert.ok(await page.isChecked(byTestId('cql-load-format-csv')), 'a .csv.gz is CSV');
      const text = await page.textContent(status);
      assert.match(text, /line 4/, text);
      assert.equal(await page.getAttribute(status, 'data-rows'), '1', text);
      const failures = await failuresOnScreen(page);
      assert.deepEqual([failures[0].line, failures[0].column], [3, 8]);
      assert.ok(failures.some((f) => f.line === 4), JSON.stringify(failures));
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  // Issue 40, friction 8: a header in another order than the table's columns used to be read in
  // the table's order (every row failed on a type error); the header names the columns, as dsbulk
  // maps them, and a name the table does not have stops the load at the header.
  test('a header in its own order maps the fields by name, as dsbulk does', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-csv-header-'));
    const {page, problems, close} = await openCassandra();
    try {
      const file = join(dir, 'shuffled.csv');
      writeFileSync(file, 'value,note,sensor,at\n10,first,s1,1\n20,,s1,2\n30,third,s2,1\n');
      assert.equal(await runScript(page, SCHEMA), 'ready');
      await page.selectOption(byTestId('cql-load-table'), 'iot.readings');
      assert.ok(await page.isChecked(byTestId('cql-csv-header')), 'a header is expected by default');
      await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), file));
      assert.equal(await page.getAttribute(status, 'data-rows'), '3', await page.textContent(status));
      assert.equal(await page.getAttribute(status, 'data-failed'), '0');
      assert.equal(await runScript(page, 'SELECT sensor, at, note, value FROM iot.readings;'), 'ready');
      assert.deepEqual((await pageRows(page, 0)).map((r) => r.join('|')).sort(),
                       ['s1|1|first|10', 's1|2|null|20', 's2|1|third|30']);

      const wrong = join(dir, 'wrong.csv');
      writeFileSync(wrong, 'sensor,at,reading\ns9,1,5\n');
      await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), wrong));
      const failures = await failuresOnScreen(page);
      assert.deepEqual([failures[0]?.line, failures[0]?.column], [1, 11], JSON.stringify(failures));
      assert.match(failures[0].text, /the header names reading, which is not a column of iot\.readings/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('the shop-load-csv example: COPY FROM is refused on the page, its button loads the CSV', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      assert.equal(await cqlAfter(page, () => page.selectOption(byTestId('cql-example'), 'shop-load-csv')), 'ready');
      const copy = await page.$$eval(byTestId('cql-result'), (items) => items.map((li) => li.textContent)
        .find((t) => /COPY FROM reads a file/.test(t)));
      assert.match(copy ?? '', /load the CSV with the bulk load/);
      const button = byTestId('cql-load-example');
      assert.equal(await page.textContent(button), 'Load shop-orders.csv into shop.orders');
      assert.equal(await cqlAfter(page, () => page.click(button)), 'ready');
      assert.equal(await page.getAttribute(status, 'data-rows'), '4');
      assert.equal(await page.getAttribute(status, 'data-failed'), '0');
      assert.ok(await page.isChecked(byTestId('cql-load-format-csv')));
      // The example's queries ran over the table and its view: as partplay cql's run of the script.
      const cqlDir = join(examplesDir, 'cql');
      const native = execFileSync(CLI, ['cql', join(cqlDir, 'shop-load-csv.cql')], {encoding: 'utf8'})
        .trim().split('\n').map((l) => JSON.parse(l));
      const [orders, byStatus] = [await pageRows(page, 0), await pageRows(page, 1)];
      assert.equal(orders.length, native[1].rows.length);
      assert.deepEqual(orders.map((r) => r[0]), native[1].rows.map((r) => r[0]));
      assert.deepEqual(byStatus.map((r) => [r[0], r[1], Number(r[2])]), native[2].rows.map((r) => [r[0], r[1], Number(r[2])]));
      // Picking the dump example afterwards starts from a fresh session: its keyspace is created again.
      assert.equal(await cqlAfter(page, () => page.selectOption(byTestId('cql-example'), 'shop-describe-dump')), 'ready');
      assert.ok(await page.isHidden(button), 'that example loads no file');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
